//! Training the network evaluation ([`dama_engine::eval::net`]): the same samples and
//! targets as the pattern weights ([`crate::train`]), the same loss (cross-entropy of
//! σ(output) against the target) and the same epoch loop ([`crate::fit`]), minimised by
//! Adam over mini-batches with back-propagation in f32; each batch is shared between
//! threads that sum their gradients. Weights are kept
//! within what the integer network can hold, so quantising loses nothing but rounding.
//! Validation positions measure every epoch, and the best epoch's network is kept.

use dama_core::{Bits, Rules};
use dama_engine::eval::net::{active, bucket_of, inputs_of, Net, Q};
use dama_engine::eval::Family;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::adam::Adam;
use crate::fit::{fit, loss, sigmoid, Model, Schedule};
use crate::{Epoch, Sample};

/// How to train a network.
#[derive(Clone, Copy, Debug)]
pub struct NetConfig {
    /// First-layer units (a multiple of 16, at most 512).
    pub h1: usize,
    /// Second-layer units (a multiple of 8, at most 128).
    pub h2: usize,
    /// Sets of the layers after the accumulator, by number of pieces.
    pub buckets: usize,
    /// Passes over the data.
    pub epochs: usize,
    /// Adam's step size in the first epoch.
    pub lr: f32,
    /// The step size is multiplied by this after each epoch.
    pub decay: f32,
    /// Samples per step.
    pub batch: usize,
    /// Threads sharing each batch.
    pub threads: usize,
    /// Shuffling and initialisation seed.
    pub seed: u64,
}

impl Default for NetConfig {
    fn default() -> Self {
        NetConfig { h1: 128, h2: 32, buckets: 1, epochs: 20, lr: 0.002, decay: 0.9, batch: 8192, threads: 2, seed: 1 }
    }
}

/// Largest first-layer weight: 40 pieces of it stay inside an i16 accumulator.
const W1_MAX: f32 = 4.0;
/// Largest weight of the later layers.
const W_MAX: f32 = 200.0;

/// The network in floats: every parameter in one vector, in the order w1, b1, then for
/// each bucket w2, b2, w3, b3.
#[derive(Clone)]
struct FloatNet {
    inputs: usize,
    h1: usize,
    h2: usize,
    buckets: usize,
    p: Vec<f32>,
}

/// Where each block of parameters starts: the first layer's, then the layers of
/// bucket `k` at `top + k * block`, w2, b2, w3 and b3 at their offsets within it.
#[derive(Clone, Copy)]
struct Layout {
    b1: usize,
    top: usize,
    block: usize,
    b2: usize,
    w3: usize,
    b3: usize,
    len: usize,
}

impl Layout {
    /// Where bucket `k`'s layers start.
    fn at(&self, k: usize) -> usize {
        self.top + k * self.block
    }
}

impl FloatNet {
    fn layout(&self) -> Layout {
        let b1 = self.inputs * self.h1;
        let top = b1 + self.h1;
        let (b2, w3) = (self.h2 * self.h1, self.h2 * self.h1 + self.h2);
        let b3 = w3 + self.h2;
        let block = b3 + 1;
        Layout { b1, top, block, b2, w3, b3, len: top + self.buckets * block }
    }

    fn random(inputs: usize, h1: usize, h2: usize, buckets: usize, rng: &mut StdRng) -> FloatNet {
        let mut m = FloatNet { inputs, h1, h2, buckets, p: Vec::new() };
        let l = m.layout();
        m.p = vec![0.0; l.len];
        for x in &mut m.p[..l.b1] {
            *x = rng.gen_range(-0.1..0.1);
        }
        m.p[l.b1..l.top].iter_mut().for_each(|x| *x = 0.5);
        let (a2, a3) = (1.0 / (h1 as f32).sqrt(), 1.0 / (h2 as f32).sqrt());
        for k in 0..buckets {
            let o = l.at(k);
            for x in &mut m.p[o..o + l.b2] {
                *x = rng.gen_range(-a2..a2);
            }
            m.p[o + l.b2..o + l.w3].iter_mut().for_each(|x| *x = 0.2);
            for x in &mut m.p[o + l.w3..o + l.b3] {
                *x = rng.gen_range(-a3..a3);
            }
        }
        m
    }

