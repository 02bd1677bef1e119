//! Match openings: start positions from a PDN file (FEN tags), by default the variant's
//! file kept in the repository (`crates/dama-cli/openings/`), each used once with both
//! colours; and `dama openings`, which makes such a file: short random lines from the
//! start, kept when a deep search finds them level.

use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use anyhow::{bail, Context, Result};
use dama_core::fen::{parse_fen, write_fen};
use dama_core::movegen::legal_moves;
use dama_core::pdn::PdnReader;
use dama_core::{Position, Rules, Variant, VariantFn};
use dama_engine::eval::EvalKind;
use dama_engine::search::{Limits, Searcher};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::progress::Progress;

/// The openings kept in the repository, by variant (made by `dama openings` with its
/// defaults: 4-8 random plies, kept when a depth-12 search scores them within 0.25 man).
fn embedded(v: Variant) -> &'static str {
    match v {
        Variant::English => include_str!("../../openings/english.pdn"),
        Variant::Italian => include_str!("../../openings/italian.pdn"),
        Variant::International => include_str!("../../openings/international.pdn"),
        Variant::Russian => include_str!("../../openings/russian.pdn"),
        Variant::Brazilian => include_str!("../../openings/brazilian.pdn"),
        Variant::Turkish => include_str!("../../openings/turkish.pdn"),
        Variant::Pool => include_str!("../../openings/pool.pdn"),
        Variant::Spanish => include_str!("../../openings/spanish.pdn"),
        Variant::Portuguese => include_str!("../../openings/portuguese.pdn"),
        Variant::Czech => include_str!("../../openings/czech.pdn"),
        Variant::Thai => include_str!("../../openings/thai.pdn"),
        Variant::Frisian => include_str!("../../openings/frisian.pdn"),
        Variant::Canadian => include_str!("../../openings/canadian.pdn"),
    }
}

/// The FEN positions of a PDN text, in file order, without repeats.
fn read<R: Rules>(text: &[u8], from: &str) -> Result<Vec<Position<R>>> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for g in PdnReader::new(text).flatten() {
        if let Some(f) = g.tag("FEN") {
            let p = parse_fen::<R>(f).with_context(|| format!("{from}: bad FEN {f}"))?;
            if seen.insert(p.hash()) {
                out.push(p);
            }
        }
    }
    if out.is_empty() {
        bail!("no FEN openings in {from}");
    }
    Ok(out)
}

/// `n` distinct openings for a match: from `file`, else the repository's file for the
/// variant, shuffled by `seed`, the first `skip` of that order passed over (so a match
/// extended with the same seed plays openings it has not played); an error if fewer
/// than `n` remain.
pub fn for_match<R: Rules>(file: Option<&Path>, n: usize, seed: u64, skip: usize) -> Result<Vec<Position<R>>> {
    let mut all = match file {
        Some(f) => read::<R>(
            &std::fs::read(f).with_context(|| format!("cannot read {}", f.display()))?,
            &f.display().to_string(),
        )?,
        None => read::<R>(embedded(R::VARIANT).as_bytes(), "the built-in openings")?,
    };
    if all.len() < n.saturating_add(skip) {
        bail!(
            "{} openings, but {n} pairs of games asked for after skipping {skip}: openings are never repeated",
            all.len()
        );
    }
    let mut rng = StdRng::seed_from_u64(seed);
    for i in (1..all.len()).rev() {
        all.swap(i, rng.gen_range(0..=i));
    }
    all.drain(..skip);
    all.truncate(n);
    Ok(all)
}

/// Arguments of `dama openings`.
#[derive(clap::Args)]
pub struct Args {
    /// Variant key.
    #[arg(long)]
    variant: Variant,
    /// How many openings.
    #[arg(long, default_value_t = 400)]
    count: usize,
    /// Random plies from the start, at least and at most.
    #[arg(long, default_value_t = 4)]
    min_plies: usize,
    /// Random plies from the start, at most.
    #[arg(long, default_value_t = 8)]
    max_plies: usize,
    /// Depth of the vetting search.
    #[arg(long, default_value_t = 12)]
    depth: u32,
    /// Largest score (hundredths of a man) of a kept opening.
    #[arg(long, default_value_t = 25)]
    margin: i32,
    /// Random seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Output file.
    #[arg(long)]
    out: PathBuf,
}

struct Make<'a>(&'a Args);
impl VariantFn for Make<'_> {
    type Output = Result<()>;
    fn call<R: Rules>(self) -> Result<()> {
        let a = self.0;
        let mut rng = StdRng::seed_from_u64(a.seed);
        let mut s = Searcher::<R>::new(64, EvalKind::default_for::<R>());
        let stop = AtomicBool::new(false);
        let mut seen = HashSet::new();
        let mut f = std::fs::File::create(&a.out).with_context(|| format!("cannot write {}", a.out.display()))?;
        let (mut kept, mut tried) = (0, 0);
        let progress = Progress::new("openings", Some(a.count as u64));
        while kept < a.count {
            tried += 1;
            if tried > a.count * 200 {
                bail!("only {kept} level openings found in {tried} tries; widen --margin");
            }
            let mut p = Position::<R>::start();
            let mut line = Vec::new();
            for _ in 0..rng.gen_range(a.min_plies..=a.max_plies) {
                let l = legal_moves(&p);
                if l.is_empty() {
                    break;
                }
                let m = l.as_slice()[rng.gen_range(0..l.len())];
                line.push(dama_core::notation::move_to_string(&p, &m, false));
                p = p.play(&m);
            }
            if legal_moves(&p).len() < 2 || has_capture_now(&p) || !seen.insert(p.hash()) {
                continue;
            }
            s.clear();
            let out = s.think(&p, &[], Limits { depth: Some(a.depth), ..Limits::default() }, &stop, &mut |_| {});
            if out.score.abs() > a.margin {
                continue;
            }
            writeln!(
                f,
                "[FEN \"{}\"]\n[Annotator \"{} (depth {}: {:+})\"]\n*\n",
                write_fen(&p),
                line.join(" "),
                out.depth,
                out.score
            )?;
            kept += 1;
            progress.message(format!("{tried} tried"));
            progress.set(kept as u64);
        }
        progress.finish();
        Ok(())
    }
}

fn has_capture_now<R: Rules>(p: &Position<R>) -> bool {
    dama_core::movegen::has_capture(p)
}

/// Runs `dama openings`.
pub fn run(a: Args) -> Result<()> {
    if a.min_plies > a.max_plies {
        bail!("--min-plies is larger than --max-plies");
    }
    a.variant.visit(Make(&a))
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Count;
    impl VariantFn for Count {
        type Output = usize;
        fn call<R: Rules>(self) -> usize {
            for_match::<R>(None, 100, 1, 0).map(|o| o.len()).unwrap_or(0)
        }
    }

    #[test]
    fn every_variant_has_built_in_openings_for_a_200_game_match() {
        for v in Variant::ALL {
            assert!(v.visit(Count) >= 100, "{}", v.key());
        }
    }

    #[test]
    fn skipping_openings_continues_the_seed_order_without_repeating_one() {
        use dama_core::variant::International;
        let first = for_match::<International>(None, 30, 7, 0).unwrap();
        let next = for_match::<International>(None, 20, 7, 10).unwrap();
        assert_eq!(next[..], first[10..]);
        let all = read::<International>(embedded(Variant::International).as_bytes(), "").unwrap();
        assert!(for_match::<International>(None, 1, 7, all.len()).is_err());
        assert!(for_match::<International>(None, 1, 7, usize::MAX).is_err(), "an error, not an overflow");
    }
}
