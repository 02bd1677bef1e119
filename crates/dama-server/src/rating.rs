//! Ratings: Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2013), one rating
//! per player, variant and speed class, updated after every rated game as lichess does
//! (each game a rating period of its own, the deviation growing with the time since the
//! player's last rated game).

use serde::{Deserialize, Serialize};

use crate::clock::TimeControl;

/// The Glicko scale's factor between a rating and Glicko-2's internal μ.
const SCALE: f64 = 173.7178;
/// The rating a new player starts from.
pub const START_RATING: f64 = 1500.0;
/// A new player's deviation.
pub const START_RD: f64 = 350.0;
/// A new player's volatility.
pub const START_VOLATILITY: f64 = 0.06;
/// The largest deviation: a long absence brings a player back to a newcomer's.
pub const MAX_RD: f64 = 350.0;
/// The smallest deviation, so that an established rating can still move.
pub const MIN_RD: f64 = 45.0;
/// The system constant τ: how fast volatility may change (Glickman suggests 0.3 to
/// 1.2; lichess uses 0.75).
pub const TAU: f64 = 0.75;
/// A rating whose deviation is above this is provisional (shown with a "?").
pub const PROVISIONAL_RD: f64 = 110.0;
/// Rating periods per day of absence: the deviation grows as if this many empty
/// periods passed each day (lichess's figure, about one period every 4.7 days).
pub const PERIODS_PER_DAY: f64 = 0.21436;
/// The convergence tolerance of the volatility iteration.
const EPSILON: f64 = 1e-6;

/// A Glicko-2 rating.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Rating {
    /// The rating (Glicko scale, 1500 to start).
    pub rating: f64,
    /// The rating deviation.
    pub rd: f64,
    /// The volatility σ.
    pub volatility: f64,
}

impl Default for Rating {
    fn default() -> Self {
        Rating { rating: START_RATING, rd: START_RD, volatility: START_VOLATILITY }
    }
}

/// One game's outcome for the rated player: 1 a win, 0.5 a draw, 0 a loss.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outcome {
    /// The opponent's rating before the game.
    pub opponent: Rating,
    /// The score: 1, 0.5 or 0.
    pub score: f64,
}

fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI * std::f64::consts::PI)).sqrt()
}

fn expected(mu: f64, mu_j: f64, phi_j: f64) -> f64 {
    1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp())
}

impl Rating {
    /// True while the deviation is too large for the rating to be trusted.
    pub fn provisional(&self) -> bool {
        self.rd > PROVISIONAL_RD
    }

    /// The deviation after `periods` rating periods without a game (step 6 of the
    /// paper, applied as often as periods passed), at most [`MAX_RD`].
    pub fn aged(self, periods: f64) -> Rating {
        let phi = self.rd / SCALE;
        let phi = (phi * phi + periods.max(0.0) * self.volatility * self.volatility).sqrt();
        Rating { rd: (phi * SCALE).min(MAX_RD), ..self }
    }

    /// The rating after one rating period with these games (Glickman's steps 2-8).
    /// With no game only the deviation grows.
    pub fn update(self, games: &[Outcome]) -> Rating {
        self.update_with(games, TAU)
    }

