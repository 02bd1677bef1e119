//! `dama pdn check` and `dama pdn convert`.

use std::fs::File;
use std::io::{BufReader, Write};
use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use dama_core::notation::SquareStyle;
use dama_core::pdn::{PdnGame, PdnReader};
use dama_core::record::{replay, variant_of, write_pdn, MoveRecord, WriteStyle};
use dama_core::{Rules, Variant, VariantFn};
use serde_json::json;

use crate::progress::Progress;

/// `dama pdn ...`
#[derive(clap::Subcommand)]
pub enum Command {
    /// Replay every game, check every move, report.
    Check(CheckArgs),
    /// Rewrite games in another notation.
    Convert(ConvertArgs),
}

/// Arguments of `dama pdn check`.
#[derive(clap::Args)]
pub struct CheckArgs {
    /// PDN files.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Variant of games without a GameType tag (default: English, GameType 21).
    #[arg(long)]
    variant: Option<Variant>,
    /// Print a JSON summary as the last line.
    #[arg(long)]
    json: bool,
}

/// Target notation of `dama pdn convert`.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum Target {
    /// Square numbers.
    Numeric,
    /// File and rank.
    Algebraic,
    /// Every landing square of each capture.
    Long,
    /// Origin and destination only, where unambiguous.
    Short,
}

/// Arguments of `dama pdn convert`.
#[derive(clap::Args)]
pub struct ConvertArgs {
    /// PDN file.
    file: PathBuf,
    /// Target notation.
    #[arg(long)]
    to: Target,
    /// Variant of games without a GameType tag.
    #[arg(long)]
    variant: Option<Variant>,
}

/// Opens a PDN file, with a progress bar over its bytes.
fn open(path: &PathBuf) -> Result<(File, Progress)> {
    let f = File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let size = f.metadata().map(|m| m.len()).unwrap_or(0);
    Ok((f, Progress::bytes(&path.display().to_string(), size)))
}

struct Check<'a>(&'a PdnGame);
impl VariantFn for Check<'_> {
    type Output = Result<usize, dama_core::record::ReplayError>;
    fn call<R: Rules>(self) -> Self::Output {
        replay::<R>(self.0).map(|r| r.moves.len())
    }
}

fn check(a: CheckArgs) -> Result<()> {
    let default = a.variant.unwrap_or(Variant::English);
    let (mut games, mut legal, mut illegal, mut unreadable, mut warnings) = (0u64, 0u64, 0u64, 0u64, 0u64);
    let mut errors = Vec::new();
    for path in &a.files {
        let (file, progress) = open(path)?;
        let mut reader = PdnReader::new(BufReader::new(progress.reader(file)));
        for item in reader.by_ref() {
            games += 1;
            match item {
                Err(e) => {
                    unreadable += 1;
                    progress.println(format!("{}: game {games}: unreadable: {e}", path.display()));
                    errors.push(json!({"file": path.display().to_string(), "game": games, "line": e.at.line, "column": e.at.col, "code": e.what.code(), "reason": e.what.to_string()}));
                }
                Ok(g) => {
                    for w in &g.warnings {
                        warnings += 1;
                        progress.println(format!("{}: game {games}: warning: {w}", path.display()));
                    }
                    let res = variant_of(&g, a.variant.unwrap_or(default))
                        .map_err(|e| (0, String::new(), e))
                        .and_then(|v| v.visit(Check(&g)).map_err(|e| (e.ply, e.text.clone(), e.to_string())));
                    match res {
                        Ok(_) => legal += 1,
                        Err((ply, mv, reason)) => {
                            illegal += 1;
                            let line = g.at.line;
                            progress.println(format!("{}: game {games} (line {line}): {reason}", path.display()));
                            errors.push(json!({"file": path.display().to_string(), "game": games, "ply": ply, "move": mv, "reason": reason}));
                        }
                    }
                }
            }
            progress.message(format!("{games} games, {} not legal", games - legal));
        }
        progress.finish();
        // Tags or prose with no game in them: warnings, not games.
        for w in reader.stray() {
            warnings += 1;
            eprintln!("{}: warning: {w}", path.display());
        }
    }
    let summary = json!({
        "games": games, "legal": legal, "illegal": illegal, "unreadable": unreadable,
        "errors": errors, "warnings": warnings,
    });
    if a.json {
        println!("{summary}");
    } else {
        println!("{games} games: {legal} legal, {illegal} illegal, {unreadable} unreadable, {warnings} warnings");
    }
    if legal != games {
        std::process::exit(1);
    }
    Ok(())
}

struct Convert<'a>(&'a PdnGame, WriteStyle);
impl VariantFn for Convert<'_> {
    type Output = Result<String>;
    fn call<R: Rules>(self) -> Result<String> {
        let g = self.0;
        let r = replay::<R>(g).map_err(|e| anyhow::anyhow!("{e}"))?;
        let records: Vec<MoveRecord<_>> = r
            .moves
            .iter()
            .zip(&g.moves)
            .map(|(m, pm)| MoveRecord { mv: *m, clock_ms: None, comments: pm.comments.clone() })
            .collect();
        let result = g.result.clone().or_else(|| g.tag("Result").map(str::to_string)).unwrap_or_else(|| "*".into());
        Ok(write_pdn(&g.tags, r.game.start(), &records, &result, self.1))
    }
}

fn convert(a: ConvertArgs) -> Result<()> {
    let style = match a.to {
        Target::Numeric => WriteStyle { squares: SquareStyle::Numeric, long: false },
        Target::Algebraic => WriteStyle { squares: SquareStyle::Algebraic, long: false },
        Target::Long => WriteStyle { squares: SquareStyle::Own, long: true },
        Target::Short => WriteStyle { squares: SquareStyle::Own, long: false },
    };
    let mut failed = 0;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let (file, progress) = open(&a.file)?;
    for (i, item) in PdnReader::new(BufReader::new(progress.reader(file))).enumerate() {
        let text = item
            .map_err(|e| anyhow::anyhow!("{e}"))
            .and_then(|g| {
                variant_of(&g, a.variant.unwrap_or(Variant::English)).map_err(anyhow::Error::msg).map(|v| (g, v))
            })
            .and_then(|(g, v)| v.visit(Convert(&g, style)));
        match text {
            Ok(t) => out.write_all(t.as_bytes())?,
            Err(e) => {
                failed += 1;
                progress.println(format!("game {}: not converted: {e}", i + 1));
            }
        }
    }
    progress.finish();
    if failed > 0 {
        bail!("{failed} games could not be converted");
    }
    Ok(())
}

/// Runs `dama pdn ...`.
pub fn run(c: Command) -> Result<()> {
    match c {
        Command::Check(a) => check(a),
        Command::Convert(a) => convert(a),
    }
}
