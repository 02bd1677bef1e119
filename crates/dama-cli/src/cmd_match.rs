//! `dama match`: two Hub engines play each other from paired openings; the result is
//! W/D/L, an Elo difference with its 95% interval, optionally stopped early by SPRT,
//! and a PDN file of every game.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context, Result};
use dama_core::fen::{parse_fen, write_fen};
use dama_core::game::{DrawRules, Game, Status};
use dama_core::movegen::legal_moves;
use dama_core::pdn::PdnReader;
use dama_core::record::{result_token, write_pdn, MoveRecord, WriteStyle};
use dama_core::{Color, Position, Rules, Variant, VariantFn};
use dama_engine::hub::{hub_move, parse_hub_move, write_hub_pos};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Arguments of `dama match`.
#[derive(clap::Args)]
pub struct Args {
    /// Variant key.
    #[arg(long, default_value = "english")]
    variant: Variant,
    /// Command of engine A (a Hub engine; "dama" means this program).
    #[arg(long, default_value = "dama hub")]
    a: String,
    /// Command of engine B.
    #[arg(long, default_value = "dama hub --level 1")]
    b: String,
    /// Number of games (rounded up to pairs: each opening is played with both colours).
    #[arg(long, default_value_t = 100)]
    games: u32,
    /// Seconds per move.
    #[arg(long, default_value_t = 0.1)]
    movetime: f64,
    /// Stop early by SPRT: "elo0,elo1" (alpha = beta = 0.05).
    #[arg(long)]
    sprt: Option<String>,
    /// Opening positions (PDN with FEN tags); by default ../shared/data/pdn/openings for
    /// English and Italian, random balanced openings otherwise.
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Where to write the PDN of all games.
    #[arg(long, default_value = "match.pdn")]
    pdn: PathBuf,
    /// Random seed for openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Longest game in plies before it is scored a draw.
    #[arg(long, default_value_t = 300)]
    max_plies: usize,
}

struct Engine {
    name: String,
    child: Child,
    stdin: ChildStdin,
    lines: mpsc::Receiver<String>,
}

impl Engine {
    fn start(cmd: &str, variant: Variant) -> Result<Engine> {
        let mut words = cmd.split_whitespace();
        let prog = words.next().ok_or_else(|| anyhow!("empty engine command"))?;
        let prog = if prog == "dama" { std::env::current_exe()? } else { PathBuf::from(prog) };
        let mut child = Command::new(&prog)
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| format!("cannot start engine '{cmd}'"))?;
        let stdin = child.stdin.take().expect("stdin");
        let out = child.stdout.take().expect("stdout");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for l in BufReader::new(out).lines().map_while(Result::ok) {
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        let mut e = Engine { name: cmd.to_string(), child, stdin, lines };
        e.send("hub")?;
        let id = e.wait_for("wait", Duration::from_secs(10))?;
        if let Some(n) = id.iter().find_map(|l| l.strip_prefix("id name=")) {
            e.name = format!("{} ({cmd})", n.split_whitespace().next().unwrap_or(n));
        }
        let key = if variant == Variant::International { "normal" } else { variant.key() };
        e.send(&format!("set-param name=variant value={key}"))?;
        e.send("init")?;
        e.wait_for("ready", Duration::from_secs(30))?;
        Ok(e)
    }

    fn send(&mut self, line: &str) -> Result<()> {
        writeln!(self.stdin, "{line}")?;
        self.stdin.flush()?;
        Ok(())
    }

