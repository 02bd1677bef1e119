//! Endgame databases: every position up to a few pieces solved by retrograde analysis,
//! with the exact number of plies to the end, built by dama for each variant's rules.
//!
//! - [`index`]: material slices and the index of a position in one.
//! - [`build`](mod@build): the retrograde builder and the checker.
//! - [`store`]: compressed files and probing.
//! - [`value`]: what a stored byte means.
//!
//! Tables live in `<root>/<variant>/<wm>-<wk>-<bm>-<bk>.egdb`. They follow the
//! rulebook's material ends (Turkish: one piece each draws, several pieces against a
//! lone man win; Russian: king against king draws where neither can win) but no counting rule (the 15-move,
//! 40-move or 25-move rules): the search plays the fastest win, which is what those
//! rules ask for.

pub mod build;
pub mod index;
pub mod store;
pub mod value;

use std::any::Any;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use dama_core::{Bits, Position, Rules, Variant, VariantFn};

use self::build::{Builder, Finished};
use self::index::{Indexer, Material};
use self::store::{BlockCache, Table};
use self::value::Value;

/// Why a database could not be built, read or trusted.
#[derive(Debug, thiserror::Error)]
pub enum EgdbError {
    /// Reading or writing a file failed.
    #[error("{0}: {1}")]
    Io(String, #[source] std::io::Error),
    /// A file is not a table of this variant.
    #[error("{0}: {1}")]
    Format(String, String),
    /// The variant has no tables.
    #[error("{0} has no endgame databases: {1}")]
    Unsupported(Variant, &'static str),
    /// A stored value disagrees with the values of the position's successors.
    #[error("{file}, index {index}: {what}")]
    Wrong {
        /// The table.
        file: String,
        /// The index of the position.
        index: u64,
        /// What disagrees.
        what: String,
    },
}

/// Whether `v` can have tables: Frisian positions also carry which king moved how
/// often (its three-move rule), which a table of pieces cannot hold.
pub fn supported(v: Variant) -> Result<(), EgdbError> {
    match v {
        Variant::Frisian => Err(EgdbError::Unsupported(v, "a Frisian position also counts each side's king moves")),
        _ => Ok(()),
    }
}

/// The directory of `variant`'s tables under `root`.
pub fn variant_dir(root: &Path, variant: Variant) -> PathBuf {
    root.join(variant.key())
}

/// What the builder or checker has just finished.
#[derive(Clone, Debug)]
pub struct Progress {
    /// The slice.
    pub material: Material,
    /// Its indices.
    pub entries: u64,
    /// Positions checked (verify) or 0.
    pub positions: u64,
    /// Bytes on disk.
    pub bytes: u64,
    /// Seconds it took (0 when it was already on disk).
    pub seconds: f64,
    /// True when the table was already built.
    pub existed: bool,
}

fn read_or_build<R: Rules>(
    dir: &Path,
    m: Material,
    done: &Finished,
    threads: usize,
    build: bool,
) -> Result<(Vec<u8>, Progress), EgdbError> {
    let path = dir.join(store::file_name(m));
    let started = Instant::now();
    let io = |e| EgdbError::Io(path.display().to_string(), e);
    if !build || (path.exists() && !store::is_stale(&path)) {
        let t = Table::read(&path, R::VARIANT.key())?;
        let entries = t.entries();
        let values = t.into_values().map_err(|w| EgdbError::Format(path.display().to_string(), w))?;
        let bytes = std::fs::metadata(&path).map_err(io)?.len();
        let p = Progress { material: m, entries, positions: 0, bytes, seconds: 0.0, existed: true };
        return Ok((values, p));
    }
    let values = Builder::<R>::new(done).build(m, threads);
    let bytes = store::encode(R::VARIANT.key(), m, &values);
    let tmp = path.with_extension("part");
    std::fs::write(&tmp, &bytes).map_err(io)?;
    std::fs::rename(&tmp, &path).map_err(io)?;
    let p = Progress {
        material: m,
        entries: values.len() as u64,
        positions: 0,
        bytes: bytes.len() as u64,
        seconds: started.elapsed().as_secs_f64(),
        existed: false,
    };
    Ok((values, p))
}

/// Builds every missing table of rules `R` up to `pieces` pieces under `root`, with
/// `threads` threads; `report` hears of each slice.
pub fn build<R: Rules>(
    root: &Path,
    pieces: u8,
    threads: usize,
    report: &mut dyn FnMut(&Progress),
) -> Result<(), EgdbError> {
    supported(R::VARIANT)?;
    let dir = variant_dir(root, R::VARIANT);
    std::fs::create_dir_all(&dir).map_err(|e| EgdbError::Io(dir.display().to_string(), e))?;
    let mut done = Finished::new();
    for n in 2..=pieces {
        for m in Material::all_with(n) {
            // Before format version 3 both slices of a mirrored pair had a file.
            let mirrored = dir.join(store::file_name(m.mirror()));
            if !m.is_symmetric() && store::is_stale(&mirrored) {
                std::fs::remove_file(&mirrored).map_err(|e| EgdbError::Io(mirrored.display().to_string(), e))?;
            }
            let (values, p) = read_or_build::<R>(&dir, m, &done, threads, true)?;
            report(&p);
            done.insert(m.key(), values);
        }
    }
    Ok(())
}

/// Checks every table of rules `R` under `root` up to `pieces` pieces against the
/// values of each position's successors, with `threads` threads.
pub fn verify<R: Rules>(
    root: &Path,
    pieces: u8,
    threads: usize,
    report: &mut dyn FnMut(&Progress),
) -> Result<(), EgdbError> {
    supported(R::VARIANT)?;
    let dir = variant_dir(root, R::VARIANT);
    let mut done = Finished::new();
    for n in 2..=pieces {
        for m in Material::all_with(n) {
            let started = Instant::now();
            let (values, mut p) = read_or_build::<R>(&dir, m, &done, 1, false)?;
            p.positions = Builder::<R>::new(&done).verify(m, &values, threads).map_err(|(index, what)| {
                EgdbError::Wrong { file: dir.join(store::file_name(m)).display().to_string(), index, what }
            })?;
            p.seconds = started.elapsed().as_secs_f64();
            report(&p);
            done.insert(m.key(), values);
        }
    }
    Ok(())
}

/// The largest piece count up to which every slice of rules `R` is on disk under
/// `root` (0 when not even the 2-piece slices are), found without reading a table.
pub fn complete_pieces<R: Rules>(root: &Path) -> u8 {
    let dir = variant_dir(root, R::VARIANT);
    (2..=8u8)
        .take_while(|&n| Material::all_with(n).iter().all(|m| dir.join(store::file_name(*m)).exists()))
        .last()
        .unwrap_or(0)
}

/// The tables of rules `R` that are on disk, ready to probe.
pub struct Egdb<R: Rules> {
    ix: Indexer<R>,
    tables: HashMap<u32, (u64, Table)>,
    pieces: u32,
    cache: BlockCache,
}

impl<R: Rules> Egdb<R> {
    /// Opens the tables under `root`: every slice up to the largest piece count that
    /// is complete on disk. `Ok(None)` when there is none.
    pub fn open(root: &Path) -> Result<Option<Self>, EgdbError> {
        supported(R::VARIANT)?;
        let dir = variant_dir(root, R::VARIANT);
        let pieces = complete_pieces::<R>(root);
        let mut tables = HashMap::new();
        for m in (2..=pieces).flat_map(Material::all_with) {
            let t = Table::read(&dir.join(store::file_name(m)), R::VARIANT.key())?;
            tables.insert(m.key(), (tables.len() as u64, t));
        }
        let pieces = u32::from(pieces);
        Ok((pieces > 0).then(|| Egdb { ix: Indexer::new(), tables, pieces, cache: BlockCache::default() }))
    }

    /// The most pieces every position of which is in the tables.
    pub fn pieces(&self) -> u32 {
        self.pieces
    }

    /// Bytes the tables take in memory.
    pub fn memory(&self) -> usize {
        self.tables.values().map(|(_, t)| t.memory()).sum()
    }

    /// The value of `pos` for the side to move, when it is in the tables.
    #[inline]
    pub fn probe(&self, pos: &Position<R>) -> Option<Value> {
        if pos.occupied().count() > self.pieces {
            return None;
        }
        let (m, i) = self.ix.locate(&Indexer::of(pos));
        let (id, t) = self.tables.get(&m.key())?;
        t.get(i, *id, &self.cache).map(Value)
    }
}

type Installed = Vec<(Variant, Arc<dyn Any + Send + Sync>)>;
static INSTALLED: Mutex<Installed> = Mutex::new(Vec::new());

/// Makes `db` the tables every searcher of rules `R` created from now on probes.
pub fn install<R: Rules>(db: Egdb<R>) {
    let mut all = INSTALLED.lock().unwrap_or_else(|e| e.into_inner());
    all.retain(|(v, _)| *v != R::VARIANT);
    all.push((R::VARIANT, Arc::new(db)));
}

/// The tables installed for rules `R`.
pub fn installed<R: Rules>() -> Option<Arc<Egdb<R>>> {
    let all = INSTALLED.lock().unwrap_or_else(|e| e.into_inner());
    let (_, db) = all.iter().find(|(v, _)| *v == R::VARIANT)?;
    db.clone().downcast::<Egdb<R>>().ok()
}

/// True when tables are installed for `variant`.
pub fn is_installed(variant: Variant) -> bool {
    INSTALLED.lock().unwrap_or_else(|e| e.into_inner()).iter().any(|(v, _)| *v == variant)
}

struct Open<'a>(&'a Path);
impl VariantFn for Open<'_> {
    type Output = Result<Option<(u32, usize)>, EgdbError>;
    fn call<R: Rules>(self) -> Self::Output {
        let Some(db) = Egdb::<R>::open(self.0)? else { return Ok(None) };
        let found = (db.pieces(), db.memory());
        install(db);
        Ok(Some(found))
    }
}

/// Opens and installs `variant`'s tables under `root`: `(pieces, bytes in memory)`,
/// or `None` when none are built.
pub fn open_and_install(root: &Path, variant: Variant) -> Result<Option<(u32, usize)>, EgdbError> {
    variant.visit(Open(root))
}
