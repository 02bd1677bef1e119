//! `dama match`: two Hub engines play each other from paired openings (each opening
//! once, with both colours), several games at once if asked; the result is W/D/L, an
//! Elo difference with an honest 95% interval, the time each engine used per move, an
//! optional SPRT on the game pairs, and a PDN file of every game.

mod clock;
mod dxp;
mod engine;
pub mod openings;
pub mod stats;

use std::collections::{BTreeMap, VecDeque};
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;

use anyhow::{anyhow, Context, Result};
use dama_core::fen::write_fen;
use dama_core::game::{DrawRules, Game, Status};
use dama_core::record::{result_token, write_pdn, MoveRecord, WriteStyle};
use dama_core::{Color, Position, Rules, Variant, VariantFn};
use dama_engine::hub::{hub_move, parse_hub_move, write_hub_pos};

use crate::progress::Progress;
use clock::{ClockSetting, GameClocks};
use engine::{Budget, Engine, Reply, Turn};

/// One side of a match: an engine process spoken to in Hub, or an engine reached by
/// DXP (`dxp://HOST:PORT`).
enum Player {
    Hub(Engine),
    Dxp(dxp::DxpEngine),
}

impl Player {
    fn start(cmd: &str, dir: Option<&std::path::Path>, variant: Variant) -> Result<Player> {
        match cmd.strip_prefix("dxp://") {
            Some(addr) => Ok(Player::Dxp(dxp::DxpEngine::connect(addr, variant)?)),
            None => Ok(Player::Hub(Engine::start(cmd, dir, variant)?)),
        }
    }

    fn name(&self) -> &str {
        match self {
            Player::Hub(e) => &e.name,
            Player::Dxp(e) => &e.name,
        }
    }

    fn new_game(&mut self) -> Result<()> {
        match self {
            Player::Hub(e) => e.new_game(),
            Player::Dxp(e) => e.new_game(),
        }
    }

    /// A DXP engine keeps its own clock: move-time overruns are not its to answer for.
    fn keeps_time(&self) -> bool {
        matches!(self, Player::Hub(_))
    }

    fn think(&mut self, turn: &Turn<'_>) -> Result<Reply> {
        match (self, turn.budget) {
            (Player::Hub(e), _) => e.think(turn),
            (Player::Dxp(e), Budget::MoveTime(t)) => e.think(turn.fen, turn.moves, t),
            (Player::Dxp(_), _) => Err(anyhow!("a DXP engine plays only with a move time")),
        }
    }
}
use stats::{elo_interval, llr_pairs, signed, sprt_bounds, sprt_decision, SPRT_MIN_PAIRS};

