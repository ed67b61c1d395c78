//! `tengen score FILE`: the result of a record's main line: the count of
//! the position where the game ended, or the result the rules gave without
//! a count (a void repetition, a capture goal); exit 1 when the record's
//! `RE` says otherwise.

use super::exit;
use super::input;
use anyhow::{Result, bail};
use serde_json::json;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use tengen_core::{
    ByColor, ChineseCount, Color, Game, Outcome, PassStones, Phase, Points, QuickCount, Rules,
    Score, Scoring, WinBy, vertex,
};
use tengen_sgf::ParseOptions;
use tengen_sgf::record::{
    AfterEnd, RecordInfo, RecordedResult, ReplayMode, ReplayOptions, Severity,
};

/// Arguments of `tengen score`.
#[derive(Debug, clap::Args)]
#[command(after_help = format!("{RECORDED}\n\n{}", exit::HELP))]
pub struct Args {
    /// The SGF file (its first game), `-` for standard input.
    file: PathBuf,
    /// Count under these rules instead of the record's `RU` (a preset,
    /// one of its aliases, or a KataGo rule string).
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
    /// One JSON object (result, counts, dead stones, agreement with `RE`)
    /// instead of the text.
    #[arg(long)]
    json: bool,
}

/// What `RE` changes, before the statuses every command shares.
const RECORDED: &str = "A record whose RE says another result than the count (or than \
the result the rules gave) exits 1; the count is written all the same. An RE that no \
count gives (a resignation, time, forfeit, another reason such as B+Illegal, ?) is not \
compared.";

/// Seed of the `--dead auto` estimate (fixed: the same file always gives
/// the same count).
pub const DEAD_SEED: u64 = 1;

/// Scores the record: the result on stdout, what is wrong with the
/// record on stderr.
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
    let scored = match ended_without_count(game) {
        Some(outcome) => Scored {
            says: outcome.to_string(),
            outcome,
            end: "rules",
            komi: game.komi(),
            count: None,
        },
        None => count(args, game)?,
    };
    let area = scored.count.as_ref().and_then(|c| {
        game.rules()
            .scoring
            .counts_area()
            .then_some((c.score.margin, game.komi()))
    });
    let agrees = agreement(&info, &scored.outcome, area);
    let mut out = std::io::stdout().lock();
    if args.json {
        let recorded = json!({
            "result": info.result_text,
            "agrees": agrees,
        });
        let json = scored.json(args, game, replay.moves, replay.after_end, recorded);
        writeln!(out, "{json}")?;
    } else {
        scored.write_text(&mut out, game, replay.moves)?;
    }
    if agrees == Some(false) {
        let said = info.result_text.as_deref().unwrap_or("?");
        let source = if scored.count.is_some() {
            "the count"
        } else {
            "the game"
        };
        eprintln!(
            "{shown}: the record says RE[{said}], {source} gives {}",
            scored.outcome.to_sgf()
        );
        return Ok(exit::errors_found());
    }
    Ok(ExitCode::SUCCESS)
}

/// The result of a record, as both outputs give it.
struct Scored {
    outcome: Outcome,
    /// The line under the result: what it means, or that a capture game
    /// is not over.
    says: String,
    /// How the game ended: `count` (play stopped, the count decides),
    /// `rules` (a void repetition, a capture goal: no count), `unfinished`
    /// (play never stopped: the position as it stands is counted).
    end: &'static str,
    komi: Points,
    count: Option<Count>,
}

/// A count of the final position, with what the rules show beside it.
struct Count {
    score: Score,
    /// The dead stones of each colour, every stone of their chains, row
    /// by row from the top.
    dead: ByColor<Vec<String>>,
    /// Where the dead stones came from: `given` (`--dead`), `estimated`
    /// (`--dead auto`), `none`.
    dead_from: &'static str,
    /// The Chinese count, where the rules count in stones.
    chinese: Option<ChineseCount>,
    /// The FFG quick count, where the rules count pass stones.
    quick: Option<QuickCount>,
}

/// Counts the position where `game` ended, with the dead stones of
/// `--dead`.
fn count(args: &Args, game: &Game) -> Result<Scored> {
    let (dead, dead_from) = if args.dead.trim().eq_ignore_ascii_case("auto") {
        (
            tengen_mcts::estimate_dead(game, args.dead_playouts, DEAD_SEED),
            "estimated",
        )
    } else {
        let given = vertex::parse_points(&args.dead, game.size())?;
        let from = if given.is_empty() { "none" } else { "given" };
        (given, from)
    };
    if let Some(p) = dead.iter().find(|p| game.board().get(**p).is_none()) {
        bail!(
            "--dead {}: no stone there",
            vertex::Vertex::point_name(*p, game.size())
        );
    }
    let map = game.region_map(&dead);
    let score = game.count(&map);
    let outcome = score.outcome();
    let mut dead = ByColor::new(Vec::new(), Vec::new());
    for p in game.size().points() {
        if let Some(c) = map.dead(p) {
            dead[c].push(vertex::Vertex::point_name(p, game.size()));
        }
    }
    let playing = game.phase() == Phase::Playing;
    let says = if playing && game.rules().scoring == Scoring::Captures {
        // Neither two passes nor the goal ended it: no one has won yet.
        let c = score.captures;
        format!(
            "the capture game is not over (no capture goal reached, no two passes): captures as they stand, black {} white {}",
            c.black, c.white
        )
    } else {
        outcome.to_string()
    };
    let rules = game.rules();
    Ok(Scored {
        outcome,
        says,
        end: if playing { "unfinished" } else { "count" },
        komi: score.komi,
        count: Some(Count {
            dead,
            dead_from,
            chinese: (rules.scoring == Scoring::AreaDameShared).then_some(score.chinese),
            quick: score
                .quick
                .filter(|_| rules.pass_stones == PassStones::Counted),
            score,
        }),
    })
}

