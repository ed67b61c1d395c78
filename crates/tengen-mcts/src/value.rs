//! The value network: who is winning a position, by how much, and who will
//! own each point, learned from the records' results and counts (AlphaGo's
//! value network; the score and ownership heads of KataGo, whose dense
//! per-point targets teach far more per game than a single win or loss).
//!
//! Its input is cheap to read (stones by liberties, the last two moves,
//! the komi and whether the count is by area), so a judgement costs one
//! forward pass and no pattern reading. Three heads share one trunk:
//! ownership (a tanh per point, from the mover's side), the final area
//! margin (the sum of the ownership plus a learned correction, so that a
//! score needs only what the ownership does not say), and the win (a logit
//! that reads the lead against its spread, so that a win learned from a
//! resigned game teaches the trunk how territory decides games). The
//! score's spread is its own output, trained by the Gaussian likelihood.
//!
//! Left out: the move choice (the policy network's), and the rules beyond
//! area against territory counting (the margin is an area margin; under
//! territory counting the true margin can differ by a point).

use crate::net::{
    NetError, load_safetensors, read_conv_shape, recent, row_index, save_safetensors, symmetric,
};
use burn::module::Param;
use burn::nn::conv::{Conv2d, Conv2dConfig};
use burn::nn::{Initializer, Linear, LinearConfig, PaddingConfig2d};
use burn::prelude::*;
use burn::tensor::activation::{relu, sigmoid};
use std::sync::OnceLock;
use tengen_core::{Board, BoardSize, Color, Game, Points};

/// Input planes per point.
pub const VALUE_PLANES: usize = 12;
/// The last moves the input shows.
const RECENT: usize = 2;
/// The komi plane's scale: komi / `KOMI_SCALE` from the mover's side.
const KOMI_SCALE: f32 = 10.0;
/// The margin output's scale: its raw output is in tens of points.
const SCORE_SCALE: f32 = 10.0;
/// Hidden units of the value and score heads.
const HEAD: usize = 32;
/// Bounds of the spread's logarithm: from half a point to 200 points.
const LOG_SPREAD: (f32, f32) = (-0.7, 5.3);

/// Whether the value network learned positions of boards of `size`: its
/// records are 19x19, and elsewhere its judgement is a guess.
pub fn learned(size: BoardSize) -> bool {
    size.width() == 19 && size.height() == 19
}

/// The shipped weights (see `knowledge/README.md` for how they were made).
static SHIPPED: &[u8] = include_bytes!("../knowledge/value.safetensors");

/// The size of a value network: filters per layer and layers of
/// convolution (the first 5x5, the others 3x3 with a skip connection).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ValueShape {
    /// Filters per layer.
    pub channels: usize,
    /// Layers of convolution.
    pub layers: usize,
}

impl ValueShape {
    /// The shipped network's size.
    pub const SHIPPED: ValueShape = ValueShape {
        channels: 64,
        layers: 12,
    };
}

/// The network.
#[derive(Module, Debug)]
pub struct ValueNet {
    first: Conv2d,
    body: Vec<Conv2d>,
    /// The board's mean features, added back at every point before the
    /// ownership head: whether a group far away lives decides a point.
    global: Linear,
    owner: Conv2d,
    hidden: Linear,
    /// Win logit, margin correction, log-spread.
    out: Linear,
    /// The share of the ownership's sum in the margin.
    score_share: Param<Tensor<1>>,
    /// How much the lead (the margin against the komi, over its spread)
    /// moves the win logit.
    win_share: Param<Tensor<1>>,
}

/// What the network says of a batch, from each mover's side.
#[derive(Debug, Clone)]
pub struct Heads {
    /// The mover's win, a logit `[batch]`.
    pub win_logit: Tensor<1>,
    /// The mover's area margin before komi, in points `[batch]`.
    pub margin: Tensor<1>,
    /// The logarithm of the margin's spread `[batch]`.
    pub log_spread: Tensor<1>,
    /// The mover's ownership of each point, -1 to 1 [batch, height * width].
    pub ownership: Tensor<2>,
}