/// Arguments of `dama match`.
#[derive(clap::Args, Clone)]
pub struct Args {
    /// Variant key.
    #[arg(long, default_value = "english")]
    variant: Variant,
    /// Command of engine A (a Hub or Hub-1 engine; "dama" means this program; quote
    /// words with spaces), or `dxp://HOST:PORT` for an International engine listening
    /// for DamExchange (such as Scan with `dxp-server = true`).
    #[arg(long, default_value = "dama hub")]
    a: String,
    /// Command of engine B.
    #[arg(long, default_value = "dama hub --level 1")]
    b: String,
    /// Working folder of engine A (where it finds its data files).
    #[arg(long)]
    a_dir: Option<PathBuf>,
    /// Working folder of engine B.
    #[arg(long)]
    b_dir: Option<PathBuf>,
    /// Number of games (rounded up to pairs: each opening is played with both colours).
    #[arg(long, default_value_t = 100)]
    games: u32,
    /// Seconds per move.
    #[arg(long, default_value_t = 0.1)]
    movetime: f64,
    /// Instead of a move time: this many nodes a move (Hub 2 engines that take
    /// `level nodes=`, such as dama; the machine's load then changes nothing).
    #[arg(long)]
    nodes: Option<u64>,
    /// Games played at once (each with its own two engine processes).
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Stop early by SPRT on game pairs: "elo0,elo1" (alpha = beta = 0.05; no decision
    /// before 30 pairs).
    #[arg(long)]
    sprt: Option<String>,
    /// Opening positions (PDN with FEN tags); by default the variant's file in the
    /// repository (crates/dama-cli/openings).
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Where to write the PDN of all games.
    #[arg(long, default_value = "match.pdn")]
    pdn: PathBuf,
    /// Random seed for the choice and order of openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Openings of the seed's order to pass over before the first one played: a match
    /// of 200 games with `--skip 100` plays the 100 openings that follow those of an
    /// earlier 200-game match with the same seed.
    #[arg(long, default_value_t = 0)]
    skip: usize,
    /// Longest game in plies before it is scored a draw.
    #[arg(long, default_value_t = 300)]
    max_plies: usize,
    /// A move that takes longer than this many times the move time (plus 50 ms) loses
    /// the game on time; by default overruns are only counted and reported.
    #[arg(long)]
    overrun: Option<f64>,
    /// Instead of a move time: a game clock for each side, `BASE+INC` in seconds
    /// (`60+0.5`; `180` for a whole-game clock). The engines are told their time left
    /// before each move and lose the game when it runs out.
    /// (A clock has its own loss on time, so `--overrun` does not apply with it.)
    #[arg(long, conflicts_with_all = ["nodes", "overrun"])]
    clock: Option<ClockSetting>,
}

/// A game to play: the opening's index and whether engine B moves first.
type Job = (usize, bool);

/// What one game gave.
struct Played {
    job: Job,
    /// Engine A's score: 1, 1/2 or 0.
    score_a: f64,
    token: &'static str,
    reason: String,
    pdn: String,
    /// Move times of engines A and B.
    times: [Vec<Duration>; 2],
    /// With a clock: the least time engines A and B had left after a move.
    lowest: Option<[Duration; 2]>,
}

struct Run<'a>(&'a Args);
impl VariantFn for Run<'_> {
    type Output = Result<()>;
    fn call<R: Rules>(self) -> Result<()> {
        let a = self.0.clone();
        let pairs = a.games.div_ceil(2) as usize;
        let opens = Arc::new(openings::for_match::<R>(a.openings.as_deref(), pairs, a.seed, a.skip)?);
        let jobs: VecDeque<Job> = (0..pairs).flat_map(|i| [(i, false), (i, true)]).take(a.games as usize).collect();
        let jobs = Arc::new(Mutex::new(jobs));
        let stop = Arc::new(AtomicBool::new(false));
        let (tx, rx) = mpsc::channel::<Result<Played>>();
        let mut names = [a.a.clone(), a.b.clone()];
        let mut workers = Vec::new();
        for _ in 0..a.concurrency.max(1) {
            let (a, opens, jobs, stop, tx) = (a.clone(), opens.clone(), jobs.clone(), stop.clone(), tx.clone());
            let (ntx, nrx) = mpsc::channel();
            workers.push(std::thread::spawn(move || {
                let engines = Player::start(&a.a, a.a_dir.as_deref(), R::VARIANT)
                    .and_then(|x| Ok([x, Player::start(&a.b, a.b_dir.as_deref(), R::VARIANT)?]));
                let mut eng = match engines {
                    Ok(e) => e,
                    Err(e) => {
                        let _ = tx.send(Err(e));
                        return;
                    }
                };
                let _ = ntx.send([eng[0].name().to_string(), eng[1].name().to_string()]);
                while !stop.load(Ordering::Relaxed) {
                    let Some(job) = jobs.lock().ok().and_then(|mut j| j.pop_front()) else { break };
                    let r = play_game::<R>(&mut eng, opens[job.0], job, &a);
                    let failed = r.is_err();
                    if tx.send(r).is_err() || failed {
                        break;
                    }
                }
            }));
            if let Ok(n) = nrx.recv_timeout(Duration::from_secs(180)) {
                names = n;
            }
        }
        drop(tx);
        if names[0] == names[1] {
            // Two builds of one engine: tell them apart by their commands.
            names = [format!("{} ({})", names[0], a.a), format!("{} ({})", names[1], a.b)];
        }
        report(&a, rx, &names, &stop)?;
        stop.store(true, Ordering::Relaxed);
        for w in workers {
            let _ = w.join();
        }
        Ok(())
    }
}