impl Scored {
    /// The text: the result, what it means, the rules, then the table of
    /// the count and the counts the rules show beside it.
    fn write_text(&self, out: &mut dyn Write, game: &Game, moves: usize) -> std::io::Result<()> {
        writeln!(out, "{}", self.outcome.to_sgf())?;
        writeln!(out, "{}", self.says)?;
        writeln!(
            out,
            "rules: {}  komi: {}  moves: {moves}",
            game.rules().name(),
            self.komi
        )?;
        let Some(count) = &self.count else {
            return Ok(());
        };
        let s = &count.score;
        writeln!(out, "{:<10} {:>8} {:>8}", "", "black", "white")?;
        let mut row = |name: &str, b: String, w: String| writeln!(out, "{name:<10} {b:>8} {w:>8}");
        row(
            "stones",
            s.stones.black.to_string(),
            s.stones.white.to_string(),
        )?;
        row(
            "territory",
            s.regions.territory.black.to_string(),
            s.regions.territory.white.to_string(),
        )?;
        row(
            "dame",
            s.regions.dame.to_string(),
            s.regions.dame.to_string(),
        )?;
        row(
            "captures",
            s.captures.black.to_string(),
            s.captures.white.to_string(),
        )?;
        row("dead", s.dead.black.to_string(), s.dead.white.to_string())?;
        row("komi", String::new(), s.komi.to_string())?;
        row(
            "total",
            s.totals.black.to_string(),
            s.totals.white.to_string(),
        )?;
        writeln!(out, "scoring: {}", s.scoring)?;
        if let Some(c) = count.chinese {
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
        if let Some(q) = count.quick {
            writeln!(
                out,
                "quick count: black {} left, white {} left + komi {}: margin {} (area count: {})",
                q.remaining.black, q.remaining.white, q.komi, q.margin, s.area_margin
            )?;
        }
        Ok(())
    }

    /// The `--json` object: the same values as the text, named (the
    /// schema is in the reference).
    fn json(
        &self,
        args: &Args,
        game: &Game,
        moves: usize,
        after_end: Option<AfterEnd>,
        recorded: serde_json::Value,
    ) -> serde_json::Value {
        let pts = |p: Points| p.to_f64();
        let both = |b: serde_json::Value, w: serde_json::Value| json!({"black": b, "white": w});
        let count = self.count.as_ref().map(|c| {
            let s = &c.score;
            let side = |color: Color| {
                json!({
                    "stones": s.stones[color],
                    "territory": s.regions.territory[color],
                    "captures": s.captures[color],
                    "dead": s.dead[color],
                    "total": pts(s.totals[color]),
                })
            };
            json!({
                "black": side(Color::Black),
                "white": side(Color::White),
                "dame": s.regions.dame,
                "margin": pts(s.margin),
                "area_margin": pts(s.area_margin),
            })
        });
        let chinese = self.count.as_ref().and_then(|c| c.chinese).map(|c| {
            json!({
                "black": pts(c.black),
                "threshold": pts(c.threshold),
                "margin_stones": pts(c.margin_stones),
            })
        });
        let quick = self.count.as_ref().and_then(|c| c.quick).map(|q| {
            json!({
                "held": both(json!(q.held.black), json!(q.held.white)),
                "pass_stones": both(json!(q.pass_stones.black), json!(q.pass_stones.white)),
                "last_play_stone": q.last_play_stone,
                "remaining": both(json!(q.remaining.black), json!(q.remaining.white)),
                "komi": pts(q.komi),
                "margin": pts(q.margin),
            })
        });
        let dead = self.count.as_ref().map(|c| {
            json!({
                "from": c.dead_from,
                "black": c.dead.black,
                "white": c.dead.white,
            })
        });
        json!({
            "file": args.file.display().to_string(),
            "result": self.outcome.to_sgf(),
            "says": self.says,
            "end": self.end,
            "rules": game.rules().name(),
            "scoring": self.count.as_ref().map(|c| c.score.scoring.to_string()),
            "komi": pts(self.komi),
            "moves": moves,
            "after_end": after_end.map(|a| json!({"first": a.first, "moves": a.moves})),
            "counts": count,
            "chinese": chinese,
            "quick": quick,
            "dead": dead,
            "record": recorded,
        })
    }
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

/// Whether the record's `RE` says what `outcome` says: `None` when there
/// is no `RE`, or it is no result a count or the rules give (`?`, a
/// resignation, time, forfeit, a win for another reason: `B+Illegal`).
/// `area`: the margin of an area count and the komi, since Chinese records
/// give area results in stones (`area_margin` reads them).
fn agreement(info: &RecordInfo, outcome: &Outcome, area: Option<(Points, Points)>) -> Option<bool> {
    let recorded = info.recorded_result()?;
    let compared = match &recorded {
        RecordedResult::Unknown(_)
        | RecordedResult::Outcome(Outcome::Win {
            by: WinBy::Resignation | WinBy::Time | WinBy::Forfeit,
            ..
        }) => false,
        // A winner with no margin, or one tengen cannot read exactly
        // (`B+`, `W+3.2`): the count's winner is compared.
        RecordedResult::Winner(_, text) => {
            let reason = text.get(1..).unwrap_or("").trim_start_matches('+').trim();
            reason.is_empty() || reason.parse::<f64>().is_ok()
        }
        RecordedResult::Outcome(_) => true,
    };
    compared.then(|| {
        recorded.agrees_with(outcome)
            || area.is_some_and(|(margin, komi)| recorded.area_margin(komi) == Some(margin))
    })
}
