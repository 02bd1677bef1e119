//! An engine in its own process, spoken to in Hub (version 2, Scan 3.x and dama) or Hub-1
//! (Scan 2.0: `hub`, `init`, `pos`, `move`, `time`, `go` -> `move`), found out from its
//! answer to `hub`. An engine that answers in neither, dies, or stays silent is an error
//! that quotes the end of its standard error.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context, Result};
use dama_core::Variant;

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// Scan 2.0's first Hub protocol (International only).
    Hub1,
    /// Hub version 2.
    Hub2,
}

/// A running engine.
pub struct Engine {
    /// Its name (from `id name=` or `name`) and command.
    pub name: String,
    command: String,
    child: Child,
    stdin: ChildStdin,
    lines: mpsc::Receiver<String>,
    stderr: Arc<Mutex<VecDeque<String>>>,
    /// The protocol found at start.
    pub protocol: Protocol,
}

/// What the engine answered for a move, and how long it took.
pub struct Reply {
    /// The move in Hub form.
    pub mv: String,
    /// Time from `go` to the answer.
    pub took: Duration,
    /// Instead of a move, the engine ended the game (DXP's game end, with its reason:
    /// `0` unknown, `1` it loses, `2` a draw, `3` it wins).
    pub ended: Option<char>,
}

/// Splits a command line into words, with double or single quotes around words that
/// hold spaces.
pub fn split_command(cmd: &str) -> Result<Vec<String>> {
    let mut words = Vec::new();
    let (mut cur, mut quote, mut any) = (String::new(), None, false);
    for c in cmd.chars() {
        match (quote, c) {
            (None, '"' | '\'') => {
                quote = Some(c);
                any = true;
            }
            (Some(q), c) if c == q => quote = None,
            (None, c) if c.is_whitespace() => {
                if any {
                    words.push(std::mem::take(&mut cur));
                    any = false;
                }
            }
            (_, c) => {
                cur.push(c);
                any = true;
            }
        }
    }
    if quote.is_some() {
        bail!("unclosed quote in engine command: {cmd}");
    }
    if any {
        words.push(cur);
    }
    if words.is_empty() {
        bail!("empty engine command");
    }
    Ok(words)
}

