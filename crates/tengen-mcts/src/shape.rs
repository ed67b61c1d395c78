//! The playouts' learned shapes: a Bradley-Terry strength for each 3x3
//! neighbourhood of a point next to the last move, and one for playing
//! elsewhere ("tenuki"), fitted on professional records by
//! `tengen train shapes` (`tengen_train::shapes`). A playout's local answer
//! is drawn among the empty points around the last move in proportion to
//! their strengths, against the strength of tenuki: what professionals
//! answer in that shape, as often as they answer it, and nothing when they
//! would play elsewhere (the rest of the playout's rules then choose).
//!
//! One array read per candidate, 16-bit codes of
//! [`tengen_core::Board::neighbourhood_code`], so the playouts stay fast;
//! the eight symmetries share one strength, and the code is read from the
//! mover's side (a white mover's code has its colours swapped).
//!
//! Left out: liberties and captures (the playout's atari answers come
//! first and see them), and the larger patterns of [`crate::model`], too
//! slow for a playout.

use std::sync::OnceLock;
use tengen_core::{Color, Symmetry};

/// The file's first bytes.
const MAGIC: &[u8; 4] = b"TGSH";
/// The format version.
const VERSION: u32 = 1;
/// Every 16-bit neighbourhood code.
pub const CODES: usize = 1 << 16;

/// The strengths fitted from the records, shipped in the binary.
static SHIPPED: &[u8] = include_bytes!("../knowledge/shapes.tgsh");

/// Why a shape file cannot be read.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ShapeError {
    /// The file does not start with the header.
    #[error("not a tengen shape file (no TGSH header)")]
    Magic,
    /// Another version of the format.
    #[error("shape file version {0} is not {VERSION}")]
    Version(u32),
    /// The file ends before its data does.
    #[error("the shape file ends early, at byte {0}")]
    Truncated(usize),
    /// A strength that is not a positive finite number.
    #[error("shape {code:#06x} has strength {gamma}, not a positive number")]
    Gamma {
        /// The shape's code.
        code: u16,
        /// What the file says.
        gamma: f32,
    },
}

/// Learned strengths of the local shapes, for Black to move (a white
/// mover's code is turned into Black's by [`from_movers_side`]).
#[derive(Clone, Debug)]
pub struct ShapeModel {
    gammas: Vec<f32>,
    tenuki: f32,
}

impl ShapeModel {
    /// A model of the strengths of canonical codes ([`canonical`]); codes
    /// not given are worth 1, as is a move nobody learned about.
    pub fn new(canonical_gammas: impl IntoIterator<Item = (u16, f32)>, tenuki: f32) -> ShapeModel {
        let mut gammas = vec![1.0; CODES];
        let mut given = vec![f32::NAN; CODES];
        for (code, g) in canonical_gammas {
            given[usize::from(code)] = g;
        }
        for (code, gamma) in gammas.iter_mut().enumerate() {
            let g = given[usize::from(canonical(code as u16))];
            if !g.is_nan() {
                *gamma = g;
            }
        }
        ShapeModel { gammas, tenuki }
    }