impl ValueNet {
    /// A new network of `shape` on `device`: random filters, an ownership
    /// of zeros, the margin read from the ownership alone, the win from
    /// the margin alone.
    pub fn new(shape: ValueShape, device: &Device) -> ValueNet {
        let conv = |i: usize, o: usize, k: usize| {
            let pad = k / 2;
            Conv2dConfig::new([i, o], [k, k])
                .with_padding(PaddingConfig2d::Explicit(pad, pad, pad, pad))
        };
        let c = shape.channels.max(1);
        ValueNet {
            first: conv(VALUE_PLANES, c, 5).init(device),
            body: (1..shape.layers.max(1))
                .map(|_| conv(c, c, 3).init(device))
                .collect(),
            global: LinearConfig::new(c, c).init(device),
            // Zeros: the ownership starts at 0, where tanh learns fastest
            // (a trunk without normalisation saturates a random head).
            owner: conv(c, 1, 1)
                .with_initializer(Initializer::Zeros)
                .init(device),
            hidden: LinearConfig::new(2 * c, HEAD).init(device),
            out: LinearConfig::new(HEAD, 3)
                .with_initializer(Initializer::Zeros)
                .init(device),
            score_share: Param::from_tensor(Tensor::ones([1], device)),
            win_share: Param::from_tensor(Tensor::full([1], 1.7, device)),
        }
    }

    /// The heads of a batch: `planes` [batch, VALUE_PLANES, height, width],
    /// `komi` `[batch]` (the mover's: White's komi for White, its negation
    /// for Black).
    pub fn forward(&self, planes: Tensor<4>, komi: Tensor<1>) -> Heads {
        let mut h = relu(self.first.forward(planes));
        for layer in &self.body {
            h = h.clone() + relu(layer.forward(h));
        }
        let [batch, channels, height, width] = h.dims();
        let mean = h.clone().mean_dims(&[2, 3]).reshape([batch, channels]);
        let spread = self.global.forward(mean).reshape([batch, channels, 1, 1]);
        let h = relu(h + spread);
        let ownership = self
            .owner
            .forward(h.clone())
            .reshape([batch, height * width])
            .tanh();
        let pooled = Tensor::cat(
            vec![
                h.clone().mean_dims(&[2, 3]).reshape([batch, channels]),
                h.max_dims(&[2, 3]).reshape([batch, channels]),
            ],
            1,
        );
        let out = self.out.forward(relu(self.hidden.forward(pooled)));
        let column = |k: usize| out.clone().narrow(1, k, 1).reshape([batch]);
        // Detached: the margin and the win read the ownership without
        // teaching it; their error, the same at every point and larger
        // than a point's own, would drown what each point learns.
        let owned = ownership.clone().detach().sum_dim(1).reshape([batch]);
        let margin = owned * self.score_share.val() + column(1) * SCORE_SCALE;
        let log_spread = (column(2) + SCORE_SCALE.ln()).clamp(LOG_SPREAD.0, LOG_SPREAD.1);
        // The win is the lead against its spread (a normal's tail is close
        // to a logistic of 1.7 times it), plus what the lead misses: late
        // in a game a few points decide, early twenty do not.
        let lead = (margin.clone() + komi) / log_spread.clone().detach().exp();
        let win_logit = column(0) + lead * self.win_share.val();
        Heads {
            win_logit,
            margin,
            log_spread,
            ownership,
        }
    }

    /// The weights as a safetensors file.
    ///
    /// # Errors
    /// What the store reports.
    pub fn to_bytes(&self) -> Result<Vec<u8>, NetError> {
        save_safetensors(self)
    }

    /// A network from a safetensors file written by [`ValueNet::to_bytes`],
    /// its shape read from the file.
    ///
    /// # Errors
    /// A file that is not safetensors, or lacks a tensor, or has one of
    /// another shape.
    pub fn from_bytes(bytes: &[u8], device: &Device) -> Result<(ValueNet, ValueShape), NetError> {
        let (channels, layers) = read_conv_shape(bytes, VALUE_PLANES)?;
        let shape = ValueShape { channels, layers };
        let mut net = ValueNet::new(shape, device);
        load_safetensors(&mut net, bytes)?;
        Ok((net, shape))
    }
}

