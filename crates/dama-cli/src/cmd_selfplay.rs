//! `dama selfplay`: training games on every core, written to a data file as they finish
//! (see `dama_train::dataset`). Each game depends only on its number and the seed, so a
//! run is reproducible and, stopped, resumes where it was: games already in the file are
//! not played again.

use std::collections::HashSet;
use std::fs::OpenOptions;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Instant;

use anyhow::{bail, Context, Result};
use dama_core::{Rules, Variant, VariantFn};
use dama_engine::eval::EvalKind;
use dama_engine::search::Searcher;
use dama_train::dataset::{header, is_last, mark_last, read, read_header, record_size, write};
use dama_train::selfplay::{play, Config};

use crate::progress::Progress;

/// Arguments of `dama selfplay`.
#[derive(clap::Args)]
pub struct Args {
    /// Variant key.
    #[arg(long)]
    variant: Variant,
    /// Games in the file when done (games already there count).
    #[arg(long, default_value_t = 1000)]
    games: u32,
    /// Nodes searched per move.
    #[arg(long, default_value_t = 5000)]
    nodes: u64,
    /// Worker threads (default: the number of cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Random seed: the same seed gives the same games.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Random plies at the start of each game: at least.
    #[arg(long, default_value_t = 6)]
    min_random: usize,
    /// Random plies at the start of each game: at most.
    #[arg(long, default_value_t = 10)]
    max_random: usize,
    /// Evaluation weights to play with (default: the built-in ones).
    #[arg(long)]
    weights: Option<PathBuf>,
    /// Output file (appended to; resumed if it exists).
    #[arg(long)]
    out: PathBuf,
}

/// The game numbers already in a data file (truncating a cut-off last game), after
/// checking that it holds `variant`'s data; creates the file with its header if new.
fn resume(path: &PathBuf, variant: Variant) -> Result<HashSet<u32>> {
    let mut f = OpenOptions::new().read(true).write(true).create(true).truncate(false).open(path)?;
    let mut bytes = Vec::new();
    f.read_to_end(&mut bytes)?;
    if bytes.is_empty() {
        f.write_all(&header(variant))?;
        return Ok(HashSet::new());
    }
    let (v, at) = read_header(&bytes).with_context(|| format!("{}", path.display()))?;
    if v != variant {
        bail!("{} holds {} games, not {}", path.display(), v.key(), variant.key());
    }
    let size = record_size(v);
    let chunks: Vec<&[u8]> = bytes[at..].chunks_exact(size).collect();
    let records: Vec<_> = chunks.iter().map(|c| read(c, v)).collect();
    // Games end with a marked record: what follows the last mark was cut short, and is
    // dropped and played again. (Files written before the mark existed: the last game
    // is dropped, as it may have been cut.)
    let keep = match chunks.iter().rposition(|c| is_last(c)) {
        Some(i) => i + 1,
        None => match records.last() {
            Some(last) => records.iter().rposition(|r| r.game != last.game).map_or(0, |i| i + 1),
            None => 0,
        },
    };
    f.set_len((at + keep * size) as u64)?;
    f.seek(SeekFrom::End(0))?;
    Ok(records[..keep].iter().map(|r| r.game).collect())
}

struct Run<'a>(&'a Args, Option<EvalKind>);
impl VariantFn for Run<'_> {
    type Output = Result<()>;
    fn call<R: Rules>(self) -> Result<()> {
        let a = self.0;
        let done = resume(&a.out, R::VARIANT)?;
        let todo: Vec<u32> = (0..a.games).filter(|g| !done.contains(g)).collect();
        let already = a.games as usize - todo.len();
        let threads = a.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()));
        let cfg = Config {
            nodes: a.nodes,
            random_plies: (a.min_random, a.max_random.max(a.min_random)),
            seed: a.seed,
            ..Config::default()
        };
        let eval = match &self.1 {
            Some(w) => w.clone(),
            None => EvalKind::default_for::<R>(),
        };
        let todo = Arc::new(todo);
        let next = Arc::new(AtomicU32::new(0));
        let (tx, rx) = mpsc::channel();
        for _ in 0..threads.max(1) {
            let (todo, next, tx, eval) = (todo.clone(), next.clone(), tx.clone(), eval.clone());
            std::thread::spawn(move || {
                let mut s = Searcher::<R>::new(16, eval);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed) as usize;
                    let Some(&g) = todo.get(i) else { break };
                    if tx.send(play(&mut s, &cfg, g)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut f = OpenOptions::new().append(true).open(&a.out)?;
        let t0 = Instant::now();
        let (mut games, mut positions, mut plies) = (0usize, 0usize, 0usize);
        let mut wins = [0usize; 3];
        let progress = Progress::new(&format!("selfplay {}", R::VARIANT.key()), Some(u64::from(a.games)));
        progress.set(already as u64);
        for g in rx {
            let mut buf = Vec::with_capacity(g.records.len() * record_size(R::VARIANT));
            for r in &g.records {
                write(r, R::VARIANT, &mut buf);
            }
            mark_last(&mut buf, R::VARIANT);
            f.write_all(&buf)?;
            games += 1;
            positions += g.records.len();
            plies += g.plies;
            wins[match g.winner {
                Some(dama_core::Color::White) => 0,
                None => 1,
                Some(_) => 2,
            }] += 1;
            progress.message(format!(
                "{positions} positions, {:.1} games/s, {:.0} plies a game, W/D/B {}/{}/{}",
                games as f64 / t0.elapsed().as_secs_f64().max(1e-9),
                plies as f64 / games as f64,
                wins[0],
                wins[1],
                wins[2],
            ));
            progress.set((already + games) as u64);
        }
        progress.finish();
        println!("{} games ({} new), {positions} new positions in {}", already + games, games, a.out.display());
        Ok(())
    }
}

/// Runs `dama selfplay`.
pub fn run(a: Args) -> Result<()> {
    let w = match &a.weights {
        Some(p) => Some(
            EvalKind::from_bytes(&std::fs::read(p).with_context(|| format!("cannot read {}", p.display()))?)
                .with_context(|| format!("{}", p.display()))?,
        ),
        None => None,
    };
    a.variant.visit(Run(&a, w))
}
