//! `dama hub`: the Hub protocol on standard input and output (see `dama_engine::hub`).

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::thread;

use anyhow::{Context, Result};
use dama_engine::eval::{EvalKind, Family};
use dama_engine::hub::{to_hub_move, Action, Hub};
use dama_engine::level::Level;
use dama_engine::persona::Persona;
use dama_engine::player::{player, Player};
use dama_engine::search::Limits;

/// Arguments of `dama hub`.
#[derive(clap::Args)]
pub struct Args {
    /// Playing level, 1 (beginner) to 10 (full strength).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u8).range(1..=10))]
    level: u8,
    /// Transposition table size in megabytes.
    #[arg(long, default_value_t = 64)]
    hash: usize,
    /// Search threads (Lazy SMP); the Hub parameter `threads` sets it too.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Evaluation: the built-in learned weights, or material only (a baseline for
    /// matches).
    #[arg(long, value_enum, default_value = "learned")]
    eval: EvalChoice,
    /// A weights or network file written by `dama train`, instead of the built-in weights.
    #[arg(long)]
    weights: Option<std::path::PathBuf>,
    #[command(flatten)]
    egdb: crate::cmd_egdb::Use,
    /// Play from the built-in opening book at levels 8-10 (off by default, so that
    /// engine matches test the search from their own openings).
    #[arg(long)]
    book: bool,
    /// Play as a stand-in opponent instead of the engine (no search; for measuring the
    /// lowest levels): `random` plays any legal move; `beginner` takes the capture that
    /// wins most, does not leave a piece to be taken when it can avoid it, and
    /// otherwise plays any move (it looks one move of each side ahead, material only).
    #[arg(long, value_enum)]
    persona: Option<PersonaChoice>,
    /// Calibrating levels: play the level with this depth limit instead of its own
    /// (0: none).
    #[arg(long)]
    level_depth: Option<u32>,
    /// Calibrating levels: this node limit a move instead of the level's (0: none).
    #[arg(long)]
    level_nodes: Option<u64>,
    /// Calibrating levels: this choice window (hundredths of a man) instead of the
    /// level's.
    #[arg(long)]
    level_noise: Option<i32>,
    /// Calibrating levels: choose within the window this many moves in a thousand
    /// instead of the level's share.
    #[arg(long)]
    level_loose: Option<u16>,
}

impl Args {
    /// `level` with the calibration options applied.
    fn tuned(&self, mut level: Level) -> Level {
        if let Some(d) = self.level_depth {
            level.depth = (d > 0).then_some(d);
        }
        if let Some(n) = self.level_nodes {
            level.nodes = (n > 0).then_some(n);
        }
        level.noise = self.level_noise.unwrap_or(level.noise);
        level.loose = self.level_loose.unwrap_or(level.loose);
        level
    }
}

/// A stand-in opponent (`dama_engine::persona`).
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum PersonaChoice {
    /// Any legal move, each as likely.
    Random,
    /// Material one move ahead, otherwise any move.
    Beginner,
}

/// Which evaluation the engine uses.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum EvalChoice {
    /// The built-in learned evaluation of the variant (its family's network where one is
    /// built in and plays the variant, `dama_engine::eval::net::plays`; otherwise its
    /// pattern weights).
    Learned,
    /// The built-in pattern weights, even where a network is the default.
    Patterns,
    /// Men and kings only.
    Material,
}

fn say(out: &Mutex<std::io::Stdout>, line: &str) {
    let mut o = out.lock().unwrap_or_else(|e| e.into_inner());
    let _ = writeln!(o, "{line}");
    let _ = o.flush();
}

