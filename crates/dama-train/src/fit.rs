//! The epoch loop both trainers share: what a model is trained on ([`Sample`]), what
//! each epoch reports ([`Epoch`]), the loss, and `fit`, which shuffles, steps through
//! mini-batches with Adam, measures held-out positions after every epoch and keeps the
//! best epoch's parameters. What a model computes is its own (the `Model` trait).

use dama_core::{Position, Rules};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;

use crate::adam::Adam;

/// A training position with its target (expected result for the side to move).
#[derive(Clone, Copy, Debug)]
pub struct Sample<R: Rules> {
    /// The position.
    pub pos: Position<R>,
    /// What the model should predict for the side to move, 0 to 1.
    pub target: f32,
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

/// The logistic function.
pub(crate) fn sigmoid(x: f32) -> f32 {
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

/// A model [`fit`] can train: parameters Adam moves, a gradient per mini-batch, a loss.
pub(crate) trait Model<R: Rules> {
    /// What is kept of the best epoch.
    type Kept;
    /// The number of parameters (Adam keeps moments for each).
    fn parameters(&self) -> usize;
    /// Mean loss over `samples`.
    fn mean_loss(&self, samples: &[Sample<R>]) -> f64;
    /// Adds the gradient of `batch`'s summed loss to the model's own gradient, and the
    /// summed loss to `total`.
    fn gradient(&mut self, batch: &[Sample<R>], total: &mut f64);
    /// One step of `adam` (already started for this batch) with step size `lr` along
    /// the gradient times `scale` (one over the batch's size); the gradient is cleared.
    fn apply(&mut self, adam: &mut Adam, lr: f32, scale: f32);
    /// The parameters as they are now.
    fn keep(&self) -> Self::Kept;
}

/// How the step size and the batches go over the epochs.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Schedule {
    /// Passes over the data.
    pub(crate) epochs: usize,
    /// Adam's step size in the first epoch.
    pub(crate) lr: f32,
    /// The step size is multiplied by this after each epoch.
    pub(crate) decay: f32,
    /// Samples per step.
    pub(crate) batch: usize,
}

/// Trains `model` on `train` (shuffled with `rng` before every epoch), measuring on
/// `validation`; `report` hears of the starting loss (epoch 0) and of each epoch.
/// Returns the parameters of the epoch with the lowest validation loss.
pub(crate) fn fit<R: Rules, M: Model<R>>(
    model: &mut M,
    train: &mut [Sample<R>],
    validation: &[Sample<R>],
    schedule: Schedule,
    rng: &mut StdRng,
    report: &mut dyn FnMut(&Epoch),
) -> M::Kept {
    let mut adam = Adam::new(model.parameters());
    let mut best = (model.mean_loss(validation), model.keep());
    report(&Epoch { epoch: 0, train_loss: f64::NAN, validation_loss: best.0 });
    let mut lr = schedule.lr;
    for epoch in 1..=schedule.epochs {
        train.shuffle(rng);
        let mut total = 0f64;
        for batch in train.chunks(schedule.batch.max(1)) {
            model.gradient(batch, &mut total);
            adam.next_step();
            model.apply(&mut adam, lr, 1.0 / batch.len() as f32);
        }
        lr *= schedule.decay;
        let validation_loss = model.mean_loss(validation);
        report(&Epoch { epoch, train_loss: total / train.len().max(1) as f64, validation_loss });
        if validation_loss < best.0 {
            best = (validation_loss, model.keep());
        }
    }
    best.1
}