    fn update_with(self, games: &[Outcome], tau: f64) -> Rating {
        if games.is_empty() {
            return self.aged(1.0);
        }
        // Step 2: the Glicko-2 scale.
        let mu = (self.rating - START_RATING) / SCALE;
        let phi = self.rd / SCALE;
        let sigma = self.volatility;
        // Steps 3 and 4: the estimated variance and improvement.
        let mut inv_v = 0.0;
        let mut sum = 0.0;
        for o in games {
            let mu_j = (o.opponent.rating - START_RATING) / SCALE;
            let phi_j = o.opponent.rd / SCALE;
            let e = expected(mu, mu_j, phi_j);
            let gj = g(phi_j);
            inv_v += gj * gj * e * (1.0 - e);
            sum += gj * (o.score - e);
        }
        let v = 1.0 / inv_v;
        let delta = v * sum;
        // Step 5: the new volatility, by the Illinois variant of regula falsi.
        let a = (sigma * sigma).ln();
        let f = |x: f64| {
            let ex = x.exp();
            let d = phi * phi + v + ex;
            ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau)
        };
        let mut big_a = a;
        let mut big_b = if delta * delta > phi * phi + v {
            (delta * delta - phi * phi - v).ln()
        } else {
            let mut k = 1.0;
            while f(a - k * tau) < 0.0 {
                k += 1.0;
            }
            a - k * tau
        };
        let (mut fa, mut fb) = (f(big_a), f(big_b));
        let mut rounds = 0;
        while (big_b - big_a).abs() > EPSILON && rounds < 100 {
            let c = big_a + (big_a - big_b) * fa / (fb - fa);
            let fc = f(c);
            if fc * fb <= 0.0 {
                big_a = big_b;
                fa = fb;
            } else {
                fa /= 2.0;
            }
            big_b = c;
            fb = fc;
            rounds += 1;
        }
        let sigma2 = (big_a / 2.0).exp();
        // Steps 6 and 7: the pre-period deviation, then the new deviation and rating.
        let phi_star = (phi * phi + sigma2 * sigma2).sqrt();
        let phi2 = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let mu2 = mu + phi2 * phi2 * sum;
        // Step 8: back to the Glicko scale.
        Rating { rating: SCALE * mu2 + START_RATING, rd: SCALE * phi2, volatility: sigma2 }
    }

    /// The rating after one rated game played `idle_days` after the player's previous
    /// rated game: the deviation first grows with the absence, then the game is a
    /// rating period of its own; the deviation stays within [`MIN_RD`, `MAX_RD`].
    pub fn after_game(self, idle_days: f64, outcome: Outcome) -> Rating {
        let r = self.aged(idle_days * PERIODS_PER_DAY).update(&[outcome]);
        Rating { rd: r.rd.clamp(MIN_RD, MAX_RD), ..r }
    }
}

/// How fast a game is, by its estimated duration (lichess's classes: the initial time
/// plus 40 times the increment).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Speed {
    /// Under 3 minutes.
    Bullet,
    /// 3 to 8 minutes.
    Blitz,
    /// 8 to 25 minutes.
    Rapid,
    /// 25 minutes or more, and games without a clock.
    Classical,
    /// Days per move.
    Correspondence,
}

impl Speed {
    /// Every class, fastest first.
    pub const ALL: [Speed; 5] = [Speed::Bullet, Speed::Blitz, Speed::Rapid, Speed::Classical, Speed::Correspondence];

    /// The class of a time control. A per-move limit counts as 40 moves at the limit.
    pub fn of(time: &TimeControl) -> Speed {
        let seconds = match *time {
            TimeControl::None => return Speed::Classical,
            TimeControl::Correspondence { .. } => return Speed::Correspondence,
            TimeControl::Fischer { initial_ms, increment_ms } => (initial_ms + 40 * increment_ms) / 1000,
            TimeControl::PerMove { limit_ms, .. } => 40 * limit_ms / 1000,
        };
        match seconds {
            0..180 => Speed::Bullet,
            180..480 => Speed::Blitz,
            480..1500 => Speed::Rapid,
            _ => Speed::Classical,
        }
    }

