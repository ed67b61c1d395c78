//! A game's settings, typed: its rules preset, board, komi, handicap,
//! opponent (and the engine's strength), clock and learning-path step, with
//! its id and seat tokens. They are read once at each edge, from the
//! new-game form when a game is created and from its stored row when it is
//! loaded, through the same parsers, and written back only as that row:
//! past the edge nothing reads their text. Which learning step a learner
//! may open is the hub's (it needs the database), not this module's.

use crate::clock::ClockSettings;
use crate::error::WebError;
use crate::seat::{Seat, side};
use crate::store::GameRow;
use crate::token;
use serde::{Deserialize, Serialize};
use tengen_core::Clock;
use tengen_core::size::MAX_SIZE;
use tengen_core::{BoardSize, ByColor, Color, Game, HandicapStones, Phase, Points, Preset, Vertex};

pub use tengen_mcts::Strength;

/// A [`Strength`] in JSON and in the stored row: its name.
pub(crate) mod strength {
    use super::Strength;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(level: &Strength, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(level.name())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Strength, D::Error> {
        Strength::from_name(&String::deserialize(d)?).map_err(serde::de::Error::custom)
    }
}

/// The engine's name as a player (in records and lists): `tengen (easy)`.
pub fn engine_name(strength: Strength) -> String {
    format!("tengen ({})", strength.name())
}

/// Who the other player is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Opponent {
    /// tengen's engine plays `engine`.
    Engine {
        /// How strongly.
        #[serde(with = "strength")]
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

/// The opponent chosen in the new-game form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum OpponentChoice {
    /// The engine, the creator playing `color`.
    Engine {
        /// How strongly the engine plays.
        #[serde(with = "strength")]
        strength: Strength,
        /// The creator's colour.
        #[serde(with = "side")]
        color: Color,
    },
    /// Both players on this screen.
    SameScreen,
    /// A friend through an invitation link; the creator plays `color`.
    Friend {
        /// The creator's colour.
        #[serde(with = "side")]
        color: Color,
    },
}

/// Who sits where in a new game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seating {
    /// Each colour's seat token (the same token for both on one screen).
    pub tokens: ByColor<String>,
    /// The creator's seat.
    pub creator: Seat,
    /// The friend's token, for the invitation link.
    pub invite: Option<String>,
}

impl OpponentChoice {
    /// The opponent of the game.
    pub fn opponent(self) -> Opponent {
        match self {
            OpponentChoice::Engine { strength, color } => Opponent::Engine {
                strength,
                engine: color.opponent(),
            },
            OpponentChoice::SameScreen => Opponent::SameScreen,
            OpponentChoice::Friend { .. } => Opponent::Friend,
        }
    }

    /// The seats: `creator` is the creator's token, `other` the other
    /// seat's (given to the friend, or to no one against the engine).
    pub fn seating(self, creator: String, other: String) -> Seating {
        let (color, invite) = match self {
            OpponentChoice::Engine { color, .. } => (color, None),
            OpponentChoice::Friend { color } => (color, Some(other.clone())),
            OpponentChoice::SameScreen => {
                return Seating {
                    tokens: ByColor::new(creator.clone(), creator),
                    creator: Seat::Both,
                    invite: None,
                };
            }
        };
        let tokens = match color {
            Color::Black => ByColor::new(creator, other),
            Color::White => ByColor::new(other, creator),
        };
        Seating {
            tokens,
            creator: Seat::Player(color),
            invite,
        }
    }
}

/// The new-game form.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// Preset name (any alias).
    #[serde(default = "default_rules")]
    pub rules: String,
    /// Board width (and height unless given).
    #[serde(default = "default_size")]
    pub size: u32,
    /// Board height for a rectangular board.
    #[serde(default)]
    pub height: Option<u32>,
    /// Komi, exact (`7.5`); none: the rules' komi or handicap compensation.
    #[serde(default)]
    pub komi: Option<String>,
    /// Handicap stones.
    #[serde(default)]
    pub handicap: u32,
    /// Free placement: the stones' vertices (`D4 Q16`); none: fixed points.
    #[serde(default)]
    pub handicap_stones: Option<String>,
    /// Who plays.
    pub opponent: OpponentChoice,
    /// The time control, if any.
    #[serde(default)]
    pub clock: Option<ClockSettings>,
    /// A learning-path step instead of the settings above.
    #[serde(default)]
    pub lesson: Option<u32>,
    /// The learner (a learning-path game).
    #[serde(default)]
    pub learner: Option<String>,
    /// List the game in the lobby (a game with a friend): anyone may take
    /// the free seat, and anyone watch.
    #[serde(default)]
    pub lobby: bool,
}