    fn wait_for(&mut self, prefix: &str, timeout: Duration) -> Result<Vec<String>> {
        let deadline = Instant::now() + timeout;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let l = self.lines.recv_timeout(left).map_err(|_| anyhow!("{}: no '{prefix}' in time", self.name))?;
            let done = l.starts_with(prefix);
            got.push(l);
            if done {
                return Ok(got);
            }
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.send("quit");
        std::thread::sleep(Duration::from_millis(20));
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Elo difference of a score fraction.
pub fn elo(score: f64) -> f64 {
    let s = score.clamp(1e-6, 1.0 - 1e-6);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// (Elo, lower, upper) with a 95% interval from wins, draws, losses. A perfect score
/// has no finite estimate: the bound then comes from the rule of three (score at
/// least 1 - 3/n at 95%) and the estimate is infinite.
pub fn elo_interval(w: u32, d: u32, l: u32) -> (f64, f64, f64) {
    let n = (w + d + l) as f64;
    if n == 0.0 {
        return (0.0, 0.0, 0.0);
    }
    if w as f64 == n {
        return (f64::INFINITY, elo(1.0 - 3.0 / n), f64::INFINITY);
    }
    if l as f64 == n {
        return (f64::NEG_INFINITY, f64::NEG_INFINITY, elo(3.0 / n));
    }
    let s = (w as f64 + d as f64 / 2.0) / n;
    let var = (w as f64 * (1.0 - s).powi(2) + d as f64 * (0.5 - s).powi(2) + l as f64 * s.powi(2)) / n;
    let se = (var / n).sqrt();
    (elo(s), elo(s - 1.96 * se), elo(s + 1.96 * se))
}

/// Log-likelihood ratio of H1 (elo1) against H0 (elo0), normal approximation.
pub fn llr(w: u32, d: u32, l: u32, elo0: f64, elo1: f64) -> f64 {
    let n = (w + d + l) as f64;
    if n == 0.0 {
        return 0.0;
    }
    let s = (w as f64 + d as f64 / 2.0) / n;
    let var = (w as f64 * (1.0 - s).powi(2) + d as f64 * (0.5 - s).powi(2) + l as f64 * s.powi(2)) / n;
    if var <= 0.0 {
        return 0.0;
    }
    let sc = |e: f64| 1.0 / (1.0 + 10f64.powf(-e / 400.0));
    let (s0, s1) = (sc(elo0), sc(elo1));
    (s1 - s0) * (2.0 * s - s0 - s1) * n / (2.0 * var)
}

fn openings<R: Rules>(a: &Args, n: usize) -> Result<Vec<Position<R>>> {
    let file = a.openings.clone().or_else(|| {
        let name = match R::VARIANT {
            Variant::English => "11_man_english.pdn",
            Variant::Italian => "11_man_italian.pdn",
            _ => return None,
        };
        let p = PathBuf::from("../shared/data/pdn/openings").join(name);
        p.exists().then_some(p)
    });
    let mut rng = StdRng::seed_from_u64(a.seed);
    if let Some(f) = file {
        let games = PdnReader::new(BufReader::new(std::fs::File::open(&f)?));
        let mut all: Vec<Position<R>> =
            games.flatten().filter_map(|g| g.tag("FEN").and_then(|f| parse_fen::<R>(f).ok())).collect();
        if all.is_empty() {
            bail!("no FEN openings in {}", f.display());
        }
        // A fixed shuffle, so a match is reproducible.
        for i in (1..all.len()).rev() {
            all.swap(i, rng.gen_range(0..=i));
        }
        return Ok(all.into_iter().cycle().take(n).collect());
    }
    // Random balanced openings: a few random plies, kept when a short search finds them
    // level (within a third of a man).
    let mut out = Vec::new();
    let stop = std::sync::atomic::AtomicBool::new(false);
    while out.len() < n {
        let mut p = Position::<R>::start();
        let plies = rng.gen_range(4..=6);
        for _ in 0..plies {
            let l = legal_moves(&p);
            if l.is_empty() {
                break;
            }
            p = p.play(&l.as_slice()[rng.gen_range(0..l.len())]);
        }
        let mut s = dama_engine::search::Searcher::<R>::new(
            4,
            dama_engine::eval::weights(dama_engine::eval::Family::of::<R>()),
        );
        let lim = dama_engine::search::Limits { depth: Some(6), ..Default::default() };
        let score = s.think(&p, &[], lim, &stop, &mut |_| {}).score;
        if score.abs() <= 33 && !legal_moves(&p).is_empty() {
            out.push(p);
        }
    }
    Ok(out)
}

struct Run<'a>(&'a Args);
impl VariantFn for Run<'_> {
    type Output = Result<()>;
    fn call<R: Rules>(self) -> Result<()> {
        let a = self.0;
        let mut eng = [Engine::start(&a.a, R::VARIANT)?, Engine::start(&a.b, R::VARIANT)?];
        let pairs = a.games.div_ceil(2) as usize;
        let opens = openings::<R>(a, pairs)?;
        let sprt = match &a.sprt {
            Some(s) => {
                let (x, y) = s.split_once(',').ok_or_else(|| anyhow!("--sprt takes elo0,elo1"))?;
                Some((x.trim().parse::<f64>()?, y.trim().parse::<f64>()?))
            }
            None => None,
        };
        let (lower, upper) = ((0.05f64 / 0.95).ln(), (0.95f64 / 0.05).ln());
        let (mut w, mut d, mut l) = (0u32, 0u32, 0u32);
        let mut pdn = std::fs::File::create(&a.pdn).with_context(|| format!("cannot write {}", a.pdn.display()))?;
        let mut played = 0;
        'games: for (i, start) in opens.iter().enumerate() {
            for swap in [false, true] {
                if played >= a.games {
                    break 'games;
                }
                // Engine index playing the side that moves first in the opening.
                let first = usize::from(swap);
                let (res, records, reason) = play_game::<R>(&mut eng, *start, first, a)?;
                let a_side = if first == 0 { start.side() } else { !start.side() };
                match res {
                    Some(c) if c == a_side => w += 1,
                    Some(_) => l += 1,
                    None => d += 1,
                }
                played += 1;
                let names = |c: Color| if c == a_side { eng[0].name.clone() } else { eng[1].name.clone() };
                let tags = vec![
                    ("Event".to_string(), format!("dama match, opening {}", i + 1)),
                    ("Round".to_string(), played.to_string()),
                    ("White".to_string(), names(Color::White)),
                    ("Black".to_string(), names(Color::Black)),
                    ("Termination".to_string(), reason.clone()),
                ];
                let token = result_token::<R>(res);
                pdn.write_all(write_pdn(&tags, start, &records, token, WriteStyle::default()).as_bytes())?;
                let (e, lo, hi) = elo_interval(w, d, l);
                println!("game {played}: {token} ({reason})  A: +{w} ={d} -{l}  Elo {e:+.0} [{lo:+.0}, {hi:+.0}]");
                if let Some((e0, e1)) = sprt {
                    let x = llr(w, d, l, e0, e1);
                    if x >= upper || x <= lower {
                        println!(
                            "SPRT stopped: LLR {x:.2} ({})",
                            if x >= upper { "H1 accepted" } else { "H0 accepted" }
                        );
                        break 'games;
                    }
                }
            }
        }
        let (e, lo, hi) = elo_interval(w, d, l);
        let n = (w + d + l).max(1) as f64;
        println!(
            "{} vs {}: {} games, +{w} ={d} -{l}, score {:.1}%, Elo {e:+.0} (95% [{lo:+.0}, {hi:+.0}]); games in {}",
            eng[0].name,
            eng[1].name,
            w + d + l,
            100.0 * (w as f64 + d as f64 / 2.0) / n,
            a.pdn.display()
        );
        Ok(())
    }
}

