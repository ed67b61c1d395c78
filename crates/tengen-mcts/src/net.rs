//! The policy network: a small convolutional network over the whole board
//! (Clark and Storkey 2015, Maddison et al. 2015) that sees what a
//! pattern cannot, the position around the move as far as seven lines
//! away and the last four moves. It does not start from nothing: its
//! output is a logit per point added to a learned share of the pattern
//! model's log-probability of that point, so the network learns what the
//! patterns miss and never knows less than they do.
//!
//! One definition serves the search (on the CPU, through burn's pure-Rust
//! `flex` backend) and `tengen train net` (the same module on an autodiff
//! device). The weights are a safetensors file; [`Network::shipped`] is the
//! one trained from the professional records and built into the binary.
//!
//! Left out: judging who wins (the value network, [`crate::value`]), and
//! passes (the records' passes are not predicted; the search decides
//! them).

use crate::features::{Extractor, Position};
use crate::model::PatternModel;
use burn::module::Param;
use burn::nn::conv::{Conv2d, Conv2dConfig};
use burn::nn::{Initializer, PaddingConfig2d};
use burn::prelude::*;
use burn::tensor::activation::{relu, softmax};
use burn_store::{ModuleSnapshot, SafetensorsStore};
use std::sync::OnceLock;
use tengen_core::{Board, BoardSize, Color, Move, Point};

/// Input planes per point.
pub const PLANES: usize = 16;
/// How many past moves the input shows.
pub const HISTORY: usize = 4;
/// The logit of an illegal point: far below any legal one, finite so that
/// a softmax never divides nothing by nothing.
const MASKED: f32 = -1.0e4;
/// The smallest log-probability a legal point is given from the patterns.
const LOG_FLOOR: f32 = -20.0;

/// The shipped weights (see `knowledge/README.md` for how they were made).
static SHIPPED: &[u8] = include_bytes!("../knowledge/policy.safetensors");

/// Why a network cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NetError {
    #[error("not a safetensors file: {0}")]
    /// The safetensors header cannot be read.
    Header(String),
    #[error("the network has no tensor {0:?}")]
    /// A tensor the network needs is not in the file.
    Missing(String),
    #[error("the network's tensor {name:?} has shape {found:?} where {expected:?} is expected")]
    /// A tensor has the wrong shape.
    Shape {
        /// The tensor.
        name: String,
        /// Its shape in the file.
        found: Vec<usize>,
        /// The shape the network needs.
        expected: Vec<usize>,
    },
    #[error("the network's weights cannot be read: {0}")]
    /// The weights cannot be loaded into the network.
    Load(String),
}

/// The size of a network: filters per layer and layers of convolution
/// (the first 5x5, the others 3x3 with a skip connection).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Filters per layer.
    pub channels: usize,
    /// Layers of convolution.
    pub layers: usize,
}

impl Shape {
    /// The shipped network's size: a 13x13-point view (15 with the first
    /// layer) at 2-5 ms an evaluation on one core.
    pub const SHIPPED: Shape = Shape {
        channels: 64,
        layers: 6,
    };
}

/// The network.
#[derive(Module, Debug)]
pub struct PolicyNet {
    first: Conv2d,
    body: Vec<Conv2d>,
    head: Conv2d,
    /// The share of the pattern model's log-probability kept in the output.
    prior_weight: Param<Tensor<1>>,
}

impl PolicyNet {
    /// A new network of `shape` on `device`: random filters, a head of
    /// zeros (so that it starts as the pattern model), a prior weight of 1.
    pub fn new(shape: Shape, device: &Device) -> PolicyNet {
        let conv = |i: usize, o: usize, k: usize| {
            let pad = k / 2;
            Conv2dConfig::new([i, o], [k, k])
                .with_padding(PaddingConfig2d::Explicit(pad, pad, pad, pad))
        };
        let layers = shape.layers.max(1);
        PolicyNet {
            first: conv(PLANES, shape.channels, 5).init(device),
            body: (1..layers)
                .map(|_| conv(shape.channels, shape.channels, 3).init(device))
                .collect(),
            head: conv(shape.channels, 1, 1)
                .with_initializer(Initializer::Zeros)
                .init(device),
            prior_weight: Param::from_tensor(Tensor::ones([1], device)),
        }
    }