fn default_rules() -> String {
    "ffg".into()
}

fn default_size() -> u32 {
    19
}

/// Board sides the new-game form offers at one click, smallest first (the
/// form starts on the first); any other is typed.
pub const OFFERED_SIDES: [u32; 3] = [9, 13, 19];

/// The board sizes the page offers (`GET /api/sizes`): the sides at one
/// click and the range of the sides a board may have.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct SizeChoice {
    /// The sides offered at one click.
    pub offered: [u32; 3],
    /// The smallest side.
    pub min: u32,
    /// The largest side.
    pub max: u32,
}

/// What [`BoardSize::new`] accepts, and the sides offered.
pub const SIZES: SizeChoice = SizeChoice {
    offered: OFFERED_SIDES,
    min: 1,
    max: MAX_SIZE as u32,
};

/// A game's settings. See the module docs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The rules.
    pub preset: Preset,
    /// The board.
    pub size: BoardSize,
    /// Komi chosen (`None`: the rules' komi or handicap compensation).
    pub komi: Option<Points>,
    /// Handicap stones.
    pub handicap: u32,
    /// Where they go.
    pub handicap_stones: HandicapStones,
    /// The time control, checked.
    pub clock: Option<ClockSettings>,
    /// Who plays whom.
    pub opponent: Opponent,
    /// The learning-path step, if the game is one.
    pub learning: Option<Learning>,
    /// Public id (in the game's address).
    pub id: String,
    /// The digest of each colour's seat token ([`crate::token::digest`]):
    /// the tokens themselves are given out once and kept nowhere.
    pub tokens: ByColor<String>,
    /// Creation time, ms since the epoch (when the first turn started).
    pub created: i64,
}

/// A learning-path game: which step, and who plays it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Learning {
    /// 1 to 4.
    pub step: u32,
    /// The learner, who opens the next step by winning.
    pub learner: String,
}

fn read_preset(name: &str) -> Result<Preset, WebError> {
    Preset::from_name(name).ok_or_else(|| {
        WebError::invalid(
            "rules",
            format!(
                "unknown rules {name:?}: known rules are {}",
                Preset::known_names()
            ),
        )
    })
}

fn read_size(width: u32, height: u32) -> Result<BoardSize, WebError> {
    BoardSize::new(width, height).map_err(|e| WebError::invalid("size", e))
}

fn read_komi(text: &str) -> Result<Points, WebError> {
    text.parse().map_err(|e| WebError::invalid("komi", e))
}

/// The stored word for handicap stones on the fixed points.
const FIXED: &str = "fixed";

fn read_stones(text: &str, size: BoardSize) -> Result<HandicapStones, WebError> {
    if text == FIXED {
        return Ok(HandicapStones::Fixed);
    }
    tengen_core::vertex::parse_points(text, size)
        .map(HandicapStones::Free)
        .map_err(|e| WebError::invalid("handicap_stones", e))
}

fn read_clock(control: ClockSettings) -> Result<ClockSettings, WebError> {
    control
        .validate()
        .map_err(|e| WebError::invalid("clock", e))
}

/// A step and its learner, stored side by side: a game is a learning-path
/// game when it has both.
fn learning(step: Option<u32>, learner: Option<String>) -> Option<Learning> {
    let (step, learner) = step.zip(learner)?;
    Some(Learning { step, learner })
}

