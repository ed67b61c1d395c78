//! One live game: its settings, the rules' [`Game`], the clock and the
//! requests between players. Every change is an [`Action`]; the same
//! function applies it live and when the stored log is replayed, so the two
//! cannot drift.

use crate::clock::{Clock, TimeControl};
use crate::error::{Refusal, WebError};
use crate::store::{GameRow, StoredAction};
use crate::view::{self, View};
use serde::{Deserialize, Serialize};
use tengen_core::{
    BoardSize, Color, Game, HandicapStones, Move, Phase, Point, Preset, Rules, Vertex,
};

/// Serde for [`Color`] as `"black"` / `"white"`.
pub(crate) mod side {
    use serde::{Deserialize, Deserializer, Serializer};
    use tengen_core::Color;

    pub fn serialize<S: Serializer>(c: &Color, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(c.name())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Color, D::Error> {
        let text = String::deserialize(d)?;
        match text.as_str() {
            "black" => Ok(Color::Black),
            "white" => Ok(Color::White),
            other => Err(serde::de::Error::custom(format!(
                "{other:?} is not a colour (black or white)"
            ))),
        }
    }
}

/// How strongly the engine plays: its playouts per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Strength {
    /// A handful of playouts, and a move drawn among those the search
    /// looked at: the learning path's opponent.
    Beginner,
    /// 100 playouts.
    Easy,
    /// 2,000 playouts.
    Medium,
    /// 20,000 playouts.
    Strong,
}

impl Strength {
    /// Playouts per move.
    pub fn playouts(self) -> u64 {
        match self {
            Strength::Beginner => 8,
            Strength::Easy => 100,
            Strength::Medium => 2_000,
            Strength::Strong => 20_000,
        }
    }
}

/// Who the other player is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Opponent {
    /// tengen's engine plays `engine`.
    Engine {
        /// How strongly.
        strength: Strength,
        /// The engine's colour.
        #[serde(with = "side")]
        engine: Color,
    },
    /// Two people on one screen: one token holds both seats.
    SameScreen,
    /// A friend in another browser: one token per seat.
    Friend,
}

/// Who a connection is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seat {
    /// The player of one colour.
    Player(Color),
    /// Both players (same screen).
    Both,
    /// Anyone else: read only.
    Spectator,
}

impl Seat {
    /// `black`, `white`, `both` or `spectator`.
    pub fn name(self) -> &'static str {
        match self {
            Seat::Player(c) => c.name(),
            Seat::Both => "both",
            Seat::Spectator => "spectator",
        }
    }
}

/// A change to a game, as stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Action {
    /// A stone.
    Play {
        /// Who.
        #[serde(with = "side")]
        color: Color,
        /// Where (GTP vertex).
        vertex: String,
    },
    /// A pass.
    Pass {
        /// Who.
        #[serde(with = "side")]
        color: Color,
    },
    /// A resignation.
    Resign {
        /// Who resigns.
        #[serde(with = "side")]
        color: Color,
    },
    /// A request to take back moves, waiting for the opponent.
    UndoRequest {
        /// Who asks.
        #[serde(with = "side")]
        color: Color,
    },
    /// The request refused.
    UndoDecline {
        /// Who refuses.
        #[serde(with = "side")]
        color: Color,
    },
    /// Turns taken back.
    Undo {
        /// Who agreed (or asked, where no agreement is needed).
        #[serde(with = "side")]
        color: Color,
        /// How many turns.
        turns: u32,
    },
    /// A dead-stone proposal (the whole chains of these stones).
    Dead {
        /// Who proposes.
        #[serde(with = "side")]
        color: Color,
        /// Stones, as vertices.
        stones: Vec<String>,
    },
    /// The opponent's dead-stone proposal accepted: the game is counted.
    Accept {
        /// Who accepts.
        #[serde(with = "side")]
        color: Color,
    },
    /// The dead stones disputed: play resumes.
    Dispute {
        /// Who disputes.
        #[serde(with = "side")]
        color: Color,
    },
    /// A flag fell.
    Timeout {
        /// Whose.
        #[serde(with = "side")]
        color: Color,
    },
}

