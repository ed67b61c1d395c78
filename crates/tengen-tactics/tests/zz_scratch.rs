#[path = "common/sgf.rs"]
mod sgf;
use std::time::Instant;
use tengen_core::*;
use tengen_tactics::*;
#[test]
fn dbg() {
    let bytes = std::fs::read("/work/shared/data/fox_pro/Pro2.7z/Pro/1p/1530608028010001073.sgf").unwrap();
    let rec = sgf::parse(&String::from_utf8_lossy(&bytes)).unwrap();
    let size = BoardSize::square(19).unwrap();
    let mut b = Board::new(size);
    let mut t = [0f64; 6];
    let lim = Limits { max_nodes: 300, safe_liberties: 3, ..Limits::TACTICAL };
    let mut r = Reader::new(lim);
    for n in &rec.nodes {
        let Some((c, Some((x, y)))) = n.play else { continue };
        let p = size.point(x, y).unwrap();
        let s = Instant::now(); let _ = r.net(&b, p, c); t[0] += s.elapsed().as_secs_f64();
        let s = Instant::now(); let _ = self_atari(&b, p, c); t[1] += s.elapsed().as_secs_f64();
        let s = Instant::now(); let _ = dame_zumari(&b, p, c); t[2] += s.elapsed().as_secs_f64();
        let s = Instant::now(); let _ = ladders_after(&b, p, c); t[3] += s.elapsed().as_secs_f64();
        let s = Instant::now(); let _ = snapback(&b, p, c); t[4] += s.elapsed().as_secs_f64();
        b.play_unchecked(p, c);
    }
    let s = Instant::now();
    let g = { let mut g = Game::new(Preset::Chinese.rules(), size); for n in &rec.nodes { if let Some((c, Some((x,y)))) = n.play { g.play_as(c, Move::Play(size.point(x,y).unwrap())).unwrap(); } } g };
    let _ = name_moves(&g); t[5] = s.elapsed().as_secs_f64();
    eprintln!("net {:.1}ms self_atari {:.1} dame {:.1} ladders {:.1} snap {:.1} all {:.1}", t[0]*1e3, t[1]*1e3, t[2]*1e3, t[3]*1e3, t[4]*1e3, t[5]*1e3);
}
