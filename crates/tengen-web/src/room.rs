//! One live game, as a state machine: the rules' [`Game`] under its
//! [`Settings`], the clock and the requests between players. A player's
//! [`Request`] is resolved into [`Action`]s, each applied by the same
//! function live and when the stored log is replayed, so the two cannot
//! drift; [`Room::view`] is what everyone sees. The settings arrive typed
//! (their text is read at the edges, in `settings`), the actions' stored
//! form is `action`'s and the socket's messages are `protocol`'s.

use crate::action::Action;
use crate::error::{Refusal, WebError};
use crate::pauses::Pauses;
use crate::protocol::{Request, Seat};
use crate::settings::{Opponent, Settings, Strength};
use crate::store::{JobChange, StoredAction};
use crate::view::{self, View};
use std::sync::Arc;
use tengen_core::{BoardSize, Clock, Color, Game, Move, Phase, Point, Vertex};

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
    settings: Settings,
    game: Game,
    clock: Option<Clock>,
    turn_started: i64,
    /// The outages, over which the clock stands still.
    pauses: Arc<Pauses>,
    undo_request: Option<Color>,
    final_dead: Vec<Point>,
    seq: u64,
}

fn parse_point(text: &str, size: BoardSize) -> Result<Point, WebError> {
    match Vertex::parse(text, size) {
        Ok(Vertex::Point(p)) => Ok(p),
        Ok(Vertex::Pass) => Err(WebError::invalid("vertex", "a pass is not a point")),
        Err(e) => Err(WebError::invalid("vertex", e)),
    }
}

impl Room {
    /// The game of these settings, before any action.
    ///
    /// # Errors
    /// [`WebError::Invalid`] for a handicap the rules refuse.
    pub fn create(settings: Settings) -> Result<Room, WebError> {
        Ok(Room {
            game: settings.game()?,
            clock: settings.clock(),
            turn_started: settings.created,
            pauses: Arc::default(),
            settings,
            undo_request: None,
            final_dead: Vec::new(),
            seq: 0,
        })
    }

    /// The game of these settings with its stored actions replayed, its
    /// clock charged only while a server ran (`pauses` are the outages).
    ///
    /// # Errors
    /// [`WebError`] when an action no longer applies (a corrupt database).
    pub fn replay(
        settings: Settings,
        actions: &[StoredAction],
        pauses: Arc<Pauses>,
    ) -> Result<Room, WebError> {
        let mut room = Room::create(settings)?;
        room.pauses = pauses;
        room.catch_up(actions)?;
        Ok(room)
    }

    /// When the turn's clock started, moved on by the outages since the
    /// turn began (all past: this server runs).
    fn clock_start(&self) -> i64 {
        self.turn_started
            .saturating_add(self.pauses.within(self.turn_started, i64::MAX))
    }

    /// Applies the stored actions past this room's position (those another
    /// server stored), in order.
    ///
    /// # Errors
    /// [`WebError`] when an action does not apply; the actions before it
    /// are applied, and the room should then be replayed whole.
    pub fn catch_up(&mut self, actions: &[StoredAction]) -> Result<(), WebError> {
        let from = self.seq;
        for a in actions.iter().filter(|a| a.seq > from) {
            let action = Action::read(&a.payload)?;
            self.apply(&action, a.at)?;
            self.seq = a.seq;
        }
        Ok(())
    }

    /// The settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Gives seat `color` the token whose digest is `digest` (a seat taken
    /// from the lobby, here or on another server).
    pub fn set_token(&mut self, color: Color, digest: String) {
        self.settings.tokens[color] = digest;
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
        Seat::proven(
            token,
            &self.settings.tokens.black,
            &self.settings.tokens.white,
        )
    }

    /// The colour whose flag has fallen at `now`, if any.
    pub fn flag_fallen(&self, now: i64) -> Option<Color> {
        let clock = self.clock.as_ref()?;
        if self.game.phase() != Phase::Playing {
            return None;
        }
        let c = self.game.to_move();
        clock
            .allowance(c)
            .is_some_and(|a| now - self.clock_start() > a)
            .then_some(c)
    }