/// Prints each game as it ends, the SPRT if asked, and the summary; writes the PDN.
fn report(a: &Args, rx: mpsc::Receiver<Result<Played>>, names: &[String; 2], stop: &AtomicBool) -> Result<()> {
    let sprt = match &a.sprt {
        Some(s) => {
            let (x, y) = s.split_once(',').ok_or_else(|| anyhow!("--sprt takes elo0,elo1"))?;
            Some((x.trim().parse::<f64>()?, y.trim().parse::<f64>()?))
        }
        None => None,
    };
    let (lower, upper) = sprt_bounds();
    let (mut w, mut d, mut l) = (0u32, 0u32, 0u32);
    let mut pair_half: BTreeMap<usize, f64> = BTreeMap::new();
    let mut pairs = Vec::new();
    let mut times: [Vec<Duration>; 2] = [Vec::new(), Vec::new()];
    let mut lowest: [Vec<Duration>; 2] = [Vec::new(), Vec::new()];
    let mut reasons: BTreeMap<String, u32> = BTreeMap::new();
    let mut pdn = std::fs::File::create(&a.pdn).with_context(|| format!("cannot write {}", a.pdn.display()))?;
    let mut n = 0;
    let progress = Progress::new("games", Some(u64::from(a.games)));
    for r in rx {
        let g = match r {
            Ok(g) => g,
            Err(e) => {
                stop.store(true, Ordering::Relaxed);
                return Err(e.context("the match stopped"));
            }
        };
        n += 1;
        match g.score_a {
            x if x > 0.75 => w += 1,
            x if x < 0.25 => l += 1,
            _ => d += 1,
        }
        if let Some(first) = pair_half.remove(&g.job.0) {
            pairs.push((first + g.score_a) / 2.0);
        } else {
            pair_half.insert(g.job.0, g.score_a);
        }
        for (all, game) in times.iter_mut().zip(&g.times) {
            all.extend_from_slice(game);
        }
        for (all, game) in lowest.iter_mut().zip(g.lowest.iter().flatten()) {
            all.push(*game);
        }
        *reasons.entry(general(&g.reason)).or_default() += 1;
        pdn.write_all(g.pdn.as_bytes())?;
        let (e, lo, hi) = elo_interval(w, d, l);
        let mut elo = format!("+{w} ={d} -{l}  Elo {} [{}, {}]", signed(e), signed(lo), signed(hi));
        if let Some((e0, e1)) = sprt.filter(|_| pairs.len() >= 2) {
            elo += &format!("  LLR {:.2}", llr_pairs(&pairs, e0, e1));
        }
        progress.out(format!(
            "game {n} (opening {}{}): {} ({})  A: {elo}",
            g.job.0 + 1,
            if g.job.1 { ", B first" } else { "" },
            g.token,
            g.reason,
        ));
        progress.message(format!("A: {elo}"));
        progress.inc(1);
        if let Some((e0, e1)) = sprt {
            if let Some((h1, llr)) = sprt_decision(&pairs, e0, e1) {
                progress.finish();
                println!(
                    "SPRT [{e0}, {e1}] stopped after {} pairs: LLR {llr:.2} ({})",
                    pairs.len(),
                    if h1 { "H1 accepted" } else { "H0 accepted" }
                );
                stop.store(true, Ordering::Relaxed);
                break;
            }
        }
    }
    progress.finish();
    let (e, lo, hi) = elo_interval(w, d, l);
    let total = (w + d + l).max(1) as f64;
    println!(
        "{} vs {}: {} games, +{w} ={d} -{l}, score {:.1}%, Elo {} (95% [{}, {}]); games in {}",
        names[0],
        names[1],
        w + d + l,
        100.0 * (w as f64 + d as f64 / 2.0) / total,
        signed(e),
        signed(lo),
        signed(hi),
        a.pdn.display()
    );
    if let Some((e0, e1)) = sprt {
        println!(
            "SPRT [{e0}, {e1}] LLR {:.2} over {} pairs (bounds {lower:.2}, {upper:.2}; no decision before {SPRT_MIN_PAIRS} pairs)",
            llr_pairs(&pairs, e0, e1),
            pairs.len()
        );
    }
    let endings: Vec<String> = reasons.iter().map(|(k, v)| format!("{k} {v}")).collect();
    println!("endings: {}", endings.join(", "));
    for (i, name) in names.iter().enumerate() {
        println!("time per move, {}: {}", name, time_summary(&times[i], a.clock.is_none().then_some(a.movetime)));
        if a.clock.is_some() {
            println!("time left on the clock, {}: {}", name, reserve_summary(&lowest[i]));
        }
    }
    Ok(())
}

/// A reason without the engine's name or numbers, to count endings by kind.
fn general(reason: &str) -> String {
    reason
        .split(':')
        .next()
        .unwrap_or(reason)
        .chars()
        .filter(|c| !c.is_ascii_digit())
        .collect::<String>()
        .trim()
        .to_string()
}

/// Mean, median, 95th percentile and largest move time, and with a move time, how many
/// moves went more than 5% (plus 10 ms) over it.
fn time_summary(t: &[Duration], movetime: Option<f64>) -> String {
    if t.is_empty() {
        return "no moves".into();
    }
    let ms = sorted_ms(t);
    let pct = |p| percentile(&ms, p);
    let over = match movetime {
        Some(m) => {
            let limit = m * 1000.0 * 1.05 + 10.0;
            format!("; {} over {limit:.0} ms", ms.iter().filter(|x| **x > limit).count())
        }
        None => String::new(),
    };
    format!(
        "mean {:.0} ms, median {:.0}, p95 {:.0}, max {:.0} ({} moves{over})",
        ms.iter().sum::<f64>() / ms.len() as f64,
        pct(0.5),
        pct(0.95),
        pct(1.0),
        ms.len(),
    )
}

