//! `dama train`: fits a family's evaluation to self-play data (see
//! `dama_train::train`), reports the loss on held-out games each epoch, and writes the
//! weights file (`--write` puts it where the build embeds it).

use std::collections::HashMap;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use dama_core::variant::{Canadian, English, International, Russian, Turkish};
use dama_core::{Position, Rules, Variant};
use dama_engine::eval::weights::{builtin, shape_of};
use dama_engine::eval::{net, Family, Net, Weights};
use dama_train::dataset::{read, read_header, record_size};
use dama_train::train::{target, train, Config};
use dama_train::train_net::{train_net, NetConfig};
use dama_train::{Epoch, Sample};

use crate::progress::Progress;

/// Arguments of `dama train`.
#[derive(clap::Args)]
pub struct Args {
    /// Family: short-kings, flying8, flying10, canadian, orthogonal.
    #[arg(long)]
    family: Family,
    /// Self-play data files of variants of the family.
    #[arg(long, required = true, num_args = 1..)]
    data: Vec<PathBuf>,
    /// Passes over the data.
    #[arg(long, default_value_t = 20)]
    epochs: usize,
    /// Adam's step size in the first epoch, hundredths of a man.
    #[arg(long, default_value_t = 0.05)]
    lr: f32,
    /// The step size is multiplied by this after each epoch.
    #[arg(long, default_value_t = 0.9)]
    decay: f32,
    /// Weight decay of pattern and king-square weights (times the step size).
    #[arg(long, default_value_t = 0.01)]
    l2: f32,
    /// Positions per step.
    #[arg(long, default_value_t = 4096)]
    batch: usize,
    /// Weight of the search score in the target (0: game results only).
    #[arg(long, default_value_t = 0.3)]
    lambda: f32,
    /// Sigmoid scale S, hundredths of a man: P(win) = 1 / (1 + exp(-score / S)).
    #[arg(long, default_value_t = 100.0)]
    sigmoid: f32,
    /// Percent of games held out for validation.
    #[arg(long, default_value_t = 10)]
    validation: u32,
    /// Start from: "material" (a network: random weights), "builtin", or a weights file.
    #[arg(long, default_value = "material")]
    init: String,
    /// Shuffling seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Output weights file.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Train a network of this shape ("128x32": first and second hidden layer) instead
    /// of pattern weights; the file is `<family>.nnue` (`<variant>.nnue` with --variant).
    #[arg(long)]
    net: Option<String>,
    /// Sets of a network's layers after the accumulator, each for a range of the number
    /// of pieces on the board.
    #[arg(long, default_value_t = 1)]
    buckets: usize,
    /// Threads for network training.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Write the weights where the build embeds them (crates/dama-engine/weights/).
    #[arg(long)]
    write: bool,
    /// Train a network for this variant alone (one with a file of its own: english,
    /// frisian, pool): the data must be its games, `--write` puts it in `<variant>.nnue`, and
    /// `--init builtin` starts from its own network or else its family's.
    #[arg(long)]
    variant: Option<Variant>,
}

impl Args {
    /// Checks `--variant` against the family and the variants with a file of their own.
    fn check_variant(&self) -> Result<()> {
        let Some(v) = self.variant else { return Ok(()) };
        if Family::of_variant(v) != self.family {
            bail!("--variant {}: of family {}, not {}", v.key(), Family::of_variant(v).key(), self.family.key());
        }
        if !net::own_variants().any(|x| x == v) {
            let own: Vec<_> = net::own_variants().map(|x| x.key()).collect();
            bail!("--variant {}: only {} have networks of their own", v.key(), own.join(", "));
        }
        if self.net.is_none() {
            bail!("--variant trains a network: give --net");
        }
        Ok(())
    }
}

/// Reads the data files into samples of the family's board: one per distinct position,
/// with the mean of its targets; (training, validation) split by game.
/// Training samples, validation samples, and how many records were read.
type Loaded<R> = (Vec<Sample<R>>, Vec<Sample<R>>, usize);