    /// The logits of a batch: `planes` [batch, PLANES, height, width],
    /// `prior` and `mask` [batch, height * width] (see [`Encoded`]).
    pub fn forward(&self, planes: Tensor<4>, prior: Tensor<2>, mask: Tensor<2>) -> Tensor<2> {
        let mut h = relu(self.first.forward(planes));
        for layer in &self.body {
            h = h.clone() + relu(layer.forward(h));
        }
        let [batch, _, height, width] = h.dims();
        let own = self.head.forward(h).reshape([batch, height * width]);
        own + prior * self.prior_weight.val().reshape([1, 1]) + mask
    }

    /// The weights as a safetensors file.
    ///
    /// # Errors
    /// What the store reports.
    pub fn to_bytes(&self) -> Result<Vec<u8>, NetError> {
        save_safetensors(self)
    }

    /// A network from a safetensors file written by [`PolicyNet::to_bytes`],
    /// its shape read from the file.
    ///
    /// # Errors
    /// A file that is not safetensors, or lacks a tensor, or has one of
    /// another shape.
    pub fn from_bytes(bytes: &[u8], device: &Device) -> Result<(PolicyNet, Shape), NetError> {
        let (channels, layers) = read_conv_shape(bytes, PLANES)?;
        let shape = Shape { channels, layers };
        let mut net = PolicyNet::new(shape, device);
        load_safetensors(&mut net, bytes)?;
        Ok((net, shape))
    }
}

/// The JSON header of a safetensors file (eight bytes of length, then
/// JSON naming each tensor's shape).
pub(crate) fn read_safetensors_header(bytes: &[u8]) -> Result<serde_json::Value, NetError> {
    let header_len = bytes
        .get(..8)
        .and_then(|b| <[u8; 8]>::try_from(b).ok())
        .map(u64::from_le_bytes)
        .ok_or_else(|| NetError::Header("shorter than 8 bytes".into()))?;
    let end = usize::try_from(header_len)
        .ok()
        .and_then(|n| n.checked_add(8))
        .filter(|&e| e <= bytes.len())
        .ok_or_else(|| NetError::Header(format!("header of {header_len} bytes")))?;
    serde_json::from_slice(&bytes[8..end]).map_err(|e| NetError::Header(e.to_string()))
}

/// The filters and layers of a network in a safetensors file whose first
/// convolution (`first.weight`, 5x5) reads `planes` input planes and whose
/// next ones are `body.0.weight`, `body.1.weight`..., read from its header.
pub(crate) fn read_conv_shape(bytes: &[u8], planes: usize) -> Result<(usize, usize), NetError> {
    let header = read_safetensors_header(bytes)?;
    let dims = |name: &str| -> Option<Vec<usize>> {
        header
            .get(name)?
            .get("shape")?
            .as_array()?
            .iter()
            .map(|d| d.as_u64().and_then(|d| usize::try_from(d).ok()))
            .collect()
    };
    let first = "first.weight";
    let found = dims(first).ok_or_else(|| NetError::Missing(first.into()))?;
    let channels = match found.as_slice() {
        [c, p, 5, 5] if *p == planes => *c,
        _ => {
            return Err(NetError::Shape {
                name: first.into(),
                found,
                expected: vec![0, planes, 5, 5],
            });
        }
    };
    let layers = 1
        + (0..)
            .take_while(|i| dims(&format!("body.{i}.weight")).is_some())
            .count();
    Ok((channels, layers))
}

/// Loads the weights of a safetensors file into `net`, every tensor there
/// and of the right shape.
pub(crate) fn load_safetensors<M: ModuleSnapshot>(
    net: &mut M,
    bytes: &[u8],
) -> Result<(), NetError> {
    let mut store = SafetensorsStore::from_bytes(Some(bytes.to_vec()));
    let result = net
        .load_from(&mut store)
        .map_err(|e| NetError::Load(e.to_string()))?;
    if let Some((name, _)) = result.missing.first() {
        return Err(NetError::Missing(name.clone()));
    }
    if let Some(e) = result.errors.first() {
        return Err(NetError::Load(format!("{e:?}")));
    }
    Ok(())
}