    /// The float model of a network, with `buckets` sets of later layers: a network of
    /// one bucket gives each bucket a copy of its layers.
    fn from_net(n: &Net, buckets: usize) -> FloatNet {
        let q = Q as f32;
        let mut p: Vec<f32> = n.w1.iter().chain(&n.b1).map(|&x| f32::from(x) / q).collect();
        for k in 0..buckets {
            let l = n.layers(if n.buckets == buckets { k } else { 0 });
            p.extend(l.w2.iter().map(|&x| f32::from(x) / q));
            p.extend(l.b2.iter().map(|&x| x as f32 / (q * q)));
            p.extend(l.w3.iter().map(|&x| f32::from(x) / q));
            p.push(l.b3 as f32 / (q * q));
        }
        FloatNet { inputs: n.inputs, h1: n.h1, h2: n.h2, buckets, p }
    }

    fn to_net(&self, family: Family, note: String) -> Net {
        let l = self.layout();
        let q = Q as f32;
        let i16s =
            |s: &[f32]| -> Vec<i16> { s.iter().map(|&x| (x * q).round().clamp(-32767.0, 32767.0) as i16).collect() };
        let i32s = |s: &[f32]| -> Vec<i32> { s.iter().map(|&x| (x * q * q).round() as i32).collect() };
        let (mut w2, mut b2, mut w3, mut b3) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for k in 0..self.buckets {
            let o = l.at(k);
            w2.extend(i16s(&self.p[o..o + l.b2]));
            b2.extend(i32s(&self.p[o + l.b2..o + l.w3]));
            w3.extend(i16s(&self.p[o + l.w3..o + l.b3]));
            b3.extend(i32s(&self.p[o + l.b3..o + l.block]));
        }
        Net {
            family,
            inputs: self.inputs,
            h1: self.h1,
            h2: self.h2,
            buckets: self.buckets,
            note,
            w1: i16s(&self.p[..l.b1]),
            b1: i16s(&self.p[l.b1..l.top]),
            w2,
            b2,
            w3,
            b3,
        }
    }

    /// The output logit for the side to move through bucket `k`'s layers, with the
    /// activations kept for the backward pass.
    fn forward(&self, feats: &[usize], k: usize, acc: &mut [f32], a1: &mut [f32], z2: &mut [f32]) -> f32 {
        let l = self.layout();
        let h1 = self.h1;
        let o = l.at(k);
        acc.copy_from_slice(&self.p[l.b1..l.top]);
        for &f in feats {
            for (a, w) in acc.iter_mut().zip(&self.p[f * h1..(f + 1) * h1]) {
                *a += w;
            }
        }
        for (y, x) in a1.iter_mut().zip(acc.iter()) {
            *y = x.clamp(0.0, 1.0);
        }
        let mut out = self.p[o + l.b3];
        for (j, z) in z2.iter_mut().enumerate() {
            let row = &self.p[o + j * h1..o + (j + 1) * h1];
            let s: f32 = a1.iter().zip(row).map(|(a, w)| a * w).sum();
            *z = s + self.p[o + l.b2 + j];
            out += z.clamp(0.0, 1.0) * self.p[o + l.w3 + j];
        }
        out
    }

    /// Adds the gradient of the loss for one sample (`g` = dLoss/dOutput) through
    /// bucket `k` to `grad`.
    #[allow(clippy::too_many_arguments)]
    fn backward(
        &self,
        feats: &[usize],
        k: usize,
        acc: &[f32],
        a1: &[f32],
        z2: &[f32],
        g: f32,
        grad: &mut [f32],
        d1: &mut [f32],
    ) {
        let l = self.layout();
        let h1 = self.h1;
        let o = l.at(k);
        grad[o + l.b3] += g;
        d1.iter_mut().for_each(|x| *x = 0.0);
        for (j, &z) in z2.iter().enumerate() {
            let a2 = z.clamp(0.0, 1.0);
            grad[o + l.w3 + j] += g * a2;
            if z <= 0.0 || z >= 1.0 {
                continue;
            }
            let d2 = g * self.p[o + l.w3 + j];
            grad[o + l.b2 + j] += d2;
            let row = o + j * h1;
            for ((gw, d), (a, w)) in
                grad[row..row + h1].iter_mut().zip(d1.iter_mut()).zip(a1.iter().zip(&self.p[row..row + h1]))
            {
                *gw += d2 * a;
                *d += d2 * w;
            }
        }
        for (j, d) in d1.iter_mut().enumerate() {
            if acc[j] <= 0.0 || acc[j] >= 1.0 {
                *d = 0.0;
            }
        }
        for (gb, d) in grad[l.b1..l.top].iter_mut().zip(d1.iter()) {
            *gb += d;
        }
        for &f in feats {
            for (gw, d) in grad[f * h1..(f + 1) * h1].iter_mut().zip(d1.iter()) {
                *gw += d;
            }
        }
    }

