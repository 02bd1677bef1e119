//! International engines playing on the site through DamExchange (DXP). An engine
//! connects to the DXP address (`dama serve --dxp-bind`) as the initiator and sends a
//! game request; the server offers it in the lobby as an open International game (its
//! colour, its clock: the request's minutes for the game). When a player accepts it,
//! the server accepts the request, and relays moves both ways until the game ends; the
//! engine may then ask for another. An engine that leaves, or ends a game itself, loses
//! it (or its seek is withdrawn before anyone joined).
//!
//! Messages are ASCII ended by a NUL byte: `R` request, `A` acceptance, `M` move (time,
//! from, to, captured squares), `E` end (the sender's result: `1` it loses, `2` draw,
//! `3` it wins, `0` unknown), `C` chat (ignored), `B` take-back (refused with `K1`).

use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::tcp::OwnedWriteHalf;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::broadcast::error::RecvError;

use crate::clock::TimeControl;
use crate::error::ApiError;
use crate::game::{self, Action, Caller, ColorChoice, Hello, Mode, Options};
use crate::limits::Holds;
use crate::protocol::{EventBody, Phase, Published};
use crate::state::Services;
use dama_core::any::MoveView;
use dama_core::Color;

/// The longest message read (a request is 94 bytes, a move with 20 captures 50).
const MAX_MESSAGE: usize = 512;

/// Accepts DXP connections on `listener` until the server shuts down, at most
/// `dxp_per_address` at once from one address (more are closed at once).
pub async fn serve(listener: TcpListener, ctx: Services) {
    let open = Holds::<IpAddr>::default();
    let cap = ctx.limits.dxp_per_address();
    loop {
        let accepted = tokio::select! {
            a = listener.accept() => a,
            () = ctx.until_shutdown() => return,
        };
        match accepted {
            Ok((stream, peer)) => {
                let Some(slot) = open.take(peer.ip(), cap) else {
                    tracing::warn!(%peer, cap, "DXP: too many connections from one address; closed");
                    drop(stream);
                    continue;
                };
                let ctx = ctx.clone();
                tokio::spawn(async move {
                    let _slot = slot;
                    tracing::info!(%peer, "DXP engine connected");
                    if let Err(e) = session(stream, peer, ctx).await {
                        tracing::info!(%peer, error = %e, "DXP engine left");
                    }
                });
            }
            Err(e) => tracing::warn!(error = %e, "DXP accept"),
        }
    }
}