    /// The model trained from the professional records, built into the
    /// binary.
    pub fn shipped() -> &'static ShapeModel {
        static MODEL: OnceLock<ShapeModel> = OnceLock::new();
        // A file that does not read (it is checked by a test) teaches
        // nothing: every shape even.
        MODEL.get_or_init(|| {
            ShapeModel::from_bytes(SHIPPED).unwrap_or_else(|_| ShapeModel::new([], 1.0))
        })
    }

    /// The strength of a stone of `color` at a point whose neighbourhood
    /// code is `code`.
    #[inline]
    pub fn gamma(&self, code: u16, color: Color) -> f32 {
        self.gammas[usize::from(from_movers_side(code, color))]
    }

    /// The strength of playing away from the last move.
    #[inline]
    pub fn tenuki(&self) -> f32 {
        self.tenuki
    }

    /// The file: header, tenuki, then each canonical code whose strength
    /// is not 1 with its strength (little-endian).
    pub fn to_bytes(&self) -> Vec<u8> {
        let entries: Vec<(u16, f32)> = (0..CODES)
            .map(|c| c as u16)
            .filter(|&c| canonical(c) == c && self.gammas[usize::from(c)] != 1.0)
            .map(|c| (c, self.gammas[usize::from(c)]))
            .collect();
        let mut out = Vec::with_capacity(16 + 6 * entries.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&self.tenuki.to_le_bytes());
        out.extend_from_slice(&(entries.len() as u32).to_le_bytes());
        for (c, g) in entries {
            out.extend_from_slice(&c.to_le_bytes());
            out.extend_from_slice(&g.to_le_bytes());
        }
        out
    }

    /// Reads a file written by [`ShapeModel::to_bytes`].
    ///
    /// # Errors
    /// What is wrong with the file, and where.
    pub fn from_bytes(bytes: &[u8]) -> Result<ShapeModel, ShapeError> {
        let mut at = 0;
        let mut take = |n: usize| -> Result<&[u8], ShapeError> {
            let s = bytes.get(at..at + n).ok_or(ShapeError::Truncated(at))?;
            at += n;
            Ok(s)
        };
        if take(4)? != MAGIC {
            return Err(ShapeError::Magic);
        }
        let u32_of = |s: &[u8]| u32::from_le_bytes([s[0], s[1], s[2], s[3]]);
        let version = u32_of(take(4)?);
        if version != VERSION {
            return Err(ShapeError::Version(version));
        }
        let tenuki = f32::from_bits(u32_of(take(4)?));
        let positive = |code: u16, gamma: f32| {
            if gamma.is_finite() && gamma > 0.0 {
                Ok(gamma)
            } else {
                Err(ShapeError::Gamma { code, gamma })
            }
        };
        let tenuki = positive(u16::MAX, tenuki)?;
        let count = u32_of(take(4)?) as usize;
        let mut entries = Vec::with_capacity(count.min(CODES));
        for _ in 0..count {
            let s = take(6)?;
            let code = u16::from_le_bytes([s[0], s[1]]);
            let gamma = positive(code, f32::from_bits(u32_of(&s[2..])))?;
            entries.push((code, gamma));
        }
        Ok(ShapeModel::new(entries, tenuki))
    }
}

/// The code as Black to move would see it: a white mover's stones and the
/// opponent's swap places (01 and 10 exchange; empty and off-board stay).
#[inline]
pub fn from_movers_side(code: u16, color: Color) -> u16 {
    match color {
        Color::Black => code,
        Color::White => ((code & 0x5555) << 1) | ((code & 0xAAAA) >> 1),
    }
}

/// The cells of the code in the order of
/// [`tengen_core::Board::around`], as (dx, dy) from the centre.
const CELLS: [(i32, i32); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

/// For each symmetry, where each cell of the code goes.
fn permutations() -> &'static [[usize; 8]; 8] {
    static PERMS: OnceLock<[[usize; 8]; 8]> = OnceLock::new();
    PERMS.get_or_init(|| {
        Symmetry::ALL.map(|k| {
            CELLS.map(|cell| {
                let to = k.offset(cell);
                CELLS.iter().position(|&c| c == to).unwrap_or(0)
            })
        })
    })
}