impl Action {
    /// The short kind stored beside the payload.
    pub fn kind(&self) -> &'static str {
        match self {
            Action::Play { .. } => "play",
            Action::Pass { .. } => "pass",
            Action::Resign { .. } => "resign",
            Action::UndoRequest { .. } => "undo_request",
            Action::UndoDecline { .. } => "undo_decline",
            Action::Undo { .. } => "undo",
            Action::Dead { .. } => "dead",
            Action::Accept { .. } => "accept",
            Action::Dispute { .. } => "dispute",
            Action::Timeout { .. } => "timeout",
        }
    }
}

/// What a player asks for over the socket.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Request {
    /// Play a stone.
    Play {
        /// Where (GTP vertex, `D4`).
        vertex: String,
    },
    /// Pass.
    Pass,
    /// Resign.
    Resign,
    /// Take back (at once against the engine or on one screen; by request
    /// to a friend).
    Undo,
    /// Agree to the opponent's undo request.
    AcceptUndo,
    /// Refuse it.
    DeclineUndo,
    /// Mark or unmark the chain at `vertex` as dead.
    ToggleDead {
        /// A stone of the chain.
        vertex: String,
    },
    /// Accept the dead stones on the table.
    AcceptDead,
    /// Dispute them: play resumes.
    Dispute,
}

/// Work for the engine after a change.
#[derive(Clone, Debug)]
pub enum EngineJob {
    /// Choose a move in this position.
    Move {
        /// A copy of the game.
        game: Box<Game>,
        /// Playouts.
        strength: Strength,
        /// The log position the move answers (stale if it changed).
        seq: u64,
    },
    /// Propose dead stones in this position.
    Dead {
        /// A copy of the game.
        game: Box<Game>,
        /// The engine's colour.
        engine: Color,
        /// The log position.
        seq: u64,
    },
}

/// A game being played. See the module docs.
#[derive(Debug)]
pub struct Room {
    row: GameRow,
    opponent: Opponent,
    game: Game,
    clock: Option<Clock>,
    turn_started: i64,
    undo_request: Option<Color>,
    final_dead: Vec<Point>,
    seq: u64,
}

/// The rules of a stored preset name.
pub fn preset_rules(name: &str) -> Result<(Preset, Rules), WebError> {
    let preset = Preset::from_name(name).ok_or_else(|| WebError::Invalid {
        field: "rules",
        why: format!(
            "unknown rules {name:?}: known rules are {}",
            Preset::known_names()
        ),
    })?;
    Ok((preset, preset.rules()))
}

fn parse_point(text: &str, size: BoardSize) -> Result<Point, WebError> {
    match Vertex::parse(text, size) {
        Ok(Vertex::Point(p)) => Ok(p),
        Ok(Vertex::Pass) => Err(WebError::Invalid {
            field: "vertex",
            why: "a pass is not a point".into(),
        }),
        Err(e) => Err(WebError::Invalid {
            field: "vertex",
            why: e.to_string(),
        }),
    }
}

impl Room {
    /// The game of a stored row, before any action.
    ///
    /// # Errors
    /// [`WebError::Invalid`] for settings the rules refuse.
    pub fn create(row: GameRow) -> Result<Room, WebError> {
        let (_, rules) = preset_rules(&row.rules)?;
        let size = BoardSize::new(row.width, row.height).map_err(|e| WebError::Invalid {
            field: "size",
            why: e.to_string(),
        })?;
        let stones =
            if row.handicap_stones == "fixed" {
                HandicapStones::Fixed
            } else {
                let points = tengen_core::vertex::parse_points(&row.handicap_stones, size)
                    .map_err(|e| WebError::Invalid {
                        field: "handicap_stones",
                        why: e.to_string(),
                    })?;
                HandicapStones::Free(points)
            };
        let mut game = Game::with_handicap(rules, size, row.handicap, stones).map_err(|e| {
            WebError::Invalid {
                field: "handicap",
                why: e.to_string(),
            }
        })?;
        if let Some(k) = &row.komi {
            let komi = k
                .parse()
                .map_err(|e: tengen_core::ParsePointsError| WebError::Invalid {
                    field: "komi",
                    why: e.to_string(),
                })?;
            game.set_komi(komi);
        }
        let opponent: Opponent = serde_json::from_str(&row.opponent)?;
        let clock = match &row.clock {
            Some(c) => {
                let control: TimeControl = serde_json::from_str(c)?;
                Some(Clock::new(control.validate().map_err(|e| {
                    WebError::Invalid {
                        field: "clock",
                        why: e.to_string(),
                    }
                })?))
            }
            None => None,
        };
        Ok(Room {
            turn_started: row.created,
            row,
            opponent,
            game,
            clock,
            undo_request: None,
            final_dead: Vec::new(),
            seq: 0,
        })
    }

