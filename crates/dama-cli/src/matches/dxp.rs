//! An engine reached by DamExchange (DXP, International draughts over TCP): `dama
//! match --b dxp://HOST:PORT` plays it, dama being the initiator. Messages are ASCII,
//! each ended by a NUL byte: `R` game request (version, initiator's name in 32
//! characters, the follower's colour `W`/`Z`, minutes for the game, moves per period,
//! `A` for the standard start or `B` and the position), `A` acceptance (name, code `0`
//! for yes), `M` move (seconds used, from, to, captures and the captured squares, two
//! digits each), `E` game end (reason, stop code), `C` chat, `B`/`K` take back
//! (refused here).

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context, Result};
use dama_core::fen::parse_fen;
use dama_core::variant::International;
use dama_core::{Color, Position, Variant};
use dama_engine::hub::{hub_move, parse_hub_move, write_hub_pos};

use super::engine::Reply;

/// An engine at the other end of a DXP connection.
pub struct DxpEngine {
    /// What the matches report it as.
    pub name: String,
    reader: BufReader<TcpStream>,
    writer: TcpStream,
    /// A game is running on the connection.
    playing: bool,
    /// Moves of the current game the engine knows of.
    sent: usize,
}

/// A DXP position: the side to move (`W`/`Z`) and the 50 squares (`e` empty, `w`/`z`
/// men, `W`/`Z` kings), from Hub's square string (`W`/`B`, `w`/`b`).
fn dxp_position(pos: &Position<International>) -> String {
    write_hub_pos(pos)
        .chars()
        .map(|c| match c {
            'B' => 'Z',
            'b' => 'z',
            c => c,
        })
        .collect()
}

/// A move as a DXP `M` message's fields, from its Hub form (`32-28`, `19x30x24`).
fn move_fields(hub: &str, seconds: u32) -> Result<String> {
    let squares: Vec<u32> = hub
        .split(['-', 'x'])
        .map(|s| s.parse())
        .collect::<Result<_, _>>()
        .map_err(|_| anyhow!("not a move of square numbers: {hub}"))?;
    let [from, to, caught @ ..] = squares.as_slice() else { bail!("not a move: {hub}") };
    let mut s = format!("{:04}{from:02}{to:02}{:02}", seconds.min(9999), caught.len());
    for c in caught {
        s.push_str(&format!("{c:02}"));
    }
    Ok(s)
}

/// A DXP move's fields (after `M`) in Hub form.
fn hub_of_fields(f: &str) -> Result<String> {
    let num = |a: usize, b: usize| -> Result<u32> {
        f.get(a..b).and_then(|s| s.trim().parse().ok()).ok_or_else(|| anyhow!("bad DXP move '{f}'"))
    };
    let (from, to, n) = (num(4, 6)?, num(6, 8)?, num(8, 10)?);
    if n == 0 {
        return Ok(format!("{from}-{to}"));
    }
    let mut parts = vec![from.to_string(), to.to_string()];
    for i in 0..n as usize {
        parts.push(num(10 + 2 * i, 12 + 2 * i)?.to_string());
    }
    Ok(parts.join("x"))
}

impl DxpEngine {
    /// Connects to the DXP engine at `addr` (`HOST:PORT`), waiting up to 10 s for it
    /// to listen.
    pub fn connect(addr: &str, variant: Variant) -> Result<DxpEngine> {
        if variant != Variant::International {
            bail!("DXP plays International draughts only, not {}", variant.key());
        }
        let deadline = Instant::now() + Duration::from_secs(10);
        let stream = loop {
            match TcpStream::connect(addr) {
                Ok(s) => break s,
                Err(e) if Instant::now() > deadline => return Err(e).context(format!("no DXP engine at {addr}")),
                Err(_) => std::thread::sleep(Duration::from_millis(100)),
            }
        };
        stream.set_nodelay(true)?;
        let writer = stream.try_clone()?;
        Ok(DxpEngine { name: format!("dxp://{addr}"), reader: BufReader::new(stream), writer, playing: false, sent: 0 })
    }

    fn send(&mut self, msg: &str) -> Result<()> {
        self.writer.write_all(msg.as_bytes())?;
        self.writer.write_all(&[0])?;
        Ok(())
    }

    /// The next message, within `limit`.
    fn receive(&mut self, limit: Duration) -> Result<String> {
        self.reader.get_ref().set_read_timeout(Some(limit))?;
        let mut buf = Vec::new();
        let n = self.reader.read_until(0, &mut buf).context("reading from the DXP engine")?;
        if n == 0 || buf.last() != Some(&0) {
            bail!("the DXP engine closed the connection");
        }
        buf.pop();
        Ok(String::from_utf8_lossy(&buf).into_owned())
    }

