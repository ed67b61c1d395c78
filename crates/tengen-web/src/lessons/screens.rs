//! The screens of the learning path, as data: for each step, short
//! sentences (one idea per screen), a position built from a diagram of the
//! rules texts, and a small problem on it. What the problem asks is a goal
//! or a set of claims that the rules library judges ([`super::judge`]); the
//! answers written here are checked against that judgement by the tests,
//! so the words and the rules cannot drift apart.
//!
//! Sources: "règle strasbourgeoise" is the Strasbourg progression
//! (`shared/seeds/002`), "règle FFG" the French Federation's rules
//! (`shared/seeds/003`); the diagram numbers are theirs.

use serde::Serialize;
use tengen_core::Color;

/// A sentence in English and French.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Words {
    /// English.
    pub en: &'static str,
    /// French.
    pub fr: &'static str,
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
    /// The text and diagram it follows.
    pub source: &'static str,
}

const fn w(en: &'static str, fr: &'static str) -> Words {
    Words { en, fr }
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
        words: w("Black", "Noir"),
    },
    Choice {
        claim: Claim::Winner(Color::White),
        words: w("White", "Blanc"),
    },
];

/// Every screen of the path, step by step, in order.
pub const SCREENS: &[Screen] = &[
    // ---------------------------------------------------------- step 1
    Screen {
        id: "s1-stone",
        step: 1,
        text: &[
            w(
                "Stones go on the crossings of the lines.",
                "Les pierres se posent sur les croisements des lignes.",
            ),
            w(
                "Black plays first. Then each player plays in turn.",
                "Noir joue le premier. Ensuite, chacun joue à son tour.",
            ),
            w("A stone never moves.", "Une pierre ne bouge plus jamais."),
        ],
        diagram: Some(pos(STONE, Color::White)),
        ask: None,
        source: "règle strasbourgeoise, le but du jeu, diag. 1",
    },
    Screen {
        id: "s1-liberties",
        step: 1,
        text: &[
            w(
                "Four little lines leave this stone.",
                "Quatre petits traits partent de cette pierre.",
            ),
            w(
                "The empty points at their ends are its liberties.",
                "Les points vides au bout sont ses libertés.",
            ),
            w(
                "This stone has four liberties.",
                "Cette pierre a quatre libertés.",
            ),
        ],
        diagram: Some(Diagram {
            liberties_of: Some("D4"),
            ..pos(STONE, Color::White)
        }),
        ask: None,
        source: "règle strasbourgeoise, diag. 2",
    },
    Screen {
        id: "s1-capture",
        step: 1,
        text: &[
            w(
                "A stone with no liberty left is captured.",
                "Une pierre qui n'a plus de liberté est capturée.",
            ),
            w("It leaves the board.", "Elle quitte le plateau."),
        ],
        diagram: Some(pos(
            &[
                ".......", ".......", "...O...", "..OXO..", ".......", ".......", ".......",
            ],
            Color::White,
        )),
        ask: Some(Ask {
            question: w(
                "You play White. Capture the black stone!",
                "Vous jouez Blanc. Capturez la pierre noire !",
            ),
            task: Task::Play {
                goal: Goal::Capture(1),
                answers: &["D3"],
            },
            hint: w(
                "The black stone has one liberty left. Put a white stone there.",
                "La pierre noire n'a plus qu'une liberté. Posez-y une pierre blanche.",
            ),
            done: w(
                "Captured! Four white stones took all its liberties.",
                "Capturée ! Quatre pierres blanches lui ont pris toutes ses libertés.",
            ),
        }),
        source: "règle strasbourgeoise, diag. 3",
    },
    Screen {
        id: "s1-chain",
        step: 1,
        text: &[
            w(
                "These two black stones touch along a line.",
                "Ces deux pierres noires se touchent par un trait.",
            ),
            w("They form a chain.", "Elles forment une chaîne."),
            w(
                "A chain is captured all at once, never stone by stone.",
                "Une chaîne se capture d'un coup, jamais pierre par pierre.",
            ),
        ],
        diagram: Some(pos(TWO, Color::White)),
        ask: Some(Ask {
            question: w(
                "How many liberties does the black chain have?",
                "Combien de libertés a la chaîne noire ?",
            ),
            task: Task::Choose {
                options: &[
                    Choice {
                        claim: Claim::Liberties("D4", 4),
                        words: w("4", "4"),
                    },
                    Choice {
                        claim: Claim::Liberties("D4", 6),
                        words: w("6", "6"),
                    },
                    Choice {
                        claim: Claim::Liberties("D4", 8),
                        words: w("8", "8"),
                    },
                ],
                answer: 1,
            },
            hint: w(
                "Count the empty points that touch one of the two stones.",
                "Comptez les points vides qui touchent l'une des deux pierres.",
            ),
            done: w(
                "Yes: six liberties. White needs six stones to capture them.",
                "Oui : six libertés. Il faut six pierres blanches pour les capturer.",
            ),
        }),
        source: "règle strasbourgeoise, diag. 4 et 5",
    },
    Screen {
        id: "s1-capture-chain",
        step: 1,
        text: &[w(
            "White has taken five of the six liberties.",
            "Blanc a pris cinq des six libertés.",
        )],
        diagram: Some(pos(
            &[
                ".......", "...O...", "..OXO..", "..OXO..", ".......", ".......", ".......",
            ],
            Color::White,
        )),
        ask: Some(Ask {
            question: w(
                "You play White. Capture the two black stones!",
                "Vous jouez Blanc. Capturez les deux pierres noires !",
            ),
            task: Task::Play {
                goal: Goal::Capture(2),
                answers: &["D3"],
            },
            hint: w(
                "Find the last empty point touching the black chain.",
                "Trouvez le dernier point vide qui touche la chaîne noire.",
            ),
            done: w(
                "Both stones are captured together.",
                "Les deux pierres sont capturées ensemble.",
            ),
        }),
        source: "règle strasbourgeoise, diag. 6",
    },
    Screen {
        id: "s1-atari",
        step: 1,
        text: &[
            w(
                "A chain with only one liberty left is in atari.",
                "Une chaîne qui n'a plus qu'une liberté est en atari.",
            ),
            w(
                "A red ring shows the stones in atari.",
                "Un anneau rouge montre les pierres en atari.",
            ),
        ],
        diagram: Some(pos(
            &[
                ".......", ".......", "...X...", "..XO...", ".......", ".......", ".......",
            ],
            Color::Black,
        )),
        ask: Some(Ask {
            question: w(
                "You play Black. Put the white stone in atari!",
                "Vous jouez Noir. Mettez la pierre blanche en atari !",
            ),
            task: Task::Play {
                goal: Goal::Atari,
                answers: &["D3", "E4"],
            },
            hint: w(
                "The white stone has two liberties. Take one of them.",
                "La pierre blanche a deux libertés. Prenez-en une.",
            ),
            done: w(
                "Atari! The white stone has one liberty left.",
                "Atari ! La pierre blanche n'a plus qu'une liberté.",
            ),
        }),
        source: "règle FFG, 5 (capture), diag. 4",
    },
    Screen {
        id: "s1-escape",
        step: 1,
        text: &[
            w(
                "Now your black stone is in atari.",
                "Maintenant, c'est votre pierre noire qui est en atari.",
            ),
            w(
                "Add a stone to it: the chain gets more liberties.",
                "Ajoutez-lui une pierre : la chaîne gagne des libertés.",
            ),
        ],
        diagram: Some(pos(
            &[
                ".......", ".......", "...O...", "..OXO..", ".......", ".......", ".......",
            ],
            Color::Black,
        )),
        ask: Some(Ask {
            question: w(
                "You play Black. Save your stone!",
                "Vous jouez Noir. Sauvez votre pierre !",
            ),
            task: Task::Play {
                goal: Goal::Save("D4"),
                answers: &["D3"],
            },
            hint: w(
                "Play on its last liberty, below it.",
                "Jouez sur sa dernière liberté, en dessous.",
            ),
            done: w(
                "Saved: the black chain has three liberties now.",
                "Sauvée : la chaîne noire a maintenant trois libertés.",
            ),
        }),
        source: "règle FFG, 5 (capture, atari)",
    },
    Screen {
        id: "s1-game",
        step: 1,
        text: &[
            w(
                "Now a game against tengen.",
                "Maintenant, une partie contre tengen.",
            ),
            w(
                "The first player to capture wins.",
                "Le premier joueur qui capture a gagné.",
            ),
            w(
                "Watch out for stones in atari!",
                "Attention aux pierres en atari !",
            ),
        ],
        diagram: None,
        ask: None,
        source: "règle strasbourgeoise, jeu n°1",
    },
    // ---------------------------------------------------------- step 2
    Screen {
        id: "s2-goal",
        step: 2,
        text: &[
            w(
                "Captured stones leave the board.",
                "Les pierres capturées quittent le plateau.",
            ),
            w("Then the game goes on.", "Puis la partie continue."),
            w(
                "The first to capture five stones wins.",
                "Le premier qui a capturé cinq pierres a gagné.",
            ),
        ],
        diagram: None,
        ask: None,
        source: "règle strasbourgeoise, jeu n°2",
    },
    Screen {
        id: "s2-suicide",
        step: 2,
        text: &[
            w(
                "You may not play where your stone would have no liberty.",
                "On ne peut pas jouer là où sa pierre n'aurait aucune liberté.",
            ),
            w(
                "That move is called suicide. It is forbidden.",
                "Ce coup s'appelle un suicide. Il est interdit.",
            ),
        ],
        diagram: Some(pos(
            &[
                ".......", ".......", "...X...", "..X.X..", "...X...", "X......", ".X.....",
            ],
            Color::White,
        )),
        ask: Some(Ask {
            question: w(
                "You play White. Click a point where White may not play.",
                "Vous jouez Blanc. Cliquez sur un point où Blanc n'a pas le droit de jouer.",
            ),
            task: Task::Play {
                goal: Goal::Forbidden,
                answers: &["A1", "D4"],
            },
            hint: w(
                "Look for an empty point with black stones all around it.",
                "Cherchez un point vide entouré de pierres noires.",
            ),
            done: w(
                "A white stone there would have no liberty.",
                "Une pierre blanche là n'aurait aucune liberté.",
            ),
        }),
        source: "règle strasbourgeoise, le suicide est interdit, diag. 1 et 2",
    },
    Screen {
        id: "s2-capture-allowed",
        step: 2,
        text: &[
            w(
                "But a move that captures is allowed.",
                "Mais un coup qui capture est permis.",
            ),
            w(
                "The captured stones leave, and your stone gets liberties.",
                "Les pierres capturées partent, et votre pierre a des libertés.",
            ),
        ],
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
            question: w(
                "You play White. Capture the black stones!",
                "Vous jouez Blanc. Capturez les pierres noires !",
            ),
            task: Task::Play {
                goal: Goal::Capture(3),
                answers: &["A1"],
            },
            hint: w(
                "The black chain has one liberty left, at a.",
                "La chaîne noire n'a plus qu'une liberté, en a.",
            ),
            done: w(
                "Allowed, because it captures: three stones!",
                "Permis, parce qu'il capture : trois pierres !",
            ),
        }),
        source: "règle strasbourgeoise, diag. 3 et 4",
    },
    Screen {
        id: "s2-two-eyes",
        step: 2,
        text: &[
            w(
                "This black group has two holes, a and b.",
                "Ce groupe noir a deux trous, a et b.",
            ),
            w("They are called eyes.", "On les appelle des yeux."),
        ],
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
            question: w("Can White play at a?", "Blanc peut-il jouer en a ?"),
            task: Task::Choose {
                options: &[
                    Choice {
                        claim: Claim::Move("A1", Verdict::Allowed),
                        words: w("Yes, and it captures.", "Oui, et il capture."),
                    },
                    Choice {
                        claim: Claim::Move("A1", Verdict::Suicide),
                        words: w(
                            "No: the white stone would have no liberty and capture nothing.",
                            "Non : la pierre blanche n'aurait aucune liberté et ne capturerait rien.",
                        ),
                    },
                ],
                answer: 1,
            },
            hint: w(
                "After White at a, Black still has a liberty at b.",
                "Après Blanc en a, Noir a encore une liberté en b.",
            ),
            done: w(
                "Two eyes: this group can never be captured.",
                "Deux yeux : ce groupe ne peut jamais être capturé.",
            ),
        }),
        source: "règle strasbourgeoise, diag. 5",
    },
    Screen {
        id: "s2-game",
        step: 2,
        text: &[
            w(
                "Now a game against tengen.",
                "Maintenant, une partie contre tengen.",
            ),
            w(
                "The first to capture five stones wins.",
                "Le premier qui capture cinq pierres a gagné.",
            ),
        ],
        diagram: None,
        ask: None,
        source: "règle strasbourgeoise, jeu n°2",
    },
    // ---------------------------------------------------------- step 3
    Screen {
        id: "s3-goal",
        step: 3,
        text: &[
            w(
                "Now the goal is to have more stones on the board.",
                "Maintenant, le but est d'avoir plus de pierres sur le plateau.",
            ),
            w(
                "You may pass instead of playing.",
                "On peut passer au lieu de jouer.",
            ),
            w(
                "When both players pass, one after the other, the game ends.",
                "Quand les deux joueurs passent l'un après l'autre, la partie est finie.",
            ),
        ],
        diagram: None,
        ask: None,
        source: "règle strasbourgeoise, jeu n°3",
    },
    Screen {
        id: "s3-ko-capture",
        step: 3,
        text: &[w(
            "The white stone a has one liberty left.",
            "La pierre blanche a n'a plus qu'une liberté.",
        )],
        diagram: Some(Diagram {
            labels: KO_LABELS,
            ..pos(KO, Color::Black)
        }),
        ask: Some(Ask {
            question: w(
                "You play Black. Capture the white stone!",
                "Vous jouez Noir. Capturez la pierre blanche !",
            ),
            task: Task::Play {
                goal: Goal::Capture(1),
                answers: &["E4"],
            },
            hint: w(
                "Its last liberty is on its right.",
                "Sa dernière liberté est à sa droite.",
            ),
            done: w(
                "Captured. But look: your stone is in atari now.",
                "Capturée. Mais regardez : votre pierre est en atari maintenant.",
            ),
        }),
        source: "règle strasbourgeoise, diag. 10 et 11 ; règle FFG, diag. 10",
    },
    Screen {
        id: "s3-ko-why",
        step: 3,
        text: &[
            w(
                "Black has just captured at a.",
                "Noir vient de capturer en a.",
            ),
            w(
                "White would like to take back at once.",
                "Blanc voudrait reprendre tout de suite.",
            ),
        ],
        diagram: Some(Diagram {
            labels: KO_LABELS,
            moves: &["E4"],
            ..pos(KO, Color::Black)
        }),
        ask: Some(Ask {
            question: w(
                "Can White take back at a right now?",
                "Blanc peut-il reprendre en a tout de suite ?",
            ),
            task: Task::Choose {
                options: &[
                    Choice {
                        claim: Claim::Move("D4", Verdict::Allowed),
                        words: w(
                            "Yes: it captures the black stone.",
                            "Oui : il capture la pierre noire.",
                        ),
                    },
                    Choice {
                        claim: Claim::Move("D4", Verdict::Repeat),
                        words: w(
                            "No: the board would be just as before. White must play elsewhere first.",
                            "Non : le plateau redeviendrait comme avant. Blanc doit d'abord jouer ailleurs.",
                        ),
                    },
                    Choice {
                        claim: Claim::Move("D4", Verdict::Suicide),
                        words: w(
                            "No: the white stone would have no liberty.",
                            "Non : la pierre blanche n'aurait aucune liberté.",
                        ),
                    },
                ],
                answer: 1,
            },
            hint: w(
                "Imagine White takes back. Is the board the same as before Black's capture?",
                "Imaginez que Blanc reprend. Le plateau est-il le même qu'avant la prise de Noir ?",
            ),
            done: w(
                "This is the ko. Taking and taking back could go on for ever, so White must wait one turn.",
                "C'est le ko. Prendre et reprendre pourrait durer toujours, alors Blanc doit attendre un tour.",
            ),
        }),
        source: "règle strasbourgeoise, diag. 12 et la règle du ko ; règle FFG, diag. 11",
    },
    Screen {
        id: "s3-ko-later",
        step: 3,
        text: &[
            w(
                "White played elsewhere. Black answered elsewhere too.",
                "Blanc a joué ailleurs. Noir a répondu ailleurs aussi.",
            ),
            w("One turn has passed.", "Un tour est passé."),
        ],
        diagram: Some(Diagram {
            labels: KO_LABELS,
            moves: &["E4", "A7", "G1"],
            ..pos(KO, Color::Black)
        }),
        ask: Some(Ask {
            question: w(
                "You play White. Take back the ko!",
                "Vous jouez Blanc. Reprenez le ko !",
            ),
            task: Task::Play {
                goal: Goal::Capture(1),
                answers: &["D4"],
            },
            hint: w(
                "The black stone in atari has its last liberty at a.",
                "La pierre noire en atari a sa dernière liberté en a.",
            ),
            done: w(
                "Now it is allowed. And now Black must wait one turn.",
                "Maintenant c'est permis. Et c'est Noir qui doit attendre un tour.",
            ),
        }),
        source: "règle strasbourgeoise, la règle du ko",
    },
    Screen {
        id: "s3-end",
        step: 3,
        text: &[
            w(
                "Both players passed: the game is over.",
                "Les deux joueurs ont passé : la partie est finie.",
            ),
            w(
                "Each group kept two eyes, so nothing can be captured.",
                "Chaque groupe a gardé deux yeux, alors plus rien ne peut être capturé.",
            ),
            w(
                "Count the stones of each colour.",
                "Comptez les pierres de chaque couleur.",
            ),
        ],
        diagram: Some(pos(STRASBOURG_END, Color::Black)),
        ask: Some(Ask {
            question: w("Who wins?", "Qui gagne ?"),
            task: Task::Choose {
                options: WHO_WINS,
                answer: 0,
            },
            hint: w(
                "Count row by row. Black has more than White.",
                "Comptez ligne par ligne. Noir en a plus que Blanc.",
            ),
            done: w(
                "Black wins, 40 stones to 35.",
                "Noir gagne, 40 pierres à 35.",
            ),
        }),
        source: "règle strasbourgeoise, diag. 9 (Noir gagne par 40 à 35)",
    },
    Screen {
        id: "s3-game",
        step: 3,
        text: &[
            w(
                "Now a game against tengen.",
                "Maintenant, une partie contre tengen.",
            ),
            w(
                "Make groups with two eyes. Pass when there is nothing left to do.",
                "Faites des groupes avec deux yeux. Passez quand il n'y a plus rien à faire.",
            ),
        ],
        diagram: None,
        ask: None,
        source: "règle strasbourgeoise, jeu n°3",
    },
    // ---------------------------------------------------------- step 4
    Screen {
        id: "s4-territory",
        step: 4,
        text: &[
            w(
                "Empty points closed in by your stones alone are your territory.",
                "Les points vides enfermés par vos seules pierres sont votre territoire.",
            ),
            w(
                "The edge of the board helps to close them in.",
                "Le bord du plateau aide à les enfermer.",
            ),
        ],
        diagram: Some(pos(
            &[
                ".......", ".......", "OO.....", "XXOO...", ".XXXO..", "...XO..", "...XO..",
            ],
            Color::White,
        )),
        ask: Some(Ask {
            question: w(
                "How many points of territory does Black have in the corner?",
                "Combien de points de territoire Noir a-t-il dans le coin ?",
            ),
            task: Task::Choose {
                options: &[
                    Choice {
                        claim: Claim::Territory(Color::Black, 5),
                        words: w("5", "5"),
                    },
                    Choice {
                        claim: Claim::Territory(Color::Black, 7),
                        words: w("7", "7"),
                    },
                    Choice {
                        claim: Claim::Territory(Color::Black, 9),
                        words: w("9", "9"),
                    },
                ],
                answer: 1,
            },
            hint: w(
                "Count the empty points inside the black wall.",
                "Comptez les points vides à l'intérieur du mur noir.",
            ),
            done: w("Seven points of territory.", "Sept points de territoire."),
        }),
        source: "règle FFG, 4 (territoire), diag. 3",
    },
    Screen {
        id: "s4-count",
        step: 4,
        text: &[
            w(
                "At the end, each player counts stones and territory.",
                "À la fin, chacun compte ses pierres et son territoire.",
            ),
            w(
                "Black: 7 stones and 21 points, so 28.",
                "Noir : 7 pierres et 21 points, donc 28.",
            ),
            w(
                "White: 7 stones and 14 points, so 21.",
                "Blanc : 7 pierres et 14 points, donc 21.",
            ),
            w(
                "White also gets 7.5 points of komi, because Black played first.",
                "Blanc reçoit aussi 7,5 points de komi, parce que Noir a joué le premier.",
            ),
        ],
        diagram: Some(pos(LINE, Color::Black)),
        ask: Some(Ask {
            question: w("Who wins?", "Qui gagne ?"),
            task: Task::Choose {
                options: WHO_WINS,
                answer: 1,
            },
            hint: w(
                "Add the komi to White's 21 points.",
                "Ajoutez le komi aux 21 points de Blanc.",
            ),
            done: w(
                "White wins by half a point: 21 + 7.5 = 28.5.",
                "Blanc gagne d'un demi-point : 21 + 7,5 = 28,5.",
            ),
        }),
        source: "règle FFG, 8 (fin de la partie), diag. 12 (Blanc gagne d'un demi point)",
    },
    Screen {
        id: "s4-seki",
        step: 4,
        text: &[
            w("Look at d and e.", "Regardez d et e."),
            w(
                "Whoever plays there first gets captured.",
                "Celui qui y joue le premier se fait capturer.",
            ),
            w(
                "So nobody plays there: this is seki.",
                "Alors personne n'y joue : c'est le seki.",
            ),
            w(
                "Both chains stay alive. d and e count for nobody.",
                "Les deux chaînes restent vivantes. d et e ne comptent pour personne.",
            ),
        ],
        diagram: Some(Diagram {
            labels: SEKI_LABELS,
            ..pos(SEKI, Color::Black)
        }),
        ask: None,
        source: "règle FFG, 6 (vie et mort), diag. 9",
    },
    Screen {
        id: "s4-seki-capture",
        step: 4,
        text: &[
            w("Black played at d anyway.", "Noir a quand même joué en d."),
            w(
                "Now the black chain has one liberty left.",
                "Maintenant la chaîne noire n'a plus qu'une liberté.",
            ),
        ],
        diagram: Some(Diagram {
            labels: SEKI_LABELS,
            moves: &["A1"],
            ..pos(SEKI, Color::Black)
        }),
        ask: Some(Ask {
            question: w(
                "You play White. Show Black why that was a mistake!",
                "Vous jouez Blanc. Montrez à Noir pourquoi c'était une erreur !",
            ),
            task: Task::Play {
                goal: Goal::Capture(5),
                answers: &["D1"],
            },
            hint: w(
                "The last liberty of the black chain is at e.",
                "La dernière liberté de la chaîne noire est en e.",
            ),
            done: w(
                "Five stones captured. In a seki, wait: do not play first.",
                "Cinq pierres capturées. Dans un seki, on attend : on ne joue pas le premier.",
            ),
        }),
        source: "règle FFG, 6, diag. 9",
    },
    Screen {
        id: "s4-game",
        step: 4,
        text: &[
            w(
                "Now a real game of go against tengen.",
                "Maintenant, une vraie partie de go contre tengen.",
            ),
            w(
                "At the end, both agree on the dead stones. Then stones and territory are counted.",
                "À la fin, on se met d'accord sur les pierres mortes. Puis on compte pierres et territoire.",
            ),
        ],
        diagram: None,
        ask: None,
        source: "règle FFG, 8 (fin de la partie)",
    },
];
