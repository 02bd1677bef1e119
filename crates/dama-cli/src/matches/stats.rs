//! Match statistics: Elo from a score, intervals that stay honest for small or lopsided
//! samples, and a sequential test (SPRT) on pairs of games.

/// Elo difference of a score fraction (infinite for 0 and 1: no finite difference
/// explains a perfect score).
pub fn elo(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// A number as a signed whole Elo figure, never "-0".
pub fn signed(x: f64) -> String {
    if x.is_infinite() {
        return if x > 0.0 { "+inf".into() } else { "-inf".into() };
    }
    let r = x.round();
    if r == 0.0 {
        "0".into()
    } else {
        format!("{r:+.0}")
    }
}

/// The score fraction and its 95% interval by Wilson's method, which stays inside
/// [0, 1] for any sample (one side of a perfect score is bounded, not a point), and uses
/// p(1 - p), never less than the variance of a game with draws: the interval is never
/// too narrow.
pub fn score_interval(w: u32, d: u32, l: u32) -> (f64, f64, f64) {
    let n = f64::from(w + d + l);
    if n == 0.0 {
        return (0.5, 0.0, 1.0);
    }
    let p = (f64::from(w) + f64::from(d) / 2.0) / n;
    let z = 1.96f64;
    let den = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / den;
    let half = z / den * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    // At a perfect score one bound is exactly 0 or 1; rounding must not turn it into a
    // finite Elo of thousands.
    let lo = if w == 0 && d == 0 { p } else { centre - half };
    let hi = if l == 0 && d == 0 { p } else { centre + half };
    (p, lo.min(p), hi.max(p))
}

/// (Elo, lower, upper) at 95%.
pub fn elo_interval(w: u32, d: u32, l: u32) -> (f64, f64, f64) {
    let (p, lo, hi) = score_interval(w, d, l);
    (elo(p), elo(lo), elo(hi))
}

/// Log-likelihood ratio of H1 (elo1) against H0 (elo0) from the scores of game pairs
/// (each pair: one opening with colours swapped, scored 0, 1/4, ..., 1), by the
/// normal approximation of the pentanomial model.
pub fn llr_pairs(pairs: &[f64], elo0: f64, elo1: f64) -> f64 {
    let n = pairs.len() as f64;
    if n < 2.0 {
        return 0.0;
    }
    let mean = pairs.iter().sum::<f64>() / n;
    let var = pairs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n;
    if var <= 0.0 {
        return 0.0;
    }
    let sc = |e: f64| 1.0 / (1.0 + 10f64.powf(-e / 400.0));
    let (s0, s1) = (sc(elo0), sc(elo1));
    (s1 - s0) * (2.0 * mean - s0 - s1) * n / (2.0 * var)
}

/// The SPRT bounds for alpha = beta = 0.05: (accept H0 at or below, accept H1 at or above).
pub fn sprt_bounds() -> (f64, f64) {
    ((0.05f64 / 0.95).ln(), (0.95f64 / 0.05).ln())
}

/// Pairs an SPRT needs before it may decide. [`llr_pairs`] divides by the variance the
/// pairs show, and a few pairs can show almost none: two pairs scored 3/4 and 1 (a real
/// Thai match) gave an LLR of 3.10, past the bound, after four games. Thirty pairs put the
/// variance estimate within about a quarter of its value.
pub const SPRT_MIN_PAIRS: usize = 30;

/// The SPRT's decision on `pairs` for [elo0, elo1], with the LLR it rests on:
/// `Some((true, llr))` H1 accepted, `Some((false, llr))` H0 accepted, `None` go on
/// (always before [`SPRT_MIN_PAIRS`] pairs).
pub fn sprt_decision(pairs: &[f64], elo0: f64, elo1: f64) -> Option<(bool, f64)> {
    if pairs.len() < SPRT_MIN_PAIRS {
        return None;
    }
    let (lower, upper) = sprt_bounds();
    let x = llr_pairs(pairs, elo0, elo1);
    (x >= upper || x <= lower).then_some((x >= upper, x))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_of_known_scores() {
        assert!(elo(0.5).abs() < 1e-9);
        assert!((elo(0.75) - 190.85).abs() < 0.1);
        assert_eq!(signed(-0.3), "0");
        assert_eq!(signed(-12.6), "-13");
        assert_eq!(signed(4.0), "+4");
    }

    #[test]
    fn intervals_are_finite_and_honest() {
        // The lopsided sample: 2 wins, 4 draws, 54 losses.
        let (e, lo, hi) = elo_interval(2, 4, 54);
        assert!((e - (-458.0)).abs() < 2.0, "{e}");
        assert!(lo > -700.0 && lo < e && hi > e && hi < -250.0, "{lo} {hi}");
        // All lost: the upper bound is finite, the lower one honestly unbounded.
        let (e, lo, hi) = elo_interval(0, 0, 10);
        assert!(e.is_infinite() && lo.is_infinite() && hi > -500.0 && hi < -100.0, "{lo} {hi}");
        assert_eq!(signed(lo), "-inf");
        // All won: the mirror image, the upper bound unbounded (not a rounded +6000).
        let (e, lo, hi) = elo_interval(6, 0, 0);
        assert!(e.is_infinite() && hi.is_infinite() && lo > 0.0 && lo < 200.0, "{lo} {hi}");
        assert_eq!(signed(hi), "+inf");
        // An even match: symmetric around 0.
        let (e, lo, hi) = elo_interval(30, 40, 30);
        assert!(e.abs() < 1e-6 && (lo + hi).abs() < 1e-6 && hi > 50.0, "{lo} {hi}");
    }

    #[test]
    fn sprt_accepts_the_true_hypothesis() {
        let (lower, upper) = sprt_bounds();
        // 150 pairs won 3/4 on average: a clear edge accepts H1.
        let strong: Vec<f64> = (0..150).map(|i| [1.0, 0.75, 0.5][i % 3]).collect();
        assert!(llr_pairs(&strong, 0.0, 50.0) > upper);
        // An even match accepts H0 for [0, 50].
        let even: Vec<f64> = (0..400).map(|i| [0.5, 0.75, 0.25, 0.5][i % 4]).collect();
        assert!(llr_pairs(&even, 0.0, 50.0) < lower);
        assert_eq!(sprt_decision(&strong, 0.0, 50.0).map(|d| d.0), Some(true));
        assert_eq!(sprt_decision(&even, 0.0, 50.0).map(|d| d.0), Some(false));
    }

    #[test]
    fn sprt_does_not_decide_on_a_handful_of_pairs() {
        // The Thai match that stopped after four games: pairs of 3/4 and 1 show so little
        // variance that the LLR is past the bound.
        let (_, upper) = sprt_bounds();
        assert!(llr_pairs(&[0.75, 1.0], 0.0, 50.0) > upper);
        assert_eq!(sprt_decision(&[0.75, 1.0], 0.0, 50.0), None);
        let early: Vec<f64> = (0..SPRT_MIN_PAIRS - 1).map(|i| [0.75, 1.0][i % 2]).collect();
        assert_eq!(sprt_decision(&early, 0.0, 50.0), None);
    }
}