    /// When the flag of the player to move falls, ms since the epoch.
    pub fn flag_deadline(&self) -> Option<i64> {
        let clock = self.clock.as_ref()?;
        if self.game.phase() != Phase::Playing {
            return None;
        }
        let allowance = clock.allowance(self.game.to_move())?;
        Some(
            self.clock_start()
                .saturating_add(allowance)
                .saturating_add(1),
        )
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
        Ok(vec![match (self.settings.opponent, seat) {
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
        let other = |c: Color| match (self.settings.opponent, seat) {
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
            // The engine's proposal is on its way: accepting now would count
            // every stone alive.
            None if self.engine_waiting() => Err(WebError::Forbidden(Refusal::EngineMarking)),
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
            let _ = clock.spend(color, self.pauses.running(self.turn_started, at));
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
        crate::settings::phase_name(self.game.phase())
    }

    /// What the engine should do now, if anything.
    pub fn engine_job(&self) -> Option<EngineJob> {
        let Opponent::Engine { strength, engine } = self.settings.opponent else {
            return None;
        };
        if !self.engine_waiting() {
            return None;
        }
        Some(match self.game.phase() {
            Phase::Playing => EngineJob::Move {
                game: Box::new(self.game.clone()),
                strength,
                seq: self.seq,
            },
            _ => EngineJob::Dead {
                game: Box::new(self.game.clone()),
                engine,
                seq: self.seq,
            },
        })
    }

    /// Whether the engine has something to do now: its move, or the first
    /// dead-stone proposal.
    pub fn engine_waiting(&self) -> bool {
        let Opponent::Engine { engine, .. } = self.settings.opponent else {
            return false;
        };
        match self.game.phase() {
            Phase::Playing => self.game.to_move() == engine,
            Phase::Marking => self.game.dead_proposal().is_none(),
            _ => false,
        }
    }

    /// What the last action stored does to the engine's job.
    pub fn job_change(&self) -> JobChange {
        match (self.settings.engine(), self.engine_waiting()) {
            (None, _) => JobChange::Keep,
            (Some(_), true) => JobChange::Open,
            (Some(_), false) => JobChange::Close,
        }
    }

    /// The learner who wins this learning-path game, if it is one and is won.
    pub fn lesson_won(&self) -> Option<(&str, u32)> {
        let learning = self.settings.learning.as_ref()?;
        let human = self.settings.engine()?.opponent();
        (self.game.outcome()?.winner() == Some(human))
            .then_some((learning.learner.as_str(), learning.step))
    }

    /// The game as an SGF record: `players` are the names the two seats
    /// gave (Black's, White's), the engine's seat is named after it, and the
    /// date is the day the game was created, so that the record says who
    /// played when.
    pub fn sgf(&self, players: [Option<String>; 2]) -> String {
        let [black, white] = players;
        let name = |c: Color, given: Option<String>| match self.settings.opponent {
            Opponent::Engine { strength, engine } if engine == c => {
                Some(crate::settings::engine_name(strength))
            }
            _ => given,
        };
        let info = tengen_sgf::record::RecordInfo {
            black: name(Color::Black, black),
            white: name(Color::White, white),
            date: Some(crate::date::sgf_date(self.settings.created)),
            time: self
                .clock
                .as_ref()
                .map_or(tengen_core::TimeControl::None, |c| c.control()),
            ..tengen_sgf::record::RecordInfo::of(&self.game)
        };
        tengen_sgf::write_tree(&tengen_sgf::record::write_game(&self.game, &info))
    }

    /// What every viewer sees, at `now`.
    pub fn view(&self, now: i64) -> View {
        view::build(view::Parts {
            settings: &self.settings,
            game: &self.game,
            clock: self.clock.as_ref(),
            turn_started: self.clock_start(),
            undo_request: self.undo_request,
            final_dead: &self.final_dead,
            seq: self.seq,
            now,
        })
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // tests fail loudly

    use super::*;
    use crate::settings::NewGame;

    /// A 9x9 Chinese game against the easy engine, which plays White.
    fn engine_room() -> Room {
        let form: NewGame = serde_json::from_str(
            r#"{"rules": "chinese", "size": 9,
                "opponent": {"kind": "engine", "strength": "easy", "color": "black"}}"#,
        )
        .unwrap();
        let seating = form.opponent.seating("b".into(), "w".into());
        Room::create(
            Settings::from_form(form, "0123456789abcdef".into(), seating.tokens, 0).unwrap(),
        )
        .unwrap()
    }

    /// Issue: an "Accept" pressed before the engine's proposal arrived
    /// counted every stone alive. It now waits for the proposal.
    #[test]
    fn accepting_waits_for_the_engines_dead_stones() {
        let mut room = engine_room();
        room.apply(
            &Action::Play {
                color: Color::Black,
                vertex: "E5".into(),
            },
            1,
        )
        .unwrap();
        for (color, at) in [(Color::White, 2), (Color::Black, 3)] {
            room.apply(&Action::Pass { color }, at).unwrap();
        }
        assert_eq!(room.game.phase(), Phase::Marking);
        assert!(room.engine_waiting(), "the engine's proposal is due");
        let me = Seat::Player(Color::Black);
        assert!(matches!(
            room.resolve(me, &Request::AcceptDead),
            Err(WebError::Forbidden(Refusal::EngineMarking))
        ));
        // Once the engine proposed, the learner accepts its proposal.
        room.apply(
            &Action::Dead {
                color: Color::White,
                stones: Vec::new(),
            },
            5,
        )
        .unwrap();
        let actions = room.resolve(me, &Request::AcceptDead).unwrap();
        assert!(
            matches!(
                actions[..],
                [Action::Accept {
                    color: Color::Black
                }]
            ),
            "{actions:?}"
        );
    }
}
