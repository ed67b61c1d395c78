//! The move model learned from records: a Bradley-Terry strength ("gamma")
//! per feature value, a move's strength the product of its team's gammas,
//! its probability that strength over the sum of all legal moves'
//! (Coulom 2007). The spatial part is the largest pattern around the move
//! that the model knows.
//!
//! The model is data: [`PatternModel::shipped`] reads the file trained
//! from the professional records by `tengen train patterns` and built into
//! the binary; [`PatternModel::from_bytes`] reads any other.
//!
//! Left out: hand-set gammas for rare features (what the records do not
//! show, the tactical priors of [`crate::prior`] still say).

use crate::features::{Extractor, GROUPS, Group, Position, Team};
use crate::spatial::RADII;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;
use tengen_core::Point;

/// The file's first bytes.
const MAGIC: &[u8; 4] = b"TGPM";
/// The format version.
const VERSION: u32 = 1;

/// The weights trained from the records, shipped in the binary.
static SHIPPED: &[u8] = include_bytes!("../knowledge/patterns.tgpm");

/// Spatial hashes are random already: a hasher that passes them through.
#[derive(Clone, Copy, Debug, Default)]
pub struct Passthrough(u64);

impl Hasher for Passthrough {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// A map keyed by spatial hashes.
pub type HashKeyed<V> = HashMap<u64, V, BuildHasherDefault<Passthrough>>;

/// Why a model file cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ModelError {
    #[error("not a tengen pattern model (no TGPM header)")]
    /// The file does not start with the model's header.
    Magic,
    #[error("pattern model version {0} is not {VERSION}")]
    /// The file is of another version of the format.
    Version(u32),
    #[error("the pattern model ends early, at byte {0}")]
    /// The file ends before its data does.
    Truncated(usize),
    #[error("the pattern model's group {group} has {found} values where {expected} are expected")]
    /// A group of weights has the wrong number of values.
    Shape {
        /// The group.
        group: &'static str,
        /// Values in the file.
        found: usize,
        /// Values the model needs.
        expected: usize,
    },
    #[error("the pattern model has a gamma that is not a positive number ({0})")]
    /// A weight is zero, negative or not a number.
    Gamma(String),
}

/// Feature strengths.
#[derive(Clone, Debug, PartialEq)]
pub struct PatternModel {
    /// Per group of [`Group::ALL`], the gamma of each value (value 0, the
    /// feature absent, is 1).
    tactics: [Vec<f32>; GROUPS],
    /// The gamma of each known spatial pattern, by hash.
    spatial: HashKeyed<f32>,
}

impl PatternModel {
    /// A model from its gammas: per group, one per value (index 0 is
    /// ignored and read as 1), and the spatial patterns'.
    ///
    /// # Errors
    /// A group of the wrong length or a gamma that is not positive.
    pub fn new(
        tactics: [Vec<f32>; GROUPS],
        spatial: impl IntoIterator<Item = (u64, f32)>,
    ) -> Result<PatternModel, ModelError> {
        let mut tactics = tactics;
        for (g, values) in Group::ALL.iter().zip(tactics.iter_mut()) {
            if values.len() != g.values() {
                return Err(ModelError::Shape {
                    group: g.name(),
                    found: values.len(),
                    expected: g.values(),
                });
            }
            values[0] = 1.0;
        }
        let spatial: HashKeyed<f32> = spatial.into_iter().collect();
        let all = tactics.iter().flatten().chain(spatial.values());
        if let Some(bad) = all.copied().find(|g| !(g.is_finite() && *g > 0.0)) {
            return Err(ModelError::Gamma(bad.to_string()));
        }
        Ok(PatternModel { tactics, spatial })
    }