/// The weights of `net` as a safetensors file.
pub(crate) fn save_safetensors<M: ModuleSnapshot>(net: &M) -> Result<Vec<u8>, NetError> {
    let mut store = SafetensorsStore::from_bytes(None);
    net.save_into(&mut store)
        .map_err(|e| NetError::Load(e.to_string()))?;
    store.get_bytes().map_err(|e| NetError::Load(e.to_string()))
}

/// The last [`HISTORY`] moves of `moves` (given oldest first), most recent
/// first, `None` for a pass.
pub fn recent(moves: impl DoubleEndedIterator<Item = Move>) -> Vec<Option<Point>> {
    moves
        .rev()
        .take(HISTORY)
        .map(|mv| match mv {
            Move::Play(p) => Some(p),
            Move::Pass => None,
        })
        .collect()
}

/// The index of `p` in the network's rows: y * width + x.
pub fn row_index(size: BoardSize, p: Point) -> usize {
    let (x, y) = size.xy(p);
    y as usize * size.width() as usize + x as usize
}

/// One position as the network reads it, row by row from the top left
/// (index y * width + x), from the mover's side.
#[derive(Clone, Debug, PartialEq)]
pub struct Encoded {
    /// Columns of the board.
    pub width: usize,
    /// Rows of the board.
    pub height: usize,
    /// [PLANES][height * width]: own stones with 1, 2, 3, 4+ liberties;
    /// the opponent's the same; empty; on the board; the last four moves
    /// (most recent first); legal for the mover; the pattern model's
    /// log-probability, scaled into 0..1.
    pub planes: Vec<f32>,
    /// The pattern model's log-probability of each legal point (0 elsewhere).
    pub prior: Vec<f32>,
    /// 0 at legal points, a large negative number elsewhere.
    pub mask: Vec<f32>,
}

impl Encoded {
    /// The position of `board` with `to_move` to play, after `recent`
    /// (the last moves, most recent first; `None` for a pass), and the
    /// pattern model's probability of each point (by point index, as
    /// [`PatternModel::policy`] gives them; 0 for a move it does not rate).
    /// The legal points are the fast board's (simple ko, no suicide).
    pub fn new(
        board: &Board,
        to_move: Color,
        recent: &[Option<Point>],
        probability: &[f32],
    ) -> Encoded {
        let size = board.size();
        let (width, height) = (size.width() as usize, size.height() as usize);
        let n = width * height;
        let mut planes = vec![0.0f32; PLANES * n];
        let mut prior = vec![0.0f32; n];
        let mut mask = vec![MASKED; n];
        let index = |p: Point| row_index(size, p);
        for p in size.points() {
            let i = index(p);
            let mut set = |plane: usize| planes[plane * n + i] = 1.0;
            set(9);
            match board.get(p) {
                Some(c) => {
                    let libs = board.liberties(p).clamp(1, 4) as usize - 1;
                    set(if c == to_move { libs } else { 4 + libs });
                }
                None => {
                    set(8);
                    if board.is_legal_simple(p, to_move) {
                        set(14);
                        let logp = probability
                            .get(p.index())
                            .map_or(LOG_FLOOR, |&q| q.ln().max(LOG_FLOOR));
                        prior[i] = logp;
                        mask[i] = 0.0;
                        planes[15 * n + i] = 1.0 + logp / -LOG_FLOOR;
                    }
                }
            }
        }
        for (k, mv) in recent.iter().take(HISTORY).enumerate() {
            if let Some(p) = mv.filter(|&p| size.contains(p)) {
                planes[(10 + k) * n + index(p)] = 1.0;
            }
        }
        Encoded {
            width,
            height,
            planes,
            prior,
            mask,
        }
    }

