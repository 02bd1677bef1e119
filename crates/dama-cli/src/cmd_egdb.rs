//! `dama egdb`: build, probe and check endgame databases.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{anyhow, bail, Result};
use dama_core::fen::parse_fen;
use dama_core::movegen::legal_moves;
use dama_core::notation::move_to_string;
use dama_core::{Bits, Rules, Variant, VariantFn};
use dama_engine::egdb::{self, value::Value, Egdb, Progress};
use rand::{Rng, SeedableRng};
use serde_json::json;

use crate::progress::Progress as Bar;

/// Where tables go when `--dir` is not given.
pub const DEFAULT_DIR: &str = "egdb";

/// Which tables the engine probes while it plays (`dama hub`, `dama analyze`).
#[derive(clap::Args, Clone)]
pub struct Use {
    /// Directory of endgame databases (`dama egdb build`); used when present.
    #[arg(long = "egdb", env = "DAMA_EGDB", default_value = DEFAULT_DIR)]
    dir: PathBuf,
    /// Play without endgame databases.
    #[arg(long)]
    no_egdb: bool,
}

impl Use {
    /// Installs the variant's tables for the engine (once per variant): the pieces
    /// they cover, 0 when there are none or they are off.
    pub fn install(&self, variant: Variant) -> Result<u32> {
        if self.no_egdb || egdb::supported(variant).is_err() || egdb::is_installed(variant) {
            return Ok(0);
        }
        Ok(egdb::open_and_install(&self.dir, variant)?.map_or(0, |(n, _)| n))
    }
}

/// Options every subcommand shares.
#[derive(clap::Args)]
pub struct Common {
    /// Variant key.
    #[arg(long, default_value = "english")]
    variant: Variant,
    /// Directory of the databases (one subdirectory per variant).
    #[arg(long, env = "DAMA_EGDB", default_value = DEFAULT_DIR)]
    dir: PathBuf,
}

/// `dama egdb` subcommands.
#[derive(clap::Subcommand)]
pub enum Command {
    /// Compute every table up to N pieces by retrograde analysis (missing ones only).
    Build {
        #[command(flatten)]
        common: Common,
        /// Most pieces on the board.
        #[arg(long, default_value_t = 4)]
        pieces: u8,
        /// Threads building each table.
        #[arg(long, default_value_t = 2)]
        threads: usize,
    },
    /// The value of a position for the side to move, and of each of its moves, as JSON.
    Probe {
        #[command(flatten)]
        common: Common,
        /// The position, in PDN FEN.
        #[arg(long)]
        fen: String,
    },
    /// Probe speed: look up positions spread over every table, in random order.
    Bench {
        #[command(flatten)]
        common: Common,
        /// Probes.
        #[arg(long, default_value_t = 1_000_000)]
        probes: usize,
    },
    /// Check every stored value against the values of the position's successors.
    Verify {
        #[command(flatten)]
        common: Common,
        /// Most pieces to check (all that are built when omitted).
        #[arg(long)]
        pieces: Option<u8>,
        /// Threads checking each table.
        #[arg(long, default_value_t = 2)]
        threads: usize,
    },
}

/// A line for each table done, above a bar over the indices of all the tables up to
/// `pieces` (the big tables weigh what they cost).
fn line(bar: &Bar, p: &Progress, verb: &str) {
    let what = if p.existed && verb == "built" { "on disk" } else { verb };
    let checked = if p.positions > 0 { format!(", {} positions", p.positions) } else { String::new() };
    bar.println(format!(
        "{:>9} {}: {} indices{checked}, {} bytes, {:.1} s",
        what, p.material, p.entries, p.bytes, p.seconds
    ));
    bar.inc(p.entries);
    bar.message(p.material.to_string());
}

/// The progress over every table of rules `R` up to `pieces`.
fn tables_bar<R: Rules>(pieces: u8) -> Bar {
    use dama_engine::egdb::index::{Indexer, Material};
    let ix = Indexer::<R>::new();
    let total: u64 = (2..=pieces).flat_map(Material::all_with).map(|m| ix.size(m)).sum();
    Bar::new("indices", Some(total))
}

fn result_json(v: Value) -> serde_json::Value {
    match v.plies() {
        None => json!({"result": "draw"}),
        Some((true, d)) => json!({"result": "loss", "plies": d}),
        Some((false, d)) => json!({"result": "win", "plies": d}),
    }
}

/// The tables of rules `R` in `dir`, or an error that says how to build them.
fn open_tables<R: Rules>(dir: &std::path::Path) -> Result<Egdb<R>> {
    Egdb::<R>::open(dir)?.ok_or_else(|| anyhow!("no {} tables in {}: run dama egdb build", R::VARIANT, dir.display()))
}