/// One position as the value network reads it, row by row from the top
/// left (index y * width + x), from the mover's side.
#[derive(Clone, Debug, PartialEq)]
pub struct ValueInput {
    /// Columns of the board.
    pub width: usize,
    /// Rows of the board.
    pub height: usize,
    /// [VALUE_PLANES][height * width]: own stones with 1, 2, 3+ liberties;
    /// the opponent's the same; empty; on the board; the last move and the
    /// one before; the mover's komi / 10; 1 where the count is by area.
    pub planes: Vec<f32>,
    /// The mover's komi in points (White's komi for White, its negation
    /// for Black).
    pub komi: f32,
    /// The player to move, whose side the planes and the heads take.
    pub mover: Color,
}

impl ValueInput {
    /// `board` with `to_move` to play after `recent` (the last moves,
    /// most recent first, `None` for a pass), White receiving `komi`,
    /// counted by area when `area`.
    pub fn new(
        board: &Board,
        to_move: Color,
        recent: &[Option<tengen_core::Point>],
        komi: Points,
        area: bool,
    ) -> ValueInput {
        let size = board.size();
        let (width, height) = (size.width() as usize, size.height() as usize);
        let n = width * height;
        let mut planes = vec![0.0f32; VALUE_PLANES * n];
        let white_komi = komi.to_f64() as f32;
        let komi = match to_move {
            Color::White => white_komi,
            Color::Black => -white_komi,
        };
        for p in size.points() {
            let i = row_index(size, p);
            let mut set = |plane: usize, v: f32| planes[plane * n + i] = v;
            set(7, 1.0);
            set(10, komi / KOMI_SCALE);
            set(11, if area { 1.0 } else { 0.0 });
            match board.get(p) {
                Some(c) => {
                    let libs = board.liberties(p).clamp(1, 3) as usize - 1;
                    set(if c == to_move { libs } else { 3 + libs }, 1.0);
                }
                None => set(6, 1.0),
            }
        }
        for (k, mv) in recent.iter().take(RECENT).enumerate() {
            if let Some(p) = mv.filter(|&p| size.contains(p)) {
                planes[(8 + k) * n + row_index(size, p)] = 1.0;
            }
        }
        ValueInput {
            width,
            height,
            planes,
            komi,
            mover: to_move,
        }
    }

    /// The position of `game` now, its mover to play.
    pub fn of_game(game: &Game) -> ValueInput {
        let recent = recent(game.turns().iter().map(|t| t.mv));
        ValueInput::new(
            game.board(),
            game.to_move(),
            &recent,
            game.komi(),
            game.rules().scoring.counts_area(),
        )
    }

    /// The same stones with the other player to move, as if the mover had
    /// passed: own and opposing planes swapped, the komi seen from the
    /// other side, no last move (the pass) and the one before it the
    /// stone just played.
    pub fn passed(&self) -> ValueInput {
        let n = self.width * self.height;
        let mut planes = self.planes.clone();
        let plane = |k: usize| k * n..(k + 1) * n;
        for k in 0..3 {
            let (own, opposing) = planes.split_at_mut(plane(3 + k).start);
            own[plane(k)].swap_with_slice(&mut opposing[..n]);
        }
        planes.copy_within(plane(8), plane(9).start);
        planes[plane(8)].fill(0.0);
        for v in &mut planes[plane(10)] {
            *v = -*v;
        }
        ValueInput {
            width: self.width,
            height: self.height,
            planes,
            komi: -self.komi,
            mover: self.mover.opponent(),
        }
    }

    /// The same position turned by symmetry `k` (0-7; [`symmetric`]).
    pub fn turned(&self, k: u8) -> ValueInput {
        let n = self.width * self.height;
        let mut planes = vec![0.0f32; self.planes.len()];
        for (from, to) in self.planes.chunks(n).zip(planes.chunks_mut(n)) {
            for (i, &v) in from.iter().enumerate() {
                to[symmetric(i, k, self.width, self.height)] = v;
            }
        }
        ValueInput {
            width: self.width,
            height: self.height,
            planes,
            komi: self.komi,
            mover: self.mover,
        }
    }
}

/// The tensors of a batch of positions of one size: planes and komi.
pub fn value_batch(inputs: &[&ValueInput], device: &Device) -> (Tensor<4>, Tensor<1>) {
    let (w, h) = inputs.first().map_or((1, 1), |e| (e.width, e.height));
    let b = inputs.len();
    let planes: Vec<f32> = inputs
        .iter()
        .flat_map(|e| e.planes.iter().copied())
        .collect();
    let komi: Vec<f32> = inputs.iter().map(|e| e.komi).collect();
    (
        Tensor::from_data(TensorData::new(planes, [b, VALUE_PLANES, h, w]), device),
        Tensor::from_data(TensorData::new(komi, [b]), device),
    )
}

