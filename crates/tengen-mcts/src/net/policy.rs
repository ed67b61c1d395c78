//! The policy network itself, on burn: its layers, its file, and the
//! shipped weights ready for the search.

use super::safetensors::{load_safetensors, read_conv_shape, save_safetensors};
use super::{Encoded, NetError, PLANES, Shape, by_point};
use crate::features::{Extractor, Position};
use crate::model::PatternModel;
use burn::module::Param;
use burn::nn::conv::{Conv2d, Conv2dConfig};
use burn::nn::{Initializer, PaddingConfig2d};
use burn::prelude::*;
use burn::tensor::activation::{relu, softmax};
use std::sync::OnceLock;
use tengen_core::Point;

/// The shipped weights (see `knowledge/README.md` for how they were made).
static SHIPPED: &[u8] = include_bytes!("../../knowledge/policy.safetensors");

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
    /// index (as the pattern model's, [`tengen_core::BoardSize::cells`] long): the
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{assert_top_eight_in_corners, opening_policy};
    use tengen_core::{Board, Color};

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
        let (policy, ranked) = opening_policy(|extractor, position, moves| {
            net.position_policy(PatternModel::shipped(), extractor, position, &[], moves)
        });
        let total: f32 = policy.iter().sum();
        assert!((total - 1.0).abs() < 1e-3, "{total}");
        assert_top_eight_in_corners(&ranked, 2..=4);
    }
}
