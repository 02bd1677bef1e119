//! The engine through the binary: a Hub session for every variant, and `dama bench`'s
//! node count, which must not change without a commit that says why.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use dama_core::{Position, Rules, Variant, VariantFn};
use dama_engine::hub::parse_hub_move;

struct Session {
    child: std::process::Child,
    lines: mpsc::Receiver<String>,
}

impl Session {
    fn start(args: &[&str]) -> Session {
        let mut child = Command::new(env!("CARGO_BIN_EXE_dama"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("start dama hub");
        let out = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for l in BufReader::new(out).lines().map_while(Result::ok) {
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        Session { child, lines }
    }
    fn send(&mut self, line: &str) {
        let stdin = self.child.stdin.as_mut().unwrap();
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }
    /// Lines until one starting with `prefix` (included).
    fn until(&mut self, prefix: &str) -> Vec<String> {
        let mut got = Vec::new();
        loop {
            let l =
                self.lines.recv_timeout(Duration::from_secs(30)).unwrap_or_else(|_| panic!("no '{prefix}' in {got:?}"));
            let done = l.starts_with(prefix);
            got.push(l);
            if done {
                return got;
            }
        }
    }
}

struct Legal<'a>(&'a str);
impl VariantFn for Legal<'_> {
    type Output = bool;
    fn call<R: Rules>(self) -> bool {
        parse_hub_move(&Position::<R>::start(), self.0).is_ok()
    }
}

#[test]
fn hub_session_for_every_variant() {
    let mut s = Session::start(&["hub"]);
    s.send("hub");
    let intro = s.until("wait");
    assert!(intro[0].starts_with("id name=dama"), "{intro:?}");
    assert!(intro.iter().any(|l| l.starts_with("param name=variant")));
    s.send("init");
    assert_eq!(s.until("ready").last().unwrap(), "ready");
    for v in Variant::ALL {
        s.send(&format!("set-param name=variant value={}", v.key()));
        s.send("new-game");
        s.send("level move-time=0.05");
        s.send("go think");
        let lines = s.until("done");
        let done = lines.last().unwrap();
        let mv = done.strip_prefix("done move=").unwrap_or_else(|| panic!("{done}"));
        assert!(v.visit(Legal(mv)), "{v}: {mv} is not legal from the start");
        s.send("ping");
        assert_eq!(s.until("pong").last().unwrap(), "pong");
    }
    // Scan's 10x10 position string and a capture in Hub's from x to x captured form.
    s.send("set-param name=variant value=normal");
    s.send(&format!("pos pos=W{}", "e".repeat(22) + "b" + &"e".repeat(4) + "w" + &"e".repeat(22)));
    s.send("level depth=3");
    s.send("go think");
    let done = s.until("done").pop().unwrap();
    assert_eq!(done, "done move=28x19x23");
    // Bad input gets an error line and the session goes on.
    s.send("pos pos=Wxyz");
    assert!(s.until("error").last().unwrap().contains("squares"));
    s.send("quit");
    assert!(s.child.wait().unwrap().success());
}

#[test]
fn bench_node_count_is_unchanged() {
    let out = Command::new(env!("CARGO_BIN_EXE_dama")).args(["bench", "--json"]).output().unwrap();
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    let j: serde_json::Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    let expected: u64 = include_str!("../../../dama-engine/bench-nodes.txt").trim().parse().unwrap();
    assert_eq!(
        j["nodes"].as_u64(),
        Some(expected),
        "dama bench node count changed: update crates/dama-engine/bench-nodes.txt in a commit that says why"
    );
}

/// The training pipeline end to end, tiny: self-play games, a resumed run that adds
/// none, training pattern weights and a network on them, and the engine playing with
/// each file it wrote.
#[test]
fn selfplay_train_and_play_with_the_weights() {
    let dir = std::env::temp_dir().join(format!("dama-train-{}", std::process::id()));
    // A folder left by an earlier run with the same process id starts empty.
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("english.bin");
    let weights = dir.join("short-kings.bin");
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_dama")).args(args).output().unwrap();
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let d = data.to_str().unwrap();
    let first =
        run(&["selfplay", "--variant", "english", "--games", "12", "--nodes", "300", "--threads", "2", "--out", d]);
    assert!(first.contains("12 games (12 new)"), "{first}");
    let size = std::fs::metadata(&data).unwrap().len();
    // Resumed: nothing left to play, the file is unchanged.
    let again = run(&["selfplay", "--variant", "english", "--games", "12", "--nodes", "300", "--out", d]);
    assert!(again.contains("12 games (0 new)"), "{again}");
    assert_eq!(std::fs::metadata(&data).unwrap().len(), size);
    let w = weights.to_str().unwrap();
    let out =
        run(&["train", "--family", "short-kings", "--data", d, "--epochs", "2", "--validation", "20", "--out", w]);
    assert!(out.contains("written to"), "{out}");
    // The same data trains a network too.
    let net = dir.join("short-kings.nnue");
    let n = net.to_str().unwrap();
    let out = run(&[
        "train",
        "--family",
        "short-kings",
        "--data",
        d,
        "--net",
        "16x8",
        "--epochs",
        "2",
        "--validation",
        "20",
        "--out",
        n,
    ]);
    assert!(out.contains("network written to"), "{out}");
    // A network for one variant alone: only a variant with a file of its own, of the
    // family, trained on its own games.
    let refused = |args: &[&str], why: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_dama")).args(args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && err.contains(why), "{args:?}: {err}");
    };
    let net_args = ["train", "--data", d, "--net", "16x8", "--epochs", "1", "--out", n];
    refused(&[&net_args[..], &["--family", "short-kings", "--variant", "italian"]].concat(), "networks of their own");
    refused(&[&net_args[..], &["--family", "short-kings", "--variant", "pool"]].concat(), "of family flying8");
    refused(&[&net_args[..], &["--family", "flying8", "--variant", "pool"]].concat(), "holds english games");
    for file in [w, n] {
        let mut s = Session::start(&["hub", "--weights", file]);
        s.send("hub");
        s.until("wait");
        s.send("set-param name=variant value=english");
        s.send("init");
        s.until("ready");
        s.send("level depth=4");
        s.send("go think");
        let done = s.until("done").pop().unwrap();
        assert!(Variant::English.visit(Legal(done.strip_prefix("done move=").unwrap())), "{file}: {done}");
        s.send("quit");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `dama match --clock`: each engine plays on a game clock it is told before each move;
/// with a few seconds a game, the engine keeps time in hand and loses no game on time.
#[test]
fn a_match_on_a_game_clock_keeps_time_in_hand() {
    let dir = std::env::temp_dir().join(format!("dama-clock-match-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pdn = dir.join("clock.pdn");
    let out = Command::new(env!("CARGO_BIN_EXE_dama"))
        .args(["match", "--variant", "english", "--a", "dama hub", "--b", "dama hub --level 5", "--games", "2"])
        .args(["--clock", "3+0.05", "--pdn", pdn.to_str().unwrap()])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains(": 2 games"), "{stdout}");
    assert!(!stdout.contains("time forfeit"), "{stdout}");
    assert_eq!(stdout.matches("time left on the clock").count(), 2, "{stdout}");
    let bad = Command::new(env!("CARGO_BIN_EXE_dama")).args(["match", "--clock", "0+1"]).output().unwrap();
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("base time"), "{}", String::from_utf8_lossy(&bad.stderr));
    let _ = std::fs::remove_dir_all(&dir);
}
