//! The screens of the learning path, as data: for each step, short
//! sentences (one idea per screen), a position built from a diagram of the
//! rules texts, and a small problem on it. What the problem asks is a goal
//! or a set of claims that the rules library judges ([`super::judge`]); the
//! answers written here are checked against that judgement by the tests,
//! so the words and the rules cannot drift apart.
//!
//! The sentences are keys of the catalogues of `tengen-words`
//! (`lessons.s1-capture.hint`), one file a language. Each screen's source
//! is there too (`lessons.ID.source`): "Strasbourg rules" is the Strasbourg
//! progression (`shared/seeds/002`), "FFG rules" the French Federation's
//! rules (`shared/seeds/003`); the diagram numbers are theirs.

use serde::Serialize;
use tengen_core::Color;
use tengen_words::Lang;

/// A sentence of the path: its key in the catalogues' `lessons` table
/// (`s1-capture.hint`), said to the page in every language.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Words {
    /// The key under `lessons`, up to `part`.
    key: &'static str,
    /// The rest of the key (`.source`), or nothing.
    part: &'static str,
}

impl Words {
    /// The screen's source: the text and diagram it follows.
    pub const fn source(screen: &'static str) -> Words {
        Words {
            key: screen,
            part: ".source",
        }
    }

    /// Its whole key in the catalogues.
    pub fn key(self) -> String {
        format!("lessons.{}{}", self.key, self.part)
    }

    /// The sentence in `lang`.
    pub fn say(self, lang: Lang) -> String {
        tengen_words::fill(lang, &self.key(), &[])
    }
}

impl Serialize for Words {
    /// Every language's sentence by its code (`{"en": .., "fr": ..}`).
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(Lang::all().map(|l| (l.code(), self.say(l))))
    }
}

/// A position: rows of `X` (black), `O` (white) and `.` from the top, the
/// moves played from it (alternating, `to_move` first), letters on points
/// as the texts name them, and the chain whose liberties are shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Diagram {
    /// The rows, top first.
    pub rows: &'static [&'static str],
    /// Who plays the first of `moves` (or the problem's move when none).
    pub to_move: Color,
    /// Moves played from the rows before the screen shows the position.
    pub moves: &'static [&'static str],
    /// Letters on points (`("A1", "a")`).
    pub labels: &'static [(&'static str, &'static str)],
    /// A stone whose chain's liberties are marked on the board.
    pub liberties_of: Option<&'static str>,
}

/// What a click must do, judged by the rules library.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// The move captures at least this many stones.
    Capture(u32),
    /// The move leaves an opposing chain beside it with one liberty (the
    /// FFG text's atari).
    Atari,
    /// After the move, the chain of this stone has two liberties or more.
    Save(&'static str),
    /// The rules refuse the move on an empty point.
    Forbidden,
}

/// Why a move may or may not be played, as the rules library says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Legal.
    Allowed,
    /// A stone is there.
    Occupied,
    /// The stone would have no liberty and capture nothing.
    Suicide,
    /// It would bring back an earlier board (ko).
    Repeat,
}

/// A statement about the position, true or false by the rules library.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Claim {
    /// The side to move playing at this point gets this verdict.
    Move(&'static str, Verdict),
    /// The chain of this stone has this many liberties.
    Liberties(&'static str, u32),
    /// The count of the position under the step's rules gives this winner.
    Winner(Color),
    /// This colour has this many points of territory.
    Territory(Color, u32),
}

/// One answer offered: a claim and its words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    /// What it states.
    pub claim: Claim,
    /// How it is said.
    pub words: Words,
}

/// The problem of a screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Task {
    /// Click a point reaching the goal; `answers` are every such point.
    Play {
        /// What the move must do.
        goal: Goal,
        /// Every point that reaches it (checked by the tests).
        answers: &'static [&'static str],
    },
    /// Pick the true statement; `answer` is its index (checked by the
    /// tests).
    Choose {
        /// The statements offered.
        options: &'static [Choice],
        /// The index of the true one.
        answer: usize,
    },
}

