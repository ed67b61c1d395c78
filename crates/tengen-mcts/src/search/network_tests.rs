//! The policy network's priors in the search: asked node by node and in
//! batches (tests built with the `net` feature).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // tests fail loudly

use super::worker::NETWORK_AT;
use super::*;
use crate::features::{Extractor, Position};
use crate::model::PatternModel;
use crate::net::{self, Network};
use crate::tree::stone_points;
use tengen_core::{BoardSize, Preset};

/// The empty 9x9 board searched with the network, asked `batch`
/// positions at a time.
fn network_search(threads: usize, batch: usize, playouts: u64) -> (Game, Search) {
    let game = Game::new(Preset::Chinese.rules(), BoardSize::square(9).unwrap());
    let mut search = Search::new(SearchConfig {
        threads,
        knowledge: Knowledge::Net,
        network_batch: batch,
        ..SearchConfig::default()
    });
    search.analyze(&game, Request::new(Limit::playouts(playouts)));
    (game, search)
}

/// The network's policy of `game` for the moves of `kids`, the
/// position asked alone.
fn policy_alone(extractor: &mut Extractor, game: &Game, kids: &[Node]) -> Vec<f32> {
    let moves = stone_points(kids);
    let recent = net::recent(game.turns().iter().map(|t| t.mv));
    let position = Position::after(game.board(), game.to_move(), &recent);
    Network::shipped().unwrap().position_policy(
        PatternModel::shipped(),
        extractor,
        &position,
        &recent,
        &moves,
    )
}

#[test]
fn the_network_gives_the_priors_of_the_root_and_of_nodes_of_40_visits() {
    let (game, search) = network_search(1, 1, 2000);
    let root = &search.kept.as_ref().unwrap().root;
    let mut extractor = Extractor::new(game.size());
    let mut expected = |game: &Game, kids: &[Node]| policy_alone(&mut extractor, game, kids);
    let check = |policy: &[f32], kids: &[Node]| {
        for k in kids {
            if let Move::Play(p) = k.mv {
                assert_eq!(k.policy(), Some(policy[p.index()]), "{p:?}");
            }
        }
    };
    check(&expected(&game, root.kids()), root.kids());
    // A child of the root past 40 visits: asked too.
    let busy = root
        .kids()
        .iter()
        .find(|k| k.visits() >= NETWORK_AT && k.kids().len() > 1)
        .expect("a busy child");
    let mut after = game.clone();
    after.play(busy.mv).unwrap();
    check(&expected(&after, busy.kids()), busy.kids());
    // A child expanded but never past 40 visits keeps the patterns'.
    if let Some(quiet) = root
        .kids()
        .iter()
        .find(|k| k.visits() < NETWORK_AT && k.kids().len() > 1)
    {
        let mut after = game.clone();
        after.play(quiet.mv).unwrap();
        let net = expected(&after, quiet.kids());
        assert!(
            quiet
                .kids()
                .iter()
                .any(|k| matches!(k.mv, Move::Play(p) if k.policy() != Some(net[p.index()]))),
            "the network was asked below 40 visits"
        );
    }
}

#[test]
fn batched_network_priors_reach_every_node_but_those_still_queued() {
    let (game, search) = network_search(2, 8, 4000);
    let root = &search.kept.as_ref().unwrap().root;
    let mut extractor = Extractor::new(game.size());
    // Every node below the root that earned the network: answered (its
    // children carry the network's policy, as one position alone gives
    // it, to rounding), or handed back unanswered when the search
    // stopped (fewer than a batch).
    let (mut answered, mut handed_back) = (0, 0);
    let mut stack: Vec<(Game, &Node)> = root
        .kids()
        .iter()
        .filter_map(|k| {
            let mut g = game.clone();
            g.play(k.mv).ok().map(|()| (g, k))
        })
        .collect();
    while let Some((g, node)) = stack.pop() {
        if node.visits() < NETWORK_AT || node.kids().len() <= 1 {
            continue;
        }
        if !node.network_asked() {
            handed_back += 1;
        } else {
            let alone = policy_alone(&mut extractor, &g, node.kids());
            for k in node.kids() {
                if let Move::Play(p) = k.mv {
                    let got = k.policy().expect("a policy");
                    assert!((got - alone[p.index()]).abs() < 1e-4, "{p:?}: {got}");
                }
            }
            answered += 1;
        }
        for k in node.kids() {
            let mut after = g.clone();
            if after.play(k.mv).is_ok() {
                stack.push((after, k));
            }
        }
    }
    assert!(answered >= 8, "{answered} nodes answered");
    assert!(handed_back < 8, "{handed_back} nodes handed back");
}

#[test]
fn reading_the_fights_adds_to_the_prior_of_the_move_that_saves_a_chain() {
    // Black E5 in atari (White D5 E6 F5): E4 saves it.
    let mut game = Game::new(Preset::Chinese.rules(), BoardSize::square(9).unwrap());
    for m in ["E5", "E6", "J1", "D5", "J2", "F5"] {
        game.play(Move::parse(m, game.size()).unwrap()).unwrap();
    }
    let prior_of = |reading: bool, at: &str| {
        let mut search = Search::new(SearchConfig {
            knowledge: Knowledge::Net,
            reading,
            ..SearchConfig::default()
        });
        search.analyze(&game, Request::new(Limit::playouts(1)));
        let root = &search.kept.as_ref().unwrap().root;
        let mv = Move::parse(at, game.size()).unwrap();
        root.kids().iter().find(|k| k.mv == mv).unwrap().prior()
    };
    let (plain, read) = (prior_of(false, "E4"), prior_of(true, "E4"));
    assert!(read.1 >= plain.1 + 20.0, "{plain:?} {read:?}");
    assert!(((read.0 - plain.0) - (read.1 - plain.1)).abs() < 1e-3);
    // A quiet move gains nothing.
    assert_eq!(prior_of(false, "B8"), prior_of(true, "B8"));
}