/// The smallest code among the eight symmetries of `code`: one key per
/// shape, whichever way the board is turned.
pub fn canonical(code: u16) -> u16 {
    permutations()
        .iter()
        .map(|perm| {
            perm.iter().enumerate().fold(0u16, |acc, (from, &to)| {
                acc | ((code >> (2 * from)) & 3) << (2 * to)
            })
        })
        .min()
        .unwrap_or(code)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_core::{Board, BoardSize};

    fn board_with(stones: &[((u32, u32), Color)]) -> (Board, BoardSize) {
        let size = BoardSize::square(9).unwrap();
        let mut b = Board::new(size);
        for &((x, y), c) in stones {
            b.play_unchecked(size.point(x, y).unwrap(), c);
        }
        (b, size)
    }

    fn code_at(b: &Board, size: BoardSize, x: u32, y: u32) -> u16 {
        b.neighbourhood_code(size.point(x, y).unwrap())
    }

    #[test]
    fn a_shape_turned_or_mirrored_has_one_key() {
        // A hane shape: own stone above, enemy stone at the upper right.
        let one = [((4, 3), Color::Black), ((5, 3), Color::White)];
        let turned = [((3, 4), Color::Black), ((3, 5), Color::White)];
        let mirrored = [((4, 5), Color::Black), ((3, 5), Color::White)];
        let (a, size) = board_with(&one);
        let key = canonical(code_at(&a, size, 4, 4));
        for stones in [turned, mirrored] {
            let (b, _) = board_with(&stones);
            assert_eq!(canonical(code_at(&b, size, 4, 4)), key);
        }
        // Another shape has another key.
        let (c, _) = board_with(&[((4, 3), Color::Black), ((5, 4), Color::White)]);
        assert_ne!(canonical(code_at(&c, size, 4, 4)), key);
    }

    #[test]
    fn the_mover_sees_its_own_stones_as_black() {
        let (a, size) = board_with(&[((4, 3), Color::Black), ((5, 3), Color::White)]);
        let (b, _) = board_with(&[((4, 3), Color::White), ((5, 3), Color::Black)]);
        let black = code_at(&a, size, 4, 4);
        let white = code_at(&b, size, 4, 4);
        assert_ne!(black, white);
        assert_eq!(from_movers_side(white, Color::White), black);
        // Off-board cells stay off the board.
        let edge = code_at(&a, size, 0, 0);
        assert_eq!(from_movers_side(edge, Color::White), edge);
    }

    #[test]
    fn a_model_round_trips_and_bad_files_are_named() {
        let (a, size) = board_with(&[((4, 3), Color::Black), ((5, 3), Color::White)]);
        let code = code_at(&a, size, 4, 4);
        let model = ShapeModel::new([(canonical(code), 7.5)], 0.25);
        let back = ShapeModel::from_bytes(&model.to_bytes()).unwrap();
        assert_eq!(back.gamma(code, Color::Black), 7.5);
        assert_eq!(back.tenuki(), 0.25);
        // The same shape for White, colours swapped, is as strong.
        let (b, _) = board_with(&[((4, 3), Color::White), ((5, 3), Color::Black)]);
        assert_eq!(back.gamma(code_at(&b, size, 4, 4), Color::White), 7.5);
        assert_eq!(back.gamma(0, Color::Black), 1.0);
        let bytes = model.to_bytes();
        assert_eq!(
            ShapeModel::from_bytes(&bytes[..bytes.len() - 1]).unwrap_err(),
            ShapeError::Truncated(16)
        );
        assert_eq!(
            ShapeModel::from_bytes(b"TGPM....").unwrap_err(),
            ShapeError::Magic
        );
    }

    #[test]
    fn the_shipped_model_reads_and_knows_the_hane() {
        let model = ShapeModel::from_bytes(SHIPPED).unwrap();
        // Two black stones beside two white ones: Black's hane at the
        // head of White's two stones is a strong local answer; touching a
        // lone white stone in an open area is a weak one.
        let (b, size) = board_with(&[
            ((3, 3), Color::Black),
            ((3, 4), Color::Black),
            ((4, 3), Color::White),
            ((4, 4), Color::White),
        ]);
        let hane = model.gamma(code_at(&b, size, 4, 2), Color::Black);
        let (lone, _) = board_with(&[((4, 4), Color::White)]);
        let touch = model.gamma(code_at(&lone, size, 4, 3), Color::Black);
        assert!(hane > 10.0 * touch, "hane {hane}, touch {touch}");
        // Professionals play elsewhere more often than at any one point
        // of an open position.
        assert!(model.tenuki() > hane, "tenuki {}", model.tenuki());
    }
}