    /// The class's key in URLs and JSON.
    pub fn key(self) -> &'static str {
        match self {
            Speed::Bullet => "bullet",
            Speed::Blitz => "blitz",
            Speed::Rapid => "rapid",
            Speed::Classical => "classical",
            Speed::Correspondence => "correspondence",
        }
    }

    /// The class with this key.
    pub fn from_key(key: &str) -> Option<Speed> {
        Speed::ALL.into_iter().find(|s| s.key() == key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    /// Glickman's worked example ("Example of the Glicko-2 system", section
    /// "Example calculation"), with τ = 0.5 as there: a 1500 (RD 200, σ 0.06) player
    /// beats a 1400 (RD 30) and loses to a 1550 (RD 100) and a 1700 (RD 300); the paper
    /// gets 1464.06, RD 151.52, σ 0.05999.
    #[test]
    fn glickmans_worked_example() {
        let player = Rating { rating: 1500.0, rd: 200.0, volatility: 0.06 };
        let games = [
            Outcome { opponent: Rating { rating: 1400.0, rd: 30.0, volatility: 0.06 }, score: 1.0 },
            Outcome { opponent: Rating { rating: 1550.0, rd: 100.0, volatility: 0.06 }, score: 0.0 },
            Outcome { opponent: Rating { rating: 1700.0, rd: 300.0, volatility: 0.06 }, score: 0.0 },
        ];
        // The paper's intermediate g(φ) and E values for the three opponents.
        let mu = 0.0;
        let gs: Vec<f64> = games.iter().map(|o| g(o.opponent.rd / SCALE)).collect();
        let es: Vec<f64> =
            games.iter().map(|o| expected(mu, (o.opponent.rating - 1500.0) / SCALE, o.opponent.rd / SCALE)).collect();
        for (got, want) in gs.iter().zip([0.9955, 0.9531, 0.7242]) {
            assert!(close(*got, want, 5e-5), "g = {got}, paper {want}");
        }
        for (got, want) in es.iter().zip([0.639, 0.432, 0.303]) {
            assert!(close(*got, want, 5e-4), "E = {got}, paper {want}");
        }
        let r = player.update_with(&games, 0.5);
        assert!(close(r.rating, 1464.06, 0.05), "rating {}", r.rating);
        assert!(close(r.rd, 151.52, 0.05), "rd {}", r.rd);
        assert!(close(r.volatility, 0.05999, 0.00001), "volatility {}", r.volatility);
    }

    #[test]
    fn a_period_without_games_only_widens_the_deviation() {
        let r = Rating { rating: 1600.0, rd: 60.0, volatility: 0.06 };
        let aged = r.update(&[]);
        assert_eq!(aged.rating, 1600.0);
        // φ* = sqrt(φ² + σ²) on the Glicko-2 scale.
        let want = ((60.0f64 / SCALE).powi(2) + 0.06f64.powi(2)).sqrt() * SCALE;
        assert!(close(aged.rd, want, 1e-9));
        assert_eq!(Rating { rd: 340.0, ..r }.aged(1000.0).rd, MAX_RD);
    }

    #[test]
    fn winning_raises_losing_lowers_and_a_draw_between_equals_keeps() {
        let a = Rating::default();
        let win = a.after_game(0.0, Outcome { opponent: a, score: 1.0 });
        let loss = a.after_game(0.0, Outcome { opponent: a, score: 0.0 });
        let draw = a.after_game(0.0, Outcome { opponent: a, score: 0.5 });
        assert!(win.rating > 1500.0 && loss.rating < 1500.0);
        assert!(close(win.rating - 1500.0, 1500.0 - loss.rating, 1e-6));
        assert!(close(draw.rating, 1500.0, 1e-9));
        assert!(win.rd < START_RD && win.provisional());
    }

    #[test]
    fn speed_classes_follow_the_estimated_duration() {
        let fischer = |m: u64, s: u64| TimeControl::Fischer { initial_ms: m * 60_000, increment_ms: s * 1000 };
        let cases = [
            (fischer(1, 0), Speed::Bullet),
            (fischer(2, 1), Speed::Bullet),  // 120 + 40 s
            (fischer(3, 0), Speed::Blitz),   // 180 s
            (fischer(5, 3), Speed::Blitz),   // 300 + 120 s
            (fischer(10, 0), Speed::Rapid),  // 600 s
            (fischer(15, 10), Speed::Rapid), // 900 + 400 s
            (fischer(30, 0), Speed::Classical),
            (TimeControl::PerMove { limit_ms: 300_000, capture_limit_ms: 60_000 }, Speed::Classical),
            (TimeControl::None, Speed::Classical),
            (TimeControl::Correspondence { days: 2 }, Speed::Correspondence),
        ];
        for (time, speed) in cases {
            assert_eq!(Speed::of(&time), speed, "{time:?}");
            assert_eq!(Speed::from_key(speed.key()), Some(speed));
        }
    }
}
