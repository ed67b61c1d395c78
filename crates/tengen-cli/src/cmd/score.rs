//! `tengen score FILE`: the result of a record's main line: the count of
//! the position where the game ended, or the result the rules gave without
//! a count (a void repetition, a capture goal).

use super::exit;
use super::input;
use anyhow::{Result, bail};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use tengen_core::{Game, Outcome, PassStones, Phase, Points, Rules, Scoring, vertex};
use tengen_sgf::ParseOptions;
use tengen_sgf::record::{ReplayMode, ReplayOptions, Severity};

/// Arguments of `tengen score`.
#[derive(Debug, clap::Args)]
#[command(after_help = exit::HELP)]
pub struct Args {
    /// The SGF file (its first game), `-` for standard input.
    file: PathBuf,
    /// Count under these rules instead of the record's `RU`.
    #[arg(long)]
    rules: Option<Rules>,
    /// Komi instead of the record's `KM` (exact: 7.5, 3.75, 7).
    #[arg(long, allow_hyphen_values = true)]
    komi: Option<Points>,
    /// Dead stones, as vertices (`D4,Q16` or `"D4 Q16"`); any stone of a
    /// chain names the whole chain. `auto`: estimated by playouts from the
    /// final position.
    #[arg(long, default_value = "")]
    dead: String,
    /// Playouts of the `--dead auto` estimate.
    #[arg(long, default_value_t = tengen_mcts::ESTIMATE_PLAYOUTS)]
    dead_playouts: u64,
}

/// Seed of the `--dead auto` estimate (fixed: the same file always gives
/// the same count).
pub const DEAD_SEED: u64 = 1;

pub fn run(args: &Args) -> Result<ExitCode> {
    let options = ReplayOptions {
        mode: ReplayMode::Strict,
        rules: args.rules,
        komi: args.komi,
    };
    let shown = args.file.display();
    let (info, replay) = match input::load(&args.file, &ParseOptions::lenient(), &options) {
        Ok(loaded) => (loaded.info, loaded.replay),
        Err(refused) => return Ok(refused.report()),
    };
    // Moves after the end of the game are left out: the game is counted
    // where it ended.
    let after_end = replay.after_end.map(|a| a.node);
    if let Some(f) = replay
        .findings
        .iter()
        .find(|f| f.severity == Severity::Error && Some(f.node) != after_end)
    {
        eprintln!("{shown}: {}", f.message);
        return Ok(exit::errors_found());
    }
    if let Some(a) = replay.after_end {
        eprintln!(
            "warning: {shown}: the game ended at move {}; the {} move(s) recorded after it, from move {}, are not counted",
            a.first.saturating_sub(1),
            a.moves,
            a.first
        );
    }
    let game = &replay.game;
    if let Some(outcome) = ended_without_count(game) {
        let mut out = std::io::stdout().lock();
        writeln!(out, "{}", outcome.to_sgf())?;
        writeln!(out, "{outcome}")?;
        writeln!(
            out,
            "rules: {}  komi: {}  moves: {}",
            game.rules().name(),
            game.komi(),
            replay.moves
        )?;
        warn_recorded(&info, &outcome, false, None);
        return Ok(ExitCode::SUCCESS);
    }
    let unfinished_captures =
        game.phase() == Phase::Playing && game.rules().scoring == Scoring::Captures;
    let dead = if args.dead.trim().eq_ignore_ascii_case("auto") {
        tengen_mcts::estimate_dead(game, args.dead_playouts, DEAD_SEED)
    } else {
        vertex::parse_points(&args.dead, game.size())?
    };
    if let Some(p) = dead.iter().find(|p| game.board().get(**p).is_none()) {
        bail!(
            "--dead {}: no stone there",
            vertex::Vertex::point_name(*p, game.size())
        );
    }
    let score = game.score(&dead);
    let outcome = score.outcome();
    let mut out = std::io::stdout().lock();
    writeln!(out, "{}", outcome.to_sgf())?;
    if unfinished_captures {
        // Neither two passes nor the goal ended it: no one has won yet.
        let c = score.captures;
        writeln!(
            out,
            "the capture game is not over (no capture goal reached, no two passes): captures as they stand, black {} white {}",
            c.black, c.white
        )?;
    } else {
        writeln!(out, "{outcome}")?;
    }
    writeln!(
        out,
        "rules: {}  komi: {}  moves: {}",
        game.rules().name(),
        score.komi,
        replay.moves
    )?;
    writeln!(out, "{:<10} {:>8} {:>8}", "", "black", "white")?;
    let row = |out: &mut dyn Write, name: &str, b: String, w: String| {
        writeln!(out, "{name:<10} {b:>8} {w:>8}")
    };
    let s = &score;
    row(
        &mut out,
        "stones",
        s.stones.black.to_string(),
        s.stones.white.to_string(),
    )?;
    row(
        &mut out,
        "territory",
        s.regions.territory.black.to_string(),
        s.regions.territory.white.to_string(),
    )?;
    row(
        &mut out,
        "dame",
        s.regions.dame.to_string(),
        s.regions.dame.to_string(),
    )?;
    row(
        &mut out,
        "captures",
        s.captures.black.to_string(),
        s.captures.white.to_string(),
    )?;
    row(
        &mut out,
        "dead",
        s.dead.black.to_string(),
        s.dead.white.to_string(),
    )?;
    row(&mut out, "komi", String::new(), s.komi.to_string())?;
    row(
        &mut out,
        "total",
        s.totals.black.to_string(),
        s.totals.white.to_string(),
    )?;
    writeln!(out, "scoring: {}", game.rules().scoring)?;
    if game.rules().scoring == Scoring::AreaDameShared {
        let c = s.chinese;
        let verdict = if c.margin_stones > Points::ZERO {
            "Black wins"
        } else {
            "White wins"
        };
        writeln!(
            out,
            "chinese count: black {} against {}: {verdict} by {} stones",
            c.black,
            c.threshold,
            c.margin_stones.abs()
        )?;
    }
    if game.rules().pass_stones == PassStones::Counted
        && let Some(q) = s.quick
    {
        writeln!(
            out,
            "quick count: black {} left, white {} left + komi {}: margin {} (area count: {})",
            q.remaining.black, q.remaining.white, q.komi, q.margin, s.area_margin
        )?;
    }
    let area = game.rules().scoring.counts_area().then_some(s.margin);
    warn_recorded(&info, &outcome, true, area.map(|m| (m, game.komi())));
    Ok(ExitCode::SUCCESS)
}

/// The result of a game the rules ended with no count to show: a void
/// repetition, a capture goal, a resignation. Games ended by a count (two
/// passes) are counted again, so that the table and `--dead` apply.
fn ended_without_count(game: &Game) -> Option<Outcome> {
    if game.final_score().is_some() {
        return None;
    }
    game.outcome().copied()
}

/// Warns when the record's `RE` says something else than `outcome`, which
/// a count gave when `counted`. `area`: the margin of an area count and the
/// komi, since Chinese records give area results in stones (`area_margin`
/// reads them).
fn warn_recorded(
    info: &tengen_sgf::record::RecordInfo,
    outcome: &Outcome,
    counted: bool,
    area: Option<(Points, Points)>,
) {
    if let Some(recorded) = info.recorded_result()
        && !recorded.agrees_with(outcome)
        && area.is_none_or(|(margin, komi)| recorded.area_margin(komi) != Some(margin))
    {
        let said = info.result_text.as_deref().unwrap_or("?");
        let source = if counted { "the count" } else { "the game" };
        eprintln!(
            "warning: the record says RE[{said}], {source} gives {}",
            outcome.to_sgf()
        );
    }
}