/// What went wrong on a DXP connection (logged; the engine is told nothing more).
#[derive(Debug, thiserror::Error)]
enum DxpError {
    #[error("connection: {0}")]
    Io(#[from] std::io::Error),
    #[error("{0}")]
    Protocol(String),
    #[error("the game refused: {0}")]
    Game(#[from] ApiError),
}

struct Link {
    reader: BufReader<tokio::net::tcp::OwnedReadHalf>,
    writer: OwnedWriteHalf,
}

impl Link {
    async fn send(&mut self, msg: &str) -> Result<(), DxpError> {
        self.writer.write_all(msg.as_bytes()).await?;
        self.writer.write_all(&[0]).await?;
        Ok(())
    }

    /// The next message; `None` when the engine closed the connection.
    async fn receive(&mut self) -> Result<Option<String>, DxpError> {
        let mut buf = Vec::new();
        let n = AsyncReadExt::take(&mut self.reader, MAX_MESSAGE as u64).read_until(0, &mut buf).await?;
        if n == 0 {
            return Ok(None);
        }
        if buf.pop() != Some(0) {
            return Err(DxpError::Protocol(format!("a message over {MAX_MESSAGE} bytes or cut short")));
        }
        Ok(Some(String::from_utf8_lossy(&buf).into_owned()))
    }
}

/// A game request's fields: the initiator's name, the follower's colour, minutes, and
/// the position (`None` for the standard start).
fn parse_request(m: &str) -> Result<(String, char, u64, Option<String>), DxpError> {
    let bad = || DxpError::Protocol(format!("a malformed game request '{m}'"));
    let name = m.get(3..35).ok_or_else(bad)?.trim().to_string();
    let color = m.get(35..36).and_then(|c| c.chars().next()).filter(|c| matches!(c, 'W' | 'Z')).ok_or_else(bad)?;
    let minutes: u64 = m.get(36..39).and_then(|s| s.parse().ok()).ok_or_else(bad)?;
    let fen = match m.get(42..43) {
        Some("A") => None,
        Some("B") => Some(fen_of(m.get(43..94).ok_or_else(bad)?).ok_or_else(bad)?),
        _ => return Err(bad()),
    };
    Ok((name, color, minutes.clamp(1, 999), fen))
}

/// A DXP position (side `W`/`Z`, then squares 1-50: `e`, `w`, `z`, `W`, `Z`) as a FEN.
fn fen_of(p: &str) -> Option<String> {
    let side = match p.chars().next()? {
        'W' => 'W',
        'Z' => 'B',
        _ => return None,
    };
    let (mut white, mut black) = (Vec::new(), Vec::new());
    for (i, c) in p.chars().skip(1).enumerate() {
        let n = i + 1;
        match c {
            'w' => white.push(n.to_string()),
            'W' => white.push(format!("K{n}")),
            'z' => black.push(n.to_string()),
            'Z' => black.push(format!("K{n}")),
            'e' => {}
            _ => return None,
        }
    }
    (p.chars().count() == 51).then(|| format!("{side}:W{}:B{}", white.join(","), black.join(",")))
}

/// A move of the game as DXP's `M` message.
fn move_message(mv: &MoveView) -> Option<String> {
    let num = |s: &String| s.parse::<u32>().ok();
    let (from, to) = (num(mv.path.first()?)?, num(mv.path.last()?)?);
    let mut m = format!("M0000{from:02}{to:02}{:02}", mv.captured.len());
    for c in &mv.captured {
        m.push_str(&format!("{:02}", num(c)?));
    }
    Some(m)
}

/// The legal move a DXP `M` message names, in the game's notation.
fn move_text(m: &str, legal: &[MoveView]) -> Option<String> {
    let num = |a: usize| m.get(a..a + 2)?.trim().parse::<u32>().ok();
    let (from, to, k) = (num(5)?, num(7)?, num(9)? as usize);
    let mut caught: Vec<u32> = (0..k).map(|i| num(11 + 2 * i)).collect::<Option<_>>()?;
    caught.sort_unstable();
    legal.iter().find_map(|mv| {
        let mut c: Vec<u32> = mv.captured.iter().filter_map(|s| s.parse().ok()).collect();
        c.sort_unstable();
        let ends = (mv.path.first()?.parse::<u32>().ok()?, mv.path.last()?.parse::<u32>().ok()?);
        (ends == (from, to) && c == caught).then(|| mv.long.clone())
    })
}

async fn session(stream: TcpStream, peer: SocketAddr, ctx: Services) -> Result<(), DxpError> {
    stream.set_nodelay(true)?;
    let (r, w) = stream.into_split();
    let mut link = Link { reader: BufReader::new(r), writer: w };
    loop {
        let Some(m) = link.receive().await? else { return Ok(()) };
        match m.chars().next() {
            Some('R') => play(&mut link, &m, peer, &ctx).await?,
            Some('C') | Some('E') => {}
            Some('B') => link.send("K1").await?,
            _ => return Err(DxpError::Protocol(format!("expected a game request, got '{m}'"))),
        }
    }
}

/// One game: offered in the lobby, then played once a player joins.
async fn play(link: &mut Link, request: &str, peer: SocketAddr, ctx: &Services) -> Result<(), DxpError> {
    let (name, follower, minutes, fen) = match parse_request(request) {
        Ok(r) => r,
        Err(e) => {
            link.send(&format!("A{:<32}9", "dama")).await?;
            return Err(e);
        }
    };
    if let Err(e) = ctx.allow_new_game(peer.ip()) {
        // Counted with the address's other new games (over HTTP too).
        link.send(&format!("A{:<32}9", "dama")).await?;
        return Err(DxpError::Game(e));
    }
    let engine_color = if follower == 'W' { Color::Black } else { Color::White };
    let opts = Options {
        variant: "international".into(),
        mode: Mode::Open,
        color: if engine_color == Color::White { ColorChoice::White } else { ColorChoice::Black },
        time: TimeControl::Fischer { initial_ms: minutes * 60_000, increment_ms: 0 },
        fen,
        ..Options::default()
    };
    let created = game::create(ctx.clone(), opts, None).await?;
    let id = created.id.clone();
    let token = created.seat.map(|s| s.token);
    tracing::info!(%peer, engine = %name, game = %id, "DXP engine seeks a game");
    let h = ctx.game(&id).await?;
    let mut sub = h.subscribe(Hello { token: token.clone(), account: None, since: None, ip: peer.ip() }).await?;
    let caller = Caller { token, conn: None, account: None, moderator: false };
    let result = relay(link, &h, &mut sub.rx, &caller, engine_color, &id).await;
    // No longer listening: the game may leave memory once nobody else watches (the
    // game hears it with the `leave` below, after the end).
    drop(sub);
    if result.is_err() {
        // The engine left: it loses the game (or its seek is withdrawn, and the game,
        // never played, leaves memory at once).
        if let Ok(snap) = h.snapshot().await {
            let action =
                if snap.state == Phase::Waiting || snap.moves.len() < 2 { Action::Abort } else { Action::Resign };
            let _ = h.act(caller, action).await;
        }
    }
    h.leave(peer.ip()).await;
    result
}

async fn relay(
    link: &mut Link,
    h: &game::GameHandle,
    events: &mut tokio::sync::broadcast::Receiver<std::sync::Arc<Published>>,
    caller: &Caller,
    engine_color: Color,
    id: &str,
) -> Result<(), DxpError> {
    let mut accepted = false;
    // Who played a ply: the side that moved first from the start, every other ply.
    let first = h.snapshot().await?;
    let first_mover = if first.moves.len() % 2 == 0 { first.side_to_move } else { !first.side_to_move };
    let mover = |ply: usize| if ply % 2 == 1 { first_mover } else { !first_mover };
    loop {
        let snap = h.snapshot().await?;
        if !accepted && snap.state != Phase::Waiting {
            link.send(&format!("A{:<32}0", "dama")).await?;
            accepted = true;
        }
        if snap.state == Phase::Finished {
            let reason = match snap.result.as_ref().and_then(|r| r.winner) {
                None => '2',
                Some(w) if w == engine_color => '1',
                Some(_) => '3',
            };
            if accepted {
                link.send(&format!("E{reason}0")).await?;
            }
            return Ok(());
        }
        tokio::select! {
            e = events.recv() => match e.as_deref().map(|p| &p.event.body) {
                Ok(EventBody::Move { mv, ply, .. }) if accepted && mover(*ply) != engine_color => {
                    // The player's move (the engine's own moves are not sent back).
                    let m = move_message(mv).ok_or_else(|| DxpError::Protocol(format!("move {}", mv.long)))?;
                    link.send(&m).await?;
                }
                Ok(_) | Err(RecvError::Lagged(_)) => {}
                Err(RecvError::Closed) => return Err(DxpError::Protocol(format!("game {id} ended its task"))),
            },
            m = link.receive() => {
                let Some(m) = m? else { return Err(DxpError::Protocol("the engine closed the connection".into())) };
                match m.chars().next() {
                    Some('M') => {
                        let text = move_text(&m, &snap.legal)
                            .ok_or_else(|| DxpError::Protocol(format!("an illegal move '{m}'")))?;
                        h.act(caller.clone(), Action::Move { mv: text }).await?;
                    }
                    Some('E') => return Err(DxpError::Protocol("the engine ended the game".into())),
                    Some('B') => link.send("K1").await?,
                    Some('C') => {}
                    _ => return Err(DxpError::Protocol(format!("unexpected message '{m}'"))),
                }
            }
            () = tokio::time::sleep(Duration::from_secs(60)) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_and_positions_read() {
        let start = format!("R01{:<32}W005000A", "Scan 2.0");
        assert_eq!(parse_request(&start).unwrap(), ("Scan 2.0".to_string(), 'W', 5, None));
        let pos = format!("Z{}{}{}", "z".repeat(20), "e".repeat(10), "w".repeat(19) + "W");
        let fen = fen_of(&pos).unwrap();
        assert!(fen.starts_with("B:W31,32,") && fen.contains(",K50:B1,2,"), "{fen}");
        assert!(parse_request("R01short").is_err());
        assert!(fen_of("Wxyz").is_none());
    }
}
