//! The path's problems against the rules library: every diagram is a
//! position the rules accept, every answer written in the data is exactly
//! what the rules say, and every sentence is short and in both languages.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // tests fail loudly

use super::judge;
use super::screens::{Goal, SCREENS, Screen, Task, Words};
use super::show::{self, Answer};
use super::{LESSONS, lesson};
use std::collections::HashSet;
use tengen_core::{Game, Vertex};
use tengen_words::Lang;

fn words_ok(w: &Words, what: &str) {
    for lang in Lang::all() {
        let key = w.key();
        assert!(
            tengen_words::keys(&key).any(|k| k == key),
            "{what}: {key} is not in the catalogue"
        );
        let s = w.say(lang);
        assert!(!s.trim().is_empty(), "{what}: empty {lang} text");
        // Short sentences a child can follow.
        for sentence in s.split(['.', '!', '?', ':']) {
            let n = sentence.split_whitespace().count();
            assert!(
                n <= 16,
                "{what}: a {lang} sentence of {n} words: {sentence}"
            );
        }
    }
}

#[test]
fn screens_have_unique_ids_both_languages_and_a_step_each() {
    let mut ids = HashSet::new();
    for s in SCREENS {
        assert!(ids.insert(s.id), "{} given twice", s.id);
        assert!(lesson(s.step).is_some(), "{}: no step {}", s.id, s.step);
        assert!(
            !s.text.is_empty() && s.text.len() <= 4,
            "{}: 1 to 4 sentences",
            s.id
        );
        for w in s.text {
            words_ok(w, s.id);
        }
        words_ok(&Words::source(s.id), s.id);
        if let Some(ask) = s.ask {
            assert!(s.diagram.is_some(), "{}: a question needs a position", s.id);
            for w in [ask.question, ask.hint, ask.done] {
                words_ok(&w, s.id);
            }
        }
    }
    for l in LESSONS {
        let steps: Vec<_> = SCREENS.iter().filter(|s| s.step == l.step).collect();
        assert!(steps.len() >= 3, "step {} teaches in a few screens", l.step);
        assert!(
            steps.iter().filter(|s| s.ask.is_some()).count() >= 2,
            "step {} has problems",
            l.step
        );
        // The last screen of a step leads to its game.
        assert!(steps.last().unwrap().ask.is_none());
    }
}

/// Every screen with a problem, its position built by the rules library.
fn problems() -> impl Iterator<Item = (&'static Screen, Game, Task)> {
    SCREENS.iter().filter_map(|s| {
        let (d, ask) = (s.diagram.as_ref()?, s.ask?);
        Some((s, judge::position(s.step, d).unwrap(), ask.task))
    })
}

#[test]
fn every_play_answer_is_exactly_what_the_rules_say() {
    for (s, game, task) in problems() {
        let Task::Play { goal, answers } = task else {
            continue;
        };
        let size = game.size();
        let mut right: Vec<String> = size
            .points()
            .map(|p| Vertex::point_name(p, size))
            .filter(|v| judge::play(&game, goal, v).unwrap().correct)
            .collect();
        right.sort();
        let mut written: Vec<String> = answers.iter().map(|a| a.to_string()).collect();
        written.sort();
        assert_eq!(right, written, "{}: the rules' answers", s.id);
        // Some click is wrong: the problem is a problem.
        assert!(right.len() < size.num_points(), "{}", s.id);
        if goal == Goal::Forbidden {
            // A refused move: the rules name why.
            let j = judge::play(&game, goal, answers[0]).unwrap();
            assert!(j.refusal.is_some() && j.after.is_none(), "{}", s.id);
        } else {
            let j = judge::play(&game, goal, answers[0]).unwrap();
            assert!(j.after.is_some(), "{}: the right move is played", s.id);
        }
    }
}

#[test]
fn exactly_the_written_choice_is_true() {
    for (s, game, task) in problems() {
        let Task::Choose { options, answer } = task else {
            continue;
        };
        let true_ones: Vec<usize> = options
            .iter()
            .enumerate()
            .filter(|(_, o)| judge::holds(&game, o.claim).unwrap())
            .map(|(i, _)| i)
            .collect();
        assert_eq!(true_ones, [answer], "{}: the true option", s.id);
        assert!(options.len() >= 2, "{}", s.id);
        for o in options {
            words_ok(&o.words, s.id);
        }
    }
}

