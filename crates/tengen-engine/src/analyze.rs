//! Analysis over the search and a game: the report lines of the streaming
//! commands (`lz-analyze`, `kata-analyze` and their `genmove_analyze`
//! forms) while the search runs, and the move it then chooses. Which game,
//! which budget, the response's framing and playing the move are the
//! session's business, not this module's.

use std::io::{self, Write};
use std::sync::atomic::AtomicBool;
use tengen_core::{BoardSize, Game};
use tengen_gtp::analysis::{AnalyzeOptions, Clause, ClauseKind, info_line};
use tengen_gtp::{AnalysisFormat, InfoMove, Report, RootInfo};
use tengen_mcts::{Analysis, Decision, GenMode, Limit, Request, Search};
use tengen_mcts::{Restriction, RestrictionKind, Restrictions};

/// Simulations after which an open-ended analysis stops growing its tree
/// (memory bound); the response stays open until the next input line.
pub const ANALYSIS_MAX_PLAYOUTS: u64 = 5_000_000;

/// The search's restrictions for the `avoid` and `allow` clauses of a
/// command.
pub fn restrictions(clauses: &[Clause]) -> Restrictions {
    let clauses = clauses
        .iter()
        .map(|c| Restriction {
            kind: match c.kind {
                ClauseKind::Avoid => RestrictionKind::Avoid,
                ClauseKind::Allow => RestrictionKind::Allow,
            },
            color: c.color,
            moves: c.moves.clone(),
            until_depth: c.until_depth,
        })
        .collect();
    Restrictions { clauses }
}

/// Searches `game` within `limit` (or until `stop` is set), writing a
/// report line to `out` every interval of `options` and one at the end.
/// Reports with no candidate are skipped.
///
/// # Errors
/// The writer's first error, once the search is over.
pub fn report(
    search: &mut Search,
    game: &Game,
    limit: Limit,
    stop: &AtomicBool,
    format: AnalysisFormat,
    options: &AnalyzeOptions,
    out: &mut dyn Write,
) -> io::Result<()> {
    let size = game.size();
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
    let last = {
        let mut reporting = |a: &Analysis| write_line(a, out);
        let every = (!options.interval.is_zero()).then_some((
            options.interval,
            &mut reporting as &mut dyn FnMut(&Analysis),
        ));
        let restrictions = restrictions(&options.clauses);
        let request = Request {
            restrictions: &restrictions,
            stop: Some(stop),
            report: every,
            moves_ownership: format == AnalysisFormat::KataGo
                && (options.moves_ownership || options.moves_ownership_stdev),
            ..Request::new(limit)
        };
        search.analyze(game, request)
    };
    write_line(&last, out);
    failed.map_or(Ok(()), Err)
}

/// The search's decision on `game` (resignation, cleanup and the
/// restrictions included), reusing the tree already grown for it; the
/// search ends early once `stop` is set. The analysis comes with it, for
/// a level that draws its move from it.
pub fn decide(
    search: &mut Search,
    game: &Game,
    limit: Limit,
    mode: GenMode,
    restrictions: &Restrictions,
    stop: &AtomicBool,
) -> (Decision, Analysis) {
    let request = Request {
        mode,
        restrictions,
        stop: Some(stop),
        ..Request::new(limit)
    };
    search.genmove(game, request)
}

/// One report line of `analysis` in `format`, from the view of the player
/// to move.
pub fn report_line(
    format: AnalysisFormat,
    analysis: &Analysis,
    size: BoardSize,
    options: &AnalyzeOptions,
) -> String {
    info_line(
        format,
        size,
        &report_of(analysis, options.max_moves),
        options,
    )
}

/// What a report says of `analysis` (at most `max_moves` candidates), from
/// the view of the player to move: the lines of GTP's analysis commands
/// and the answers of KataGo's JSON protocol are both written from it.
pub fn report_of(analysis: &Analysis, max_moves: Option<usize>) -> Report {
    let sign = analysis.to_move.sign();
    let view = |values: &[f32]| -> Vec<f32> { values.iter().map(|v| v * sign).collect() };
    let moves: Vec<InfoMove> = analysis
        .candidates
        .iter()
        .filter(|c| c.visits > 0)
        .take(max_moves.unwrap_or(usize::MAX))
        .enumerate()
        .map(|(order, c)| InfoMove {
            mv: c.mv,
            visits: c.visits,
            winrate: c.winrate,
            lcb: c.lcb,
            prior: c.prior,
            score_lead: c.score_lead,
            score_stdev: c.score_stdev,
            order,
            pv: c.pv.clone(),
            pv_visits: c.pv_visits.clone(),
            ownership: c
                .ownership
                .as_ref()
                .map(|o| (view(&o.mean), o.stdev.clone())),
        })
        .collect();
    Report {
        moves,
        root: RootInfo {
            visits: analysis.visits,
            winrate: analysis.winrate,
            score_lead: analysis.score_lead,
            score_stdev: analysis.score_stdev,
        },
        ownership: view(&analysis.ownership),
        ownership_stdev: analysis.ownership_stdev.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_core::{Color, Move};

    #[test]
    fn clauses_become_the_searchs_restrictions() {
        let size = BoardSize::square(9).unwrap();
        let words: Vec<String> = "b avoid w E5,pass 2 allow b C3:D4 1"
            .split_whitespace()
            .map(str::to_string)
            .collect();
        let options = AnalyzeOptions::parse(&words, size).unwrap();
        let r = restrictions(&options.clauses);
        assert_eq!(r.clauses.len(), 2);
        assert_eq!(r.clauses[0].kind, RestrictionKind::Avoid);
        assert_eq!(r.clauses[0].color, Color::White);
        assert_eq!(r.clauses[0].until_depth, 2);
        assert_eq!(r.clauses[0].moves.last(), Some(&Move::Pass));
        assert_eq!(r.clauses[1].kind, RestrictionKind::Allow);
        assert_eq!(r.clauses[1].moves.len(), 4);
        assert!(restrictions(&[]).is_empty());
    }
}
