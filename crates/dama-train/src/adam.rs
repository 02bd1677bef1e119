//! Adam, the optimiser both trainers step their parameters with.

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