    /// Mean loss and the summed gradient of `samples` (gradient only if `grad`).
    fn pass<R: Rules>(&self, samples: &[Sample<R>], mut grad: Option<&mut [f32]>) -> f64 {
        let mut acc = vec![0f32; self.h1];
        let mut a1 = vec![0f32; self.h1];
        let mut z2 = vec![0f32; self.h2];
        let mut d1 = vec![0f32; self.h1];
        let mut feats = Vec::with_capacity(80);
        let mut total = 0f64;
        let per_side = dama_core::Position::<R>::pieces_at_start();
        for x in samples {
            feats.clear();
            active(&x.pos, |i| feats.push(i));
            let k = bucket_of(x.pos.occupied().count(), per_side, self.buckets);
            let out = self.forward(&feats, k, &mut acc, &mut a1, &mut z2);
            let p = sigmoid(out);
            total += loss(p, x.target);
            if let Some(g) = grad.as_deref_mut() {
                self.backward(&feats, k, &acc, &a1, &z2, p - x.target, g, &mut d1);
            }
        }
        total
    }

    /// Mean loss over `samples`, shared between `threads`.
    fn mean_loss<R: Rules>(&self, samples: &[Sample<R>], threads: usize) -> f64 {
        let chunk = samples.len().div_ceil(threads.max(1)).max(1);
        let total: f64 = std::thread::scope(|s| {
            let hs: Vec<_> = samples.chunks(chunk).map(|c| s.spawn(move || self.pass(c, None))).collect();
            hs.into_iter().map(|h| h.join().unwrap_or(0.0)).sum()
        });
        total / samples.len().max(1) as f64
    }

    fn clip(&mut self) {
        let l = self.layout();
        for x in &mut self.p[..l.b1] {
            *x = x.clamp(-W1_MAX, W1_MAX);
        }
        for x in &mut self.p[l.b1..] {
            *x = x.clamp(-W_MAX, W_MAX);
        }
    }
}

/// The learner's state: the float network, and a gradient for each thread that shares
/// a batch.
struct NetModel {
    net: FloatNet,
    threads: usize,
    grads: Vec<Vec<f32>>,
}

impl<R: Rules> Model<R> for NetModel {
    type Kept = FloatNet;

    fn parameters(&self) -> usize {
        self.net.layout().len
    }

    fn mean_loss(&self, samples: &[Sample<R>]) -> f64 {
        self.net.mean_loss(samples, self.threads)
    }

    fn gradient(&mut self, batch: &[Sample<R>], total: &mut f64) {
        let chunk = batch.len().div_ceil(self.threads);
        let model_ref = &self.net;
        *total += std::thread::scope(|s| {
            let hs: Vec<_> = batch
                .chunks(chunk)
                .zip(self.grads.iter_mut())
                .map(|(c, g)| {
                    s.spawn(move || {
                        g.iter_mut().for_each(|x| *x = 0.0);
                        model_ref.pass(c, Some(g))
                    })
                })
                .collect();
            hs.into_iter().map(|h| h.join().unwrap_or(0.0)).sum::<f64>()
        });
    }

    fn apply(&mut self, adam: &mut Adam, lr: f32, scale: f32) {
        let (first, rest) = self.grads.split_at_mut(1);
        for g in rest.iter() {
            for (a, b) in first[0].iter_mut().zip(g) {
                *a += b;
            }
        }
        for (k, g) in first[0].iter().enumerate() {
            adam.apply(k, &mut self.net.p[k], g * scale, lr);
        }
        self.net.clip();
    }

