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
    /// Ownership after the moves (KataGo format only, as are the next six).
    pub ownership: bool,
    /// The spread of the ownership (`ownershipStdev`).
    pub ownership_stdev: bool,
    /// Each move's own ownership (`movesOwnership`).
    pub moves_ownership: bool,
    /// The spread of each move's ownership (`movesOwnershipStdev`).
    pub moves_ownership_stdev: bool,
    /// The visits of each move of a principal variation (`pvVisits`).
    pub pv_visits: bool,
    /// The visits of each edge of a principal variation (`pvEdgeVisits`):
    /// a tree reaches each position by one edge, so they are `pvVisits`.
    pub pv_edge_visits: bool,
    /// A `rootInfo` segment on the position itself (`rootInfo`).
    pub root_info: bool,
    /// At most this many moves per report.
    pub max_moves: Option<usize>,
    /// Moves the search may not choose, in the order given.
    pub clauses: Vec<Clause>,
}

impl AnalyzeOptions {
    /// Reads `[color] [interval] [interval N] [maxmoves N] [minmoves N]`,
    /// KataGo's `ownership`, `ownershipStdev`, `movesOwnership`,
    /// `movesOwnershipStdev`, `pvVisits`, `pvEdgeVisits` and `rootInfo`
    /// (each `true` or `false`) and any number of `avoid <color>
    /// <vertices> <untilDepth>` and `allow <color> <vertices> <untilDepth>`
    /// clauses (vertices of this board `size`), as Leela Zero and KataGo
    /// take them: the interval is in centiseconds; the vertices are
    /// separated by commas, `pass` and Leela Zero's rectangles (`A1:C3`)
    /// included; an untilDepth of 1 restricts the root's moves only.
    ///
    /// # Errors
    /// An error naming an unknown option or a flag that is not `true` or
    /// `false`; [`GtpError::Syntax`] for a malformed value, a second
    /// `allow` of one colour or an `allow` beside an `avoid` of a stone
    /// play for the same colour (the limits of KataGo and Leela Zero).
    pub fn parse(args: &[String], size: BoardSize) -> Result<AnalyzeOptions, GtpError> {
        let mut o = AnalyzeOptions {
            color: None,
            interval: Duration::ZERO,
            ownership: false,
            ownership_stdev: false,
            moves_ownership: false,
            moves_ownership_stdev: false,
            pv_visits: false,
            pv_edge_visits: false,
            root_info: false,
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
            let flag = match key {
                "ownership" => Some(&mut o.ownership),
                "ownershipStdev" => Some(&mut o.ownership_stdev),
                "movesOwnership" => Some(&mut o.moves_ownership),
                "movesOwnershipStdev" => Some(&mut o.moves_ownership_stdev),
                "pvVisits" => Some(&mut o.pv_visits),
                "pvEdgeVisits" => Some(&mut o.pv_edge_visits),
                "rootInfo" => Some(&mut o.root_info),
                "interval" | "maxmoves" | "minmoves" => None,
                _ => return Err(GtpError::Other(format!("unknown analysis option {key:?}"))),
            };
            let value = words.next().ok_or(GtpError::Syntax)?;
            if let Some(flag) = flag {
                *flag = match value {
                    "true" => true,
                    "false" => false,
                    _ => {
                        return Err(GtpError::Other(format!(
                            "analysis option {key:?} takes true or false, not {value:?}"
                        )));
                    }
                };
                continue;
            }
            match key {
                "interval" => o.interval = centis(value)?,
                "maxmoves" => o.max_moves = Some(value.parse().map_err(|_| GtpError::Syntax)?),
                _ => {
                    value.parse::<usize>().map_err(|_| GtpError::Syntax)?;
                }
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
    /// A lower confidence bound of the winning probability.
    pub lcb: f64,
    /// Prior probability, 0 to 1.
    pub prior: f64,
    /// Expected lead in points.
    pub score_lead: f64,
    /// The spread of the final margin, in points.
    pub score_stdev: f64,
    /// Its rank, 0 for the best.
    pub order: usize,
    /// The principal variation, starting with the move itself.
    pub pv: Vec<Move>,
    /// The playouts through each move of `pv`.
    pub pv_visits: Vec<u64>,
    /// Ownership after this move, and its spread (as [`Report::ownership`]),
    /// when gathered.
    pub ownership: Option<(Vec<f32>, Vec<f32>)>,
}

/// The position itself, for KataGo's `rootInfo`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RootInfo {
    /// Playouts in the tree.
    pub visits: u64,
    /// Winning probability of the player to move.
    pub winrate: f64,
    /// Expected lead of the player to move, in points.
    pub score_lead: f64,
    /// The spread of the final margin, in points.
    pub score_stdev: f64,
}

/// What one report line says.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// The candidates, best first.
    pub moves: Vec<InfoMove>,
    /// The position itself.
    pub root: RootInfo,
    /// Ownership in the order of `size.points()` (row by row from the top
    /// left, as KataGo writes it), from the view of the player to move.
    pub ownership: Vec<f32>,
    /// Its spread, in the same order.
    pub ownership_stdev: Vec<f32>,
}

/// One report line (without its newline), with the parts `options` asks
/// for; KataGo's extra parts in the KataGo format only. Every `info`
/// segment keeps its fields before `pv`, the lists that KataGo writes
/// after it only when asked for.
pub fn info_line(
    format: AnalysisFormat,
    size: BoardSize,
    report: &Report,
    options: &AnalyzeOptions,
) -> String {
    let mut line = String::new();
    let kata = format == AnalysisFormat::KataGo;
    for m in &report.moves {
        if !line.is_empty() {
            line.push(' ');
        }
        let mv = move_text(m.mv, size);
        // Writing to a String cannot fail.
        let _ = match format {
            AnalysisFormat::Leela => write!(
                line,
                "info move {mv} visits {} winrate {} prior {} lcb {} order {}",
                m.visits,
                per_ten_thousand(m.winrate),
                per_ten_thousand(m.prior),
                per_ten_thousand(m.lcb),
                m.order
            ),
            AnalysisFormat::KataGo => write!(
                line,
                "info move {mv} visits {} utility {:.6} winrate {:.6} scoreMean {:.3} scoreStdev {:.3} scoreLead {:.3} prior {:.6} lcb {:.6} utilityLcb {:.6} order {}",
                m.visits,
                2.0 * m.winrate - 1.0,
                m.winrate,
                m.score_lead,
                m.score_stdev,
                m.score_lead,
                m.prior,
                m.lcb,
                2.0 * m.lcb - 1.0,
                m.order
            ),
        };
        line.push_str(" pv");
        for &p in &m.pv {
            line.push(' ');
            line.push_str(&move_text(p, size));
        }
        if !kata {
            continue;
        }
        for (asked, key) in [
            (options.pv_visits, "pvVisits"),
            (options.pv_edge_visits, "pvEdgeVisits"),
        ] {
            if asked {
                line.push_str(&format!(" {key}"));
                for n in &m.pv_visits {
                    let _ = write!(line, " {n}");
                }
            }
        }
        if let Some((mean, stdev)) = &m.ownership {
            if options.moves_ownership {
                push_values(&mut line, "movesOwnership", mean);
            }
            if options.moves_ownership_stdev {
                push_values(&mut line, "movesOwnershipStdev", stdev);
            }
        }
    }
    if !kata {
        return line;
    }
    if options.root_info {
        let r = report.root;
        let _ = write!(
            line,
            "{}rootInfo visits {} utility {:.6} winrate {:.6} scoreMean {:.3} scoreStdev {:.3} scoreLead {:.3}",
            if line.is_empty() { "" } else { " " },
            r.visits,
            2.0 * r.winrate - 1.0,
            r.winrate,
            r.score_lead,
            r.score_stdev,
            r.score_lead
        );
    }
    if options.ownership {
        push_values(&mut line, "ownership", &report.ownership);
    }
    if options.ownership_stdev {
        push_values(&mut line, "ownershipStdev", &report.ownership_stdev);
    }
    line
}

/// ` key v v v ...` (no leading space on an empty line).
fn push_values(line: &mut String, key: &str, values: &[f32]) {
    if !line.is_empty() {
        line.push(' ');
    }
    line.push_str(key);
    for v in values {
        let _ = write!(line, " {v:.4}");
    }
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
                lcb: 0.5,
                prior: 0.25,
                score_lead: 3.25,
                score_stdev: 9.5,
                order: 0,
                pv: vec![mv("E5", size), mv("C3", size), Move::Pass],
                pv_visits: vec![120, 60, 2],
                ownership: None,
            },
            InfoMove {
                mv: mv("C3", size),
                visits: 7,
                winrate: 0.4,
                lcb: 0.1,
                prior: 0.01234,
                score_lead: -1.0,
                score_stdev: 2.0,
                order: 1,
                pv: vec![mv("C3", size)],
                pv_visits: vec![7],
                ownership: Some((vec![0.5; 81], vec![0.25; 81])),
            },
        ]
    }

    fn report(moves: Vec<InfoMove>, ownership: Vec<f32>) -> Report {
        Report {
            moves,
            root: RootInfo {
                visits: 130,
                winrate: 0.55,
                score_lead: 3.0,
                score_stdev: 9.0,
            },
            ownership_stdev: vec![0.125; ownership.len()],
            ownership,
        }
    }

    fn options(line: &str) -> AnalyzeOptions {
        let words: Vec<String> = line.split_whitespace().map(str::to_string).collect();
        AnalyzeOptions::parse(&words, BoardSize::square(9).unwrap()).unwrap()
    }

    #[test]
    fn leela_format() {
        let size = BoardSize::square(9).unwrap();
        let all = options("b 10 ownership true pvVisits true rootInfo true");
        assert_eq!(
            info_line(
                AnalysisFormat::Leela,
                size,
                &report(sample(size), vec![0.5; 81]),
                &all
            ),
            "info move E5 visits 120 winrate 5612 prior 2500 lcb 5000 order 0 pv E5 C3 pass \
             info move C3 visits 7 winrate 4000 prior 123 lcb 1000 order 1 pv C3"
        );
    }

    #[test]
    fn katago_format_with_ownership_last() {
        let size = BoardSize::square(9).unwrap();
        let mut own = vec![0.0f32; 81];
        own[..3].copy_from_slice(&[1.0, -1.0, 0.25]);
        let line = info_line(
            AnalysisFormat::KataGo,
            size,
            &report(sample(size)[1..].to_vec(), own),
            &options("ownership true"),
        );
        assert!(
            line.starts_with("info move C3 visits 7 utility -0.200000 winrate 0.400000 scoreMean -1.000 scoreStdev 2.000 "),
            "{line}"
        );
        assert!(line.contains(" scoreLead -1.000 prior 0.012340 lcb 0.100000 utilityLcb -0.800000 order 1 pv C3 ownership 1.0000 -1.0000 0.2500 0.0000"), "{line}");
        let (_, values) = line.split_once(" ownership ").unwrap();
        assert_eq!(values.split(' ').count(), 81);
    }

    /// KataGo's extra outputs, each where KataGo writes it: the lists of a
    /// move after its `pv`, then `rootInfo`, `ownership`, `ownershipStdev`.
    #[test]
    fn katago_extra_outputs() {
        let size = BoardSize::square(9).unwrap();
        let o = options(
            "w interval 10 pvVisits true pvEdgeVisits true movesOwnership true movesOwnershipStdev true rootInfo true ownership true ownershipStdev true",
        );
        assert!(o.pv_visits && o.pv_edge_visits && o.root_info);
        assert!(o.moves_ownership && o.moves_ownership_stdev && o.ownership_stdev);
        let line = info_line(
            AnalysisFormat::KataGo,
            size,
            &report(sample(size), vec![0.0; 81]),
            &o,
        );
        assert!(
            line.contains(" pv E5 C3 pass pvVisits 120 60 2 pvEdgeVisits 120 60 2 info move C3 "),
            "{line}"
        );
        let (_, after) = line
            .split_once(" pv C3 pvVisits 7 pvEdgeVisits 7 movesOwnership ")
            .unwrap();
        let (moves_own, after) = after.split_once(" movesOwnershipStdev ").unwrap();
        assert_eq!(moves_own.split(' ').count(), 81);
        let (moves_stdev, after) = after.split_once(" rootInfo ").unwrap();
        assert_eq!(moves_stdev.split(' ').count(), 81);
        assert!(after.starts_with("visits 130 utility 0.100000 winrate 0.550000 scoreMean 3.000 scoreStdev 9.000 scoreLead 3.000 ownership "), "{after}");
        let (_, stdev) = after.split_once(" ownershipStdev ").unwrap();
        assert_eq!(stdev.split(' ').count(), 81);
        assert!(stdev.split(' ').all(|v| v == "0.1250"));
    }

    #[test]
    fn unknown_options_are_named() {
        assert_eq!(
            parse("b 10 bogus 1"),
            Err(GtpError::Other("unknown analysis option \"bogus\"".into()))
        );
        assert_eq!(
            parse("b 10 pvVisits yes"),
            Err(GtpError::Other(
                "analysis option \"pvVisits\" takes true or false, not \"yes\"".into()
            ))
        );
        assert_eq!(parse("b 10 ownership"), Err(GtpError::Syntax));
        assert_eq!(parse("b 10 interval x"), Err(GtpError::Syntax));
    }
}
