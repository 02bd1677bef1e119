//! The `dama` binary end to end: moves, perft, pdn check, pdn convert.

use std::path::PathBuf;
use std::process::Command;

fn dama(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_dama")).args(args).output().expect("run dama");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

fn shared(rel: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../dama-core/tests").join(rel);
    assert!(p.exists(), "missing {}", p.display());
    p.to_string_lossy().into()
}

fn last_json(stdout: &str) -> serde_json::Value {
    serde_json::from_str(stdout.lines().last().expect("output")).expect("JSON last line")
}

#[test]
fn moves_lists_the_russian_capture_with_its_path() {
    let (code, out, _) = dama(&["moves", "--variant", "russian", "--fen", "W:Wh6:Bg7,c5,d2"]);
    assert_eq!(code, 0);
    assert_eq!(out.trim(), "h6:f8:b4:e1");
    let (code, out, _) = dama(&["moves", "--variant", "english"]);
    assert_eq!(code, 0);
    assert_eq!(out.lines().count(), 7);
    assert!(out.lines().any(|l| l == "11-15"));
}

#[test]
fn bad_input_is_a_clear_error() {
    let (code, _, err) = dama(&["moves", "--variant", "russian", "--fen", "W:Wz9"]);
    assert_ne!(code, 0);
    assert!(err.contains("'z9' at character 4 is not a square"), "{err}");
    let (code, _, err) = dama(&["perft", "--variant", "klingon"]);
    assert_ne!(code, 0);
    assert!(err.contains("unknown variant 'klingon'"), "{err}");
}

#[test]
fn perft_json_and_divide() {
    let (code, out, _) = dama(&["perft", "--variant", "english", "--depth", "6", "--json"]);
    assert_eq!(code, 0);
    let j = last_json(&out);
    assert_eq!(j["variant"], "english");
    assert_eq!(j["depth"], 6);
    assert_eq!(j["nodes"], 36768);
    assert!(j["seconds"].is_number() && j["nodes_per_second"].is_number());
    let keys: Vec<&String> = j.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["variant", "depth", "nodes", "seconds", "nodes_per_second"]);
    let (_, out, _) = dama(&["perft", "--variant", "international", "--depth", "2", "--divide", "--json"]);
    assert_eq!(out.lines().count(), 9 + 1);
    assert_eq!(last_json(&out)["nodes"], 81);
    let (_, out, _) = dama(&["perft", "--variant", "russian", "--depth", "8", "--duplicates", "keep", "--json"]);
    assert_eq!(last_json(&out)["nodes"], 929905);
    // The three conventions on the circling king of rules.txt: 4 routes, 3 moves.
    for (dup, n) in [("keep", 4), ("sweeps", 3), ("drop", 3)] {
        let fen = "W:Wh2:Ba7,b4,e5,e7,g3,g5,g7";
        let args = ["perft", "--variant", "russian", "--fen", fen, "--depth", "1", "--duplicates", dup, "--json"];
        let (_, out, _) = dama(&args);
        assert_eq!(last_json(&out)["nodes"], n, "{dup}");
    }
}

#[test]
fn pdn_check_reports_and_sets_the_exit_code() {
    let f = shared("data/pdn/pdn3-test-suite/succeed/kurnik.pdn");
    let (code, out, _) = dama(&["pdn", "check", &f, "--json"]);
    assert_eq!(code, 0);
    let j = last_json(&out);
    assert_eq!((j["games"].as_u64(), j["legal"].as_u64(), j["illegal"].as_u64()), (Some(4), Some(4), Some(0)));
    // 10x10 games without GameType read as English (the default) fail; --variant fixes it.
    let f = shared("data/pdn/pdn3-test-suite/succeed/wk2003.pdn");
    let (code, out, _) = dama(&["pdn", "check", &f, "--json"]);
    let j = last_json(&out);
    if j["illegal"].as_u64() > Some(0) {
        assert_eq!(code, 1);
        let e = &j["errors"][0];
        assert!(e["game"].is_number() && e["ply"].is_number() && e["move"].is_string() && e["reason"].is_string());
    }
    let (code, _, _) = dama(&["pdn", "check", &f, "--variant", "international"]);
    assert_eq!(code, 0);
    let bad = shared("data/pdn/pdn3-test-suite/fail/nested_comment.pdn");
    let (code, _, err) = dama(&["pdn", "check", &bad, "--json"]);
    assert_eq!(code, 1);
    assert!(err.contains("do not nest"), "{err}");
}

