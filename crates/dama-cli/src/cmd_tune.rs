//! `dama tune`: fits the evaluation weights of a variant family to game results
//! (logistic regression on positions of real games, or of self-play games where no
//! collection exists). Deterministic: the same data gives the same weights.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use anyhow::{bail, Context, Result};
use dama_core::movegen::{has_capture, legal_moves};
use dama_core::pdn::PdnReader;
use dama_core::record::{replay, result_winner, variant_of};
use dama_core::{Color, Position, Rules, Variant, VariantFn};
use dama_engine::eval::{features, weights, Family, Tables, FEATURES, NAMES};
use dama_engine::level::{pick, Level};
use dama_engine::search::Searcher;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Arguments of `dama tune`.
#[derive(clap::Args)]
pub struct Args {
    /// Family: short-kings, flying8, flying10, orthogonal.
    #[arg(long)]
    family: String,
    /// Folder of PDN collections.
    #[arg(long, default_value = "../shared/data/pdn")]
    data: PathBuf,
    /// Self-play games added to the collections (fixed seed, so reproducible).
    #[arg(long, default_value_t = 200)]
    selfplay: u32,
    /// Rewrite the family's weights in crates/dama-engine/src/weights.rs.
    #[arg(long)]
    write: bool,
}

/// Collections per family: (file under the data folder, variant of untagged games).
fn collections(f: Family) -> Vec<(&'static str, Variant)> {
    match f {
        Family::ShortKings => vec![
            ("pdn3-test-suite/succeed/OCA_2.0.pdn", Variant::English),
            ("pdn3-test-suite/succeed/borderclassics.pdn", Variant::English),
            ("pdn3-test-suite/succeed/gem.pdn", Variant::English),
            ("pdn3-test-suite/succeed/goulds.pdn", Variant::English),
            ("pdn3-test-suite/succeed/inferno.pdn", Variant::English),
            ("pdn3-test-suite/succeed/bridges.pdn", Variant::English),
            ("pdn3-test-suite/succeed/PROF2.pdn", Variant::English),
            ("pdn3-test-suite/succeed/candidate95.pdn", Variant::English),
            ("pdn3-test-suite/succeed/Campionato_Assoluto_2005.pdn", Variant::Italian),
        ],
        Family::Flying8 => vec![
            ("pdn3-test-suite/succeed/ussr1947.pdn", Variant::Russian),
            ("pdn3-test-suite/fail/abatsiev.pdn", Variant::Russian),
            ("pdn3-test-suite/succeed/mrcd2007.pdn", Variant::Czech),
            ("pdn3-test-suite/succeed/mrcd2006.pdn", Variant::Czech),
            ("pdn3-test-suite/succeed/mrcd2000kval.pdn", Variant::Czech),
            ("pdn3-test-suite/fail/mrdrcd07.pdn", Variant::Czech),
            ("pdn3-test-suite/fail/mrdrcd08.pdn", Variant::Czech),
        ],
        Family::Flying10 => vec![
            ("pdn3-test-suite/succeed/wk2003.pdn", Variant::International),
            ("pdn3-test-suite/succeed/nk2003-amsterdam.pdn", Variant::International),
            ("pdn3-test-suite/succeed/PWCP_2.pdn", Variant::International),
            ("pdn3-test-suite/succeed/PWCP_2a.pdn", Variant::International),
            ("pdn3-test-suite/succeed/090417ronde12.pdn", Variant::International),
            ("pdn3-test-suite/succeed/kurnik.pdn", Variant::International),
            ("pdn3-test-suite/succeed/nk_ronde_01.pdn", Variant::International),
            ("pdn3-test-suite/succeed/nk_ronde_02.pdn", Variant::International),
            ("pdn3-test-suite/succeed/rk_ronde_12.pdn", Variant::International),
            ("pdn3-test-suite/fail/40Camp.DamaInternazionaleAssoluto.pdn", Variant::International),
        ],
        Family::Orthogonal => vec![],
    }
}

/// A training position: features (White's view) and the game's result for White.
type Sample = ([f64; FEATURES], f64);

struct FromGames<'a>(&'a Path);
impl VariantFn for FromGames<'_> {
    type Output = Result<Vec<Sample>>;
    fn call<R: Rules>(self) -> Result<Vec<Sample>> {
        let f = std::fs::File::open(self.0).with_context(|| format!("cannot open {}", self.0.display()))?;
        let t = Tables::<R>::new();
        let mut out = Vec::new();
        for g in PdnReader::new(std::io::BufReader::new(f)).flatten() {
            if variant_of(&g, R::VARIANT).ok() != Some(R::VARIANT) {
                continue;
            }
            let rec = g.result.as_deref().or(g.tag("Result")).unwrap_or("*");
            let Some(winner) = result_winner(rec, R::FIRST) else { continue };
            let Ok(r) = replay::<R>(&g) else { continue };
            let label = match winner {
                Some(Color::White) => 1.0,
                Some(Color::Black) => 0.0,
                None => 0.5,
            };
            let mut p = *r.game.start();
            for (i, m) in r.moves.iter().enumerate() {
                if i >= 8 && i % 2 == 0 && !has_capture(&p) {
                    out.push((features(&p, &t).map(f64::from), label));
                }
                p = p.play(m);
            }
        }
        Ok(out)
    }
}

