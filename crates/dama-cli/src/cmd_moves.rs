//! `dama moves`: the legal moves of a position.

use anyhow::{anyhow, Result};
use dama_core::fen::parse_fen;
use dama_core::movegen::legal_moves;
use dama_core::notation::move_to_string;
use dama_core::{Position, Rules, Variant, VariantFn};

/// Arguments of `dama moves`.
#[derive(clap::Args)]
pub struct Args {
    /// Variant key (english, russian, turkish, ...).
    #[arg(long, default_value = "english")]
    variant: Variant,
    /// Position in PDN FEN; the start position when omitted.
    #[arg(long)]
    fen: Option<String>,
    /// Write captures in short form (origin and destination) where that is unambiguous,
    /// instead of with every landing square.
    #[arg(long)]
    short: bool,
}

struct List<'a>(&'a Args);

impl VariantFn for List<'_> {
    type Output = Result<Vec<String>>;
    fn call<R: Rules>(self) -> Result<Vec<String>> {
        let pos = match &self.0.fen {
            Some(f) => parse_fen::<R>(f).map_err(|e| anyhow!("bad --fen: {e}"))?,
            None => Position::<R>::start(),
        };
        Ok(legal_moves(&pos).iter().map(|m| move_to_string(&pos, m, !self.0.short)).collect())
    }
}

/// Runs `dama moves`.
pub fn run(args: Args) -> Result<()> {
    for m in args.variant.visit(List(&args))? {
        println!("{m}");
    }
    Ok(())
}