    /// `position` after `recent` (see [`Encoded::new`]), with the pattern
    /// model's probabilities of `moves`, as the network reads it.
    pub fn with_patterns(
        model: &PatternModel,
        extractor: &mut Extractor,
        position: &Position,
        recent: &[Option<Point>],
        moves: &[Point],
    ) -> Encoded {
        let cells = position.board.size().cells();
        let patterns = model.policy(extractor, position, moves, cells);
        Encoded::new(position.board, position.to_move, recent, &patterns)
    }

    /// The same position turned by symmetry `k` (0-7; [`symmetric`]).
    pub fn turned(&self, k: u8) -> Encoded {
        let n = self.width * self.height;
        let map = |from: &[f32]| -> Vec<f32> {
            let mut out = vec![0.0f32; from.len()];
            for (chunk_in, chunk_out) in from.chunks(n).zip(out.chunks_mut(n)) {
                for (i, &v) in chunk_in.iter().enumerate() {
                    chunk_out[symmetric(i, k, self.width, self.height)] = v;
                }
            }
            out
        };
        Encoded {
            width: self.width,
            height: self.height,
            planes: map(&self.planes),
            prior: map(&self.prior),
            mask: map(&self.mask),
        }
    }
}

/// Where the point of index `i` (y * width + x) goes under symmetry `k`:
/// bit 0 mirrors left-right, bit 1 top-bottom, bit 2 swaps the axes
/// (only on square boards; elsewhere bit 2 is ignored).
pub fn symmetric(i: usize, k: u8, width: usize, height: usize) -> usize {
    let (mut x, mut y) = (i % width, i / width);
    if k & 1 == 1 {
        x = width - 1 - x;
    }
    if k & 2 == 2 {
        y = height - 1 - y;
    }
    if k & 4 == 4 && width == height {
        std::mem::swap(&mut x, &mut y);
    }
    y * width + x
}

/// The tensors of a batch of positions of one size.
pub fn batch(positions: &[&Encoded], device: &Device) -> (Tensor<4>, Tensor<2>, Tensor<2>) {
    let (w, h) = positions.first().map_or((1, 1), |e| (e.width, e.height));
    let b = positions.len();
    let cat = |f: &dyn Fn(&Encoded) -> &[f32]| -> Vec<f32> {
        positions
            .iter()
            .flat_map(|e| f(e).iter().copied())
            .collect()
    };
    let planes = Tensor::from_data(
        TensorData::new(cat(&|e| &e.planes), [b, PLANES, h, w]),
        device,
    );
    let prior = Tensor::from_data(TensorData::new(cat(&|e| &e.prior), [b, h * w]), device);
    let mask = Tensor::from_data(TensorData::new(cat(&|e| &e.mask), [b, h * w]), device);
    (planes, prior, mask)
}

/// The network ready to answer the search, on the CPU.
#[derive(Clone, Debug)]
pub struct Network {
    net: PolicyNet,
    shape: Shape,
    device: Device,
}

impl Network {
    /// The network in a safetensors file.
    ///
    /// # Errors
    /// See [`PolicyNet::from_bytes`].
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        let device = Device::flex();
        let (net, shape) = PolicyNet::from_bytes(bytes, &device)?;
        Ok(Network { net, shape, device })
    }

    /// The network trained from the professional records (`None` only if
    /// the shipped file is broken, which the test `the_shipped_network_loads`
    /// keeps from happening).
    pub fn shipped() -> Option<&'static Network> {
        static NET: OnceLock<Option<Network>> = OnceLock::new();
        NET.get_or_init(|| Network::from_bytes(SHIPPED).ok())
            .as_ref()
    }

    /// Its size.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The move probabilities of each position (row by row, as [`Encoded`]);
    /// positions of one board size.
    pub fn policy(&self, positions: &[&Encoded]) -> Vec<Vec<f32>> {
        if positions.is_empty() {
            return Vec::new();
        }
        let (planes, prior, mask) = batch(positions, &self.device);
        let probabilities = softmax(self.net.forward(planes, prior, mask), 1);
        let flat: Vec<f32> = probabilities
            .into_data()
            .try_to_vec::<f32>()
            .unwrap_or_default();
        let n = positions[0].width * positions[0].height;
        flat.chunks(n).map(<[f32]>::to_vec).collect()
    }

    /// The move probabilities of one position of the search, by point
    /// index (as the pattern model's, [`BoardSize::cells`] long): the
    /// pattern model reads the position first, then the network.
    pub fn position_policy(
        &self,
        model: &PatternModel,
        extractor: &mut Extractor,
        position: &Position,
        recent: &[Option<Point>],
        moves: &[Point],
    ) -> Vec<f32> {
        let encoded = Encoded::with_patterns(model, extractor, position, recent, moves);
        let by_row = self.policy(&[&encoded]).pop().unwrap_or_default();
        by_point(position.board.size(), &by_row)
    }
}

