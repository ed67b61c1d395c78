//! The analysis lines GUIs parse while an engine thinks: Leela Zero's
//! `lz-analyze` (Sabaki, Lizzie) and KataGo's `kata-analyze`. Every move of
//! one report goes on one line, each segment starting with `info` and
//! ending with its `pv` (Sabaki requires `pv` last); KataGo's `ownership`
//! follows the last segment.

use crate::args::move_text;
use std::fmt::Write;
use tengen_core::{BoardSize, Move};

/// Which program's format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnalysisFormat {
    /// `lz-analyze`: winrate and prior as integers in 1/10000.
    Leela,
    /// `kata-analyze`: floats, with score and utility.
    KataGo,
}

/// One candidate move of a report, from the view of the player to move.
#[derive(Clone, Debug, PartialEq)]
pub struct InfoMove {
    /// The move.
    pub mv: Move,
    /// Playouts through it.
    pub visits: u64,
    /// Winning probability, 0 to 1.
    pub winrate: f64,
    /// Prior probability, 0 to 1.
    pub prior: f64,
    /// Expected lead in points.
    pub score_lead: f64,
    /// Its rank, 0 for the best.
    pub order: usize,
    /// The principal variation, starting with the move itself.
    pub pv: Vec<Move>,
}

/// One report line (without its newline). `ownership`, in the order of
/// `size.points()` (row by row from the top left, as KataGo writes it) and
/// from the view of the player to move, is written in the KataGo format
/// only.
pub fn info_line(
    format: AnalysisFormat,
    size: BoardSize,
    moves: &[InfoMove],
    ownership: Option<&[f32]>,
) -> String {
    let mut line = String::new();
    for m in moves {
        if !line.is_empty() {
            line.push(' ');
        }
        let mv = move_text(m.mv, size);
        // Writing to a String cannot fail.
        let _ = match format {
            AnalysisFormat::Leela => write!(
                line,
                "info move {mv} visits {} winrate {} prior {} order {}",
                m.visits,
                per_ten_thousand(m.winrate),
                per_ten_thousand(m.prior),
                m.order
            ),
            AnalysisFormat::KataGo => write!(
                line,
                "info move {mv} visits {} utility {:.6} winrate {:.6} scoreMean {:.3} scoreLead {:.3} prior {:.6} order {}",
                m.visits,
                2.0 * m.winrate - 1.0,
                m.winrate,
                m.score_lead,
                m.score_lead,
                m.prior,
                m.order
            ),
        };
        line.push_str(" pv");
        for &p in &m.pv {
            line.push(' ');
            line.push_str(&move_text(p, size));
        }
    }
    if let (AnalysisFormat::KataGo, Some(own)) = (format, ownership) {
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str("ownership");
        for v in own {
            let _ = write!(line, " {v:.4}");
        }
    }
    line
}

/// A probability as Leela Zero writes it: an integer in 1/10000.
fn per_ten_thousand(p: f64) -> i64 {
    (p.clamp(0.0, 1.0) * 10000.0).round() as i64
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_core::Vertex;

    fn mv(text: &str, size: BoardSize) -> Move {
        match Vertex::parse(text, size).unwrap() {
            Vertex::Point(p) => Move::Play(p),
            Vertex::Pass => Move::Pass,
        }
    }

    fn sample(size: BoardSize) -> Vec<InfoMove> {
        vec![
            InfoMove {
                mv: mv("E5", size),
                visits: 120,
                winrate: 0.5612,
                prior: 0.25,
                score_lead: 3.25,
                order: 0,
                pv: vec![mv("E5", size), mv("C3", size), Move::Pass],
            },
            InfoMove {
                mv: mv("C3", size),
                visits: 7,
                winrate: 0.4,
                prior: 0.01234,
                score_lead: -1.0,
                order: 1,
                pv: vec![mv("C3", size)],
            },
        ]
    }

    #[test]
    fn leela_format() {
        let size = BoardSize::square(9).unwrap();
        assert_eq!(
            info_line(AnalysisFormat::Leela, size, &sample(size), Some(&[0.5; 81])),
            "info move E5 visits 120 winrate 5612 prior 2500 order 0 pv E5 C3 pass \
             info move C3 visits 7 winrate 4000 prior 123 order 1 pv C3"
        );
    }

    #[test]
    fn katago_format_with_ownership_last() {
        let size = BoardSize::square(9).unwrap();
        let mut own = vec![0.0f32; 81];
        own[..3].copy_from_slice(&[1.0, -1.0, 0.25]);
        let line = info_line(AnalysisFormat::KataGo, size, &sample(size)[1..], Some(&own));
        assert!(
            line.starts_with("info move C3 visits 7 utility -0.200000 winrate 0.400000 "),
            "{line}"
        );
        assert!(line.contains(" scoreLead -1.000 prior 0.012340 order 1 pv C3 ownership 1.0000 -1.0000 0.2500 0.0000"), "{line}");
        let (_, values) = line.split_once(" ownership ").unwrap();
        assert_eq!(values.split(' ').count(), 81);
    }
}