type Played<R> = (Option<Color>, Vec<MoveRecord<dama_core::BB<R>>>, String);

fn play_game<R: Rules>(eng: &mut [Engine; 2], start: Position<R>, first: usize, a: &Args) -> Result<Played<R>> {
    let mut game = Game::from_position(start, DrawRules::official(R::VARIANT));
    let mut hub_moves: Vec<String> = Vec::new();
    let mut records = Vec::new();
    let fen = write_fen(&start);
    for e in eng.iter_mut() {
        e.send("new-game")?;
    }
    let timeout = Duration::from_secs_f64(a.movetime * 20.0 + 2.0);
    loop {
        match game.status() {
            Status::Over(r) => return Ok((r.winner, records, r.to_string())),
            Status::NeedsAdjudication => return Ok((None, records, "adjudicated".into())),
            Status::Ongoing => {}
        }
        if game.plies().len() >= a.max_plies {
            return Ok((None, records, format!("draw: {} plies", a.max_plies)));
        }
        let to_move = game.position().side();
        let idx = if to_move == start.side() { first } else { 1 - first };
        let e = &mut eng[idx];
        // Scan and other 10x10 Hub engines know only the square string; dama's
        // dialect also takes a FEN for the other variants.
        let setup = if R::VARIANT == Variant::International {
            format!("pos={}", write_hub_pos(&start))
        } else {
            format!("fen=\"{fen}\"")
        };
        e.send(&format!("pos {setup} moves=\"{}\"", hub_moves.join(" ")))?;
        e.send(&format!("level move-time={}", a.movetime))?;
        e.send("go think")?;
        let done = match e.wait_for("done", timeout) {
            Ok(lines) => lines.last().cloned().unwrap_or_default(),
            Err(_) => return Ok((Some(!to_move), records, format!("{} ran out of time", e.name))),
        };
        let text = done.strip_prefix("done move=").unwrap_or("").split_whitespace().next().unwrap_or("");
        let pos = *game.position();
        let mv = match parse_hub_move(&pos, text) {
            Ok(m) => m,
            Err(_) => return Ok((Some(!to_move), records, format!("{} played an illegal move '{text}'", e.name))),
        };
        game.play(&mv).map_err(|e| anyhow!("{e}"))?;
        hub_moves.push(hub_move(&pos, &mv));
        records.push(MoveRecord { mv, clock_ms: None, comments: Vec::new() });
    }
}

/// Runs `dama match`.
pub fn run(a: Args) -> Result<()> {
    a.variant.visit(Run(&a))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_of_known_scores() {
        assert!((elo(0.5)).abs() < 1e-9);
        assert!((elo(0.75) - 190.85).abs() < 0.1);
        let (e, lo, hi) = elo_interval(25, 26, 9);
        assert!((e - 94.5).abs() < 1.0 && lo < e && e < hi && lo > 0.0, "{e} {lo} {hi}");
        let (e, lo, _) = elo_interval(60, 0, 0);
        assert!(e.is_infinite() && (lo - 511.5).abs() < 1.0, "{lo}");
    }

    #[test]
    fn sprt_accepts_the_true_hypothesis() {
        // A clear edge accepts H1 (elo 0 vs 20 would need far more games).
        assert!(llr(150, 100, 50, 0.0, 50.0) > (0.95f64 / 0.05).ln());
        // An even match accepts H0 for elo0 = 0, elo1 = 50.
        assert!(llr(100, 200, 100, 0.0, 50.0) < (0.05f64 / 0.95).ln());
    }
}
