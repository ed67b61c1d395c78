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
use tengen_core::{Color, Phase};
use tengen_gtp::analysis::info_line;
use tengen_gtp::args::parse_color;
use tengen_gtp::response::{STREAM_END, stream_start};
use tengen_gtp::{AnalysisFormat, Command, GtpError, InfoMove, Response};
use tengen_mcts::{Analysis, GenMode, Limit};

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
}

impl AnalyzeOptions {
    /// Reads `[color] [interval] [interval N] [ownership true|false]
    /// [maxmoves N] [minmoves N]`; the interval is in centiseconds, as
    /// Leela Zero and KataGo take it.
    ///
    /// # Errors
    /// [`GtpError::Syntax`] for anything else (`avoid` and `allow` are not
    /// supported and say so).
    pub fn parse(args: &[String]) -> Result<AnalyzeOptions, GtpError> {
        let mut o = AnalyzeOptions {
            color: None,
            interval: Duration::ZERO,
            ownership: false,
            max_moves: None,
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
            let value = words.next().ok_or(GtpError::Syntax)?;
            match key {
                "interval" => o.interval = centis(value)?,
                "ownership" => o.ownership = value == "true",
                "maxmoves" => o.max_moves = Some(value.parse().map_err(|_| GtpError::Syntax)?),
                "minmoves" => {
                    value.parse::<usize>().map_err(|_| GtpError::Syntax)?;
                }
                "avoid" | "allow" => {
                    return Err(GtpError::Other(format!("{key} is not supported")));
                }
                _ => return Err(GtpError::Syntax),
            }
        }
        Ok(o)
    }
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
        match AnalyzeOptions::parse(&cmd.args) {
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
            let last = self.search.analyze(&game, limit, stop_search, reporting);
            Some(last)
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
                self.search
                    .genmove(&game, Limit::playouts(1), GenMode::Normal)
                    .0
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

    #[test]
    fn options_as_sabaki_lizzie_and_katago_send_them() {
        let o = AnalyzeOptions::parse(&words("b 50")).unwrap();
        assert_eq!(o.color, Some(Color::Black));
        assert_eq!(o.interval, Duration::from_millis(500));
        let o = AnalyzeOptions::parse(&words("10")).unwrap();
        assert_eq!((o.color, o.interval), (None, Duration::from_millis(100)));
        let o = AnalyzeOptions::parse(&words("W interval 20 ownership true maxmoves 3")).unwrap();
        assert_eq!(o.color, Some(Color::White));
        assert!(o.ownership);
        assert_eq!(o.max_moves, Some(3));
        assert_eq!(
            AnalyzeOptions::parse(&words("b 10 bogus 1")),
            Err(GtpError::Syntax)
        );
        assert_eq!(
            AnalyzeOptions::parse(&words("b 10 ownership")),
            Err(GtpError::Syntax)
        );
        assert!(matches!(
            AnalyzeOptions::parse(&words("b 10 avoid b D4 1")),
            Err(GtpError::Other(_))
        ));
    }
}