struct Probe<'a>(&'a Common, &'a str);
impl VariantFn for Probe<'_> {
    type Output = Result<serde_json::Value>;
    fn call<R: Rules>(self) -> Self::Output {
        let pos = parse_fen::<R>(self.1).map_err(|e| anyhow!("bad --fen: {e}"))?;
        let db = open_tables::<R>(&self.0.dir)?;
        let Some(v) = db.probe(&pos) else {
            bail!("the position has {} pieces; the tables hold up to {}", pos.occupied().count(), db.pieces());
        };
        let mut out = result_json(v);
        let moves: Vec<_> = legal_moves(&pos)
            .iter()
            .map(|m| {
                let child = pos.play(m);
                let mut j = match db.probe(&child) {
                    Some(c) => result_json(Value::best_of(std::iter::once(c))),
                    // The opponent has nothing left.
                    None => json!({"result": "win", "plies": 1}),
                };
                j["move"] = json!(move_to_string(&pos, m, true));
                j
            })
            .collect();
        out["moves"] = json!(moves);
        Ok(out)
    }
}

struct Build(PathBuf, u8, usize);
impl VariantFn for Build {
    type Output = Result<()>;
    fn call<R: Rules>(self) -> Result<()> {
        let bar = tables_bar::<R>(self.1);
        egdb::build::<R>(&self.0, self.1, self.2, &mut |p| line(&bar, p, "built"))?;
        bar.finish();
        Ok(())
    }
}

struct Verify(PathBuf, u8, usize);
impl VariantFn for Verify {
    type Output = Result<()>;
    fn call<R: Rules>(self) -> Result<()> {
        let bar = tables_bar::<R>(self.1);
        egdb::verify::<R>(&self.0, self.1, self.2, &mut |p| line(&bar, p, "verified"))?;
        bar.finish();
        Ok(())
    }
}

struct Bench<'a>(&'a Common, usize);
impl VariantFn for Bench<'_> {
    type Output = Result<String>;
    fn call<R: Rules>(self) -> Result<String> {
        use dama_engine::egdb::index::{Indexer, Material};
        let db = open_tables::<R>(&self.0.dir)?;
        let ix = Indexer::<R>::new();
        // Positions drawn at random from every slice, so the probes hit all blocks.
        let mut rng = rand::rngs::StdRng::seed_from_u64(1);
        let slices: Vec<Material> = (2..=db.pieces() as u8).flat_map(Material::all_with).collect();
        let mut positions = Vec::new();
        while positions.len() < 100_000 {
            let m = slices[rng.gen_range(0..slices.len())];
            let i = rng.gen_range(0..ix.size(m));
            positions.extend(ix.position(m, i));
        }
        let started = Instant::now();
        let mut wins = 0usize;
        for _ in 0..self.1 {
            let pos = &positions[rng.gen_range(0..positions.len())];
            wins += usize::from(db.probe(pos).is_some_and(Value::is_win));
        }
        let secs = started.elapsed().as_secs_f64();
        Ok(format!(
            "{} probes of {} tables up to {} pieces ({} MB in memory): {:.2} s, {:.0} ns a probe ({wins} wins)",
            self.1,
            R::VARIANT,
            db.pieces(),
            db.memory() >> 20,
            secs,
            secs * 1e9 / self.1 as f64
        ))
    }
}

struct Built(PathBuf);
impl VariantFn for Built {
    type Output = Result<u8>;
    fn call<R: Rules>(self) -> Result<u8> {
        egdb::supported(R::VARIANT)?;
        Ok(egdb::complete_pieces::<R>(&self.0))
    }
}

/// Runs a `dama egdb` subcommand.
pub fn run(c: Command) -> Result<()> {
    let started = Instant::now();
    match c {
        Command::Build { common, pieces, threads } => {
            if !(2..=8).contains(&pieces) {
                bail!("--pieces must be 2 to 8");
            }
            common.variant.visit(Build(common.dir.clone(), pieces, threads))?;
            eprintln!(
                "{} tables up to {pieces} pieces in {} ({:.1} s)",
                common.variant,
                egdb::variant_dir(&common.dir, common.variant).display(),
                started.elapsed().as_secs_f64()
            );
        }
        Command::Probe { common, fen } => {
            let out = common.variant.visit(Probe(&common, &fen))?;
            println!("{out}");
        }
        Command::Bench { common, probes } => {
            println!("{}", common.variant.visit(Bench(&common, probes.max(1)))?);
        }
        Command::Verify { common, pieces, threads } => {
            let n = match pieces {
                Some(n) => n,
                None => common.variant.visit(Built(common.dir.clone()))?,
            };
            if n < 2 {
                bail!("no {} tables in {}", common.variant, common.dir.display());
            }
            common.variant.visit(Verify(common.dir.clone(), n, threads))?;
            println!(
                "{} tables up to {n} pieces agree with their successors ({:.1} s)",
                common.variant,
                started.elapsed().as_secs_f64()
            );
        }
    }
    Ok(())
}