struct SelfPlay(u32);
impl VariantFn for SelfPlay {
    type Output = Vec<Sample>;
    fn call<R: Rules>(self) -> Vec<Sample> {
        let t = Tables::<R>::new();
        let mut rng = StdRng::seed_from_u64(0x7475_6e65);
        let stop = AtomicBool::new(false);
        let mut s = Searcher::<R>::new(16, weights(Family::of::<R>()));
        let mut out = Vec::new();
        for _ in 0..self.0 {
            let mut game = dama_core::game::Game::from_position(
                Position::<R>::start(),
                dama_core::game::DrawRules::official(R::VARIANT),
            );
            let mut seen = Vec::new();
            let mut result = 0.5;
            for ply in 0..200 {
                if let dama_core::game::Status::Over(r) = game.status() {
                    result = match r.winner {
                        Some(Color::White) => 1.0,
                        Some(Color::Black) => 0.0,
                        None => 0.5,
                    };
                    break;
                }
                let p = *game.position();
                if ply >= 8 && !has_capture(&p) {
                    seen.push(features(&p, &t).map(f64::from));
                }
                let l = legal_moves(&p);
                let mv = if ply < 6 {
                    l.as_slice()[rng.gen_range(0..l.len())]
                } else {
                    let hist: Vec<u64> = game.plies().iter().map(|x| x.before.hash()).collect();
                    let scored = s.score_root_moves(&p, &hist, 3, &stop);
                    pick(&scored, Level::new(7).noise, &mut rng).unwrap_or(l.as_slice()[0])
                };
                let _ = game.play(&mv);
            }
            out.extend(seen.into_iter().map(|f| (f, result)));
        }
        out
    }
}

/// Strength of the pull towards the starting weights.
const REG: f64 = 0.002;

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn loss(data: &[Sample], w: &[f64; FEATURES], k: f64) -> f64 {
    data.iter()
        .map(|(f, y)| {
            let s: f64 = f.iter().zip(w).map(|(a, b)| a * b).sum();
            (y - sigmoid(k * s / 100.0)).powi(2)
        })
        .sum::<f64>()
        / data.len() as f64
}

/// Runs `dama tune`.
pub fn run(a: Args) -> Result<()> {
    let family = Family::ALL.into_iter().find(|f| f.key() == a.family);
    let Some(family) = family else {
        bail!("unknown family '{}': short-kings, flying8, flying10, orthogonal", a.family)
    };
    let mut data = Vec::new();
    for (file, v) in collections(family) {
        let p = a.data.join(file);
        let got = v.visit(FromGames(&p))?;
        println!("{:<60} {:>6} positions", file, got.len());
        data.extend(got);
    }
    {
        let v = match family {
            Family::Orthogonal => Variant::Turkish,
            Family::ShortKings => Variant::English,
            Family::Flying8 => Variant::Russian,
            Family::Flying10 => Variant::International,
        };
        let games = v.visit(SelfPlay(a.selfplay));
        println!("{:<60} {:>6} positions", format!("self-play: {} games of {v}", a.selfplay), games.len());
        data.extend(games);
    }
    if data.len() < 100 {
        bail!("too few positions ({})", data.len());
    }
    let start = weights(family).map(f64::from);
    // Scale: the sigmoid constant that fits the starting weights best.
    let k = (1..=60)
        .map(|i| i as f64 * 0.05)
        .min_by(|x, y| loss(&data, &start, *x).total_cmp(&loss(&data, &start, *y)))
        .unwrap_or(1.0);
    let mut w = start;
    let before = loss(&data, &w, k);
    // Adam on the mean squared error; the man's weight (100) stays as the unit.
    let (mut m, mut v) = ([0.0; FEATURES], [0.0; FEATURES]);
    let (b1, b2, lr) = (0.9, 0.999, 0.5);
    for t in 1..=1500 {
        let mut g = [0.0; FEATURES];
        for (f, y) in &data {
            let s: f64 = f.iter().zip(&w).map(|(a, b)| a * b).sum();
            let p = sigmoid(k * s / 100.0);
            let d = -2.0 * (y - p) * p * (1.0 - p) * k / 100.0;
            for i in 0..FEATURES {
                g[i] += d * f[i];
            }
        }
        for i in 1..FEATURES {
            // An L2 pull towards the starting value keeps weights that the data says
            // little about (kings in games that rarely crown) where they were.
            let gi = g[i] / data.len() as f64 + 2.0 * REG * (w[i] - start[i]) / 1e4;
            m[i] = b1 * m[i] + (1.0 - b1) * gi;
            v[i] = b2 * v[i] + (1.0 - b2) * gi * gi;
            let mh = m[i] / (1.0 - b1.powi(t));
            let vh = v[i] / (1.0 - b2.powi(t));
            w[i] -= lr * mh / (vh.sqrt() + 1e-9);
        }
    }
    let after = loss(&data, &w, k);
    let ints: Vec<i32> = w.iter().map(|x| x.round() as i32).collect();
    println!("{} positions, K = {k:.2}, loss {before:.5} -> {after:.5}", data.len());
    for (n, x) in NAMES.iter().zip(&ints) {
        println!("  {n:<12} {x}");
    }
    let line = format!(
        "/// {}: tuned by `dama tune` on {} positions (loss {after:.5}).\npub const {}: Weights = {:?};",
        family.key(),
        data.len(),
        family.key().to_uppercase().replace('-', "_"),
        ints
    );
    if a.write {
        let path = PathBuf::from("crates/dama-engine/src/weights.rs");
        let src = std::fs::read_to_string(&path).context("run from the repository root to --write")?;
        let name = format!("pub const {}:", family.key().to_uppercase().replace('-', "_"));
        let mut out = Vec::new();
        let mut lines = src.lines().peekable();
        while let Some(l) = lines.next() {
            if lines.peek().is_some_and(|n| n.starts_with(&name)) && l.starts_with("///") {
                lines.next();
                out.push(line.clone());
            } else {
                out.push(l.to_string());
            }
        }
        std::fs::write(&path, out.join("\n") + "\n")?;
        println!("wrote {}", path.display());
    } else {
        println!("{line}");
    }
    Ok(())
}
