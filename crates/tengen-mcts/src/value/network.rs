//! The value network itself, on burn: its trunk and heads, its file, and
//! the shipped weights ready to judge.

use super::{Judgement, VALUE_PLANES, ValueInput, ValueShape};
use crate::net::NetError;
use crate::net::safetensors::{load_safetensors, read_conv_shape, save_safetensors};
use burn::module::Param;
use burn::nn::conv::{Conv2d, Conv2dConfig};
use burn::nn::{Initializer, Linear, LinearConfig, PaddingConfig2d};
use burn::prelude::*;
use burn::tensor::activation::{relu, sigmoid};
use std::sync::OnceLock;
use tengen_core::Game;

/// The margin output's scale: its raw output is in tens of points.
const SCORE_SCALE: f32 = 10.0;
/// Hidden units of the value and score heads.
const HEAD: usize = 32;
/// Bounds of the spread's logarithm: from half a point to 200 points.
const LOG_SPREAD: (f32, f32) = (-0.7, 5.3);

/// The shipped weights (see `knowledge/README.md` for how they were made).
static SHIPPED: &[u8] = include_bytes!("../../knowledge/value.safetensors");

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
                let sign = input.mover.sign();
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
    use crate::value::ValueSource;
    use tengen_core::{BoardSize, Move, Points, Preset};

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