/// A judgement of one position, from Black's side.
#[derive(Clone, Debug, PartialEq)]
pub struct Judgement {
    /// Black's chance to win, 0 to 1.
    pub black_wins: f32,
    /// Black's lead in points, komi included (area margin minus komi).
    pub black_lead: f32,
    /// The spread of that lead (one standard deviation), in points.
    pub spread: f32,
    /// Black's ownership of each point, -1 (White's) to 1, in the order
    /// of [`tengen_core::BoardSize::points`].
    pub ownership: Vec<f32>,
}

impl Judgement {
    /// Another ownership of the same points (the playouts') mixed with
    /// this one, this one weighing `weight` (0 to 1).
    pub fn mix_ownership(&self, other: &[f32], weight: f32) -> Vec<f32> {
        other
            .iter()
            .zip(&self.ownership)
            .map(|(o, j)| weight * j + (1.0 - weight) * o)
            .collect()
    }
}

/// Which value network a search judges with: the shipped one, or another
/// read once for the life of the process (`--value FILE`), so that a newly
/// trained network can be measured and played without a new binary.
#[derive(Clone, Copy, Debug, Default)]
pub enum ValueSource {
    /// The network built into the binary.
    #[default]
    Shipped,
    /// Another network.
    Loaded(&'static ValueNetwork),
}

impl ValueSource {
    /// A network read from a safetensors file, kept for the life of the
    /// process.
    ///
    /// # Errors
    /// See [`ValueNet::from_bytes`].
    pub fn load(bytes: &[u8]) -> Result<ValueSource, NetError> {
        let network = ValueNetwork::from_bytes(bytes)?;
        Ok(ValueSource::Loaded(Box::leak(Box::new(network))))
    }

    /// The network (`None` only if the shipped file is broken).
    pub fn network(self) -> Option<&'static ValueNetwork> {
        match self {
            ValueSource::Shipped => ValueNetwork::shipped(),
            ValueSource::Loaded(network) => Some(network),
        }
    }
}

/// Two sources are the same when they are the same network in memory.
impl PartialEq for ValueSource {
    fn eq(&self, other: &ValueSource) -> bool {
        match (self, other) {
            (ValueSource::Shipped, ValueSource::Shipped) => true,
            (ValueSource::Loaded(a), ValueSource::Loaded(b)) => std::ptr::eq(*a, *b),
            _ => false,
        }
    }
}

/// The value network ready to judge, on the CPU.
#[derive(Clone, Debug)]
pub struct ValueNetwork {
    net: ValueNet,
    shape: ValueShape,
    device: Device,
}

impl ValueNetwork {
    /// The network in a safetensors file.
    ///
    /// # Errors
    /// See [`ValueNet::from_bytes`].
    pub fn from_bytes(bytes: &[u8]) -> Result<ValueNetwork, NetError> {
        let device = Device::flex();
        let (net, shape) = ValueNet::from_bytes(bytes, &device)?;
        Ok(ValueNetwork { net, shape, device })
    }