fn load<R: Rules>(a: &Args) -> Result<Loaded<R>> {
    let mut by_pos: HashMap<u64, (Position<R>, f64, u32, bool)> = HashMap::new();
    let mut raw = 0usize;
    for (fi, path) in a.data.iter().enumerate() {
        let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
        let (v, at) = read_header(&bytes).with_context(|| format!("{}", path.display()))?;
        if a.variant.is_some_and(|want| want != v) {
            bail!("{} holds {} games, not {} (--variant)", path.display(), v.key(), a.variant.map_or("", |w| w.key()));
        }
        let fam = Family::of_variant(v);
        if fam != a.family {
            bail!("{} holds {} games, of family {}, not {}", path.display(), v.key(), fam.key(), a.family.key());
        }
        for c in bytes[at..].chunks_exact(record_size(v)) {
            let r = read(c, v);
            let Ok(pos) = Position::<R>::from_setup(&r.setup) else { continue };
            raw += 1;
            let y = f64::from(target(r.score, r.result, pos.side(), a.lambda, a.sigmoid));
            // Whole games go to validation: game number and file decide.
            let held = (u64::from(r.game) * 0x9e37_79b9 + fi as u64 * 7919) % 100 < u64::from(a.validation);
            let e = by_pos.entry(pos.hash()).or_insert((pos, 0.0, 0, held));
            e.1 += y;
            e.2 += 1;
        }
    }
    // In hash order, not the map's (which differs from run to run): the same files and
    // seed then give the same weights.
    let mut distinct: Vec<_> = by_pos.into_iter().collect();
    distinct.sort_unstable_by_key(|(k, _)| *k);
    let (mut t, mut v) = (Vec::new(), Vec::new());
    for (_, (pos, sum, n, held)) in distinct {
        let s = Sample { pos, target: (sum / f64::from(n)) as f32 };
        if held {
            v.push(s);
        } else {
            t.push(s);
        }
    }
    Ok((t, v, raw))
}

fn run_for<R: Rules>(a: &Args) -> Result<()> {
    let t0 = Instant::now();
    let (mut tr, va, raw) = load::<R>(a)?;
    if tr.is_empty() || va.is_empty() {
        bail!("too little data: {} training and {} validation positions", tr.len(), va.len());
    }
    eprintln!(
        "{} positions read, {} distinct: {} for training, {} held out ({:.1} s)",
        raw,
        tr.len() + va.len(),
        tr.len(),
        va.len(),
        t0.elapsed().as_secs_f64()
    );
    if let Some(spec) = &a.net {
        return run_net(a, spec, t0, &mut tr, &va, raw);
    }
    let init = match a.init.as_str() {
        "material" => Weights::material(a.family, shape_of(a.family)),
        "builtin" => (*builtin(a.family)).clone(),
        path => Weights::from_bytes(&std::fs::read(path).with_context(|| format!("cannot read {path}"))?)
            .with_context(|| path.to_string())?,
    };
    let cfg = Config {
        epochs: a.epochs,
        lr: a.lr,
        decay: a.decay,
        l2: a.l2,
        batch: a.batch,
        sigmoid: a.sigmoid,
        seed: a.seed,
    };
    let mut best = f64::INFINITY;
    let progress = Progress::new("epochs", Some(a.epochs as u64));
    let mut w = train(&init, &mut tr, &va, &cfg, &mut |e| {
        report_epoch(e, &mut best, t0, &progress);
    });
    progress.finish();
    let files: Vec<String> =
        a.data.iter().map(|p| p.file_name().map_or(String::new(), |f| f.to_string_lossy().into_owned())).collect();
    w.note = format!(
        "dama train: {} positions ({} distinct) of {}; {} epochs, lr {} decay {}, l2 {}, lambda {}, sigmoid {}; validation loss {:.5}",
        raw,
        tr.len() + va.len(),
        files.join(", "),
        a.epochs,
        a.lr,
        a.decay,
        a.l2,
        a.lambda,
        a.sigmoid,
        best
    );
    let s = w.shape.scalars();
    let named: Vec<String> = dama_engine::eval::SCALARS
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let cp = |x: i16| f64::from(x) / f64::from(w.scale);
            format!("{n} {:.1}/{:.1}", cp(w.mg[s + i]), cp(w.eg[s + i]))
        })
        .collect();
    eprintln!("scalar weights (middlegame/endgame, hundredths of a man): {}", named.join(", "));
    let mut outs = Vec::new();
    if let Some(o) = &a.out {
        outs.push(o.clone());
    }
    if a.write {
        outs.push(embedded_path(a.family.key(), "bin"));
    }
    for o in outs {
        std::fs::write(&o, w.to_bytes()).with_context(|| format!("cannot write {}", o.display()))?;
        println!("weights {} written to {} ({:.0} s in all)", w.fingerprint(), o.display(), t0.elapsed().as_secs_f64());
    }
    Ok(())
}