    /// The game of a stored row with its stored actions replayed.
    ///
    /// # Errors
    /// [`WebError`] when the row or an action no longer applies (a corrupt
    /// database).
    pub fn replay(row: GameRow, actions: &[StoredAction]) -> Result<Room, WebError> {
        let mut room = Room::create(row)?;
        for a in actions {
            let action: Action = serde_json::from_str(&a.payload)?;
            room.apply(&action, a.at)?;
            room.seq = a.seq;
        }
        Ok(room)
    }

    /// The stored settings.
    pub fn row(&self) -> &GameRow {
        &self.row
    }

    /// The opponent.
    pub fn opponent(&self) -> Opponent {
        self.opponent
    }

    /// The game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The last log position.
    pub fn seq(&self) -> u64 {
        self.seq
    }

    /// The seat a token gives (an unknown or missing token: spectator).
    pub fn seat(&self, token: Option<&str>) -> Seat {
        let Some(t) = token.filter(|t| !t.is_empty()) else {
            return Seat::Spectator;
        };
        let black = t == self.row.black_token;
        let white = t == self.row.white_token;
        match (black, white) {
            (true, true) => Seat::Both,
            (true, false) => Seat::Player(Color::Black),
            (false, true) => Seat::Player(Color::White),
            (false, false) => Seat::Spectator,
        }
    }

    fn engine_color(&self) -> Option<Color> {
        match self.opponent {
            Opponent::Engine { engine, .. } => Some(engine),
            _ => None,
        }
    }

    /// The colour whose flag has fallen at `now`, if any.
    pub fn flag_fallen(&self, now: i64) -> Option<Color> {
        let clock = self.clock.as_ref()?;
        if self.game.phase() != Phase::Playing {
            return None;
        }
        let c = self.game.to_move();
        (now - self.turn_started > clock.allowance(c)).then_some(c)
    }

    /// When the flag of the player to move falls, ms since the epoch.
    pub fn flag_deadline(&self) -> Option<i64> {
        let clock = self.clock.as_ref()?;
        (self.game.phase() == Phase::Playing)
            .then(|| self.turn_started + clock.allowance(self.game.to_move()) + 1)
    }

    /// The actions a request from `seat` becomes.
    ///
    /// # Errors
    /// [`WebError::Forbidden`] for a spectator, out of turn or without a
    /// request to answer; [`WebError::Invalid`] for a bad vertex.
    pub fn resolve(&self, seat: Seat, request: &Request) -> Result<Vec<Action>, WebError> {
        let me = match seat {
            Seat::Spectator => return Err(WebError::Forbidden(Refusal::Spectator)),
            Seat::Player(c) => c,
            Seat::Both => self.game.to_move(),
        };
        let size = self.game.size();
        let on_turn = || {
            if self.game.phase() == Phase::Playing && self.game.to_move() != me {
                Err(WebError::Forbidden(Refusal::NotYourTurn))
            } else {
                Ok(())
            }
        };
        let action = match request {
            Request::Play { vertex } => {
                on_turn()?;
                parse_point(vertex, size)?;
                Action::Play {
                    color: me,
                    vertex: vertex.trim().to_ascii_uppercase(),
                }
            }
            Request::Pass => {
                on_turn()?;
                Action::Pass { color: me }
            }
            Request::Resign => Action::Resign { color: me },
            Request::Undo => return self.resolve_undo(seat, me),
            Request::AcceptUndo | Request::DeclineUndo => {
                let asker = self
                    .undo_request
                    .filter(|&c| c != me || seat == Seat::Both)
                    .ok_or(WebError::Forbidden(Refusal::NoRequest))?;
                if *request == Request::DeclineUndo {
                    Action::UndoDecline {
                        color: asker.opponent(),
                    }
                } else {
                    Action::Undo {
                        color: asker.opponent(),
                        turns: self.turns_back_to(asker),
                    }
                }
            }
            Request::ToggleDead { vertex } => {
                let p = parse_point(vertex, size)?;
                let (proposer, current) = match self.game.dead_proposal() {
                    Some((c, dead)) => (c, dead.to_vec()),
                    None => (me, Vec::new()),
                };
                let proposer = if seat == Seat::Both { proposer } else { me };
                let chain: Vec<Point> = self.game.board().chain(p).collect();
                if chain.is_empty() {
                    return Err(WebError::End(tengen_core::EndError::NotAStone));
                }
                let mut dead = current.clone();
                if current.contains(&p) {
                    dead.retain(|q| !chain.contains(q));
                } else {
                    dead.extend(chain);
                }
                let stones: Vec<String> =
                    dead.iter().map(|&q| Vertex::point_name(q, size)).collect();
                Action::Dead {
                    color: proposer,
                    stones,
                }
            }
            Request::AcceptDead => return self.resolve_accept(seat, me),
            Request::Dispute => Action::Dispute { color: me },
        };
        Ok(vec![action])
    }