impl Settings {
    /// The settings of the new-game form (a learning step already turned
    /// into its form), with the game's id, seat tokens (kept as their
    /// digests) and creation time.
    ///
    /// # Errors
    /// [`WebError::Invalid`] naming the first field that does not read; the
    /// handicap is checked against the board and the rules by
    /// [`Settings::game`].
    pub fn from_form(
        form: NewGame,
        id: String,
        tokens: ByColor<String>,
        created: i64,
    ) -> Result<Settings, WebError> {
        let preset = read_preset(&form.rules)?;
        let size = read_size(form.size, form.height.unwrap_or(form.size))?;
        let komi = form.komi.as_deref().map(read_komi).transpose()?;
        let clock = form.clock.map(read_clock).transpose()?;
        let handicap_stones = match form.handicap_stones.filter(|s| !s.trim().is_empty()) {
            Some(text) => read_stones(&text, size)?,
            None => HandicapStones::Fixed,
        };
        Ok(Settings {
            id,
            tokens: tokens.map(|t| token::digest(&t)),
            created,
            preset,
            size,
            komi,
            handicap: form.handicap,
            handicap_stones,
            opponent: form.opponent.opponent(),
            clock,
            learning: learning(form.lesson, form.learner),
        })
    }

    /// The settings of a stored row.
    ///
    /// # Errors
    /// [`WebError`] for a row that no longer reads (a corrupt database).
    pub fn from_row(row: &GameRow) -> Result<Settings, WebError> {
        let size = read_size(row.width, row.height)?;
        let clock = match &row.clock {
            Some(text) => Some(read_clock(serde_json::from_str(text)?)?),
            None => None,
        };
        Ok(Settings {
            id: row.id.clone(),
            tokens: ByColor::new(row.black_token.clone(), row.white_token.clone()),
            created: row.created,
            preset: read_preset(&row.rules)?,
            size,
            komi: row.komi.as_deref().map(read_komi).transpose()?,
            handicap: row.handicap,
            handicap_stones: read_stones(&row.handicap_stones, size)?,
            opponent: serde_json::from_str(&row.opponent)?,
            clock,
            learning: learning(row.lesson, row.learner.clone()),
        })
    }

    /// The row a new game is stored as.
    ///
    /// # Errors
    /// [`WebError::Stored`] if the opponent or clock cannot be written.
    pub fn to_row(&self) -> Result<GameRow, WebError> {
        let size = self.size;
        Ok(GameRow {
            id: self.id.clone(),
            rules: self.preset.name().into(),
            width: size.width(),
            height: size.height(),
            komi: self.komi.map(|k| k.to_string()),
            handicap: self.handicap,
            handicap_stones: match &self.handicap_stones {
                HandicapStones::Fixed => FIXED.into(),
                HandicapStones::Free(points) => points
                    .iter()
                    .map(|&p| Vertex::point_name(p, size))
                    .collect::<Vec<_>>()
                    .join(" "),
            },
            opponent: serde_json::to_string(&self.opponent)?,
            black_token: self.tokens.black.clone(),
            white_token: self.tokens.white.clone(),
            clock: self.clock.map(|c| serde_json::to_string(&c)).transpose()?,
            lesson: self.learning.as_ref().map(|l| l.step),
            learner: self.learning.as_ref().map(|l| l.learner.clone()),
            created: self.created,
            state: phase_name(Phase::Playing).into(),
            result: None,
        })
    }

    /// The game before any turn: handicap placed, komi set.
    ///
    /// # Errors
    /// [`WebError::Invalid`] for a handicap the board or the rules refuse.
    pub fn game(&self) -> Result<Game, WebError> {
        let mut game = Game::with_handicap(
            self.preset.rules(),
            self.size,
            self.handicap,
            self.handicap_stones.clone(),
        )
        .map_err(|e| WebError::invalid("handicap", e))?;
        if let Some(komi) = self.komi {
            game.set_komi(komi);
        }
        Ok(game)
    }

    /// The clocks at the start.
    pub fn clock(&self) -> Option<Clock> {
        self.clock.map(|c| Clock::new(c.control()))
    }

    /// The engine's colour, when it plays in this game.
    pub fn engine(&self) -> Option<Color> {
        match self.opponent {
            Opponent::Engine { engine, .. } => Some(engine),
            _ => None,
        }
    }
}

