//! The analysis commands as GUIs send them and the lines they parse while
//! an engine thinks: Leela Zero's `lz-analyze` (Sabaki, Lizzie) and
//! KataGo's `kata-analyze`. Options read into [`AnalyzeOptions`]; every
//! move of one report goes on one line, each segment starting with `info`
//! and ending with its `pv` (Sabaki requires `pv` last); KataGo's
//! `ownership` follows the last segment. Running the search and timing
//! the reports is the engine's business, not this module's.

use crate::args::{move_text, parse_color, parse_move};
use crate::response::GtpError;
use std::fmt::Write;
use std::time::Duration;
use tengen_core::{BoardSize, Color, Move};

/// Which program's format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnalysisFormat {
    /// `lz-analyze`: winrate and prior as integers in 1/10000.
    Leela,
    /// `kata-analyze`: floats, with score and utility.
    KataGo,
}

/// A streaming analysis command: `lz-analyze`, `kata-analyze`, and the
/// `genmove_analyze` forms, which end by playing the move.
#[derive(Clone, Debug, PartialEq)]
pub struct AnalyzeRequest {
    /// The lines' format.
    pub format: AnalysisFormat,
    /// Whether a move is chosen and played at the end of the budget
    /// (`genmove_analyze`) rather than reports running until stopped.
    pub genmove: bool,
    /// What to analyse and report.
    pub options: AnalyzeOptions,
}

/// Whether an `avoid` or an `allow` clause.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClauseKind {
    /// The named moves are never chosen.
    Avoid,
    /// Only the named moves (and a pass) are chosen.
    Allow,
}

/// One `avoid`/`allow` clause: moves of `color` the search may not choose
/// down to `until_depth` (1: the root's moves only).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clause {
    /// Avoid the moves, or allow only them.
    pub kind: ClauseKind,
    /// The player whose moves are restricted.
    pub color: Color,
    /// The moves named, `pass` included when written.
    pub moves: Vec<Move>,
    /// The deepest level the clause holds at (at least 1).
    pub until_depth: u32,
}

/// The options of an analysis command.
#[derive(Clone, Debug, PartialEq)]
pub struct AnalyzeOptions {
    /// The player to analyse for (the player to move when not given).
    pub color: Option<Color>,
    /// Between two reports (`0`: only at the end).
    pub interval: Duration,
    /// Ownership after the moves (KataGo format only).
    pub ownership: bool,
    /// At most this many moves per report.
    pub max_moves: Option<usize>,
    /// Moves the search may not choose, in the order given.
    pub clauses: Vec<Clause>,
}

impl AnalyzeOptions {
    /// Reads `[color] [interval] [interval N] [ownership true|false]
    /// [maxmoves N] [minmoves N]` and any number of `avoid <color>
    /// <vertices> <untilDepth>` and `allow <color> <vertices> <untilDepth>`
    /// clauses (vertices of this board `size`), as Leela Zero and KataGo
    /// take them: the interval is in centiseconds; the vertices are
    /// separated by commas, `pass` and Leela Zero's rectangles (`A1:C3`)
    /// included; an untilDepth of 1 restricts the root's moves only.
    ///
    /// # Errors
    /// [`GtpError::Syntax`] for anything else, and for a second `allow`
    /// of one colour or an `allow` beside an `avoid` of a stone play for
    /// the same colour (the limits of KataGo and Leela Zero).
    pub fn parse(args: &[String], size: BoardSize) -> Result<AnalyzeOptions, GtpError> {
        let mut o = AnalyzeOptions {
            color: None,
            interval: Duration::ZERO,
            ownership: false,
            max_moves: None,
            clauses: Vec::new(),
        };
        let centis = |s: &str| -> Result<Duration, GtpError> {
            s.parse::<u64>()
                .map(|c| Duration::from_millis(c * 10))
                .map_err(|_| GtpError::Syntax)
        };
        let mut words = args.iter().map(String::as_str).peekable();
        if let Some(w) = words.peek()
            && let Ok(c) = parse_color(w)
        {
            o.color = Some(c);
            words.next();
        }
        if let Some(w) = words.peek()
            && w.bytes().all(|b| b.is_ascii_digit())
        {
            o.interval = centis(w)?;
            words.next();
        }
        while let Some(key) = words.next() {
            let kind = match key {
                "avoid" => Some(ClauseKind::Avoid),
                "allow" => Some(ClauseKind::Allow),
                _ => None,
            };
            if let Some(kind) = kind {
                let clause = read_clause(kind, &mut words, size)?;
                add_clause(&mut o.clauses, clause)?;
                continue;
            }
            let value = words.next().ok_or(GtpError::Syntax)?;
            match key {
                "interval" => o.interval = centis(value)?,
                "ownership" => o.ownership = value == "true",
                "maxmoves" => o.max_moves = Some(value.parse().map_err(|_| GtpError::Syntax)?),
                "minmoves" => {
                    value.parse::<usize>().map_err(|_| GtpError::Syntax)?;
                }
                _ => return Err(GtpError::Syntax),
            }
        }
        Ok(o)
    }
}

/// The three words after `avoid` or `allow`: a colour, the vertices, the
/// depth (at least 1).
fn read_clause<'a>(
    kind: ClauseKind,
    words: &mut impl Iterator<Item = &'a str>,
    size: BoardSize,
) -> Result<Clause, GtpError> {
    let color = words
        .next()
        .and_then(|w| parse_color(w).ok())
        .ok_or(GtpError::Syntax)?;
    let list = words.next().ok_or(GtpError::Syntax)?;
    let until_depth = words
        .next()
        .and_then(|w| w.parse::<u32>().ok())
        .filter(|&d| d >= 1)
        .ok_or(GtpError::Syntax)?;
    let mut moves = Vec::new();
    for item in list.split(',') {
        moves.extend(list_item(item, size)?);
    }
    Ok(Clause {
        kind,
        color,
        moves,
        until_depth,
    })
}