    fn resolve_undo(&self, seat: Seat, me: Color) -> Result<Vec<Action>, WebError> {
        if self.game.turns().is_empty() {
            return Err(WebError::End(tengen_core::EndError::NothingToUndo));
        }
        let immediate = |asker: Color| Action::Undo {
            color: asker,
            turns: self.turns_back_to(asker),
        };
        Ok(vec![match (self.opponent, seat) {
            (Opponent::Engine { .. }, _) => immediate(me),
            (_, Seat::Both) => Action::Undo {
                color: me,
                turns: 1,
            },
            _ if self.undo_request.is_some() => {
                return Err(WebError::Forbidden(Refusal::Pending));
            }
            _ => Action::UndoRequest { color: me },
        }])
    }

    /// Turns to take back so that `asker` is to move again: his last turn
    /// and what followed it.
    fn turns_back_to(&self, asker: Color) -> u32 {
        let turns = self.game.turns();
        turns
            .iter()
            .rposition(|t| t.color == asker)
            .map_or(1, |i| (turns.len() - i) as u32)
    }

    fn resolve_accept(&self, seat: Seat, me: Color) -> Result<Vec<Action>, WebError> {
        let other = |c: Color| match (self.opponent, seat) {
            (Opponent::Engine { engine, .. }, _) if c != engine => Some(engine),
            (_, Seat::Both) => Some(c.opponent()),
            _ => (c != me).then_some(me),
        };
        match self.game.dead_proposal() {
            Some((proposer, _)) => match other(proposer) {
                Some(acceptor) => Ok(vec![Action::Accept { color: acceptor }]),
                // One's own proposal: the opponent must accept it.
                None => Err(WebError::End(tengen_core::EndError::NoProposal)),
            },
            None => {
                // Nothing proposed yet: "accept" proposes that no stone is
                // dead, and a partner on the same side accepts at once.
                let mut v = vec![Action::Dead {
                    color: me,
                    stones: Vec::new(),
                }];
                if let Some(acceptor) = other(me).filter(|&c| c != me) {
                    v.push(Action::Accept { color: acceptor });
                }
                Ok(v)
            }
        }
    }

