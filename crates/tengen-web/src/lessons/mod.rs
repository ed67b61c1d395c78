//! The learning path: the Strasbourg progression as four steps, each a few
//! screens that teach by small problems on the board ([`screens`], judged by
//! the rules library in [`judge`], shown through [`show`]) and then a game
//! against the engine at the beginner level on a small board. A step opens
//! when the game of the one before it is won.

pub mod judge;
pub mod screens;
pub mod show;
#[cfg(test)]
mod tests;

use crate::settings::{NewGame, OpponentChoice, Strength};
use serde::Serialize;
use tengen_core::{Color, Preset};

/// One step of the path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Lesson {
    /// 1 to 4.
    pub step: u32,
    /// The rules played.
    #[serde(serialize_with = "preset_name")]
    pub preset: Preset,
    /// The board's side.
    pub size: u32,
    /// The engine's strength.
    #[serde(serialize_with = "crate::settings::strength::serialize")]
    pub strength: Strength,
}

impl Lesson {
    /// The new-game form of this step, played by `learner` as Black
    /// against the engine.
    pub fn form(self, learner: String) -> NewGame {
        NewGame {
            rules: self.preset.name().into(),
            size: self.size,
            height: None,
            komi: None,
            handicap: 0,
            handicap_stones: None,
            opponent: OpponentChoice::Engine {
                strength: self.strength,
                color: Color::Black,
            },
            clock: None,
            lesson: Some(self.step),
            learner: Some(learner),
            lobby: false,
        }
    }
}

fn preset_name<S: serde::Serializer>(p: &Preset, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(p.name())
}

/// The four steps: first capture, capture five, go counted by stones, go
/// with territory (area counting after the dead stones are agreed).
pub const LESSONS: [Lesson; 4] = [
    Lesson {
        step: 1,
        preset: Preset::FirstCapture,
        size: 9,
        strength: Strength::Beginner,
    },
    Lesson {
        step: 2,
        preset: Preset::CaptureFive,
        size: 9,
        strength: Strength::Beginner,
    },
    Lesson {
        step: 3,
        preset: Preset::Strasbourg,
        size: 9,
        strength: Strength::Beginner,
    },
    Lesson {
        step: 4,
        preset: Preset::Ffg,
        size: 9,
        strength: Strength::Beginner,
    },
];

/// The step numbered `step`, if there is one.
pub fn lesson(step: u32) -> Option<Lesson> {
    LESSONS.iter().copied().find(|l| l.step == step)
}
