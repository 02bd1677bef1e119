//! The websocket of a game. The client's first frame is `{"type": "hello", "token":
//! ..., "since": V}` (the seat token never travels in the address, where proxies log
//! it); then it hears versioned events and sends actions. Frames are bounded by the
//! transport: up to the `ws_frame` limit bytes are read, larger ones up to `ws_message`
//! get an error and the connection stays, anything larger gets an error and a close
//! ([`crate::limits`]).

use std::net::IpAddr;
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use futures_util::stream::SplitSink;
use futures_util::{SinkExt, StreamExt};
use tokio::sync::broadcast;

use crate::error::ApiError;
use crate::game::{Caller, Catchup, GameHandle, Hello, Subscription};
use crate::limits::Limits;
use crate::protocol::{ChatLine, ClientMsg, Event, Room, ServerMsg, Snapshot};
use crate::state::Services;

/// The close code when the server shuts down (RFC 6455's "service restart"): reconnect.
pub const RESTARTING: u16 = 1012;
/// How long the server waits for the hello frame.
pub const HELLO_TIMEOUT: Duration = Duration::from_secs(10);

/// The transport's limits and buffers: small buffers (a live game holds three
/// connections or more and its messages are small) and a bounded message size. The read
/// buffer is allocated for each connection and zeroed before each read: a client's
/// frames (hello, moves, chat) fit in 1 KB, and a larger one makes it grow.
pub fn configure(upgrade: WebSocketUpgrade, limits: &Limits) -> WebSocketUpgrade {
    let most = limits.ws_message();
    upgrade.read_buffer_size(1024).write_buffer_size(0).max_frame_size(most).max_message_size(most)
}

/// The close frame that tells a client the server is restarting (it reconnects).
pub fn restarting() -> Message {
    Message::Close(Some(CloseFrame { code: RESTARTING, reason: "restarting".into() }))
}

/// How often a player's connection is measured.
pub const PING_EVERY: Duration = Duration::from_secs(2);

/// What the upgrade request said: the version in the address, the client's address,
/// and a token header (for programs; browsers send the token in the hello frame).
pub struct Opening {
    /// `since=V` from the address.
    pub since: Option<u64>,
    /// The client's address.
    pub ip: IpAddr,
    /// The `x-dama-token` header.
    pub token: Option<String>,
    /// The logged-in account of a page of this site's own origin (its log-in cookie):
    /// the seats it holds are the socket's too, from any browser it logged in on.
    pub account: Option<String>,
}

/// Reads a hello frame: the seat token and the version, if given.
pub fn read_hello(text: &str) -> Result<(Option<String>, Option<u64>), String> {
    match ClientMsg::parse(text)? {
        ClientMsg::Hello { token, since } => Ok((token, since)),
        _ => Err("the first frame must be a hello".into()),
    }
}

type Sink = SplitSink<WebSocket, Message>;

/// An error frame with a status, words and a code.
fn error(status: u16, message: impl Into<String>, code: &'static str) -> String {
    ServerMsg::Error { status, message: message.into(), code, arg: None }.text()
}

async fn send_text(sink: &mut Sink, text: impl Into<Utf8Bytes>) -> bool {
    sink.send(Message::Text(text.into())).await.is_ok()
}

/// Sends an error (`what`: its machine code) and closes with `code`.
async fn refuse(sink: &mut Sink, status: u16, message: String, what: &'static str, code: u16) {
    let _ = send_text(sink, error(status, message.clone(), what)).await;
    let reason = message.chars().take(100).collect::<String>();
    let _ = sink.send(Message::Close(Some(CloseFrame { code, reason: reason.into() }))).await;
}