impl Engine {
    /// Starts `cmd` in `dir` (default: here) and sets it up for `variant`. "dama" as the
    /// program means this program.
    pub fn start(cmd: &str, dir: Option<&Path>, variant: Variant) -> Result<Engine> {
        let words = split_command(cmd)?;
        let prog = if words[0] == "dama" { std::env::current_exe()? } else { PathBuf::from(&words[0]) };
        let mut c = Command::new(&prog);
        c.args(&words[1..]).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
        if let Some(d) = dir {
            c.current_dir(d);
        }
        let mut child = c.spawn().with_context(|| format!("cannot start engine '{cmd}'"))?;
        let stdin = child.stdin.take().ok_or_else(|| anyhow!("no stdin"))?;
        let out = child.stdout.take().ok_or_else(|| anyhow!("no stdout"))?;
        let err = child.stderr.take().ok_or_else(|| anyhow!("no stderr"))?;
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for l in BufReader::new(out).lines().map_while(Result::ok) {
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        let stderr = Arc::new(Mutex::new(VecDeque::new()));
        let tail = stderr.clone();
        std::thread::spawn(move || {
            for l in BufReader::new(err).lines().map_while(Result::ok) {
                if let Ok(mut t) = tail.lock() {
                    if t.len() == 20 {
                        t.pop_front();
                    }
                    t.push_back(l);
                }
            }
        });
        let mut e = Engine {
            name: cmd.to_string(),
            command: cmd.to_string(),
            child,
            stdin,
            lines,
            stderr,
            protocol: Protocol::Hub2,
        };
        e.send("hub")?;
        let hello = e.expect("wait", Duration::from_secs(20), "its answer to 'hub' (is it a Hub engine?)")?;
        if hello.iter().any(|l| l.starts_with("id ") || l.starts_with("param ")) {
            if let Some(n) = hello.iter().find_map(|l| l.strip_prefix("id name=")) {
                e.name = n.split_whitespace().next().unwrap_or(n).trim_matches('"').to_string();
            }
            let key = if variant == Variant::International { "normal" } else { variant.key() };
            e.send(&format!("set-param name=variant value={key}"))?;
        } else if let Some(n) = hello.iter().find_map(|l| l.strip_prefix("name ")) {
            e.protocol = Protocol::Hub1;
            e.name = n.trim().to_string();
            if variant != Variant::International {
                bail!("{} speaks Hub-1, which plays International draughts only", e.name);
            }
        } else {
            bail!("'{cmd}' answered 'hub' with neither 'id' (Hub 2) nor 'name' (Hub-1): {hello:?}{}", e.tail());
        }
        e.send("init")?;
        e.expect("ready", Duration::from_secs(120), "'ready' after 'init'")?;
        Ok(e)
    }

    fn tail(&self) -> String {
        let t = self.stderr.lock().map(|t| t.iter().cloned().collect::<Vec<_>>().join("\n  ")).unwrap_or_default();
        if t.is_empty() {
            String::new()
        } else {
            format!("\n  its standard error ends with:\n  {t}")
        }
    }

    fn send(&mut self, line: &str) -> Result<()> {
        if writeln!(self.stdin, "{line}").and_then(|_| self.stdin.flush()).is_err() {
            bail!("engine '{}' is gone (writing '{line}'){}", self.command, self.tail());
        }
        Ok(())
    }

    /// Lines up to one starting with `prefix`; an error if the engine exits or says
    /// nothing of the kind within `timeout`.
    fn expect(&mut self, prefix: &str, timeout: Duration, what: &str) -> Result<Vec<String>> {
        let deadline = Instant::now() + timeout;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) => {
                    if l.starts_with("error") {
                        bail!("engine '{}' answered '{l}' while dama waited for {what}{}", self.command, self.tail());
                    }
                    let done = l.starts_with(prefix);
                    got.push(l);
                    if done {
                        return Ok(got);
                    }
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    std::thread::sleep(Duration::from_millis(50));
                    let status = self
                        .child
                        .try_wait()
                        .ok()
                        .flatten()
                        .map(|s| s.to_string())
                        .unwrap_or("closed its output".into());
                    bail!("engine '{}' stopped ({status}) while dama waited for {what}{}", self.command, self.tail());
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    bail!(
                        "engine '{}' gave no {what} within {:.1} s{}",
                        self.command,
                        timeout.as_secs_f64(),
                        self.tail()
                    );
                }
            }
        }
    }

    /// A new game begins.
    pub fn new_game(&mut self) -> Result<()> {
        match self.protocol {
            Protocol::Hub1 => self.send("new"),
            Protocol::Hub2 => self.send("new-game"),
        }
    }

    /// The engine's move in `turn`.
    pub fn think(&mut self, turn: &Turn<'_>) -> Result<Reply> {
        let &Turn { hub_pos, fen, moves, budget, international } = turn;
        match self.protocol {
            Protocol::Hub1 => {
                // Hub-1 writes the side to move in lower case.
                let mut p = hub_pos.to_string();
                p.replace_range(..1, &p[..1].to_lowercase());
                self.send(&format!("pos {p}"))?;
                for m in moves {
                    self.send(&format!("move {m}"))?;
                }
                let ms = match budget {
                    Budget::MoveTime(t) => (t * 1000.0).round() as u64,
                    Budget::Clock { .. } | Budget::Nodes(_) => {
                        return Err(anyhow!("a Hub-1 engine takes only a move time"));
                    }
                };
                self.send(&format!("time {ms}"))?;
            }
            Protocol::Hub2 => {
                // Scan and other 10x10 engines know only the square string; dama also
                // takes a FEN for the other variants.
                let setup = if international { format!("pos={hub_pos}") } else { format!("fen=\"{fen}\"") };
                self.send(&format!("pos {setup} moves=\"{}\"", moves.join(" ")))?;
                match budget {
                    Budget::Nodes(n) => self.send(&format!("level nodes={n}"))?,
                    Budget::MoveTime(t) => self.send(&format!("level move-time={t}"))?,
                    Budget::Clock { left, increment } => {
                        self.send(&format!("level time={:.3} inc={:.3}", left.as_secs_f64(), increment.as_secs_f64()))?
                    }
                }
            }
        }
        let t = Instant::now();
        let (go, answer) = match self.protocol {
            Protocol::Hub1 => ("go", "move "),
            Protocol::Hub2 => ("go think", "done"),
        };
        self.send(go)?;
        let limit = match budget {
            Budget::MoveTime(t) => Duration::from_secs_f64(t * 50.0 + 10.0),
            Budget::Nodes(_) => Duration::from_secs(600),
            Budget::Clock { left, .. } => left + Duration::from_secs(10),
        };
        let lines = self.expect(answer, limit, "a move")?;
        let took = t.elapsed();
        let last = lines.last().cloned().unwrap_or_default();
        let mv = match self.protocol {
            Protocol::Hub1 => last.strip_prefix("move ").unwrap_or(""),
            Protocol::Hub2 => last.strip_prefix("done move=").unwrap_or(""),
        };
        Ok(Reply { mv: mv.split_whitespace().next().unwrap_or("").to_string(), took, ended: None })
    }
}

/// A move to ask for: the game so far, as `moves` (Hub form) from the start position
/// given as a Hub square string and a FEN, and what the engine may spend on it.
pub struct Turn<'a> {
    /// The start position as a Hub square string.
    pub hub_pos: &'a str,
    /// The start position as a FEN.
    pub fen: &'a str,
    /// The moves played since, in Hub form.
    pub moves: &'a [String],
    /// What the engine may spend.
    pub budget: Budget,
    /// International draughts: the start goes as the square string Scan reads.
    pub international: bool,
}

/// What an engine may spend on a move.
#[derive(Clone, Copy, Debug)]
pub enum Budget {
    /// Seconds for this move.
    MoveTime(f64),
    /// Nodes for this move.
    Nodes(u64),
    /// A game clock: the time left and the increment.
    Clock {
        /// Time left on the engine's clock.
        left: Duration,
        /// Added after each move.
        increment: Duration,
    },
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.send("quit");
        std::thread::sleep(Duration::from_millis(20));
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn commands_split_with_quotes() {
        let w = super::split_command(r#"/opt/my engine/scan "hub" --x 'a b'"#).unwrap();
        assert_eq!(w, ["/opt/my", "engine/scan", "hub", "--x", "a b"]);
        let w = super::split_command(r#""/opt/my engine/scan" hub"#).unwrap();
        assert_eq!(w, ["/opt/my engine/scan", "hub"]);
        assert!(super::split_command("\"open").is_err());
    }
}