/// Where `--write` puts a family's (or a variant's) file with this extension.
fn embedded_path(name: &str, ext: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../dama-engine/weights").join(format!("{name}.{ext}"))
}

/// Trains a network (`dama train --net`).
fn run_net<R: Rules>(
    a: &Args,
    spec: &str,
    t0: Instant,
    tr: &mut [Sample<R>],
    va: &[Sample<R>],
    raw: usize,
) -> Result<()> {
    let (h1, h2) = spec
        .split_once('x')
        .and_then(|(x, y)| Some((x.parse::<usize>().ok()?, y.parse::<usize>().ok()?)))
        .filter(|&(x, y)| x > 0 && x <= 512 && x % 16 == 0 && y > 0 && y <= 128 && y % 8 == 0)
        .with_context(|| format!("--net {spec}: expected H1xH2, H1 a multiple of 16 up to 512, H2 of 8 up to 128"))?;
    if a.sigmoid != net::LOGIT as f32 {
        bail!("a network is trained with --sigmoid {} (its output is in those units)", net::LOGIT);
    }
    if a.buckets == 0 || a.buckets > net::MAX_BUCKETS {
        bail!("--buckets {}: between 1 and {}", a.buckets, net::MAX_BUCKETS);
    }
    let init = match a.init.as_str() {
        "material" => None,
        "builtin" => {
            let found = a.variant.and_then(net::own).or_else(|| net::builtin(a.family));
            let missing = || match a.variant {
                Some(v) => format!("no network is built in for {} (nor for its family {})", v.key(), a.family.key()),
                None => format!("no network is built in for {}", a.family.key()),
            };
            Some(found.map(|n| (*n).clone()).with_context(missing)?)
        }
        path => Some(
            Net::from_bytes(&std::fs::read(path).with_context(|| format!("cannot read {path}"))?)
                .with_context(|| path.to_string())?,
        ),
    };
    let cfg = NetConfig {
        h1,
        h2,
        buckets: a.buckets,
        epochs: a.epochs,
        lr: a.lr,
        decay: a.decay,
        batch: a.batch,
        threads: a.threads,
        seed: a.seed,
    };
    let mut best = f64::INFINITY;
    let progress = Progress::new("epochs", Some(a.epochs as u64));
    let mut n = train_net(init.as_ref(), tr, va, &cfg, &mut |e| {
        report_epoch(e, &mut best, t0, &progress);
    });
    progress.finish();
    n.note = format!(
        "dama train --net {h1}x{h2} --buckets {}: {raw} positions ({} distinct); {} epochs, lr {} decay {}, batch {}, lambda {}, init {}; validation loss {best:.5}",
        a.buckets,
        tr.len() + va.len(),
        a.epochs,
        a.lr,
        a.decay,
        a.batch,
        a.lambda,
        a.init
    );
    let mut outs: Vec<PathBuf> = a.out.iter().cloned().collect();
    if a.write {
        let name = a.variant.map_or(a.family.key(), |v| v.key());
        outs.push(embedded_path(name, "nnue"));
    }
    for o in outs {
        std::fs::write(&o, n.to_bytes()).with_context(|| format!("cannot write {}", o.display()))?;
        println!("network written to {} ({:.0} s in all)", o.display(), t0.elapsed().as_secs_f64());
    }
    Ok(())
}

/// Runs `dama train`.
pub fn run(a: Args) -> Result<()> {
    a.check_variant()?;
    match a.family {
        Family::ShortKings => run_for::<English>(&a),
        Family::Flying8 => run_for::<Russian>(&a),
        Family::Flying10 => run_for::<International>(&a),
        Family::Canadian => run_for::<Canadian>(&a),
        Family::Orthogonal => run_for::<Turkish>(&a),
    }
}

/// One line per epoch: the losses, a star when validation is the best so far. Epoch 0 is
/// the starting point, before any training: it has no training loss.
fn report_epoch(e: &Epoch, best: &mut f64, t0: Instant, progress: &Progress) {
    *best = best.min(e.validation_loss);
    let train = if e.train_loss.is_finite() { format!("{:.5}", e.train_loss) } else { "-".to_string() };
    progress.println(format!(
        "epoch {:>3}: training loss {train}, validation loss {:.5}{}  ({:.0} s)",
        e.epoch,
        e.validation_loss,
        if e.validation_loss <= *best { " *" } else { "" },
        t0.elapsed().as_secs_f64()
    ));
    progress.message(format!("validation loss {:.5} (best {:.5})", e.validation_loss, *best));
    progress.set(e.epoch as u64);
}