    /// The network trained from the records (`None` only if the shipped
    /// file is broken, which a test keeps from happening).
    pub fn shipped() -> Option<&'static ValueNetwork> {
        static NET: OnceLock<Option<ValueNetwork>> = OnceLock::new();
        NET.get_or_init(|| ValueNetwork::from_bytes(SHIPPED).ok())
            .as_ref()
    }

    /// Its size.
    pub fn shape(&self) -> ValueShape {
        self.shape
    }

    /// The judgement of each position (one board size), from Black's side:
    /// the mean of the network's view with its mover to play and with the
    /// other player to play ([`ValueInput::passed`]). A network trained on
    /// games where the players move in turn does not pin down the constant
    /// between "to move" and "just moved", and that constant, points either
    /// way from one checkpoint to the next, would swing every judgement
    /// with the mover; the mean of both views cancels it, at the price of
    /// half a move's tempo.
    pub fn judge(&self, inputs: &[&ValueInput]) -> Vec<Judgement> {
        let passed: Vec<ValueInput> = inputs.iter().map(|i| i.passed()).collect();
        let both: Vec<&ValueInput> = inputs.iter().copied().chain(&passed).collect();
        let views = self.judge_as_is(&both);
        let (to_move, other) = views.split_at(inputs.len());
        to_move
            .iter()
            .zip(other)
            .map(|(a, b)| Judgement {
                black_wins: (a.black_wins + b.black_wins) / 2.0,
                black_lead: (a.black_lead + b.black_lead) / 2.0,
                spread: (a.spread + b.spread) / 2.0,
                ownership: a
                    .ownership
                    .iter()
                    .zip(&b.ownership)
                    .map(|(x, y)| (x + y) / 2.0)
                    .collect(),
            })
            .collect()
    }

    /// The network's view of each position with its own mover to play.
    fn judge_as_is(&self, inputs: &[&ValueInput]) -> Vec<Judgement> {
        let Some(first) = inputs.first() else {
            return Vec::new();
        };
        let (planes, komi) = value_batch(inputs, &self.device);
        let heads = self.net.forward(planes, komi);
        let read = |t: Tensor<1>| t.into_data().try_to_vec::<f32>().unwrap_or_default();
        let wins = read(sigmoid(heads.win_logit));
        let margins = read(heads.margin);
        let spreads = read(heads.log_spread.exp());
        let owners: Vec<f32> = heads
            .ownership
            .into_data()
            .try_to_vec::<f32>()
            .unwrap_or_default();
        let n = first.width * first.height;
        inputs
            .iter()
            .enumerate()
            .map(|(b, input)| {
                let sign = match input.mover {
                    Color::Black => 1.0,
                    Color::White => -1.0,
                };
                let at = |v: &[f32]| v.get(b).copied().unwrap_or(0.0);
                // The mover's komi, seen from Black: White's komi.
                let white_komi = input.komi * -sign;
                let black_margin = at(&margins) * sign;
                // Rows run in the order of the points.
                let ownership = (0..n)
                    .map(|i| owners.get(b * n + i).copied().unwrap_or(0.0) * sign)
                    .collect();
                let mover_wins = at(&wins);
                Judgement {
                    black_wins: if sign > 0.0 {
                        mover_wins
                    } else {
                        1.0 - mover_wins
                    },
                    black_lead: black_margin - white_komi,
                    spread: at(&spreads),
                    ownership,
                }
            })
            .collect()
    }

    /// The judgement of `game` as it stands.
    pub fn judge_game(&self, game: &Game) -> Judgement {
        let input = ValueInput::of_game(game);
        self.judge(&[&input]).pop().unwrap_or_else(|| Judgement {
            black_wins: 0.5,
            black_lead: 0.0,
            spread: 0.0,
            ownership: vec![0.0; game.size().num_points()],
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_core::{BoardSize, Move, Preset};

    fn plane(e: &ValueInput, k: usize) -> &[f32] {
        let n = e.width * e.height;
        &e.planes[k * n..(k + 1) * n]
    }

    #[test]
    fn the_input_reads_liberties_moves_komi_and_counting_from_the_movers_side() {
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
        let at = |x: usize, y: usize| y * 5 + x;
        let komi = Points::halves(13);
        let e = ValueInput::new(
            &board,
            Color::Black,
            &[Some(p(3, 1)), Some(p(4, 2))],
            komi,
            true,
        );
        assert_eq!(plane(&e, 2)[at(0, 4)], 1.0, "A1-B1: three liberties");
        assert_eq!(plane(&e, 3)[at(4, 0)], 1.0, "White's chain in atari");
        assert_eq!(plane(&e, 6)[at(2, 2)], 1.0, "empty");
        assert!(plane(&e, 7).iter().all(|&v| v == 1.0));
        assert_eq!(plane(&e, 8)[at(3, 1)], 1.0, "last move");
        assert_eq!(plane(&e, 9)[at(4, 2)], 1.0, "the one before");
        // Black gives the komi: -6.5 from his side.
        assert_eq!(e.komi, -6.5);
        assert!(plane(&e, 10).iter().all(|&v| v == -0.65));
        assert!(plane(&e, 11).iter().all(|&v| v == 1.0));
        let w = ValueInput::new(&board, Color::White, &[], komi, false);
        assert_eq!(w.komi, 6.5);
        assert_eq!(plane(&w, 0)[at(4, 0)], 1.0, "White's own chain now");
        assert_eq!(plane(&w, 5)[at(0, 4)], 1.0);
        assert!(plane(&w, 11).iter().all(|&v| v == 0.0));
        // The other player to move: the sides swap, the komi turns, the
        // last move becomes the pass and the stone before it the last one.
        let p2 = e.passed();
        assert_eq!(p2.mover, Color::White);
        assert_eq!(p2.komi, 6.5);
        assert_eq!(plane(&p2, 5)[at(0, 4)], 1.0, "Black's chain, now opposing");
        assert_eq!(
            plane(&p2, 0)[at(4, 0)],
            1.0,
            "White's chain in atari, now own"
        );
        assert!(plane(&p2, 8).iter().all(|&v| v == 0.0));
        assert_eq!(plane(&p2, 9)[at(3, 1)], 1.0);
        assert!(plane(&p2, 10).iter().all(|&v| v == 0.65));
        assert_eq!(plane(&p2, 6), plane(&e, 6));
        assert_eq!(p2.passed().planes[..6 * 25], e.planes[..6 * 25]);
        // Turning the board turns every plane.
        let turned = e.turned(5);
        for k in 0..VALUE_PLANES {
            for i in 0..25 {
                assert_eq!(plane(&turned, k)[symmetric(i, 5, 5, 5)], plane(&e, k)[i]);
            }
        }
    }

    #[test]
    fn a_value_network_reads_back_from_its_file_and_judges_the_same() {
        let device = Device::flex();
        let shape = ValueShape {
            channels: 8,
            layers: 3,
        };
        let net = ValueNet::new(shape, &device);
        let bytes = net.to_bytes().unwrap();
        let back = ValueNetwork::from_bytes(&bytes).unwrap();
        assert_eq!(back.shape(), shape);
        let mut game = Game::new(Preset::Chinese.rules(), BoardSize::square(9).unwrap());
        game.play(Move::Play(game.size().point(4, 4).unwrap()))
            .unwrap();
        let j = back.judge_game(&game);
        assert!((0.0..=1.0).contains(&j.black_wins));
        assert!(j.spread > 0.0 && j.black_lead.is_finite());
        assert_eq!(j.ownership.len(), 81);
        assert!(j.ownership.iter().all(|o| (-1.0..=1.0).contains(o)));
        let again = ValueNetwork { net, shape, device }.judge_game(&game);
        assert_eq!(j, again);
        // As a search's source: the loaded network, not the shipped one.
        let source = ValueSource::load(&bytes).unwrap();
        assert_eq!(source, source);
        assert_ne!(source, ValueSource::Shipped);
        assert_ne!(source, ValueSource::load(&bytes).unwrap());
        assert_eq!(source.network().unwrap().judge_game(&game), j);
        assert!(ValueSource::Shipped.network().is_some());
        // A policy network's file is not a value network's.
        assert!(matches!(
            ValueNetwork::from_bytes(
                &crate::net::PolicyNet::new(crate::net::Shape::SHIPPED, &Device::flex())
                    .to_bytes()
                    .unwrap()
            ),
            Err(NetError::Shape { .. })
        ));
        assert!(matches!(
            ValueNetwork::from_bytes(b""),
            Err(NetError::Header(_))
        ));
    }

    #[test]
    fn the_shipped_network_loads_and_judges_within_bounds() {
        let value = ValueNetwork::shipped().expect("the shipped value network loads");
        assert_eq!(value.shape(), ValueShape::SHIPPED);
        let mut game = Game::new(Preset::Chinese.rules(), BoardSize::square(19).unwrap());
        game.set_komi(Points::halves(15));
        for (x, y) in [(3, 3), (15, 15)] {
            let j = value.judge_game(&game);
            assert!((0.0..=1.0).contains(&j.black_wins));
            assert!(j.black_lead.abs() < 361.0 && j.spread > 0.0);
            assert_eq!(j.ownership.len(), 361);
            game.play(Move::Play(game.size().point(x, y).unwrap()))
                .unwrap();
        }
    }
}
