//! Training the evaluation: logistic regression of game results (and, blended in,
//! search scores) on the sparse features of [`crate::eval`], with Adam on the weights
//! each batch touches and L2 regularisation, so that patterns seen rarely stay small.
//!
//! The model: score = mg·(1 − t) + eg·t summed over features (t the phase), and the
//! expected result for the side to move σ(score / S). The target is
//! λ·σ(search score / S) + (1 − λ)·result. The loss is the cross-entropy; validation
//! positions (whole games, never single positions of a training game) measure it on
//! data the weights never saw, and the best epoch's weights are kept.

use dama_core::{Color, Position, Rules};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

use crate::eval::weights::SCALE;
use crate::eval::{Family, Tables, Weights, PHASE};

/// A training position with its target (expected result for the side to move).
#[derive(Clone, Copy, Debug)]
pub struct Sample<R: Rules> {
    /// The position.
    pub pos: Position<R>,
    /// What the model should predict for the side to move, 0 to 1.
    pub target: f32,
}

/// How to train.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    /// Passes over the data.
    pub epochs: usize,
    /// Adam's step size (hundredths of a man) in the first epoch.
    pub lr: f32,
    /// The step size is multiplied by this after each epoch.
    pub decay: f32,
    /// Weight decay per step (decoupled from the gradient, as in AdamW), for the
    /// pattern and king-square weights only: rarely seen patterns stay near zero, and
    /// material is never pulled towards nothing.
    pub l2: f32,
    /// Samples per step.
    pub batch: usize,
    /// The sigmoid's scale S, hundredths of a man.
    pub sigmoid: f32,
    /// Shuffling seed.
    pub seed: u64,
}

impl Default for Config {
    fn default() -> Self {
        Config { epochs: 20, lr: 0.05, decay: 0.9, l2: 0.01, batch: 4096, sigmoid: 100.0, seed: 1 }
    }
}

/// What an epoch gave.
#[derive(Clone, Copy, Debug)]
pub struct Epoch {
    /// Epoch number, from 1 (0: the starting weights).
    pub epoch: usize,
    /// Mean cross-entropy on the training data.
    pub train_loss: f64,
    /// Mean cross-entropy on the validation data.
    pub validation_loss: f64,
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The cross-entropy of predicting `p` for target `y`, less its minimum (the target's
/// own entropy), so a perfect model scores 0 whatever the targets.
pub(crate) fn loss(p: f32, y: f32) -> f64 {
    let p = f64::from(p.clamp(1e-6, 1.0 - 1e-6));
    let y = f64::from(y);
    let h = |q: f64| if q <= 0.0 || q >= 1.0 { 0.0 } else { -(q * q.ln() + (1.0 - q) * (1.0 - q).ln()) };
    -(y * p.ln() + (1.0 - y) * (1.0 - p).ln()) - h(y)
}

/// The learner's state: float weights and Adam's moments, middlegame then endgame.
struct Model {
    w: Vec<f32>,
    n: usize,
}

/// Adam's moment estimates for a vector of parameters (β1 0.9, β2 0.999, ε 1e-8), shared
/// by the pattern and the network trainers.
pub(crate) struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    step: i32,
    c1: f32,
    c2: f32,
}

impl Adam {
    const B1: f32 = 0.9;
    const B2: f32 = 0.999;
    const EPS: f32 = 1e-8;

    /// Zero moments for `n` parameters.
    pub(crate) fn new(n: usize) -> Adam {
        Adam { m: vec![0.0; n], v: vec![0.0; n], step: 0, c1: 1.0, c2: 1.0 }
    }

    /// Starts the next step (its bias corrections); call once per batch before [`Adam::apply`].
    pub(crate) fn next_step(&mut self) {
        self.step += 1;
        self.c1 = 1.0 - Self::B1.powi(self.step);
        self.c2 = 1.0 - Self::B2.powi(self.step);
    }