    /// The model trained from the professional records.
    pub fn shipped() -> &'static PatternModel {
        static MODEL: OnceLock<Option<PatternModel>> = OnceLock::new();
        static EMPTY: OnceLock<PatternModel> = OnceLock::new();
        match MODEL.get_or_init(|| PatternModel::from_bytes(SHIPPED).ok()) {
            Some(m) => m,
            // A broken build of the shipped file: every move equal. The
            // test `the_shipped_model_loads` keeps this from happening.
            None => EMPTY.get_or_init(PatternModel::uniform),
        }
    }

    /// Every gamma 1: all moves equal.
    pub fn uniform() -> PatternModel {
        PatternModel {
            tactics: Group::ALL.map(|g| vec![1.0; g.values()]),
            spatial: HashKeyed::default(),
        }
    }

    /// The gamma of a group's value.
    pub fn tactic_gamma(&self, group: usize, value: u8) -> f32 {
        self.tactics
            .get(group)
            .and_then(|v| v.get(usize::from(value)))
            .copied()
            .unwrap_or(1.0)
    }

    /// The gamma of the largest known pattern of `spatial`, or 1 when
    /// none is known.
    pub fn spatial_gamma(&self, spatial: &[u64; RADII]) -> f32 {
        largest_known(&self.spatial, spatial).unwrap_or(1.0)
    }

    /// A move's strength: the product of its features' gammas.
    pub fn strength(&self, team: &Team) -> f32 {
        let mut s = self.spatial_gamma(&team.spatial);
        for (g, &v) in team.tactics.iter().enumerate() {
            s *= self.tactic_gamma(g, v);
        }
        s
    }

    /// The probability of every move in `moves` of the position (by point
    /// index, `cells` long; 0 for the other points).
    pub fn policy(
        &self,
        extractor: &mut Extractor,
        position: &Position,
        moves: &[Point],
        cells: usize,
    ) -> Vec<f32> {
        extractor.load(position);
        let mut out = vec![0.0f32; cells];
        let mut total = 0.0f32;
        for &p in moves {
            let s = self.strength(&extractor.team(position, p));
            if let Some(o) = out.get_mut(p.index()) {
                *o = s;
            }
            total += s;
        }
        if total > 0.0 {
            out.iter_mut().for_each(|x| *x /= total);
        }
        out
    }

    /// The spatial patterns the model knows.
    pub fn spatial_count(&self) -> usize {
        self.spatial.len()
    }

    /// The model as a file: `TGPM`, the version, each group's gammas, then
    /// the spatial patterns sorted by hash; little-endian throughout.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(GROUPS as u32).to_le_bytes());
        for values in &self.tactics {
            out.extend_from_slice(&(values.len() as u32).to_le_bytes());
            for g in values {
                out.extend_from_slice(&g.to_le_bytes());
            }
        }
        let mut spatial: Vec<(u64, f32)> = self.spatial.iter().map(|(&h, &g)| (h, g)).collect();
        spatial.sort_unstable_by_key(|&(h, _)| h);
        out.extend_from_slice(&(spatial.len() as u32).to_le_bytes());
        for (h, g) in spatial {
            out.extend_from_slice(&h.to_le_bytes());
            out.extend_from_slice(&g.to_le_bytes());
        }
        out
    }

    /// Reads a model file.
    ///
    /// # Errors
    /// What is wrong with the file.
    pub fn from_bytes(bytes: &[u8]) -> Result<PatternModel, ModelError> {
        let mut r = Reader { bytes, at: 0 };
        if r.take(4)? != MAGIC {
            return Err(ModelError::Magic);
        }
        let version = r.u32()?;
        if version != VERSION {
            return Err(ModelError::Version(version));
        }
        let groups = r.u32()? as usize;
        if groups != GROUPS {
            return Err(ModelError::Shape {
                group: "groups",
                found: groups,
                expected: GROUPS,
            });
        }
        let mut tactics: [Vec<f32>; GROUPS] = Default::default();
        for values in &mut tactics {
            let n = r.u32()? as usize;
            // A value count no group reaches: refuse before allocating.
            if n > 64 {
                return Err(ModelError::Truncated(r.at));
            }
            for _ in 0..n {
                values.push(r.f32()?);
            }
        }
        let n = r.u32()? as usize;
        if n.saturating_mul(12) > bytes.len() {
            return Err(ModelError::Truncated(bytes.len()));
        }
        let mut spatial = Vec::with_capacity(n);
        for _ in 0..n {
            spatial.push((r.u64()?, r.f32()?));
        }
        PatternModel::new(tactics, spatial)
    }
}

/// What `map` holds for the largest pattern of `spatial` it knows: a move
/// is described by its largest known pattern (Coulom 2007).
pub fn largest_known<V: Copy>(map: &HashKeyed<V>, spatial: &[u64; RADII]) -> Option<V> {
    spatial.iter().rev().find_map(|h| map.get(h).copied())
}

/// A cursor over a model file.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], ModelError> {
        let end = self
            .at
            .checked_add(n)
            .ok_or(ModelError::Truncated(self.at))?;
        let s = self
            .bytes
            .get(self.at..end)
            .ok_or(ModelError::Truncated(self.bytes.len()))?;
        self.at = end;
        Ok(s)
    }
    fn u32(&mut self) -> Result<u32, ModelError> {
        let mut b = [0u8; 4];
        b.copy_from_slice(self.take(4)?);
        Ok(u32::from_le_bytes(b))
    }
    fn u64(&mut self) -> Result<u64, ModelError> {
        let mut b = [0u8; 8];
        b.copy_from_slice(self.take(8)?);
        Ok(u64::from_le_bytes(b))
    }
    fn f32(&mut self) -> Result<f32, ModelError> {
        Ok(f32::from_bits(self.u32()?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_model_survives_its_file() {
        let mut tactics = Group::ALL.map(|g| vec![1.0; g.values()]);
        tactics[0][1] = 40.0;
        tactics[6][1] = 0.25;
        let m = PatternModel::new(tactics, [(7u64, 3.5f32), (1 << 60, 0.5)]).unwrap();
        let back = PatternModel::from_bytes(&m.to_bytes()).unwrap();
        assert_eq!(back, m);
    }

    #[test]
    fn broken_files_are_refused_with_a_reason() {
        let m = PatternModel::uniform().to_bytes();
        assert_eq!(PatternModel::from_bytes(b"XXXX"), Err(ModelError::Magic));
        for cut in 0..m.len() {
            assert!(PatternModel::from_bytes(&m[..cut]).is_err(), "cut at {cut}");
        }
        let mut bad = PatternModel::uniform();
        bad.spatial.insert(1, f32::NAN);
        assert!(matches!(
            PatternModel::from_bytes(&bad.to_bytes()),
            Err(ModelError::Gamma(_))
        ));
    }

    #[test]
    fn the_shipped_model_loads() {
        let m = PatternModel::from_bytes(SHIPPED).unwrap();
        assert!(m.spatial_count() > 1000, "{}", m.spatial_count());
    }

    #[test]
    fn the_largest_known_pattern_decides() {
        let tactics = Group::ALL.map(|g| vec![1.0; g.values()]);
        let m = PatternModel::new(tactics, [(10, 2.0), (30, 5.0)]).unwrap();
        let mut spatial = [0u64; RADII];
        spatial[0] = 10;
        spatial[2] = 30;
        assert_eq!(m.spatial_gamma(&spatial), 5.0);
        spatial[2] = 31;
        assert_eq!(m.spatial_gamma(&spatial), 2.0);
        spatial[0] = 11;
        assert_eq!(m.spatial_gamma(&spatial), 1.0);
    }
}