/// The name of a phase, in views and in the games table's `state`.
pub fn phase_name(phase: Phase) -> &'static str {
    match phase {
        Phase::Playing => "playing",
        Phase::Marking => "marking",
        Phase::Over => "over",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A row as databases already hold it.
    fn stored() -> GameRow {
        GameRow {
            id: "0123456789abcdef".into(),
            rules: "ffg".into(),
            width: 19,
            height: 19,
            komi: Some("0.5".into()),
            handicap: 2,
            handicap_stones: "D4 Q16".into(),
            opponent: r#"{"kind":"engine","strength":"easy","engine":"white"}"#.into(),
            black_token: "b".into(),
            white_token: "w".into(),
            clock: Some(r#"{"kind":"byo_yomi","main_s":60,"periods":3,"period_s":30}"#.into()),
            lesson: None,
            learner: None,
            created: 1_700_000_000_000,
            state: "playing".into(),
            result: None,
        }
    }

    #[test]
    fn a_stored_row_reads_and_writes_back_unchanged() {
        let row = stored();
        let settings = Settings::from_row(&row).unwrap();
        assert_eq!(settings.preset, Preset::Ffg);
        assert_eq!(settings.komi, Some("0.5".parse().unwrap()));
        assert_eq!(
            settings.opponent,
            Opponent::Engine {
                strength: Strength::Easy,
                engine: Color::White
            }
        );
        assert_eq!(settings.engine(), Some(Color::White));
        assert!(matches!(&settings.handicap_stones, HandicapStones::Free(p) if p.len() == 2));
        assert_eq!(settings.to_row().unwrap(), row);
        let fixed = GameRow {
            handicap_stones: "fixed".into(),
            komi: None,
            clock: None,
            opponent: r#"{"kind":"same_screen"}"#.into(),
            ..row
        };
        let settings = Settings::from_row(&fixed).unwrap();
        assert_eq!(settings.handicap_stones, HandicapStones::Fixed);
        assert_eq!(settings.game().unwrap().handicap(), 2);
        assert_eq!(settings.to_row().unwrap(), fixed);
        let lesson = GameRow {
            lesson: Some(1),
            learner: Some("0123abcd".into()),
            ..fixed
        };
        let settings = Settings::from_row(&lesson).unwrap();
        let learning = settings.learning.as_ref().unwrap();
        assert_eq!((learning.step, learning.learner.as_str()), (1, "0123abcd"));
        assert_eq!(settings.to_row().unwrap(), lesson);
    }

    #[test]
    fn the_form_and_the_row_read_alike() {
        let form: NewGame = serde_json::from_str(
            r#"{"rules":"french","size":19,"komi":" 0.50 ","handicap":2,
                "handicap_stones":"d4,q16","opponent":{"kind":"engine","strength":"easy","color":"black"},
                "clock":{"kind":"byo_yomi","main_s":60,"periods":3,"period_s":30}}"#,
        )
        .unwrap();
        let seating = form.opponent.seating("b".into(), "w".into());
        assert_eq!(seating.creator, Seat::Player(Color::Black));
        assert_eq!(seating.invite, None);
        let settings = Settings::from_form(
            form,
            "0123456789abcdef".into(),
            seating.tokens,
            1_700_000_000_000,
        )
        .unwrap();
        // The tokens are kept as their digests.
        let kept = GameRow {
            black_token: token::digest("b"),
            white_token: token::digest("w"),
            ..stored()
        };
        assert_eq!(settings.to_row().unwrap(), kept);
    }

    #[test]
    fn seats_follow_the_opponent() {
        let both = OpponentChoice::SameScreen.seating("t".into(), "o".into());
        assert_eq!(both.tokens, ByColor::new("t".into(), "t".into()));
        assert_eq!(both.creator, Seat::Both);
        let friend = OpponentChoice::Friend {
            color: Color::White,
        }
        .seating("t".into(), "o".into());
        assert_eq!(friend.tokens, ByColor::new("o".into(), "t".into()));
        assert_eq!(friend.invite.as_deref(), Some("o"));
    }

    #[test]
    fn a_bad_field_is_named() {
        let mut row = stored();
        row.komi = Some("7.3".into());
        let e = Settings::from_row(&row).unwrap_err();
        assert!(matches!(e, WebError::Invalid { field: "komi", .. }), "{e}");
        let mut row = stored();
        row.handicap_stones = "D4 Z99".into();
        let e = Settings::from_row(&row).unwrap_err();
        assert!(
            matches!(
                e,
                WebError::Invalid {
                    field: "handicap_stones",
                    ..
                }
            ),
            "{e}"
        );
    }
}