    fn keep(&self) -> FloatNet {
        self.net.clone()
    }
}

/// Trains a network for `R`'s family (from `init`, or from random weights) on `train`,
/// measuring on `validation`; `report` hears of each epoch. Returns the best epoch's
/// network.
pub fn train_net<R: Rules>(
    init: Option<&Net>,
    train: &mut [Sample<R>],
    validation: &[Sample<R>],
    cfg: &NetConfig,
    report: &mut dyn FnMut(&Epoch),
) -> Net {
    let mut rng = StdRng::seed_from_u64(cfg.seed);
    let inputs = inputs_of::<R>();
    let net = match init {
        Some(n) if n.inputs == inputs && (n.buckets == cfg.buckets || n.buckets == 1) => {
            FloatNet::from_net(n, cfg.buckets)
        }
        _ => FloatNet::random(inputs, cfg.h1, cfg.h2, cfg.buckets, &mut rng),
    };
    let threads = cfg.threads.max(1);
    let n = net.layout().len;
    let mut model = NetModel { net, threads, grads: (0..threads).map(|_| vec![0f32; n]).collect() };
    let schedule = Schedule { epochs: cfg.epochs, lr: cfg.lr, decay: cfg.decay, batch: cfg.batch };
    let best = fit(&mut model, train, validation, schedule, &mut rng, report);
    best.to_net(Family::of::<R>(), String::new())
}

#[cfg(test)]
mod tests {
    use super::*;
    use dama_core::fen::parse_fen;
    use dama_core::variant::English;

    #[test]
    fn a_network_learns_that_an_extra_man_wins_and_quantises_faithfully() {
        let mut samples = crate::train::extra_man_samples(0.9, 2000);
        let validation = samples[..40].to_vec();
        let cfg =
            NetConfig { h1: 16, h2: 8, buckets: 1, epochs: 40, batch: 64, lr: 0.01, decay: 1.0, threads: 2, seed: 3 };
        let mut losses = Vec::new();
        let net = train_net(None, &mut samples, &validation, &cfg, &mut |e| losses.push(e.validation_loss));
        assert!(losses.last().unwrap() < &(losses[0] / 4.0), "{losses:?}");
        // The integer network agrees with what it learned: +0.9 is about +2.2 logits.
        let up = parse_fen::<English>(crate::train::EXTRA_MAN_UP).unwrap();
        let level = parse_fen::<English>(crate::train::EXTRA_MAN_LEVEL).unwrap();
        let down = parse_fen::<English>(crate::train::EXTRA_MAN_DOWN).unwrap();
        let (u, l, d) = (net.evaluate(&up), net.evaluate(&level), net.evaluate(&down));
        assert!(u > 150 && u < 300, "{u}");
        assert!(l.abs() < 40, "{l}");
        assert!(d < -150 && d > -300, "{d}");
    }

    #[test]
    fn a_network_with_buckets_learns_and_starts_from_one_without() {
        let mut samples = crate::train::extra_man_samples(0.9, 2000);
        let validation = samples[..40].to_vec();
        let cfg =
            NetConfig { h1: 16, h2: 8, buckets: 3, epochs: 30, batch: 64, lr: 0.01, decay: 1.0, threads: 2, seed: 5 };
        let net = train_net(None, &mut samples, &validation, &cfg, &mut |_| {});
        assert_eq!((net.buckets, net.w2.len(), net.b3.len()), (3, 3 * 8 * 16, 3));
        let up = parse_fen::<English>(crate::train::EXTRA_MAN_UP).unwrap();
        assert!(net.evaluate(&up) > 150, "{}", net.evaluate(&up));
        // A one-bucket network gives each bucket a copy of its layers to start from:
        // before any step, every bucket scores as it did.
        let one = train_net(None, &mut samples, &validation, &NetConfig { buckets: 1, epochs: 1, ..cfg }, &mut |_| {});
        let m = FloatNet::from_net(&one, 3).to_net(Family::ShortKings, String::new());
        for k in 0..3 {
            assert_eq!(m.w2[k * 8 * 16..(k + 1) * 8 * 16], one.w2[..]);
            assert_eq!(m.b3[k], one.b3[0]);
        }
    }
}