#[test]
fn pdn_convert_round_trips_through_every_notation() {
    let f = shared("data/pdn/pdn3-test-suite/succeed/ussr1947.pdn");
    let dir = std::env::temp_dir().join(format!("dama-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for to in ["numeric", "algebraic", "long", "short"] {
        let (code, out, err) = dama(&["pdn", "convert", &f, "--variant", "russian", "--to", to]);
        assert_eq!(code, 0, "{to}: {err}");
        assert!(out.contains("[GameType \"25\"]"));
        let p = dir.join(format!("{to}.pdn"));
        std::fs::write(&p, &out).unwrap();
        let (code, out, err) = dama(&["pdn", "check", p.to_str().unwrap(), "--json"]);
        assert_eq!(code, 0, "{to}: {err}");
        assert_eq!(last_json(&out)["legal"], 153);
    }
    let (_, numeric, _) = dama(&["pdn", "convert", &f, "--variant", "russian", "--to", "numeric"]);
    assert!(numeric.contains("1. 22-18"), "{}", &numeric[..400]);
    std::fs::remove_dir_all(&dir).ok();
}

/// A file with a million nested variations used to abort `pdn check` (exit 134, stack
/// overflow when the tree was dropped); now it is read, replayed and reported.
#[test]
fn pdn_check_reads_a_million_nested_variations() {
    let path = std::env::temp_dir().join(format!("dama-nested-{}.pdn", std::process::id()));
    let levels = 1_000_000;
    let text = format!("[GameType \"21\"]\n1. 11-15 {}{} 23-19 *\n", "(22-18 ".repeat(levels), ")".repeat(levels));
    std::fs::write(&path, text).unwrap();
    let (code, out, err) = dama(&["pdn", "check", path.to_str().unwrap(), "--json"]);
    let _ = std::fs::remove_file(&path);
    assert_eq!(code, 0, "{err}");
    let j = last_json(&out);
    assert_eq!((j["games"].as_u64(), j["legal"].as_u64()), (Some(1), Some(1)), "{j}");
}

#[test]
fn egdb_build_probe_verify_from_the_command_line() {
    let dir = std::env::temp_dir().join(format!("dama-cli-egdb-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().expect("utf-8 path");
    let (code, _, err) = dama(&["egdb", "build", "--variant", "english", "--pieces", "3", "--dir", d]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("0-2-0-1"), "{err}");
    let (code, out, err) = dama(&["egdb", "verify", "--variant", "english", "--dir", d]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("up to 3 pieces agree"), "{out}");
    // Two kings against one in the double corner: a win for the side with two.
    let (code, out, err) = dama(&["egdb", "probe", "--variant", "english", "--dir", d, "--fen", "W:WK1,K2:BK32"]);
    assert_eq!(code, 0, "{err}");
    let j: serde_json::Value = serde_json::from_str(out.trim()).expect("json");
    assert_eq!(j["result"], "win");
    assert!(j["plies"].as_u64().is_some_and(|p| p % 2 == 1), "{j}");
    assert_eq!(j["moves"].as_array().map(Vec::len), Some(4));
    let (code, out, _) = dama(&["egdb", "probe", "--variant", "english", "--dir", d, "--fen", "B:WK1:BK32"]);
    assert_eq!(code, 0);
    assert!(out.contains("\"result\":\"draw\""), "{out}");
    // Bad input: a clear error, no panic.
    let (code, _, err) = dama(&["egdb", "probe", "--variant", "english", "--dir", d, "--fen", "W:WK1,K99:BK32"]);
    assert_ne!(code, 0);
    assert!(err.contains("bad --fen"), "{err}");
    let (code, _, err) = dama(&["egdb", "probe", "--variant", "english", "--dir", d, "--fen", "W:W21,22,23:B1,2"]);
    assert_ne!(code, 0);
    assert!(err.contains("5 pieces; the tables hold up to 3"), "{err}");
    let (code, _, err) = dama(&["egdb", "build", "--variant", "frisian", "--pieces", "3", "--dir", d]);
    assert_ne!(code, 0);
    assert!(err.contains("frisian has no endgame databases"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `dama serve` as a process of its own (`--log-format FORMAT`, its database and
/// tables in the temporary folder), with its address and a way to stop it.
#[cfg(unix)]
struct Served {
    child: std::process::Child,
    addr: String,
    db: PathBuf,
    egdb: PathBuf,
}

#[cfg(unix)]
impl Served {
    /// A server whose tables are only loaded (none are built), from their own folder.
    fn start(name: &str, format: &str) -> Served {
        let db = std::env::temp_dir().join(format!("dama-cli-{name}-{}.sqlite", std::process::id()));
        let egdb = std::env::temp_dir().join(format!("dama-cli-{name}-egdb-{}", std::process::id()));
        let mut serve = Command::new(env!("CARGO_BIN_EXE_dama"));
        serve.args(["serve", "--egdb-build", "false", "--log-format", format]).arg("--egdb").arg(&egdb);
        Served::spawn(serve, db, egdb)
    }

    /// Runs `serve` (`dama serve` with its own settings) over the database `db`, its
    /// tables in `egdb` (removed with the database when it stops).
    fn spawn(mut serve: Command, db: PathBuf, egdb: PathBuf) -> Served {
        use std::io::{BufRead, BufReader};
        use std::process::Stdio;
        let mut child = serve
            .args(["--bind", "127.0.0.1:0", "--puzzles-bundled", "false"])
            .arg("--database-url")
            .arg(format!("sqlite:{}", db.display()))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run dama serve");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        let addr = line.split("http://").nth(1).and_then(|r| r.split('/').next()).expect("the address").to_string();
        Served { child, addr, db, egdb }
    }

    /// The whole HTTP answer to `GET path`.
    fn get(&self, path: &str) -> String {
        use std::io::{Read, Write};
        let mut s = std::net::TcpStream::connect(&self.addr).unwrap();
        write!(s, "GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").unwrap();
        let mut answer = String::new();
        s.read_to_string(&mut answer).unwrap();
        answer
    }

    /// Sends SIGTERM; the exit status, how long it took to stop, and the log. The
    /// database and the tables go.
    fn stop(mut self) -> (std::process::ExitStatus, std::time::Duration, String) {
        use std::io::Read;
        let started = std::time::Instant::now();
        let kill = Command::new("kill").args(["-TERM", &self.child.id().to_string()]).status().expect("kill");
        assert!(kill.success());
        let status = self.child.wait().unwrap();
        let took = started.elapsed();
        let mut log = String::new();
        self.child.stderr.take().unwrap().read_to_string(&mut log).unwrap();
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", self.db.display()));
        }
        let _ = std::fs::remove_dir_all(&self.egdb);
        (status, took, log)
    }
}

/// The real binary and a real SIGTERM: `dama serve` answers its health checks, logs as
/// JSON when asked, and on the signal stops with status 0 within its grace period.
#[cfg(unix)]
#[test]
fn serve_stops_on_sigterm() {
    let served = Served::start("sigterm", "json");
    assert!(served.get("/healthz").starts_with("HTTP/1.1 200"));
    assert!(served.get("/readyz").contains("\"ready\""));
    let (status, took, log) = served.stop();
    assert!(status.success(), "{status:?}");
    assert!(took < std::time::Duration::from_secs(12));
    // One JSON object a line, the signal and the end among them.
    let lines: Vec<serde_json::Value> =
        log.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"))).collect();
    assert!(lines.iter().any(|l| l["message"] == "SIGTERM"), "{log}");
    assert!(lines.iter().any(|l| l["message"] == "stopped"), "{log}");
}

/// A log written to a file or a pipe is plain text: no colour escape codes (the human
/// format colours its levels on a terminal only).
#[cfg(unix)]
#[test]
fn serve_logs_without_escape_codes_when_not_on_a_terminal() {
    let served = Served::start("plain-log", "human");
    // Ready (its signal handler in place) before it is stopped.
    let answer = served.get("/readyz");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    let (_, _, log) = served.stop();
    assert!(log.contains("INFO"), "the log says what happened:\n{log}");
    assert!(!log.contains('\u{1b}'), "escape codes in a piped log:\n{log}");
}

/// `dama serve` started in one folder with its database in another keeps its endgame
/// tables beside the database, where it builds them, never in the folder it was started
/// from; its first log lines name that folder, with its size (issue 49, point 13).
#[cfg(unix)]
#[test]
fn serve_keeps_its_tables_beside_its_database() {
    let root = std::env::temp_dir().join(format!("dama-cli-tables-{}", std::process::id()));
    let (work, data) = (root.join("work"), root.join("data"));
    for d in [&work, &data] {
        std::fs::create_dir_all(d).unwrap();
    }
    let mut serve = Command::new(env!("CARGO_BIN_EXE_dama"));
    serve.current_dir(&work).args(["serve", "--log-format", "json"]);
    for setting in ["DAMA_EGDB", "DAMA_EGDB_BUILD", "DAMA_CONFIG"] {
        serve.env_remove(setting);
    }
    let tables = data.join("egdb");
    let served = Served::spawn(serve, data.join("dama.sqlite"), tables.clone());
    // The small tables are being built (stopped long before they are all there).
    let since = std::time::Instant::now();
    while !tables.is_dir() && !work.join("egdb").exists() && since.elapsed().as_secs() < 30 {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let stray = work.join("egdb").exists();
    // Ready (its signal handler in place) before it is stopped.
    let answer = served.get("/readyz");
    let (status, _, log) = served.stop();
    let _ = std::fs::remove_dir_all(&root);
    assert!(!stray, "tables written in the folder the server was started from");
    assert!(answer.starts_with("HTTP/1.1 200") && status.success(), "{answer}\n{status:?}\n{log}");
    let lines: Vec<serde_json::Value> = log.lines().filter_map(|l| serde_json::from_str(l).ok()).collect();
    let first = lines.iter().position(|l| l["message"] == "endgame tables folder").expect(&log);
    assert!(first < 3, "{log}");
    assert_eq!(lines[first]["dir"], tables.display().to_string(), "{log}");
    assert!(lines[first]["mb"].is_number(), "{log}");
}

/// Settings come from flags, then environment variables, then the `--config` file,
/// then the defaults; `--print-config` shows what is in force; a wrong key is an error.
#[test]
fn serve_settings_from_file_environment_and_flags() {
    let file = std::env::temp_dir().join(format!("dama-cli-config-{}.toml", std::process::id()));
    std::fs::write(&file, "bind = \"127.0.0.1:9999\"\n[limits]\nidle_ms = 5000\nengine_threads = 3\nws_frame = 2048\n")
        .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_dama"))
        .args(["serve", "--print-config", "--idle-ms", "7000", "--config"])
        .arg(&file)
        .env("DAMA_ENGINE_THREADS", "2")
        .env_remove("DAMA_BIND")
        .env_remove("DAMA_DATABASE_URL")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    for line in [
        "bind = \"127.0.0.1:9999\"",
        "database_url = \"sqlite:dama.sqlite\"",
        "engine_threads = 2",
        "idle_ms = 7000",
        "log_format = \"human\"",
        "ws_frame = 2048",
        "games_per_minute = 60",
    ] {
        assert!(text.lines().any(|l| l == line), "no `{line}` in\n{text}");
    }
    // Scheduled tournaments: read, shown, and checked as an event made by a player is.
    let hourly = "[[tournaments]]\nname = \"Hourly English arena\"\nformat = \"arena\"\nvariant = \"english\"\n\
        time = { kind = \"fischer\", initial_ms = 180000, increment_ms = 2000 }\nevery_minutes = 60\nminutes = 45\n";
    std::fs::write(&file, hourly).unwrap();
    let (code, out, err) = dama(&["serve", "--print-config", "--config", file.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("[[tournaments]]") && out.contains("name = \"Hourly English arena\""), "{out}");
    std::fs::write(&file, hourly.replace("minutes = 45", "minutes = 1")).unwrap();
    let (code, _, err) = dama(&["serve", "--print-config", "--config", file.to_str().unwrap()]);
    assert_ne!(code, 0);
    assert!(err.contains("Hourly English arena") && err.contains("5 to 720 minutes"), "{err}");
    std::fs::write(&file, "bnd = \"127.0.0.1:1\"\n").unwrap();
    let (code, _, err) = dama(&["serve", "--print-config", "--config", file.to_str().unwrap()]);
    assert_ne!(code, 0);
    assert!(err.contains("not a dama settings file") && err.contains("bnd"), "{err}");
    let _ = std::fs::remove_file(&file);
}

/// Long jobs show progress on standard error: plain lines when it is not a terminal
/// (or with --quiet), a bar on a terminal; standard output carries the results only.
#[test]
fn long_jobs_report_progress_on_standard_error_only() {
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_dama")).args(args).env("DAMA_PROGRESS_MS", "0").output().unwrap();
        assert!(out.status.success());
        (String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
    };
    let (out, err) = run(&["perft", "--variant", "english", "--depth", "5", "--divide"]);
    assert_eq!(out.lines().count(), 7 + 1, "{out}");
    assert!(err.lines().any(|l| l.starts_with("first moves 1/7 (14%)")), "{err}");
    assert!(err.lines().any(|l| l.starts_with("first moves 7/7 (100%)") && l.ends_with(": 7361 paths")), "{err}");
    assert!(!err.contains('\u{1b}'), "no terminal codes when piped: {err:?}");
    let (quiet, _) = run(&["--quiet", "perft", "--variant", "english", "--depth", "5", "--divide"]);
    assert_eq!(quiet.lines().take(7).collect::<Vec<_>>(), out.lines().take(7).collect::<Vec<_>>());
    // On a terminal (script(1) gives one, where it exists): a bar.
    let exe = env!("CARGO_BIN_EXE_dama");
    let cmd = format!("{exe} perft --variant english --depth 11 --divide");
    let Ok(tty) = Command::new("script").args(["-qec", &cmd, "/dev/null"]).output() else { return };
    let text = String::from_utf8_lossy(&tty.stdout);
    assert!(text.contains("first moves [") && text.contains("/7"), "{text:?}");
}

#[test]
fn the_seek_load_test_pairs_every_seek_and_reports_the_round_trips() {
    // Few seeks: this checks that the run pairs them all (it fails on a refused accept, a
    // list that misses one, or a lobby websocket that misses an event), not how fast.
    let (code, out, err) = dama(&["loadtest", "--seeks", "20", "--pairings", "30"]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("20 open seeks, 30 pairings"), "{out}");
    for row in ["offer a seek", "accept (pairing)", "list 20 seeks"] {
        assert!(out.lines().any(|l| l.starts_with(row)), "{row}: {out}");
    }
    assert!(out.contains("heard 81 events"), "{out}");
}

/// `dama accounts grant/show/revoke` on a server's database: the operator's way to make
/// a moderator; unknown names and roles are clear errors.
#[test]
fn accounts_grant_and_revoke_the_moderator_role() {
    let db = std::env::temp_dir().join(format!("dama-cli-accounts-{}.sqlite", std::process::id()));
    let _ = std::fs::remove_file(&db);
    let url = format!("sqlite:{}", db.display());
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    rt.block_on(async {
        let store = dama_server::store::Store::connect(&url).await.unwrap();
        let ann = dama_server::store::AccountRow {
            id: "a1".into(),
            name: "Ann".into(),
            password_hash: String::new(),
            created_ms: 0,
        };
        assert!(store.create_account(&ann).await.unwrap());
        store.close().await;
    });
    let with_db = |args: &[&str]| {
        let mut all = args.to_vec();
        all.extend(["--database-url", url.as_str()]);
        dama(&all)
    };
    assert_eq!(
        with_db(&["accounts", "grant", "ann", "moderator"]),
        (0, "Ann is now moderator\n".into(), String::new())
    );
    assert_eq!(with_db(&["accounts", "grant", "ANN", "moderator"]).1, "Ann was already moderator\n");
    assert_eq!(with_db(&["accounts", "show", "ann"]).1, "Ann: moderator\n");
    assert_eq!(with_db(&["accounts", "revoke", "ann", "moderator"]).1, "Ann is no longer moderator\n");
    assert_eq!(with_db(&["accounts", "show", "ann"]).1, "Ann: no roles\n");
    let (code, _, err) = with_db(&["accounts", "grant", "ann", "admin"]);
    assert_ne!(code, 0);
    assert!(err.contains("unknown role 'admin' (there is moderator)"), "{err}");
    let (code, _, err) = with_db(&["accounts", "grant", "nobody", "moderator"]);
    assert_ne!(code, 0);
    assert!(err.contains("no account named 'nobody'"), "{err}");
    for s in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{s}", db.display()));
    }
}