/// A question on a screen, its hint after a wrong answer, and what is said
/// once it is solved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ask {
    /// The question.
    pub question: Words,
    /// The problem.
    pub task: Task,
    /// Shown after a wrong answer.
    pub hint: Words,
    /// Shown after the right one.
    pub done: Words,
}

/// One screen of a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Screen {
    /// Stable identifier, unique over the path.
    pub id: &'static str,
    /// The step (1 to 4).
    pub step: u32,
    /// Short sentences.
    pub text: &'static [Words],
    /// The position shown, if any.
    pub diagram: Option<Diagram>,
    /// The problem, if any.
    pub ask: Option<Ask>,
}

const fn w(key: &'static str) -> Words {
    Words { key, part: "" }
}

const fn pos(rows: &'static [&'static str], to_move: Color) -> Diagram {
    Diagram {
        rows,
        to_move,
        moves: &[],
        labels: &[],
        liberties_of: None,
    }
}

/// FFG rules, 8, diagram 13: two white stones inside Black's wall with one
/// liberty (a); saved at a they have one again (b).
const DEAD: &[&str] = &[
    ".......", ".......", "XXXXX..", "OO..X..", "XXXXX..", ".......", ".......",
];

const DEAD_LABELS: &[(&str, &str)] = &[("C4", "a"), ("D4", "b")];

const STONE: &[&str] = &[
    ".......", ".......", ".......", "...X...", ".......", ".......", ".......",
];
const TWO: &[&str] = &[
    ".......", ".......", "...X...", "...X...", ".......", ".......", ".......",
];
const KO: &[&str] = &[
    ".......", ".......", "...XO..", "..XO.O.", "...XO..", ".......", ".......",
];
const KO_LABELS: &[(&str, &str)] = &[("D4", "a")];
const SEKI: &[&str] = &[
    ".......", ".......", ".......", ".......", "OOOOO..", "XXXXO..", ".OO.O..",
];
const SEKI_LABELS: &[(&str, &str)] = &[("A1", "d"), ("D1", "e")];
const STRASBOURG_END: &[&str] = &[
    "XXXXOOOOO",
    "X.XXOO.O.",
    "XXXXOOOOO",
    "XXXXXOOOO",
    "XXXXXXXXX",
    "XXXXOOOOO",
    "XXXXOOOOO",
    "X.XXOO.O.",
    "XXXXOOOOO",
];
const LINE: &[&str] = &[
    "...XO..", "...XO..", "...XO..", "...XO..", "...XO..", "...XO..", "...XO..",
];

/// "Who wins?": Black or White, as the count of the step's rules says.
const WHO_WINS: &[Choice] = &[
    Choice {
        claim: Claim::Winner(Color::Black),
        words: w("who_wins.black"),
    },
    Choice {
        claim: Claim::Winner(Color::White),
        words: w("who_wins.white"),
    },
];

