//! `dama match` against an engine reached by DamExchange (DXP). The engine here is a
//! small DXP follower written for the test (its own reading of the messages, random
//! legal moves); the matches against Scan 2.0's DXP server are run by hand (see
//! docs/bots.md).

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::process::Command;

use dama_core::movegen::legal_moves;
use dama_core::notation::{square_name_styled, SquareStyle};
use dama_core::variant::International;
use dama_core::{Bits, Color, Position};
use rand::seq::SliceRandom;

type Pos = Position<International>;

fn number(bit: u32) -> u32 {
    let l = <<International as dama_core::Rules>::G as dama_core::geometry::Geometry>::LAYOUT;
    square_name_styled::<International>(l.index_of_bit[bit as usize] as usize, SquareStyle::Numeric).parse().unwrap()
}

/// A legal move as DXP's from, to and captured squares.
fn fields(m: &dama_core::Move<dama_core::BB<International>>) -> (u32, u32, Vec<u32>) {
    let mut caught: Vec<u32> = m.captured.iter().map(number).collect();
    caught.sort_unstable();
    (number(m.from as u32), number(m.to as u32), caught)
}

/// A DXP position: the side to move, then squares 1 to 50 (`e`, `w`, `z`, `W`, `Z`).
fn position(text: &str) -> Pos {
    let side = if text.starts_with('W') { Color::White } else { Color::Black };
    let mut setup = dama_core::Setup { side, ..Default::default() };
    for (k, c) in text[1..51].chars().enumerate() {
        let i = dama_core::notation::index_of_number::<International>(k + 1).unwrap();
        match c {
            'w' => setup.men[0] |= 1 << i,
            'z' => setup.men[1] |= 1 << i,
            'W' => setup.kings[0] |= 1 << i,
            'Z' => setup.kings[1] |= 1 << i,
            'e' => {}
            c => panic!("'{c}' in a DXP position"),
        }
    }
    Pos::from_setup(&setup).unwrap()
}

fn send(s: &mut TcpStream, msg: &str) {
    s.write_all(msg.as_bytes()).unwrap();
    s.write_all(&[0]).unwrap();
}

/// Plays random legal moves as a DXP follower until the initiator stops; returns the
/// number of games and of moves it received.
fn follower(listener: TcpListener) -> (u32, u32) {
    let (mut out, _) = listener.accept().unwrap();
    let mut input = BufReader::new(out.try_clone().unwrap());
    let (mut games, mut received) = (0, 0);
    let mut game: Option<(Pos, Color)> = None;
    let mut rng = rand::thread_rng();
    loop {
        let mut buf = Vec::new();
        if input.read_until(0, &mut buf).unwrap_or(0) == 0 {
            return (games, received);
        }
        buf.pop();
        let m = String::from_utf8(buf).unwrap();
        match &m[..1] {
            "R" => {
                assert_eq!(&m[1..3], "01", "version: {m}");
                let me = if &m[35..36] == "W" { Color::White } else { Color::Black };
                let start = match &m[42..43] {
                    "A" => Pos::start(),
                    "B" => position(&m[43..]),
                    _ => panic!("a start position: {m}"),
                };
                send(&mut out, &format!("A{:<32}0", "test follower"));
                game = Some((start, me));
                games += 1;
            }
            "M" => {
                let (pos, _) = game.as_mut().expect("a move in a game");
                let n = |a: usize| m[a..a + 2].parse::<u32>().unwrap();
                let (from, to, k) = (n(5), n(7), n(9) as usize);
                let mut caught: Vec<u32> = (0..k).map(|i| n(11 + 2 * i)).collect();
                caught.sort_unstable();
                let list = legal_moves(pos);
                let mv = list.iter().find(|x| fields(x) == (from, to, caught.clone())).expect("a legal move");
                *pos = pos.play(mv);
                received += 1;
            }
            "E" => {
                game = None;
                if &m[2..3] == "1" {
                    return (games, received);
                }
                continue;
            }
            other => panic!("unexpected message {other}: {m}"),
        }
        if let Some((pos, me)) = game.as_mut() {
            let list = legal_moves(pos);
            if pos.side() == *me && !list.is_empty() {
                let mv = *list.as_slice().choose(&mut rng).unwrap();
                let (from, to, caught) = fields(&mv);
                let mut msg = format!("M0001{from:02}{to:02}{:02}", caught.len());
                for c in caught {
                    msg.push_str(&format!("{c:02}"));
                }
                send(&mut out, &msg);
                *pos = pos.play(&mv);
            }
        }
    }
}

#[test]
fn a_match_against_a_dxp_engine_plays_every_game_to_its_end() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let engine = std::thread::spawn(move || follower(listener));
    let stdout = two_game_match("dama hub --level 1", "0.02", &addr.to_string(), "dama-dxp");
    assert!(stdout.contains("vs test follower: 2 games") || stdout.contains("2 games, +"), "{stdout}");
    let (games, received) = engine.join().unwrap();
    assert_eq!(games, 2, "{stdout}");
    assert!(received > 2, "the engine heard dama's moves: {received}");
}

/// Runs `dama match` of 2 International games, `a` against the DXP engine at `addr`,
/// `movetime` seconds a move; checks that it succeeded and that its PDN holds both
/// games; returns what it printed.
fn two_game_match(a: &str, movetime: &str, addr: &str, name: &str) -> String {
    let pdn = std::env::temp_dir().join(format!("{name}-{}.pdn", std::process::id()));
    let out = Command::new(env!("CARGO_BIN_EXE_dama"))
        .args(["match", "--variant", "international", "--a", a, "--games", "2", "--movetime", movetime])
        .args(["--b", &format!("dxp://{addr}"), "--pdn"])
        .arg(&pdn)
        .env("DAMA_PROGRESS_MS", "0")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&pdn).unwrap();
    assert_eq!(text.matches("[Event ").count(), 2);
    let _ = std::fs::remove_file(pdn);
    stdout
}

/// Run by hand with Scan 2.0 built beside the project and listening for DXP (in its
/// `scan.ini`: `dxp-server = true`, `dxp-initiator = false`; then `scan dxp`):
/// `DAMA_DXP_ENGINE=127.0.0.1:27531 cargo test --release --test dxp -- --ignored`.
#[test]
#[ignore = "needs a DXP engine such as Scan 2.0 (DAMA_DXP_ENGINE=HOST:PORT)"]
fn a_match_against_scan_over_dxp() {
    let Ok(addr) = std::env::var("DAMA_DXP_ENGINE") else { panic!("set DAMA_DXP_ENGINE=HOST:PORT") };
    let stdout = two_game_match("dama hub", "0.1", &addr, "dama-scan-dxp");
    assert!(stdout.contains("2 games, +"), "{stdout}");
}
