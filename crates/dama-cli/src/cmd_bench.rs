//! `dama bench`: fixed positions searched to a fixed depth; a deterministic node count.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use anyhow::Result;
use dama_core::Variant;
use dama_engine::level::Level;
use dama_engine::player::player;
use dama_engine::search::Limits;

/// Arguments of `dama bench`.
#[derive(clap::Args)]
pub struct Args {
    /// Depth for every position.
    #[arg(long, default_value_t = 13)]
    depth: u32,
    /// Instead: for each variant, the depth reached from the start in this many seconds.
    #[arg(long)]
    seconds: Option<f64>,
    /// Print a JSON summary as the last line.
    #[arg(long)]
    json: bool,
}

/// The bench positions: each variant's start and a middle game of the seed variants.
pub const POSITIONS: &[(Variant, Option<&str>)] = &[
    (Variant::English, None),
    (Variant::English, Some("B:W18,19,21,23,24,26,29,30,31,32:B1,2,3,5,6,7,9,10,12,13")),
    (Variant::Russian, None),
    (Variant::Russian, Some("W:Wa1,a3,b2,c1,c3,d2,e3,f2,g1,g3,h2:Bb6,b8,c7,d6,e7,f6,f8,g7,h6,h8")),
    (Variant::Turkish, None),
    (Variant::International, None),
    (Variant::Brazilian, None),
    (Variant::Italian, None),
    (Variant::Frisian, None),
    (Variant::Canadian, None),
];

/// Runs `dama bench`.
pub fn run(a: Args) -> Result<()> {
    let stop = AtomicBool::new(false);
    if let Some(secs) = a.seconds {
        for v in Variant::ALL {
            let mut p = player(v, 64, None, 1);
            let t = Duration::from_secs_f64(secs);
            let limits = Limits { soft_time: Some(t), hard_time: Some(t), ..Limits::default() };
            let start = Instant::now();
            let d = p.think(limits, Level::full(), &stop, &mut |_| {});
            let e = start.elapsed().as_secs_f64();
            println!(
                "{:<14} depth {:>2}  nodes {:>10}  {:>5.1} M nodes/s",
                v.key(),
                d.depth,
                d.nodes,
                d.nodes as f64 / e / 1e6
            );
        }
        return Ok(());
    }
    let (mut nodes, start) = (0u64, Instant::now());
    for (v, fen) in POSITIONS {
        let mut p = player(*v, 16, None, 1);
        p.set_position(*fen, &[]).map_err(anyhow::Error::msg)?;
        let t = Instant::now();
        let d = p.think(Limits { depth: Some(a.depth), ..Limits::default() }, Level::full(), &stop, &mut |_| {});
        let e = t.elapsed().as_secs_f64();
        println!(
            "{:<14} {:<60} depth {:>2} nodes {:>10} {:>6.1} M/s best {}",
            v.key(),
            fen.unwrap_or("start"),
            d.depth,
            d.nodes,
            d.nodes as f64 / e / 1e6,
            d.best.unwrap_or_default()
        );
        nodes += d.nodes;
    }
    let secs = start.elapsed().as_secs_f64();
    let nps = (nodes as f64 / secs) as u64;
    if a.json {
        println!(
            "{}",
            serde_json::json!({"depth": a.depth, "nodes": nodes, "seconds": (secs * 1000.0).round() / 1000.0, "nodes_per_second": nps})
        );
    } else {
        println!("bench: {nodes} nodes  {secs:.2} s  {nps} nodes/s");
    }
    Ok(())
}