/// One item of a vertex list: a vertex, `pass`, or the rectangle between
/// two corners (`A1:C3`).
fn list_item(item: &str, size: BoardSize) -> Result<Vec<Move>, GtpError> {
    let Some((a, b)) = item.split_once(':') else {
        return parse_move(item, size)
            .map(|m| vec![m])
            .map_err(|_| GtpError::Syntax);
    };
    let corner = |text: &str| match parse_move(text, size) {
        Ok(Move::Play(p)) => Ok(size.xy(p)),
        _ => Err(GtpError::Syntax),
    };
    let ((x0, y0), (x1, y1)) = (corner(a)?, corner(b)?);
    Ok((x0.min(x1)..=x0.max(x1))
        .flat_map(|x| (y0.min(y1)..=y0.max(y1)).filter_map(move |y| size.point(x, y)))
        .map(Move::Play)
        .collect())
}

/// Adds a clause, refusing a second `allow` for one colour (KataGo takes
/// one) and an `allow` beside an `avoid` of a stone play for one colour
/// (Leela Zero refuses it: the allow already forbids every other point).
fn add_clause(clauses: &mut Vec<Clause>, clause: Clause) -> Result<(), GtpError> {
    let plays = |c: &Clause| c.moves.iter().any(|m| *m != Move::Pass);
    let clash =
        clauses
            .iter()
            .filter(|c| c.color == clause.color)
            .any(|c| match (c.kind, clause.kind) {
                (ClauseKind::Allow, ClauseKind::Allow) => true,
                (ClauseKind::Allow, ClauseKind::Avoid) => plays(&clause),
                (ClauseKind::Avoid, ClauseKind::Allow) => plays(c),
                (ClauseKind::Avoid, ClauseKind::Avoid) => false,
            });
    if clash {
        return Err(GtpError::Syntax);
    }
    clauses.push(clause);
    Ok(())
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

    fn mv(text: &str, size: BoardSize) -> Move {
        parse_move(text, size).unwrap()
    }

    fn parse(line: &str) -> Result<AnalyzeOptions, GtpError> {
        let words: Vec<String> = line.split_whitespace().map(str::to_string).collect();
        AnalyzeOptions::parse(&words, BoardSize::STANDARD)
    }

    fn mv19(text: &str) -> Move {
        mv(text, BoardSize::STANDARD)
    }

    #[test]
    fn options_as_sabaki_lizzie_and_katago_send_them() {
        let o = parse("b 50").unwrap();
        assert_eq!(o.color, Some(Color::Black));
        assert_eq!(o.interval, Duration::from_millis(500));
        assert!(o.clauses.is_empty());
        let o = parse("10").unwrap();
        assert_eq!((o.color, o.interval), (None, Duration::from_millis(100)));
        let o = parse("W interval 20 ownership true maxmoves 3").unwrap();
        assert_eq!(o.color, Some(Color::White));
        assert!(o.ownership);
        assert_eq!(o.max_moves, Some(3));
        assert_eq!(parse("b 10 bogus 1"), Err(GtpError::Syntax));
        assert_eq!(parse("b 10 ownership"), Err(GtpError::Syntax));
    }

    #[test]
    fn avoid_and_allow_clauses_read_as_leela_zero_and_katago_send_them() {
        let o = parse("b 10 avoid b D4,q16,pass 1 avoid w K10 3 interval 20").unwrap();
        assert_eq!(o.interval, Duration::from_millis(200));
        let c = &o.clauses;
        assert_eq!(c.len(), 2);
        assert_eq!(c[0].kind, ClauseKind::Avoid);
        assert_eq!(c[0].color, Color::Black);
        assert_eq!(c[0].moves, [mv19("D4"), mv19("Q16"), Move::Pass]);
        assert_eq!(c[0].until_depth, 1);
        assert_eq!((c[1].color, c[1].until_depth), (Color::White, 3));
        let o = parse("allow white A1:B2 2 allow b T19 1").unwrap();
        let c = &o.clauses;
        assert_eq!(c[0].kind, ClauseKind::Allow);
        assert_eq!(c[0].moves.len(), 4);
        for v in ["A1", "A2", "B1", "B2"] {
            assert!(c[0].moves.contains(&mv19(v)), "{v}");
        }
        assert_eq!(c[1].moves, [mv19("T19")]);
        // An allow beside an avoid of a pass only.
        assert!(parse("allow b D4 1 avoid b pass 1").is_ok());
    }

    #[test]
    fn malformed_clauses_are_syntax_errors() {
        for line in [
            "b 10 avoid",
            "b 10 avoid b",
            "b 10 avoid b D4",
            "b 10 avoid b D4 0",
            "b 10 avoid b D4 -1",
            "b 10 avoid b D4 x",
            "b 10 avoid red D4 1",
            "b 10 avoid b Z99 1",
            "b 10 avoid b D4,,E5 1",
            "b 10 avoid b D4:pass 1",
            "b 10 allow b D4 1 allow b E5 1",
            "b 10 allow b D4 1 avoid b E5 1",
            "b 10 avoid b E5 1 allow b D4 1",
        ] {
            assert_eq!(parse(line), Err(GtpError::Syntax), "{line}");
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
