//! The shipped value network judges as the trainer that made it did.
//!
//! `knowledge/value-probe.json` holds positions of held-out games and the
//! judgement the trainer's own copy of the network gave them (PyTorch,
//! `crates/tengen-train/accelerator/value.py`): both views, from Black's
//! side. tengen reads the boards back, finds the liberties itself, and
//! must give the same judgement: proof that the weights were folded, named
//! and laid out as tengen reads them, and that both read a position alike.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // tests fail loudly

use tengen_core::{Board, Color, Points};
use tengen_mcts::value::{ValueInput, ValueNetwork};

#[test]
fn the_shipped_value_network_judges_as_its_trainer_did() {
    let probe: serde_json::Value =
        serde_json::from_str(include_str!("../knowledge/value-probe.json")).unwrap();
    let positions = probe.as_array().unwrap();
    assert!(positions.len() >= 8, "{} probe positions", positions.len());
    let net = ValueNetwork::shipped().expect("the shipped network loads");
    for (k, p) in positions.iter().enumerate() {
        let rows: Vec<&str> = p["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r.as_str().unwrap())
            .collect();
        let board = Board::from_ascii(&rows.join("\n")).unwrap();
        let size = board.size();
        let width = i64::from(size.width());
        let point = |key: &str| {
            let i = p[key].as_i64().unwrap();
            (i >= 0)
                .then(|| size.point((i % width) as u32, (i / width) as u32))
                .flatten()
        };
        let mover = match p["mover"].as_str().unwrap() {
            "black" => Color::Black,
            _ => Color::White,
        };
        let komi = Points::halves((p["komi"].as_f64().unwrap() * 2.0).round() as i32);
        let input = ValueInput::new(
            &board,
            mover,
            &[point("last"), point("prev")],
            komi,
            p["area"].as_bool().unwrap(),
        );
        let judged = net.judge(&[&input]).pop().unwrap();
        let wins = p["black_wins"].as_f64().unwrap() as f32;
        let lead = p["black_lead"].as_f64().unwrap() as f32;
        assert!(
            (judged.black_wins - wins).abs() < 2e-3,
            "position {k}: Black wins {} here, {wins} for the trainer",
            judged.black_wins
        );
        assert!(
            (judged.black_lead - lead).abs() < 0.05,
            "position {k}: Black leads by {} here, {lead} for the trainer",
            judged.black_lead
        );
    }
}
