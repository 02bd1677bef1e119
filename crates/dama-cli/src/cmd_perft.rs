//! `dama perft`: move path counts.

use std::time::Instant;

use anyhow::{anyhow, Result};
use dama_core::fen::parse_fen;
use dama_core::notation::move_to_string;
use dama_core::perft::{divide, perft};
use dama_core::{Position, Routes, Rules, Variant, VariantFn};

use crate::progress::Progress;

/// How capture routes that end alike are counted.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum Duplicates {
    /// Every route is its own move: the captured pieces in order with each landing
    /// square (a flying king going on along a line counts once per square it can land
    /// on before the next piece).
    Keep,
    /// Every route, but a flying king sweeping on along one line counts once whatever
    /// square it passes between the pieces (dctl's published "keep" counts).
    Sweeps,
    /// Routes taking the same pieces from the same square to the same square are one move.
    Drop,
}

impl From<Duplicates> for Routes {
    fn from(d: Duplicates) -> Routes {
        match d {
            Duplicates::Keep => Routes::Every,
            Duplicates::Sweeps => Routes::Sweeps,
            Duplicates::Drop => Routes::Merged,
        }
    }
}

/// Arguments of `dama perft`.
#[derive(clap::Args)]
pub struct Args {
    /// Variant key.
    #[arg(long, default_value = "english")]
    variant: Variant,
    /// Depth in plies.
    #[arg(long, default_value_t = 6)]
    depth: u32,
    /// Position in PDN FEN; the start position when omitted.
    #[arg(long)]
    fen: Option<String>,
    /// Counting convention for duplicate capture routes.
    #[arg(long, value_enum, default_value = "drop")]
    duplicates: Duplicates,
    /// List each first move with its count.
    #[arg(long)]
    divide: bool,
    /// Print a JSON summary as the last line.
    #[arg(long)]
    json: bool,
}

struct Run<'a>(&'a Args);

impl VariantFn for Run<'_> {
    type Output = Result<u64>;
    fn call<R: Rules>(self) -> Result<u64> {
        let a = self.0;
        let pos = match &a.fen {
            Some(f) => parse_fen::<R>(f).map_err(|e| anyhow!("bad --fen: {e}"))?,
            None => Position::<R>::start(),
        };
        let routes = Routes::from(a.duplicates);
        if a.divide {
            let counts = divide(&pos, a.depth, routes);
            let progress = Progress::new("first moves", Some(counts.len() as u64));
            let mut total = 0;
            for (m, n) in counts {
                progress.out(format!("{} {n}", move_to_string(&pos, &m, false)));
                total += n;
                progress.message(format!("{total} paths"));
                progress.inc(1);
            }
            progress.finish();
            Ok(total)
        } else {
            Ok(perft(&pos, a.depth, routes))
        }
    }
}

/// Runs `dama perft`.
pub fn run(args: Args) -> Result<()> {
    let t = Instant::now();
    let nodes = args.variant.visit(Run(&args))?;
    let secs = t.elapsed().as_secs_f64();
    let nps = if secs > 0.0 { nodes as f64 / secs } else { 0.0 };
    if args.json {
        let v = serde_json::json!({
            "variant": args.variant.key(),
            "depth": args.depth,
            "nodes": nodes,
            "seconds": (secs * 1000.0).round() / 1000.0,
            "nodes_per_second": nps.round() as u64,
        });
        println!("{v}");
    } else {
        println!("perft({}) = {nodes}  ({secs:.3} s, {:.1} M nodes/s)", args.depth, nps / 1e6);
    }
    Ok(())
}