/// Every screen of the path, step by step, in order.
pub const SCREENS: &[Screen] = &[
    // ---------------------------------------------------------- step 1
    Screen {
        id: "s1-stone",
        step: 1,
        text: &[
            w("s1-stone.text1"),
            w("s1-stone.text2"),
            w("s1-stone.text3"),
        ],
        diagram: Some(pos(STONE, Color::White)),
        ask: None,
    },
    Screen {
        id: "s1-liberties",
        step: 1,
        text: &[
            w("s1-liberties.text1"),
            w("s1-liberties.text2"),
            w("s1-liberties.text3"),
        ],
        diagram: Some(Diagram {
            liberties_of: Some("D4"),
            ..pos(STONE, Color::White)
        }),
        ask: None,
    },
    Screen {
        id: "s1-capture",
        step: 1,
        text: &[w("s1-capture.text1"), w("s1-capture.text2")],
        diagram: Some(pos(
            &[
                ".......", ".......", "...O...", "..OXO..", ".......", ".......", ".......",
            ],
            Color::White,
        )),
        ask: Some(Ask {
            question: w("s1-capture.question"),
            task: Task::Play {
                goal: Goal::Capture(1),
                answers: &["D3"],
            },
            hint: w("s1-capture.hint"),
            done: w("s1-capture.done"),
        }),
    },
    Screen {
        id: "s1-chain",
        step: 1,
        text: &[
            w("s1-chain.text1"),
            w("s1-chain.text2"),
            w("s1-chain.text3"),
        ],
        diagram: Some(pos(TWO, Color::White)),
        ask: Some(Ask {
            question: w("s1-chain.question"),
            task: Task::Choose {
                options: &[
                    Choice {
                        claim: Claim::Liberties("D4", 4),
                        words: w("s1-chain.option1"),
                    },
                    Choice {
                        claim: Claim::Liberties("D4", 6),
                        words: w("s1-chain.option2"),
                    },
                    Choice {
                        claim: Claim::Liberties("D4", 8),
                        words: w("s1-chain.option3"),
                    },
                ],
                answer: 1,
            },
            hint: w("s1-chain.hint"),
            done: w("s1-chain.done"),
        }),
    },
    Screen {
        id: "s1-capture-chain",
        step: 1,
        text: &[w("s1-capture-chain.text1")],
        diagram: Some(pos(
            &[
                ".......", "...O...", "..OXO..", "..OXO..", ".......", ".......", ".......",
            ],
            Color::White,
        )),
        ask: Some(Ask {
            question: w("s1-capture-chain.question"),
            task: Task::Play {
                goal: Goal::Capture(2),
                answers: &["D3"],
            },
            hint: w("s1-capture-chain.hint"),
            done: w("s1-capture-chain.done"),
        }),
    },
    Screen {
        id: "s1-atari",
        step: 1,
        text: &[w("s1-atari.text1"), w("s1-atari.text2")],
        diagram: Some(pos(
            &[
                ".......", ".......", "...X...", "..XO...", ".......", ".......", ".......",
            ],
            Color::Black,
        )),
        ask: Some(Ask {
            question: w("s1-atari.question"),
            task: Task::Play {
                goal: Goal::Atari,
                answers: &["D3", "E4"],
            },
            hint: w("s1-atari.hint"),
            done: w("s1-atari.done"),
        }),
    },
    Screen {
        id: "s1-escape",
        step: 1,
        text: &[w("s1-escape.text1"), w("s1-escape.text2")],
        diagram: Some(pos(
            &[
                ".......", ".......", "...O...", "..OXO..", ".......", ".......", ".......",
            ],
            Color::Black,
        )),
        ask: Some(Ask {
            question: w("s1-escape.question"),
            task: Task::Play {
                goal: Goal::Save("D4"),
                answers: &["D3"],
            },
            hint: w("s1-escape.hint"),
            done: w("s1-escape.done"),
        }),
    },
    Screen {
        id: "s1-game",
        step: 1,
        text: &[w("s1-game.text1"), w("s1-game.text2"), w("s1-game.text3")],
        diagram: None,
        ask: None,
    },
    // ---------------------------------------------------------- step 2
    Screen {
        id: "s2-goal",
        step: 2,
        text: &[w("s2-goal.text1"), w("s2-goal.text2"), w("s2-goal.text3")],
        diagram: None,
        ask: None,
    },
    Screen {
        id: "s2-suicide",
        step: 2,
        text: &[w("s2-suicide.text1"), w("s2-suicide.text2")],
        diagram: Some(pos(
            &[
                ".......", ".......", "...X...", "..X.X..", "...X...", "X......", ".X.....",
            ],
            Color::White,
        )),
        ask: Some(Ask {
            question: w("s2-suicide.question"),
            task: Task::Play {
                goal: Goal::Forbidden,
                answers: &["A1", "D4"],
            },
            hint: w("s2-suicide.hint"),
            done: w("s2-suicide.done"),
        }),
    },
    Screen {
        id: "s2-capture-allowed",
        step: 2,
        text: &[w("s2-capture-allowed.text1"), w("s2-capture-allowed.text2")],
        diagram: Some(Diagram {
            labels: &[("A1", "a")],
            ..pos(
                &[
                    ".......", ".......", ".......", ".......", "OO.....", "XXO....", ".XO....",
                ],
                Color::White,
            )
        }),
        ask: Some(Ask {
            question: w("s2-capture-allowed.question"),
            task: Task::Play {
                goal: Goal::Capture(3),
                answers: &["A1"],
            },
            hint: w("s2-capture-allowed.hint"),
            done: w("s2-capture-allowed.done"),
        }),
    },
    Screen {
        id: "s2-two-eyes",
        step: 2,
        text: &[w("s2-two-eyes.text1"), w("s2-two-eyes.text2")],
        diagram: Some(Diagram {
            labels: &[("A1", "a"), ("C1", "b")],
            ..pos(
                &[
                    ".......", ".......", ".......", ".......", "OOOOO..", "XXXXO..", ".X.XO..",
                ],
                Color::White,
            )
        }),
        ask: Some(Ask {
            question: w("s2-two-eyes.question"),
            task: Task::Choose {
                options: &[
                    Choice {
                        claim: Claim::Move("A1", Verdict::Allowed),
                        words: w("s2-two-eyes.option1"),
                    },
                    Choice {
                        claim: Claim::Move("A1", Verdict::Suicide),
                        words: w("s2-two-eyes.option2"),
                    },
                ],
                answer: 1,
            },
            hint: w("s2-two-eyes.hint"),
            done: w("s2-two-eyes.done"),
        }),
    },
    Screen {
        id: "s2-game",
        step: 2,
        text: &[w("s2-game.text1"), w("s2-game.text2")],
        diagram: None,
        ask: None,
    },
    // ---------------------------------------------------------- step 3
    Screen {
        id: "s3-goal",
        step: 3,
        text: &[w("s3-goal.text1"), w("s3-goal.text2"), w("s3-goal.text3")],
        diagram: None,
        ask: None,
    },
    Screen {
        id: "s3-ko-capture",
        step: 3,
        text: &[w("s3-ko-capture.text1")],
        diagram: Some(Diagram {
            labels: KO_LABELS,
            ..pos(KO, Color::Black)
        }),
        ask: Some(Ask {
            question: w("s3-ko-capture.question"),
            task: Task::Play {
                goal: Goal::Capture(1),
                answers: &["E4"],
            },
            hint: w("s3-ko-capture.hint"),
            done: w("s3-ko-capture.done"),
        }),
    },
    Screen {
        id: "s3-ko-why",
        step: 3,
        text: &[w("s3-ko-why.text1"), w("s3-ko-why.text2")],
        diagram: Some(Diagram {
            labels: KO_LABELS,
            moves: &["E4"],
            ..pos(KO, Color::Black)
        }),
        ask: Some(Ask {
            question: w("s3-ko-why.question"),
            task: Task::Choose {
                options: &[
                    Choice {
                        claim: Claim::Move("D4", Verdict::Allowed),
                        words: w("s3-ko-why.option1"),
                    },
                    Choice {
                        claim: Claim::Move("D4", Verdict::Repeat),
                        words: w("s3-ko-why.option2"),
                    },
                    Choice {
                        claim: Claim::Move("D4", Verdict::Suicide),
                        words: w("s3-ko-why.option3"),
                    },
                ],
                answer: 1,
            },
            hint: w("s3-ko-why.hint"),
            done: w("s3-ko-why.done"),
        }),
    },
    Screen {
        id: "s3-ko-later",
        step: 3,
        text: &[w("s3-ko-later.text1"), w("s3-ko-later.text2")],
        diagram: Some(Diagram {
            labels: KO_LABELS,
            moves: &["E4", "A7", "G1"],
            ..pos(KO, Color::Black)
        }),
        ask: Some(Ask {
            question: w("s3-ko-later.question"),
            task: Task::Play {
                goal: Goal::Capture(1),
                answers: &["D4"],
            },
            hint: w("s3-ko-later.hint"),
            done: w("s3-ko-later.done"),
        }),
    },
    Screen {
        id: "s3-end",
        step: 3,
        text: &[w("s3-end.text1"), w("s3-end.text2"), w("s3-end.text3")],
        diagram: Some(pos(STRASBOURG_END, Color::Black)),
        ask: Some(Ask {
            question: w("s3-end.question"),
            task: Task::Choose {
                options: WHO_WINS,
                answer: 0,
            },
            hint: w("s3-end.hint"),
            done: w("s3-end.done"),
        }),
    },
    Screen {
        id: "s3-game",
        step: 3,
        text: &[w("s3-game.text1"), w("s3-game.text2")],
        diagram: None,
        ask: None,
    },
    // ---------------------------------------------------------- step 4
    Screen {
        id: "s4-territory",
        step: 4,
        text: &[w("s4-territory.text1"), w("s4-territory.text2")],
        diagram: Some(pos(
            &[
                ".......", ".......", "OO.....", "XXOO...", ".XXXO..", "...XO..", "...XO..",
            ],
            Color::White,
        )),
        ask: Some(Ask {
            question: w("s4-territory.question"),
            task: Task::Choose {
                options: &[
                    Choice {
                        claim: Claim::Territory(Color::Black, 5),
                        words: w("s4-territory.option1"),
                    },
                    Choice {
                        claim: Claim::Territory(Color::Black, 7),
                        words: w("s4-territory.option2"),
                    },
                    Choice {
                        claim: Claim::Territory(Color::Black, 9),
                        words: w("s4-territory.option3"),
                    },
                ],
                answer: 1,
            },
            hint: w("s4-territory.hint"),
            done: w("s4-territory.done"),
        }),
    },
    Screen {
        id: "s4-count",
        step: 4,
        text: &[
            w("s4-count.text1"),
            w("s4-count.text2"),
            w("s4-count.text3"),
            w("s4-count.text4"),
        ],
        diagram: Some(pos(LINE, Color::Black)),
        ask: Some(Ask {
            question: w("s4-count.question"),
            task: Task::Choose {
                options: WHO_WINS,
                answer: 1,
            },
            hint: w("s4-count.hint"),
            done: w("s4-count.done"),
        }),
    },
    Screen {
        id: "s4-dead",
        step: 4,
        text: &[w("s4-dead.text1"), w("s4-dead.text2")],
        diagram: Some(Diagram {
            labels: DEAD_LABELS,
            ..pos(DEAD, Color::Black)
        }),
        ask: Some(Ask {
            question: w("s4-dead.question"),
            task: Task::Play {
                goal: Goal::Capture(2),
                answers: &["C4"],
            },
            hint: w("s4-dead.hint"),
            done: w("s4-dead.done"),
        }),
    },
    Screen {
        id: "s4-dead-anyway",
        step: 4,
        text: &[w("s4-dead-anyway.text1")],
        diagram: Some(Diagram {
            labels: DEAD_LABELS,
            moves: &["C4"],
            ..pos(DEAD, Color::White)
        }),
        ask: Some(Ask {
            question: w("s4-dead-anyway.question"),
            task: Task::Play {
                goal: Goal::Capture(3),
                answers: &["D4"],
            },
            hint: w("s4-dead-anyway.hint"),
            done: w("s4-dead-anyway.done"),
        }),
    },
    Screen {
        id: "s4-seki",
        step: 4,
        text: &[
            w("s4-seki.text1"),
            w("s4-seki.text2"),
            w("s4-seki.text3"),
            w("s4-seki.text4"),
        ],
        diagram: Some(Diagram {
            labels: SEKI_LABELS,
            ..pos(SEKI, Color::Black)
        }),
        ask: None,
    },
    Screen {
        id: "s4-seki-capture",
        step: 4,
        text: &[w("s4-seki-capture.text1"), w("s4-seki-capture.text2")],
        diagram: Some(Diagram {
            labels: SEKI_LABELS,
            moves: &["A1"],
            ..pos(SEKI, Color::Black)
        }),
        ask: Some(Ask {
            question: w("s4-seki-capture.question"),
            task: Task::Play {
                goal: Goal::Capture(5),
                answers: &["D1"],
            },
            hint: w("s4-seki-capture.hint"),
            done: w("s4-seki-capture.done"),
        }),
    },
    Screen {
        id: "s4-game",
        step: 4,
        text: &[w("s4-game.text1"), w("s4-game.text2")],
        diagram: None,
        ask: None,
    },
];