/// Runs `dama hub` until `quit` or the end of input.
pub fn run(a: Args) -> Result<()> {
    let file_weights = match &a.weights {
        Some(p) => {
            let bytes = std::fs::read(p).with_context(|| format!("cannot read {}", p.display()))?;
            Some(EvalKind::from_bytes(&bytes).with_context(|| format!("{}", p.display()))?)
        }
        None => None,
    };
    let (tx, rx) = mpsc::channel::<String>();
    thread::spawn(move || {
        let stdin = std::io::stdin();
        for line in stdin.lock().lines() {
            match line {
                Ok(l) => {
                    if tx.send(l).is_err() {
                        return;
                    }
                }
                Err(_) => break,
            }
        }
        let _ = tx.send("quit".into());
    });
    let out = Arc::new(Mutex::new(std::io::stdout()));
    let stop = Arc::new(AtomicBool::new(false));
    let engine: Arc<Mutex<Option<Box<dyn Player>>>> = Arc::new(Mutex::new(None));
    let mut hub = Hub::default();
    hub.level = Level::new(a.level);
    let mut worker: Option<thread::JoinHandle<()>> = None;
    // Limits of a search started by `go ponder`, applied at `ponder-hit`.
    let mut pondering: Option<Limits> = None;
    let searches = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let mut tables_for = std::collections::HashSet::new();
    for line in rx {
        let action = hub.handle(&line);
        // The endgame tables of the variant are loaded at `init` (or when the variant
        // changes after it), before any search, so loading never eats into a move's time.
        let initialised = !tables_for.is_empty() || line.split_whitespace().next() == Some("init");
        if initialised && tables_for.insert(hub.variant) {
            if let Err(e) = a.egdb.install(hub.variant) {
                say(&out, &format!("error message=\"endgame databases: {}\"", e.to_string().replace('"', "'")));
            }
        }
        match action {
            Action::Reply(lines) => lines.iter().for_each(|l| say(&out, l)),
            Action::Stop => stop.store(true, Ordering::Relaxed),
            Action::Quit => {
                stop.store(true, Ordering::Relaxed);
                break;
            }
            Action::PonderHit => {
                // The pondered move was played: the search keeps to its limits from now
                // (the aim where there is one, else the deadline), then answers.
                if let Some(limits) = pondering.take() {
                    let (stop, generation, mine) = (stop.clone(), searches.clone(), searches.load(Ordering::Relaxed));
                    if let Some(t) = limits.soft_time.or(limits.hard_time) {
                        thread::spawn(move || {
                            thread::sleep(t);
                            if generation.load(Ordering::Relaxed) == mine {
                                stop.store(true, Ordering::Relaxed);
                            }
                        });
                    }
                }
            }
            Action::Search { limits, level, fen, moves, ponder } => {
                let level = a.tuned(level);
                if let Some(w) = worker.take() {
                    stop.store(true, Ordering::Relaxed);
                    let _ = w.join();
                }
                stop.store(false, Ordering::Relaxed);
                searches.fetch_add(1, Ordering::Relaxed);
                let limits = if ponder {
                    pondering = Some(limits);
                    Limits { depth: limits.depth, ..Limits::default() }
                } else {
                    pondering = None;
                    limits
                };
                let threads = hub.threads.max(a.threads);
                let (out, stop, engine, variant, hash) =
                    (out.clone(), stop.clone(), engine.clone(), hub.variant, a.hash);
                let weights = match (a.eval, &file_weights) {
                    (EvalChoice::Material, _) => Some(EvalKind::Material),
                    (EvalChoice::Learned, Some(w)) => Some(w.clone()),
                    (EvalChoice::Learned, None) => None,
                    (EvalChoice::Patterns, _) => {
                        Some(EvalKind::Learned(dama_engine::eval::weights::builtin(Family::of_variant(variant))))
                    }
                };
                let book = a.book;
                let persona = a.persona.map(|p| match p {
                    PersonaChoice::Random => Persona::Random,
                    PersonaChoice::Beginner => Persona::Beginner,
                });
                worker = Some(thread::spawn(move || {
                    let mut slot = engine.lock().unwrap_or_else(|e| e.into_inner());
                    if slot.as_ref().is_none_or(|p| p.variant() != variant) {
                        *slot = Some(player(variant, hash, weights, 0x0068_7562));
                    }
                    let p = slot.as_mut().expect("engine");
                    p.set_threads(threads);
                    p.set_book(book);
                    if let Err(e) = p.set_position(Some(&fen), &moves) {
                        say(&out, &format!("error message=\"{}\"", e.replace('"', "'")));
                        say(&out, "done move=none");
                        return;
                    }
                    if let Some(persona) = persona {
                        match p.persona_move(persona) {
                            Some(m) => say(&out, &format!("done move={}", to_hub_move(variant, &fen, &moves, &m))),
                            None => say(&out, "done move=none"),
                        }
                        return;
                    }
                    let d = p.think(limits, level, &stop, &mut |r| {
                        let secs = r.millis as f64 / 1000.0;
                        let nps = if secs > 0.0 { r.nodes as f64 / secs / 1e6 } else { 0.0 };
                        say(
                            &out,
                            &format!(
                                "info depth={} score={:.2} nodes={} time={:.3} nps={:.1} pv=\"{}\"",
                                r.depth,
                                r.score as f64 / 100.0,
                                r.nodes,
                                secs,
                                nps,
                                r.pv.join(" ")
                            ),
                        );
                    });
                    match d.best {
                        Some(m) => say(&out, &format!("done move={}", to_hub_move(variant, &fen, &moves, &m))),
                        None => say(&out, "done move=none"),
                    }
                }));
            }
        }
    }
    if let Some(w) = worker.take() {
        let _ = w.join();
    }
    Ok(())
}