/// Probabilities row by row (as [`Network::policy`] gives them) turned
/// into the search's order, by point index ([`BoardSize::cells`] long).
pub fn by_point(size: BoardSize, by_row: &[f32]) -> Vec<f32> {
    let mut out = vec![0.0f32; size.cells()];
    for (p, &v) in size.points().zip(by_row.iter()) {
        if let Some(o) = out.get_mut(p.index()) {
            *o = v;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plane(e: &Encoded, k: usize) -> &[f32] {
        let n = e.width * e.height;
        &e.planes[k * n..(k + 1) * n]
    }

    fn at(e: &Encoded, x: usize, y: usize) -> usize {
        y * e.width + x
    }

    #[test]
    fn the_encoding_reads_liberties_history_and_legality_from_the_movers_side() {
        // White's E5-E4 chain is in atari (one liberty at D5), Black's
        // pair A1-B1 has three; D5 is legal for Black, A5 is not (suicide).
        let board = Board::from_ascii(
            ". O . . O
             O . . X O
             . . . . X
             . . . . .
             X X . . .",
        )
        .unwrap();
        let size = board.size();
        let p = |x, y| size.point(x, y).unwrap();
        let e = Encoded::new(
            &board,
            Color::Black,
            &[Some(p(3, 1)), None, Some(p(4, 2))],
            &[],
        );
        assert_eq!((e.width, e.height), (5, 5));
        // Black is the mover: own stones in planes 0-3.
        assert_eq!(plane(&e, 2)[at(&e, 0, 4)], 1.0, "A1-B1 has 3 liberties");
        assert_eq!(plane(&e, 4)[at(&e, 4, 0)], 1.0, "white in atari");
        assert_eq!(plane(&e, 4)[at(&e, 4, 1)], 1.0, "its chain shares it");
        assert_eq!(plane(&e, 8)[at(&e, 2, 2)], 1.0, "empty");
        assert!(plane(&e, 9).iter().all(|&v| v == 1.0), "on the board");
        assert_eq!(plane(&e, 10)[at(&e, 3, 1)], 1.0, "last move");
        assert!(plane(&e, 11).iter().all(|&v| v == 0.0), "a pass before it");
        assert_eq!(plane(&e, 12)[at(&e, 4, 2)], 1.0, "three moves ago");
        assert_eq!(plane(&e, 14)[at(&e, 3, 0)], 1.0, "D5 captures: legal");
        assert_eq!(plane(&e, 14)[at(&e, 0, 0)], 0.0, "A5 has no liberty");
        assert_eq!(e.mask[at(&e, 0, 0)], MASKED);
        assert_eq!(e.mask[at(&e, 1, 0)], MASKED, "occupied");
        assert_eq!(e.mask[at(&e, 3, 0)], 0.0);
        // No pattern probability given: the floor at every legal point.
        assert_eq!(e.prior[at(&e, 3, 0)], LOG_FLOOR);
        assert_eq!(plane(&e, 15)[at(&e, 3, 0)], 0.0);
        // From White's side the colours swap.
        let w = Encoded::new(&board, Color::White, &[], &[]);
        assert_eq!(plane(&w, 0)[at(&w, 4, 0)], 1.0);
        assert_eq!(plane(&w, 6)[at(&w, 0, 4)], 1.0);
    }

    #[test]
    fn turning_the_board_turns_the_encoding() {
        let size = BoardSize::square(7).unwrap();
        let stones = [
            (1, 1, Color::Black),
            (2, 1, Color::White),
            (5, 3, Color::Black),
            (0, 6, Color::White),
        ];
        for k in 0..8u8 {
            let mut plain = Board::new(size);
            let mut turned = Board::new(size);
            for &(x, y, c) in &stones {
                plain.play_unchecked(size.point(x, y).unwrap(), c);
                let j = symmetric(y as usize * 7 + x as usize, k, 7, 7);
                turned.play_unchecked(size.point((j % 7) as u32, (j / 7) as u32).unwrap(), c);
            }
            let a = Encoded::new(&plain, Color::Black, &[], &[]).turned(k);
            let b = Encoded::new(&turned, Color::Black, &[], &[]);
            assert_eq!(a, b, "symmetry {k}");
        }
        // Each symmetry is a permutation of the points.
        for k in 0..8u8 {
            let mut seen: Vec<usize> = (0..35).map(|i| symmetric(i, k, 7, 5)).collect();
            seen.sort_unstable();
            assert_eq!(seen, (0..35).collect::<Vec<_>>());
        }
    }

    #[test]
    fn a_network_reads_back_from_its_file_and_answers_the_same() {
        let device = Device::flex();
        let shape = Shape {
            channels: 8,
            layers: 3,
        };
        let net = PolicyNet::new(shape, &device);
        let bytes = net.to_bytes().unwrap();
        let back = Network::from_bytes(&bytes).unwrap();
        assert_eq!(back.shape(), shape);
        let board = Board::from_ascii(
            ". X . . .
             . O . . .
             . . . . .
             . . . X .
             . . . . .",
        )
        .unwrap();
        let mut probability = vec![0.0f32; board.size().cells()];
        for (i, p) in board.size().points().enumerate() {
            probability[p.index()] = (i % 7) as f32 / 100.0;
        }
        let e = Encoded::new(&board, Color::White, &[], &probability);
        let direct = {
            let (planes, prior, mask) = batch(&[&e], &device);
            let p = softmax(net.forward(planes, prior, mask), 1);
            p.into_data().try_to_vec::<f32>().unwrap()
        };
        let read = back.policy(&[&e]).pop().unwrap();
        assert_eq!(direct, read);
        let total: f32 = read.iter().sum();
        assert!((total - 1.0).abs() < 1e-4, "{total}");
        // Occupied points get nothing.
        assert!(read[1] < 1e-6 && read[6] < 1e-6);
    }

    #[test]
    fn a_broken_network_file_is_refused_with_a_reason() {
        assert!(matches!(Network::from_bytes(b""), Err(NetError::Header(_))));
        let mut huge = u64::MAX.to_le_bytes().to_vec();
        huge.extend_from_slice(b"{}");
        assert!(matches!(
            Network::from_bytes(&huge),
            Err(NetError::Header(_))
        ));
        let mut empty = 2u64.to_le_bytes().to_vec();
        empty.extend_from_slice(b"{}");
        assert_eq!(
            Network::from_bytes(&empty).unwrap_err(),
            NetError::Missing("first.weight".into())
        );
    }

    #[test]
    fn the_shipped_network_loads_and_opens_in_the_corners() {
        let net = Network::shipped().expect("the shipped network loads");
        assert_eq!(net.shape(), Shape::SHIPPED);
        let size = BoardSize::square(19).unwrap();
        let board = Board::new(size);
        let position = Position {
            board: &board,
            to_move: Color::Black,
            last: None,
            own_last: None,
        };
        let moves: Vec<Point> = size.points().collect();
        let mut extractor = Extractor::new(size);
        let policy = net.position_policy(
            PatternModel::shipped(),
            &mut extractor,
            &position,
            &[],
            &moves,
        );
        let total: f32 = policy.iter().sum();
        assert!((total - 1.0).abs() < 1e-3, "{total}");
        let mut ranked = moves.clone();
        ranked.sort_by(|a, b| policy[b.index()].total_cmp(&policy[a.index()]));
        for p in &ranked[..8] {
            let (x, y) = size.xy(*p);
            let corner_line = |v: u32| (2..=4).contains(&v) || (14..=16).contains(&v);
            assert!(corner_line(x) && corner_line(y), "{x},{y}");
        }
    }
}