#[test]
fn the_ko_retake_is_refused_then_allowed_one_turn_later() {
    let find = |id: &str| SCREENS.iter().find(|s| s.id == id).unwrap();
    let why = find("s3-ko-why");
    let game = judge::position(3, why.diagram.as_ref().unwrap()).unwrap();
    let j = judge::play(&game, Goal::Capture(1), "D4").unwrap();
    assert_eq!(j.refusal, Some(tengen_core::IllegalMove::Ko));
    let later = find("s3-ko-later");
    let game = judge::position(3, later.diagram.as_ref().unwrap()).unwrap();
    assert!(judge::play(&game, Goal::Capture(1), "D4").unwrap().correct);
}

#[test]
fn the_strasbourg_count_is_the_texts_forty_to_thirty_five() {
    let end = SCREENS.iter().find(|s| s.id == "s3-end").unwrap();
    let game = judge::position(3, end.diagram.as_ref().unwrap()).unwrap();
    let score = game.score(&[]);
    assert_eq!((score.stones.black, score.stones.white), (40, 35));
    assert_eq!(score.margin.to_string(), "5");
}

#[test]
fn answers_are_judged_on_the_server_with_hints_and_refusals() {
    let ask = |screen: &str, vertex: Option<&str>, choice: Option<usize>| {
        show::answer(
            screen.chars().nth(1).unwrap().to_digit(10).unwrap(),
            &Answer {
                screen: screen.into(),
                vertex: vertex.map(str::to_string),
                choice,
                show: false,
            },
        )
    };
    let wrong = ask("s1-capture", Some("A1"), None).unwrap();
    assert!(!wrong.correct && wrong.words.say(Lang::EN).contains("one liberty left"));
    let right = ask("s1-capture", Some("D3"), None).unwrap();
    assert!(right.correct && right.words.say(Lang::EN).starts_with("Captured"));
    // The black stone is gone from the position sent back.
    let after = right.position.unwrap();
    assert_eq!(after.board.matches('X').count(), 0);
    // A refusal is named by its code.
    let suicide = ask("s2-suicide", Some("D4"), None).unwrap();
    assert!(suicide.correct);
    assert_eq!(suicide.refusal, Some("suicide"));
    let ko = ask("s3-ko-why", None, Some(1)).unwrap();
    assert!(ko.correct);
    assert!(!ask("s3-ko-why", None, Some(0)).unwrap().correct);
    // Bad answers are refused, not judged.
    assert!(ask("s3-ko-why", None, Some(9)).is_err());
    assert!(ask("s3-ko-why", Some("D4"), None).is_err());
    assert!(ask("s1-capture", Some("Z99"), None).is_err());
    assert!(ask("s1-game", Some("D4"), None).is_err());
    assert!(
        show::answer(
            2,
            &Answer {
                screen: "s1-capture".into(),
                vertex: Some("D3".into()),
                choice: None,
                show: false,
            }
        )
        .is_err()
    );
}

/// A learner stuck on a problem may be shown its answer, which the rules
/// then accept when played or picked: for every problem of the path.
#[test]
fn every_answer_shown_is_one_the_rules_accept() {
    for s in SCREENS.iter().filter(|s| s.ask.is_some()) {
        let show = |vertex: Option<String>, choice: Option<usize>, show: bool| {
            show::answer(
                s.step,
                &Answer {
                    screen: s.id.into(),
                    vertex,
                    choice,
                    show,
                },
            )
            .unwrap()
        };
        let shown = show(None, None, true);
        assert!(!shown.correct, "{}: showing is not solving", s.id);
        let judged = match shown.shown {
            Some(show::Shown::Vertex(v)) => show(Some(v.into()), None, false),
            Some(show::Shown::Choice(i)) => show(None, Some(i), false),
            None => panic!("{}: nothing shown", s.id),
        };
        assert!(judged.correct, "{}: the answer shown is refused", s.id);
    }
}

#[test]
fn the_page_sees_positions_with_atari_rings_and_liberties() {
    let one = show::step(1).unwrap();
    let libs = one.iter().find(|s| s.id == "s1-liberties").unwrap();
    let p = libs.position.as_ref().unwrap();
    let mut l = p.liberties.clone();
    l.sort();
    assert_eq!(l, ["C4", "D3", "D5", "E4"]);
    let escape = one.iter().find(|s| s.id == "s1-escape").unwrap();
    assert_eq!(escape.position.as_ref().unwrap().atari, ["D4"]);
    assert_eq!(escape.position.as_ref().unwrap().to_move, "black");
    let json = serde_json::to_string(&one).unwrap();
    // The answers stay on the server.
    assert!(!json.contains("answers") && !json.contains("claim"));
    assert!(show::step(9).is_err());
}
