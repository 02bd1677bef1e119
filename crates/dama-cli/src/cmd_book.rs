//! `dama book`: build opening books from game collections and engine analysis, and
//! look positions up.

use std::path::PathBuf;

use anyhow::{anyhow, Context, Result};
use dama_core::fen::parse_fen;
use dama_core::pdn::read_all;
use dama_core::record::{replay, variant_of};
use dama_core::{Position, Rules, Variant, VariantFn};
use dama_engine::book::{self, Book, BuildOptions};

use crate::progress::Progress;

/// `dama book` subcommands.
#[derive(clap::Subcommand)]
pub enum Command {
    /// Build a book: the engine's best moves for the first plies, plus the moves of
    /// PDN games played often enough, every move scored by a search.
    Build {
        /// Variant key.
        #[arg(long, default_value = "english")]
        variant: Variant,
        /// PDN files of games (games of other variants are skipped).
        #[arg(long)]
        pdn: Vec<PathBuf>,
        /// Where to write the book.
        #[arg(long)]
        out: PathBuf,
        /// Plies in which the engine adds its own moves.
        #[arg(long, default_value_t = 8)]
        engine_plies: usize,
        /// Plies of each game looked at.
        #[arg(long, default_value_t = 16)]
        game_plies: usize,
        /// Engine moves kept per position.
        #[arg(long, default_value_t = 2)]
        width: usize,
        /// Moves this far (hundredths of a man) below the best are left out.
        #[arg(long, default_value_t = 20)]
        margin: i32,
        /// Times a game move must have been played.
        #[arg(long, default_value_t = 2)]
        min_count: u32,
        /// Depth of the search scoring each move.
        #[arg(long, default_value_t = 10)]
        depth: u32,
    },
    /// The built-in book's moves for a position (the start when --fen is omitted).
    Moves {
        /// Variant key.
        #[arg(long, default_value = "english")]
        variant: Variant,
        /// The position, in PDN FEN.
        #[arg(long)]
        fen: Option<String>,
    },
}

struct Build<'a>(&'a [PathBuf], BuildOptions, &'a PathBuf);
impl VariantFn for Build<'_> {
    type Output = Result<(usize, usize)>;
    fn call<R: Rules>(self) -> Self::Output {
        let mut games = Vec::new();
        for f in self.0 {
            let text = std::fs::read_to_string(f).with_context(|| format!("cannot read {}", f.display()))?;
            for g in read_all(&text).into_iter().flatten() {
                if variant_of(&g, R::VARIANT).ok() != Some(R::VARIANT) || g.tag("FEN").is_some() {
                    continue;
                }
                if let Ok(r) = replay::<R>(&g) {
                    games.push(r.moves);
                }
            }
        }
        let progress = Progress::new("positions scored", None);
        let b = Book::build::<R>(&games, self.1, &mut |n| progress.set(n as u64));
        progress.finish();
        let o = self.1;
        let header = format!(
            "dama opening book: {}, {} positions. Built by `dama book build` from {} games: engine moves for {} \
             plies (width {}), game moves of the first {} plies played {}+ times, every move scored at depth {}, \
             moves more than {} below the best dropped.",
            R::VARIANT,
            b.len(),
            games.len(),
            o.engine_plies,
            o.width,
            o.game_plies,
            o.min_count,
            o.depth,
            o.margin
        );
        std::fs::write(self.2, b.to_text(&header)).with_context(|| format!("cannot write {}", self.2.display()))?;
        Ok((b.len(), games.len()))
    }
}

struct Moves<'a>(Option<&'a str>);
impl VariantFn for Moves<'_> {
    type Output = Result<Vec<String>>;
    fn call<R: Rules>(self) -> Self::Output {
        let pos = match self.0 {
            Some(f) => parse_fen::<R>(f).map_err(|e| anyhow!("bad --fen: {e}"))?,
            None => Position::<R>::start(),
        };
        let b = book::builtin(R::VARIANT).ok_or_else(|| anyhow!("dama has no {} opening book", R::VARIANT))?;
        Ok(b.moves(&pos).iter().map(|(_, e)| format!("{} {:+} {}", e.mv, e.score, e.count)).collect())
    }
}

/// Runs a `dama book` subcommand.
pub fn run(c: Command) -> Result<()> {
    match c {
        Command::Build { variant, pdn, out, engine_plies, game_plies, width, margin, min_count, depth } => {
            let o = BuildOptions { engine_plies, game_plies, width, margin, min_count, depth };
            let (n, games) = variant.visit(Build(&pdn, o, &out))?;
            println!("{variant} book: {n} positions from {games} games, written to {}", out.display());
        }
        Command::Moves { variant, fen } => {
            let lines = variant.visit(Moves(fen.as_deref()))?;
            if lines.is_empty() {
                println!("not in the book");
            }
            lines.iter().for_each(|l| println!("{l}"));
        }
    }
    Ok(())
}