    /// Applies an action received at `at` (ms since the epoch).
    ///
    /// # Errors
    /// [`WebError`] naming the rule when the game refuses it; the room is
    /// then unchanged.
    pub fn apply(&mut self, action: &Action, at: i64) -> Result<(), WebError> {
        let size = self.game.size();
        match action {
            Action::Play { color, vertex } => {
                let p = parse_point(vertex, size)?;
                self.game.play_as(*color, Move::Play(p))?;
                self.after_turn(*color, at);
            }
            Action::Pass { color } => {
                self.game.play_as(*color, Move::Pass)?;
                self.after_turn(*color, at);
            }
            Action::Resign { color } => self.game.resign(*color)?,
            Action::UndoRequest { color } => {
                if self.game.phase() == Phase::Over {
                    return Err(WebError::End(tengen_core::EndError::WrongPhase("over")));
                }
                self.undo_request = Some(*color);
            }
            Action::UndoDecline { .. } => self.undo_request = None,
            Action::Undo { turns, .. } => {
                if self.game.phase() == Phase::Over {
                    return Err(WebError::End(tengen_core::EndError::WrongPhase("over")));
                }
                if *turns as usize > self.game.turns().len() || *turns == 0 {
                    return Err(WebError::End(tengen_core::EndError::NothingToUndo));
                }
                for _ in 0..*turns {
                    self.game.undo()?;
                }
                self.final_dead.clear();
                self.undo_request = None;
                self.turn_started = at;
            }
            Action::Dead { color, stones } => {
                let points = stones
                    .iter()
                    .map(|v| parse_point(v, size))
                    .collect::<Result<Vec<_>, _>>()?;
                self.game.propose_dead(*color, &points)?;
            }
            Action::Accept { color } => {
                let dead = self.game.dead_proposal().map(|(_, d)| d.to_vec());
                self.game.accept_dead(*color)?;
                self.final_dead = dead.unwrap_or_default();
            }
            Action::Dispute { color } => {
                self.game.dispute(*color)?;
                self.turn_started = at;
            }
            Action::Timeout { color } => {
                self.game.lose_on_time(*color)?;
            }
        }
        Ok(())
    }

    fn after_turn(&mut self, color: Color, at: i64) {
        if let Some(clock) = &mut self.clock {
            // A late move is refused live (the timeout is stored instead),
            // so a replayed move is never flagged.
            let _ = clock.spend(color, at - self.turn_started);
        }
        self.turn_started = at;
        self.undo_request = None;
    }

    /// Records that the action just applied was stored as `seq`.
    pub fn stored(&mut self, seq: u64) {
        self.seq = seq;
    }

    /// The stored state name after the last action.
    pub fn state(&self) -> &'static str {
        match self.game.phase() {
            Phase::Playing => "playing",
            Phase::Marking => "marking",
            Phase::Over => "over",
        }
    }

    /// What the engine should do now, if anything.
    pub fn engine_job(&self) -> Option<EngineJob> {
        let Opponent::Engine { strength, engine } = self.opponent else {
            return None;
        };
        match self.game.phase() {
            Phase::Playing if self.game.to_move() == engine => Some(EngineJob::Move {
                game: Box::new(self.game.clone()),
                strength,
                seq: self.seq,
            }),
            Phase::Marking if self.game.dead_proposal().is_none() => Some(EngineJob::Dead {
                game: Box::new(self.game.clone()),
                engine,
                seq: self.seq,
            }),
            _ => None,
        }
    }

    /// The engine's colour, when it plays in this game.
    pub fn engine(&self) -> Option<Color> {
        self.engine_color()
    }

    /// The learner who wins this learning-path game, if it is one and is won.
    pub fn lesson_won(&self) -> Option<(&str, u32)> {
        let lesson = self.row.lesson?;
        let learner = self.row.learner.as_deref()?;
        let human = self.engine_color()?.opponent();
        (self.game.outcome()?.winner() == Some(human)).then_some((learner, lesson))
    }

    /// The game as an SGF record.
    pub fn sgf(&self) -> String {
        let name = |c: Color| match self.opponent {
            Opponent::Engine { strength, engine } if engine == c => {
                let level = serde_json::to_value(strength)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_string))
                    .unwrap_or_default();
                Some(format!("tengen ({level})"))
            }
            _ => None,
        };
        let info = tengen_sgf::record::RecordInfo {
            size: self.game.size(),
            rules: *self.game.rules(),
            rules_text: None,
            komi: self.game.komi(),
            handicap: self.game.handicap(),
            result_text: None,
            black: name(Color::Black),
            white: name(Color::White),
            date: None,
        };
        tengen_sgf::write_tree(&tengen_sgf::record::write_game(&self.game, &info))
    }

    /// What every viewer sees, at `now`.
    pub fn view(&self, now: i64) -> View {
        view::build(view::Parts {
            row: &self.row,
            opponent: self.opponent,
            game: &self.game,
            clock: self.clock.as_ref(),
            turn_started: self.turn_started,
            undo_request: self.undo_request,
            final_dead: &self.final_dead,
            seq: self.seq,
            now,
        })
    }
}
