//! `dama analyze`: think about a position and print each iteration, then the move.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use anyhow::{bail, Result};
use dama_core::Variant;
use dama_engine::level::Level;
use dama_engine::player::player;
use dama_engine::search::{score_text, Limits};
use dama_engine::time::{limits as time_limits, Clock};

/// Arguments of `dama analyze`.
#[derive(clap::Args)]
pub struct Args {
    /// Variant key.
    #[arg(long, default_value = "english")]
    variant: Variant,
    /// Position in PDN FEN; the start position when omitted.
    #[arg(long)]
    fen: Option<String>,
    /// Seconds to think.
    #[arg(long, conflicts_with = "depth")]
    movetime: Option<f64>,
    /// Depth to search to.
    #[arg(long)]
    depth: Option<u32>,
    /// Transposition table size in megabytes.
    #[arg(long, default_value_t = 64)]
    hash: usize,
    #[command(flatten)]
    egdb: crate::cmd_egdb::Use,
}

/// Runs `dama analyze`.
pub fn run(a: Args) -> Result<()> {
    let pieces = a.egdb.install(a.variant)?;
    if pieces > 0 {
        println!("endgame databases: up to {pieces} pieces");
    }
    let mut p = player(a.variant, a.hash, None, 1);
    if let Err(e) = p.set_position(a.fen.as_deref(), &[]) {
        bail!("bad --fen: {e}");
    }
    let mut limits = Limits::default();
    match (a.depth, a.movetime) {
        (Some(d), _) => limits.depth = Some(d),
        (None, Some(t)) if t > 0.0 => {
            limits = time_limits(Clock::MoveTime(Duration::from_secs_f64(t)));
        }
        (None, Some(_)) => bail!("--movetime must be positive"),
        (None, None) => {
            limits = time_limits(Clock::MoveTime(Duration::from_secs(2)));
        }
    }
    let stop = AtomicBool::new(false);
    let d = p.think(limits, Level::full(), &stop, &mut |r| {
        println!(
            "depth {:>2}  score {:>7}  nodes {:>10}  time {:>6.2}s  pv {}",
            r.depth,
            score_text(r.score),
            r.nodes,
            r.millis as f64 / 1000.0,
            r.pv.join(" ")
        );
    });
    match d.best {
        Some(m) => println!("bestmove {m}"),
        None => println!("bestmove none (no legal move)"),
    }
    Ok(())
}
