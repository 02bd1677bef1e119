//! Training the evaluation: logistic regression of game results (and, blended in,
//! search scores) on the sparse features of [`dama_engine::eval`], with Adam on the weights
//! each batch touches and L2 regularisation, so that patterns seen rarely stay small.
//!
//! The model: score = mg·(1 − t) + eg·t summed over features (t the phase), and the
//! expected result for the side to move σ(score / S). The target is
//! λ·σ(search score / S) + (1 − λ)·result. The loss is the cross-entropy; validation
//! positions (whole games, never single positions of a training game) measure it on
//! data the weights never saw, and the best epoch's weights are kept (the loop is
//! [`crate::fit`]'s).

use dama_core::{Color, Position, Rules};
use dama_engine::eval::weights::SCALE;
use dama_engine::eval::{Family, Tables, Weights, PHASE};
use rand::rngs::StdRng;
use rand::SeedableRng;

use crate::adam::Adam;
use crate::fit::{fit, loss, sigmoid, Model, Schedule};
use crate::{Epoch, Sample};

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

/// The weights in floats, middlegame then endgame.
struct FloatWeights {
    w: Vec<f32>,
    n: usize,
}

impl FloatWeights {
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

/// The learner's state: the float weights, and the batch's gradient, kept sparse (only
/// the weights of features the batch has seen are touched).
struct PatternModel<R: Rules> {
    t: Tables<R>,
    model: FloatWeights,
    /// The first scalar feature: the weights below it decay.
    scalars: usize,
    sigmoid: f32,
    l2: f32,
    grad: Vec<f32>,
    touched: Vec<u32>,
    seen: Vec<bool>,
    feats: Vec<(u32, i8)>,
}

impl<R: Rules> Model<R> for PatternModel<R> {
    type Kept = Vec<f32>;

    fn parameters(&self) -> usize {
        2 * self.model.n
    }

    fn mean_loss(&self, samples: &[Sample<R>]) -> f64 {
        self.model.mean_loss(&self.t, samples, self.sigmoid)
    }

    fn gradient(&mut self, batch: &[Sample<R>], total: &mut f64) {
        let n = self.model.n;
        for x in batch {
            let (e, ph) = self.model.score(&self.t, &x.pos, &mut self.feats);
            let sign = if x.pos.side() == Color::White { 1.0 } else { -1.0 };
            let p = sigmoid(sign * e / self.sigmoid);
            *total += loss(p, x.target);
            let g = sign * (p - x.target) / self.sigmoid;
            for &(i, v) in &self.feats {
                for (k, share) in [(i as usize, 1.0 - ph), (n + i as usize, ph)] {
                    if share == 0.0 {
                        continue;
                    }
                    self.grad[k] += g * f32::from(v) * share;
                    if !self.seen[k] {
                        self.seen[k] = true;
                        self.touched.push(k as u32);
                    }
                }
            }
        }
    }

    fn apply(&mut self, adam: &mut Adam, lr: f32, scale: f32) {
        let n = self.model.n;
        let w = &mut self.model.w;
        for &k in &self.touched {
            let k = k as usize;
            adam.apply(k, &mut w[k], self.grad[k] * scale, lr);
            if k % n < self.scalars {
                w[k] -= lr * self.l2 * w[k];
            }
            self.grad[k] = 0.0;
            self.seen[k] = false;
        }
        self.touched.clear();
    }

    fn keep(&self) -> Vec<f32> {
        self.model.w.clone()
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
    let shape = t.shape;
    let scale = init.scale as f32;
    let mut w: Vec<f32> = init.mg.iter().chain(&init.eg).map(|&x| f32::from(x) / scale).collect();
    w.resize(2 * n, 0.0);
    let mut model = PatternModel {
        t,
        model: FloatWeights { w, n },
        scalars,
        sigmoid: cfg.sigmoid,
        l2: cfg.l2,
        grad: vec![0f32; 2 * n],
        touched: Vec::new(),
        seen: vec![false; 2 * n],
        feats: Vec::new(),
    };
    let mut rng = StdRng::seed_from_u64(cfg.seed);
    let schedule = Schedule { epochs: cfg.epochs, lr: cfg.lr, decay: cfg.decay, batch: cfg.batch };
    let best = fit(&mut model, train, validation, schedule, &mut rng, report);
    let q = |x: f32| (x * SCALE as f32).round().clamp(-32767.0, 32767.0) as i16;
    Weights {
        family: Family::of::<R>(),
        shape,
        scale: SCALE,
        sigmoid: cfg.sigmoid,
        note: String::new(),
        mg: best[..n].iter().map(|&x| q(x)).collect(),
        eg: best[n..].iter().map(|&x| q(x)).collect(),
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
    use dama_engine::eval::weights::shape_of;

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