/// The least time a side had left after a move, over the games: the lowest, the 5th
/// percentile and the median.
fn reserve_summary(lowest: &[Duration]) -> String {
    if lowest.is_empty() {
        return "no games".into();
    }
    let ms = sorted_ms(lowest);
    let pct = |p| percentile(&ms, p);
    format!(
        "at its lowest in a game: least {:.0} ms, p5 {:.0}, median {:.0} ({} games)",
        pct(0.0),
        pct(0.05),
        pct(0.5),
        ms.len()
    )
}

/// The value at fraction `p` (0-1) of sorted, non-empty `ms`.
fn percentile(ms: &[f64], p: f64) -> f64 {
    ms[((ms.len() - 1) as f64 * p) as usize]
}

/// Durations in milliseconds, sorted.
fn sorted_ms(t: &[Duration]) -> Vec<f64> {
    let mut ms: Vec<f64> = t.iter().map(|d| d.as_secs_f64() * 1000.0).collect();
    ms.sort_by(f64::total_cmp);
    ms
}

fn play_game<R: Rules>(eng: &mut [Player; 2], start: Position<R>, job: Job, a: &Args) -> Result<Played> {
    let first = usize::from(job.1);
    let mut game = Game::from_position(start, DrawRules::official(R::VARIANT));
    let mut hub_moves: Vec<String> = Vec::new();
    let mut records = Vec::new();
    let mut times = [Vec::new(), Vec::new()];
    let (fen, hub_pos) = (write_fen(&start), write_hub_pos(&start));
    for e in eng.iter_mut() {
        e.new_game()?;
    }
    let international = R::VARIANT == Variant::International;
    let mut clocks = a.clock.map(GameClocks::new);
    let (winner, reason) = loop {
        match game.status() {
            Status::Over(r) => break (r.winner, r.to_string()),
            Status::NeedsAdjudication => break (None, "adjudicated".into()),
            Status::Ongoing => {}
        }
        if game.plies().len() >= a.max_plies {
            break (None, format!("draw: {} plies", a.max_plies));
        }
        let to_move = game.position().side();
        let idx = if to_move == start.side() { first } else { 1 - first };
        let budget = match (&clocks, a.nodes) {
            (Some(c), _) => {
                let (left, increment) = c.left(idx);
                Budget::Clock { left, increment }
            }
            (None, Some(n)) => Budget::Nodes(n),
            (None, None) => Budget::MoveTime(a.movetime),
        };
        let turn = Turn { hub_pos: &hub_pos, fen: &fen, moves: &hub_moves, budget, international };
        let reply = eng[idx].think(&turn)?;
        times[idx].push(reply.took);
        if let Some(c) = clocks.as_mut() {
            if !c.charge(idx, reply.took) {
                let ms = reply.took.as_millis();
                break (
                    Some(!to_move),
                    format!("time forfeit: {}'s time ran out ({ms} ms on a move)", eng[idx].name()),
                );
            }
        }
        if let Some(reason) = reply.ended {
            // The engine ended the game (DXP): it resigns, or it is scored a draw (a
            // claimed win that the rules here do not see is not taken on trust).
            let name = eng[idx].name().to_string();
            break match reason {
                '1' => (Some(!to_move), format!("{name} resigned")),
                _ => (None, format!("draw: {name} ended the game (DXP reason {reason})")),
            };
        }
        if let (Some(f), true) = (a.overrun, eng[idx].keeps_time()) {
            if reply.took.as_secs_f64() > a.movetime * f + 0.05 {
                let ms = reply.took.as_millis();
                break (Some(!to_move), format!("time forfeit: {} took {ms} ms", eng[idx].name()));
            }
        }
        let pos = *game.position();
        let mv = match parse_hub_move(&pos, &reply.mv) {
            Ok(m) => m,
            Err(_) => break (Some(!to_move), format!("illegal move: {} played '{}'", eng[idx].name(), reply.mv)),
        };
        game.play(&mv).map_err(|e| anyhow!("{e}"))?;
        hub_moves.push(hub_move(&pos, &mv));
        records.push(MoveRecord { mv, clock_ms: None, comments: Vec::new() });
    };
    let a_color = if first == 0 { start.side() } else { !start.side() };
    let score_a = match winner {
        Some(c) if c == a_color => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    };
    let name = |c: Color| if c == a_color { eng[0].name().to_string() } else { eng[1].name().to_string() };
    let tags = vec![
        ("Event".to_string(), format!("dama match, opening {}", job.0 + 1)),
        ("White".to_string(), name(Color::White)),
        ("Black".to_string(), name(Color::Black)),
        ("Termination".to_string(), reason.clone()),
    ];
    let token = result_token::<R>(winner);
    let pdn = write_pdn(&tags, &start, &records, token, WriteStyle::default());
    Ok(Played { job, score_a, token, reason, pdn, times, lowest: clocks.map(|c| c.lowest()) })
}

/// Runs `dama match`.
pub fn run(a: Args) -> Result<()> {
    a.variant.visit(Run(&a))
}
