//! The streaming analysis commands: `lz-analyze`, `kata-analyze`,
//! `lz-genmove_analyze`, `kata-genmove_analyze`. The response opens with
//! `=id`, then one line of `info` segments every interval; `analyze` runs
//! until `stop` is set (the next input line), `genmove_analyze` until its
//! budget is spent and ends with `play <vertex>`.

use crate::session::{Commit, Session};
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};
use tengen_core::{BoardSize, Color, Move, Phase};
use tengen_gtp::analysis::info_line;
use tengen_gtp::args::{parse_color, parse_move};
use tengen_gtp::response::{STREAM_END, stream_start};
use tengen_gtp::{AnalysisFormat, Command, GtpError, InfoMove, Response};
use tengen_mcts::{Analysis, Limit, Request};
use tengen_mcts::{Restriction, RestrictionKind, Restrictions};

/// Simulations after which an open-ended analysis stops growing its tree
/// (memory bound); the response stays open until the next input line.
pub const ANALYSIS_MAX_PLAYOUTS: u64 = 5_000_000;

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
    /// Moves the search may not choose (`avoid` and `allow` clauses).
    pub restrictions: Restrictions,
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
            restrictions: Restrictions::NONE,
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
                "avoid" => Some(RestrictionKind::Avoid),
                "allow" => Some(RestrictionKind::Allow),
                _ => None,
            };
            if let Some(kind) = kind {
                let clause = read_clause(kind, &mut words, size)?;
                add_clause(&mut o.restrictions, clause)?;
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
    kind: RestrictionKind,
    words: &mut impl Iterator<Item = &'a str>,
    size: BoardSize,
) -> Result<Restriction, GtpError> {
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
    Ok(Restriction {
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
fn add_clause(restrictions: &mut Restrictions, clause: Restriction) -> Result<(), GtpError> {
    let plays = |c: &Restriction| c.moves.iter().any(|m| *m != Move::Pass);
    let clash = restrictions
        .clauses
        .iter()
        .filter(|c| c.color == clause.color)
        .any(|c| match (c.kind, clause.kind) {
            (RestrictionKind::Allow, RestrictionKind::Allow) => true,
            (RestrictionKind::Allow, RestrictionKind::Avoid) => plays(&clause),
            (RestrictionKind::Avoid, RestrictionKind::Allow) => plays(c),
            (RestrictionKind::Avoid, RestrictionKind::Avoid) => false,
        });
    if clash {
        return Err(GtpError::Syntax);
    }
    restrictions.clauses.push(clause);
    Ok(())
}

/// Whether an analysis runs until stopped or for the move's budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Until {
    /// Until the stop flag is set (the next input line).
    Stopped,
    /// For the budget of one move.
    Budget,
}

/// One report line of `analysis` in `format`, from the view of the player
/// to move.
pub fn report_line(
    format: AnalysisFormat,
    analysis: &Analysis,
    size: tengen_core::BoardSize,
    options: &AnalyzeOptions,
) -> String {
    let moves: Vec<InfoMove> = analysis
        .candidates
        .iter()
        .filter(|c| c.visits > 0)
        .take(options.max_moves.unwrap_or(usize::MAX))
        .enumerate()
        .map(|(order, c)| InfoMove {
            mv: c.mv,
            visits: c.visits,
            winrate: c.winrate,
            prior: c.prior,
            score_lead: c.score_lead,
            order,
            pv: c.pv.clone(),
        })
        .collect();
    let sign = match analysis.to_move {
        Color::Black => 1.0,
        Color::White => -1.0,
    };
    let ownership: Vec<f32> = analysis.ownership.iter().map(|v| v * sign).collect();
    info_line(
        format,
        size,
        &moves,
        options.ownership.then_some(ownership.as_slice()),
    )
}

impl Session {
    /// Runs a streaming command on the wire: `=id`, its lines until `stop`
    /// is set (or, for `genmove_analyze`, to the move), the empty line; or
    /// the failure response when its options do not read.
    pub(crate) fn stream(
        &mut self,
        cmd: &Command,
        out: &mut dyn Write,
        stop: &AtomicBool,
    ) -> io::Result<()> {
        match AnalyzeOptions::parse(&cmd.args, self.game.size()) {
            Err(e) => write!(out, "{}", Response::failure(cmd.id, e))?,
            Ok(options) => {
                out.write_all(stream_start(cmd.id).as_bytes())?;
                out.flush()?;
                self.stream_lines(cmd, &options, out, stop, Until::Stopped)?;
                out.write_all(STREAM_END.as_bytes())?;
            }
        }
        out.flush()
    }

    /// The lines of a streaming command. `Until::Stopped` keeps an
    /// analysis open until `stop` is set.
    pub(crate) fn stream_lines(
        &mut self,
        cmd: &Command,
        options: &AnalyzeOptions,
        out: &mut dyn Write,
        stop: &AtomicBool,
        until: Until,
    ) -> io::Result<()> {
        let format = if cmd.name.starts_with("kata-") {
            AnalysisFormat::KataGo
        } else {
            AnalysisFormat::Leela
        };
        let genmove = cmd.name.ends_with("genmove_analyze");
        let color = options.color.unwrap_or(self.game.to_move());
        let game = self.position_for(color);
        let size = game.size();
        let limit = match (genmove, until) {
            (true, _) | (false, Until::Budget) => self.limit_for(color, &game),
            (false, Until::Stopped) => Limit::playouts(ANALYSIS_MAX_PLAYOUTS),
        };
        let never = AtomicBool::new(false);
        let stop_search = if genmove { &never } else { stop };
        let mut failed: Option<io::Error> = None;
        let mut write_line = |a: &Analysis, out: &mut dyn Write| {
            if failed.is_some() || a.candidates.is_empty() {
                return;
            }
            let line = report_line(format, a, size, options);
            if let Err(e) = writeln!(out, "{line}").and_then(|_| out.flush()) {
                failed = Some(e);
            }
        };
        let started = Instant::now();
        let last = if game.phase() == Phase::Playing {
            let mut report = |a: &Analysis| write_line(a, out);
            let reporting = (!options.interval.is_zero())
                .then_some((options.interval, &mut report as &mut dyn FnMut(&Analysis)));
            let request = Request {
                restrictions: &options.restrictions,
                stop: Some(stop_search),
                report: reporting,
                ..Request::new(limit)
            };
            Some(self.search.analyze(&game, request))
        } else {
            None
        };
        self.thinking += started.elapsed();
        if let Some(a) = &last {
            write_line(a, out);
        }
        if let Some(e) = failed {
            return Err(e);
        }
        if genmove {
            let decision = if game.phase() == Phase::Playing {
                // The tree just grown is reused: one more simulation, and
                // the decision (resignation, cleanup) is the search's own.
                let request = Request {
                    restrictions: &options.restrictions,
                    ..Request::new(Limit::playouts(1))
                };
                self.search.genmove(&game, request).0
            } else {
                tengen_mcts::Decision::Move(tengen_core::Move::Pass)
            };
            let played = self.commit(color, decision, started.elapsed(), Commit::Play);
            let text = played.unwrap_or_else(|e| e.to_string());
            writeln!(out, "play {text}")?;
        } else if until == Until::Stopped {
            while !stop.load(Ordering::Acquire) {
                thread::sleep(Duration::from_millis(5));
            }
        }
        out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::words;

    fn parse(line: &str) -> Result<AnalyzeOptions, GtpError> {
        AnalyzeOptions::parse(&words(line), BoardSize::STANDARD)
    }

    fn mv(text: &str) -> Move {
        parse_move(text, BoardSize::STANDARD).unwrap()
    }

    #[test]
    fn options_as_sabaki_lizzie_and_katago_send_them() {
        let o = parse("b 50").unwrap();
        assert_eq!(o.color, Some(Color::Black));
        assert_eq!(o.interval, Duration::from_millis(500));
        assert!(o.restrictions.is_empty());
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
        let c = &o.restrictions.clauses;
        assert_eq!(c.len(), 2);
        assert_eq!(c[0].kind, RestrictionKind::Avoid);
        assert_eq!(c[0].color, Color::Black);
        assert_eq!(c[0].moves, [mv("D4"), mv("Q16"), Move::Pass]);
        assert_eq!(c[0].until_depth, 1);
        assert_eq!((c[1].color, c[1].until_depth), (Color::White, 3));
        let o = parse("allow white A1:B2 2 allow b T19 1").unwrap();
        let c = &o.restrictions.clauses;
        assert_eq!(c[0].kind, RestrictionKind::Allow);
        assert_eq!(c[0].moves.len(), 4);
        for v in ["A1", "A2", "B1", "B2"] {
            assert!(c[0].moves.contains(&mv(v)), "{v}");
        }
        assert_eq!(c[1].moves, [mv("T19")]);
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
}
