//! `tengen score FILE`: the count of the final position of the main line.

use anyhow::{Result, bail};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use tengen_core::{PassStones, Points, Rules, Scoring, vertex};
use tengen_sgf::ParseOptions;
use tengen_sgf::record::{self, LoadError, ReplayMode, ReplayOptions, Severity, Source};

/// Arguments of `tengen score`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The SGF file (its first game).
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
    let source = Source::File(&args.file);
    let (info, replay) = match record::load_main_line(source, &ParseOptions::lenient(), &options) {
        Ok(loaded) => (loaded.info, loaded.replay),
        Err(LoadError::Replay(f)) => {
            eprintln!("{}: {}", args.file.display(), f.message);
            return Ok(ExitCode::from(1));
        }
        Err(e) => bail!("{}: {e}", args.file.display()),
    };
    if let Some(f) = replay
        .findings
        .iter()
        .find(|f| f.severity == Severity::Error)
    {
        eprintln!("{}: {}", args.file.display(), f.message);
        return Ok(ExitCode::from(1));
    }
    let game = &replay.game;
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
    writeln!(out, "{outcome}")?;
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
    // Chinese records give area results in stones: `area_margin` reads them.
    if let Some(recorded) = info.recorded_result()
        && !recorded.agrees_with(&outcome)
        && !(game.rules().scoring.counts_area()
            && recorded.area_margin(game.komi()) == Some(s.margin))
    {
        let said = info.result_text.as_deref().unwrap_or("?");
        eprintln!(
            "warning: the record says RE[{said}], the count gives {}",
            outcome.to_sgf()
        );
    }
    Ok(ExitCode::SUCCESS)
}
