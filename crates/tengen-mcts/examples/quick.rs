use std::time::Instant;
use tengen_core::{Board, BoardSize, Color, Points};
fn main() {
    for size in [9u32, 19] {
        let board = Board::new(BoardSize::square(size).unwrap());
        let n = if size == 9 { 200_000 } else { 40_000 };
        let t = Instant::now();
        let s =
            tengen_mcts::light_playout::run_from(&board, Color::Black, n, Points::halves(15), 1);
        let dt = t.elapsed().as_secs_f64();
        println!(
            "size={size} playouts={} per_s={:.0} mean_moves={:.3}±{:.3} black_wins={:.4}",
            s.playouts,
            n as f64 / dt,
            s.mean_moves(),
            s.mean_moves_error(),
            s.black_win_rate()
        );
    }
}