    /// Ends the game in progress, if any (the engine may answer with its own end,
    /// which the next game's request skips).
    pub fn new_game(&mut self) -> Result<()> {
        if self.playing {
            self.send("E00")?;
        }
        self.playing = false;
        self.sent = 0;
        Ok(())
    }

    /// The engine's move after `moves` (Hub form) from the position of `fen`: the first
    /// time in a game, a game request with that position and the engine on the side to
    /// move after `moves`; then the moves it has not seen, and its answer. The game's
    /// clock is whole minutes for the game (DXP has no move time): about 100 moves at
    /// `movetime`, one minute at least.
    pub fn think(&mut self, fen: &str, moves: &[String], movetime: f64) -> Result<Reply> {
        let start = parse_fen::<International>(fen).map_err(|e| anyhow!("{e}"))?;
        let mut pos = start;
        let mut played = Vec::new();
        for m in moves {
            let mv = parse_hub_move(&pos, m).map_err(|e| anyhow!("{m}: {e}"))?;
            played.push((pos, mv));
            pos = pos.play(&mv);
        }
        let minutes = ((movetime * 100.0 / 60.0).ceil() as u32).clamp(1, 999);
        if !self.playing {
            let color = if pos.side() == Color::White { 'W' } else { 'Z' };
            let setup = if start == Position::start() { "A".to_string() } else { format!("B{}", dxp_position(&start)) };
            self.send(&format!("R01{:<32}{color}{minutes:03}000{setup}", "dama"))?;
            loop {
                let m = self.receive(Duration::from_secs(30))?;
                match m.as_bytes().first() {
                    Some(b'A') => {
                        let code = m.chars().nth(33).unwrap_or('?');
                        if code != '0' {
                            bail!("the DXP engine refused the game (code {code})");
                        }
                        let name = m.get(1..33).unwrap_or("").trim();
                        if !name.is_empty() {
                            self.name = name.to_string();
                        }
                        break;
                    }
                    // A chat line, or the end of the previous game: not the answer.
                    Some(b'C' | b'E') => continue,
                    _ => bail!("the DXP engine answered the game request with '{m}'"),
                }
            }
            self.playing = true;
            self.sent = 0;
        }
        for (p, mv) in played.iter().skip(self.sent) {
            let fields = move_fields(&hub_move(p, mv), 0)?;
            self.send(&format!("M{fields}"))?;
        }
        self.sent = moves.len();
        let t = Instant::now();
        let limit = Duration::from_secs(u64::from(minutes) * 60 + 30);
        loop {
            let m = self.receive(limit)?;
            match m.as_bytes().first() {
                Some(b'M') => {
                    let hub = hub_of_fields(&m[1..])?;
                    let mv = parse_hub_move(&pos, &hub).map_err(|e| anyhow!("the DXP engine played {hub}: {e}"))?;
                    self.sent += 1;
                    return Ok(Reply { mv: hub_move(&pos, &mv), took: t.elapsed(), ended: None });
                }
                Some(b'C') => continue,
                // Take-back requests are refused.
                Some(b'B') => self.send("K1")?,
                Some(b'E') => {
                    self.playing = false;
                    let reason = m.chars().nth(1).unwrap_or('0');
                    return Ok(Reply { mv: String::new(), took: t.elapsed(), ended: Some(reason) });
                }
                _ => bail!("unexpected DXP message '{m}'"),
            }
        }
    }
}

impl Drop for DxpEngine {
    fn drop(&mut self) {
        // The end of the last game, and no more games (stop code 1).
        if self.playing {
            let _ = self.send("E01");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_and_positions_in_dxp_form() {
        assert_eq!(move_fields("32-28", 3).unwrap(), "0003322800");
        assert_eq!(move_fields("19x30x24", 0).unwrap(), "000019300124");
        assert_eq!(hub_of_fields("0012322800").unwrap(), "32-28");
        assert_eq!(hub_of_fields("000019300224").unwrap_err().to_string(), "bad DXP move '000019300224'");
        assert_eq!(hub_of_fields("00001930012").unwrap_err().to_string(), "bad DXP move '00001930012'");
        assert_eq!(hub_of_fields("0000193001240").unwrap(), "19x30x24");
        let start = dxp_position(&Position::<International>::start());
        assert_eq!(start.len(), 51);
        assert_eq!(&start[..1], "W");
        assert_eq!(&start[1..21], &"z".repeat(20));
        assert_eq!(&start[21..31], &"e".repeat(10));
        assert_eq!(&start[31..], &"w".repeat(20));
    }
}