    /// Moves parameter `k`, whose value is `w`, by its gradient `g` with step size `lr`.
    #[inline]
    pub(crate) fn apply(&mut self, k: usize, w: &mut f32, g: f32, lr: f32) {
        self.m[k] = Self::B1 * self.m[k] + (1.0 - Self::B1) * g;
        self.v[k] = Self::B2 * self.v[k] + (1.0 - Self::B2) * g * g;
        *w -= lr * (self.m[k] / self.c1) / ((self.v[k] / self.c2).sqrt() + Self::EPS);
    }
}

impl Model {
    /// The score (White's view) and phase of a position, with its features.
    fn score<R: Rules>(&self, t: &Tables<R>, pos: &Position<R>, feats: &mut Vec<(u32, i8)>) -> (f32, f32) {
        feats.clear();
        t.features(pos, |i, v| feats.push((i as u32, v.clamp(-127, 127) as i8)));
        let ph = t.phase(pos) as f32 / PHASE as f32;
        let (mut mg, mut eg) = (0f32, 0f32);
        for &(i, v) in feats.iter() {
            mg += f32::from(v) * self.w[i as usize];
            eg += f32::from(v) * self.w[self.n + i as usize];
        }
        (mg * (1.0 - ph) + eg * ph, ph)
    }

    fn mean_loss<R: Rules>(&self, t: &Tables<R>, samples: &[Sample<R>], s: f32) -> f64 {
        let mut feats = Vec::new();
        let total: f64 = samples
            .iter()
            .map(|x| {
                let (e, _) = self.score(t, &x.pos, &mut feats);
                let e = if x.pos.side() == Color::White { e } else { -e };
                loss(sigmoid(e / s), x.target)
            })
            .sum();
        total / samples.len().max(1) as f64
    }
}

/// Trains weights for `R`'s family from `init` on `train`, measuring on `validation`;
/// `report` hears of each epoch. Returns the best epoch's weights.
pub fn train<R: Rules>(
    init: &Weights,
    train: &mut [Sample<R>],
    validation: &[Sample<R>],
    cfg: &Config,
    report: &mut dyn FnMut(&Epoch),
) -> Weights {
    let t = Tables::<R>::new();
    let n = t.shape.len();
    let scalars = t.shape.scalars();
    let scale = init.scale as f32;
    let mut w: Vec<f32> = init.mg.iter().chain(&init.eg).map(|&x| f32::from(x) / scale).collect();
    w.resize(2 * n, 0.0);
    let mut model = Model { w, n };
    let mut adam = Adam::new(2 * n);
    let mut grad = vec![0f32; 2 * n];
    let mut touched: Vec<u32> = Vec::new();
    let mut seen = vec![false; 2 * n];
    let mut feats = Vec::new();
    let mut rng = StdRng::seed_from_u64(cfg.seed);
    let mut best = (model.mean_loss(&t, validation, cfg.sigmoid), model.w.clone());
    report(&Epoch { epoch: 0, train_loss: f64::NAN, validation_loss: best.0 });
    let mut lr = cfg.lr;
    for epoch in 1..=cfg.epochs {
        train.shuffle(&mut rng);
        let mut total = 0f64;
        for batch in train.chunks(cfg.batch.max(1)) {
            for x in batch {
                let (e, ph) = model.score(&t, &x.pos, &mut feats);
                let sign = if x.pos.side() == Color::White { 1.0 } else { -1.0 };
                let p = sigmoid(sign * e / cfg.sigmoid);
                total += loss(p, x.target);
                let g = sign * (p - x.target) / cfg.sigmoid;
                for &(i, v) in &feats {
                    for (k, share) in [(i as usize, 1.0 - ph), (n + i as usize, ph)] {
                        if share == 0.0 {
                            continue;
                        }
                        grad[k] += g * f32::from(v) * share;
                        if !seen[k] {
                            seen[k] = true;
                            touched.push(k as u32);
                        }
                    }
                }
            }
            adam.next_step();
            let inv = 1.0 / batch.len() as f32;
            for &k in &touched {
                let k = k as usize;
                adam.apply(k, &mut model.w[k], grad[k] * inv, lr);
                if k % n < scalars {
                    model.w[k] -= lr * cfg.l2 * model.w[k];
                }
                grad[k] = 0.0;
                seen[k] = false;
            }
            touched.clear();
        }
        lr *= cfg.decay;
        let validation_loss = model.mean_loss(&t, validation, cfg.sigmoid);
        report(&Epoch { epoch, train_loss: total / train.len().max(1) as f64, validation_loss });
        if validation_loss < best.0 {
            best = (validation_loss, model.w.clone());
        }
    }
    let q = |x: f32| (x * SCALE as f32).round().clamp(-32767.0, 32767.0) as i16;
    Weights {
        family: Family::of::<R>(),
        shape: t.shape,
        scale: SCALE,
        sigmoid: cfg.sigmoid,
        note: String::new(),
        mg: best.1[..n].iter().map(|&x| q(x)).collect(),
        eg: best.1[n..].iter().map(|&x| q(x)).collect(),
    }
}

/// The target of a position: λ·σ(score / S) + (1 − λ)·result, for the side to move.
pub fn target(score: i16, result_white: u8, side: Color, lambda: f32, s: f32) -> f32 {
    let r = f32::from(result_white) / 2.0;
    let r = if side == Color::White { r } else { 1.0 - r };
    lambda * sigmoid(f32::from(score) / s) + (1.0 - lambda) * r
}

/// English positions for the trainers' tests, `n` in turn: a man up (target `up`) with
/// either side to move, level (0.5), a man down (`1 - up`).
#[cfg(test)]
pub(crate) fn extra_man_samples(up: f32, n: usize) -> Vec<Sample<dama_core::variant::English>> {
    use dama_core::fen::parse_fen;
    let fens =
        [(EXTRA_MAN_UP, up), ("B:W21,22,23,24:B1,2,3,4,5", up), (EXTRA_MAN_LEVEL, 0.5), (EXTRA_MAN_DOWN, 1.0 - up)];
    (0..n)
        .map(|i| {
            let (f, y) = fens[i % fens.len()];
            Sample { pos: parse_fen(f).unwrap(), target: y }
        })
        .collect()
}

/// The level and the man-down positions of [`extra_man_samples`].
#[cfg(test)]
pub(crate) const EXTRA_MAN_LEVEL: &str = "W:W21,22,23,24:B1,2,3,4";
#[cfg(test)]
pub(crate) const EXTRA_MAN_DOWN: &str = "W:W21,22,23:B1,2,3,4,9";
/// The man-up position of [`extra_man_samples`], White to move.
#[cfg(test)]
pub(crate) const EXTRA_MAN_UP: &str = "W:W21,22,23,24,25:B1,2,3,4";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::weights::shape_of;

    #[test]
    fn training_learns_that_an_extra_man_wins() {
        // Positions where one side has a man more and won, and level ones drawn: the
        // men weight grows from 0 and the extra man is valued positively.
        let mut samples = extra_man_samples(1.0, 400);
        let mut init = Weights::material(Family::ShortKings, shape_of(Family::ShortKings));
        init.mg.iter_mut().chain(init.eg.iter_mut()).for_each(|w| *w = 0);
        let validation = samples[..40].to_vec();
        let mut losses = Vec::new();
        let cfg = Config { epochs: 30, batch: 16, lr: 1.0, decay: 1.0, ..Config::default() };
        let w = train(&init, &mut samples, &validation, &cfg, &mut |e| losses.push(e.validation_loss));
        assert!(losses.last().unwrap() < &losses[0], "{losses:?}");
        let s = w.shape.scalars();
        assert!(w.mg[s] > 0, "men weight {}", w.mg[s]);
    }
}