/// Gives a refused client a moment to read the error and the close frame: dropping a
/// socket with unread input resets the connection, and the reset discards what the
/// client had not read yet.
async fn linger(stream: &mut futures_util::stream::SplitStream<WebSocket>) {
    let until = tokio::time::Instant::now() + Duration::from_secs(1);
    let _ = tokio::time::timeout_at(until, async {
        while let Some(m) = stream.next().await {
            if m.is_err() {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
    })
    .await;
    // The transport has stopped reading; the socket stays open until the deadline.
    tokio::time::sleep_until(until).await;
}

/// A snapshot message, serialized straight to text (no JSON tree in between).
fn snapshot_message(s: &Snapshot) -> String {
    ServerMsg::Snapshot { v: s.version, game: s }.text()
}

fn event_message(e: &Event) -> String {
    serde_json::to_string(e).unwrap_or_default()
}

/// Serves one websocket until either side closes.
pub async fn client(socket: WebSocket, ctx: Services, id: String, open: Opening) {
    let (mut sink, mut stream) = socket.split();
    let most = ctx.limits.ws_frame();
    let hello = match tokio::time::timeout(HELLO_TIMEOUT, stream.next()).await {
        Ok(Some(Ok(Message::Text(t)))) if t.len() <= most => read_hello(t.as_str()),
        Ok(Some(Ok(_))) | Ok(Some(Err(_))) | Err(_) => {
            let m = "the first frame must be {\"type\": \"hello\"} with the seat token, if any, and since";
            return refuse(&mut sink, 400, m.into(), "bad_hello", 1008).await;
        }
        Ok(None) => return,
    };
    let (token, since) = match hello {
        Ok((token, since)) => (token.or(open.token), since.or(open.since)),
        Err(e) => return refuse(&mut sink, 400, format!("bad hello frame: {e}"), "bad_hello", 1008).await,
    };
    let hello = Hello { token: token.clone(), account: open.account.clone(), since, ip: open.ip };
    // The game may give its memory back between the upgrade and now: load it again.
    let mut sub = None;
    for _ in 0..2 {
        // Boxed: loading a game is a large future, and this task lives as long as the
        // connection.
        let h = match Box::pin(ctx.game(&id)).await {
            Ok(h) => h,
            Err(e) => return refuse(&mut sink, e.status().as_u16(), e.to_string(), e.code(), 1011).await,
        };
        match h.subscribe(hello.clone()).await {
            Ok(s) => {
                sub = Some((h, s));
                break;
            }
            Err(ApiError::Gone) => continue,
            Err(e) => return refuse(&mut sink, e.status().as_u16(), e.to_string(), e.code(), 1008).await,
        }
    }
    let Some((h, sub)) = sub else {
        return refuse(&mut sink, 503, ApiError::Gone.to_string(), ApiError::Gone.code(), 1011).await;
    };
    tracing::debug!(game = %id, seats = ?sub.seats, "websocket subscribed");
    metrics::gauge!("dama_websockets").increment(1.0);
    serve(&mut sink, &mut stream, &h, sub, token, open.account.clone(), &ctx).await;
    metrics::gauge!("dama_websockets").decrement(1.0);
    h.leave(open.ip).await;
}

async fn serve(
    sink: &mut Sink,
    stream: &mut futures_util::stream::SplitStream<WebSocket>,
    h: &GameHandle,
    sub: Subscription,
    token: Option<String>,
    account: Option<String>,
    ctx: &Services,
) {
    // `_feed` lives as long as the connection: a game another node owns feeds `rx`.
    let Subscription { first, mut rx, seats, conn, chat, feed: _feed } = sub;
    let first: Vec<String> = match first {
        Catchup::Snapshot(s) => vec![snapshot_message(&s)],
        Catchup::Events(events) => events.iter().map(event_message).collect(),
    };
    for m in first {
        if !send_text(sink, m).await {
            return;
        }
    }
    let room = Room::of(&seats);
    if !chat.is_empty() {
        let lines = chat
            .iter()
            .map(|l| ChatLine { n: l.n, author: l.author.clone(), text: l.text.clone(), at_ms: l.at_ms })
            .collect();
        if !send_text(sink, ServerMsg::ChatHistory { room, lines }.text()).await {
            return;
        }
    }
    let caller = Caller { token, conn: Some(conn), account, moderator: false };
    let most = ctx.limits.ws_frame();
    // A player's connection is measured: a ping now and then, which the client's
    // websocket answers at once; the round trip is the lag their moves are credited.
    let mut pings = tokio::time::interval(PING_EVERY);
    pings.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut ping: (u64, Option<tokio::time::Instant>) = (0, None);
    // One wait for the shutdown for the whole connection (not a new one per message).
    let shutdown = ctx.until_shutdown();
    tokio::pin!(shutdown);
    loop {
        tokio::select! {
            // The server is stopping: the client reconnects (to another node, or to this
            // one once it is back) and resumes from its last version.
            () = &mut shutdown => {
                let reason = "the server is restarting; reconnect";
                let _ = sink.send(Message::Close(Some(CloseFrame { code: RESTARTING, reason: reason.into() }))).await;
                break;
            }
            ev = rx.recv() => {
                let msg = match ev {
                    // Each event goes to its audience only (the legal moves and the
                    // suggestions to the player to move, chat lines to their room), as the
                    // text every subscriber shares.
                    Ok(p) if !p.event.body.audience().includes(&seats) => continue,
                    Ok(p) => p.text.clone(),
                    Err(broadcast::error::RecvError::Lagged(_)) => match Box::pin(h.snapshot()).await {
                        Ok(s) => snapshot_message(&s).into(),
                        Err(_) => break,
                    },
                    Err(broadcast::error::RecvError::Closed) => break,
                };
                if !send_text(sink, msg).await {
                    break;
                }
            }
            _ = pings.tick(), if !seats.is_empty() => {
                ping = (ping.0 + 1, Some(tokio::time::Instant::now()));
                if sink.send(Message::Ping(ping.0.to_be_bytes().to_vec().into())).await.is_err() {
                    break;
                }
            }
            msg = stream.next() => {
                let reply = match msg {
                    Some(Ok(Message::Pong(p))) => {
                        if let (Ok(n), Some(at)) = (<[u8; 8]>::try_from(p.as_ref()), ping.1) {
                            if u64::from_be_bytes(n) == ping.0 {
                                ping.1 = None;
                                let rtt = at.elapsed().as_millis().min(60_000) as u32;
                                h.lag(seats.clone(), rtt).await;
                            }
                        }
                        None
                    }
                    // Boxed, as are the other rare waits here: the state of this
                    // loop lives as long as the connection, the frame's only while
                    // it is answered.
                    Some(Ok(Message::Text(t))) => Box::pin(frame(h, &caller, t.as_str(), most)).await,
                    Some(Ok(Message::Binary(_))) => Some(error(400, "send JSON text frames", "bad_frame")),
                    Some(Ok(Message::Close(_))) | None => break,
                    Some(Ok(_)) => None,
                    Some(Err(e)) => {
                        // The transport refused a message over its limit (or broke).
                        let m = format!("frame too large or malformed ({e}); the limit is {most} bytes");
                        Box::pin(refuse(sink, 413, m, "frame_too_large", 1009)).await;
                        Box::pin(linger(stream)).await;
                        break;
                    }
                };
                if let Some(r) = reply {
                    if !send_text(sink, r).await {
                        break;
                    }
                }
            }
        }
    }
}

/// Answers a client's frame (None: nothing to say; the effect comes as an event).
async fn frame(h: &GameHandle, caller: &Caller, text: &str, most: usize) -> Option<String> {
    if text.len() > most {
        let m = format!("frame too large ({} bytes; the limit is {most})", text.len());
        return Some(error(413, m, "frame_too_large"));
    }
    let action = match ClientMsg::parse(text) {
        Ok(ClientMsg::Ping) => return Some(ServerMsg::Pong.text()),
        Ok(ClientMsg::Resync) => return h.snapshot().await.ok().map(|s| snapshot_message(&s)),
        Ok(ClientMsg::Hello { .. }) => return Some(error(409, "hello is the first frame only", "hello_again")),
        Ok(ClientMsg::Act(a)) => a,
        Err(e) => return Some(error(400, e, "bad_frame")),
    };
    match h.act(caller.clone(), action).await {
        Ok(()) => None,
        Err(e) => Some(ServerMsg::error(&e).text()),
    }
}
