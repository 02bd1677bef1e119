//! The server's shape, checked on its sources: the router is read by `lib.rs` alone
//! (handlers live with their concern and import each other, never the router); the
//! game, its websocket and the bot API write no JSON by hand (their messages are the
//! wire's types, `protocol/`); the rulebook is dispatched on in dama-core alone; no
//! source file grows past 500 lines.

use std::path::{Path, PathBuf};

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

fn server_sources() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&root, &mut files);
    files
        .into_iter()
        .map(|p| (p.strip_prefix(&root).unwrap().display().to_string(), std::fs::read_to_string(&p).unwrap()))
        .collect()
}

#[test]
fn no_module_imports_the_router() {
    for (file, text) in server_sources() {
        if file == "lib.rs" || file == "routes.rs" {
            continue;
        }
        assert!(!text.contains("routes::") && !text.contains("crate::routes"), "{file} imports the router");
    }
}

#[test]
fn the_game_the_websocket_and_the_bots_write_no_json_by_hand() {
    for (file, text) in server_sources() {
        let typed = ["game/", "round/", "protocol/", "ws.rs", "bot.rs", "news.rs"];
        // Tests compare with JSON literals; the code above them may not build any.
        let code = text.split("#[cfg(test)]").next().unwrap_or_default();
        if typed.iter().any(|t| file.starts_with(t)) {
            assert!(!code.contains("json!("), "{file} builds JSON by hand");
        }
    }
}

#[test]
fn source_files_stay_under_500_lines() {
    for (file, text) in server_sources() {
        let lines = text.lines().count();
        assert!(lines <= 500, "{file} has {lines} lines");
    }
}

#[test]
fn the_server_dispatches_on_the_rulebook_through_core_alone() {
    // Positions, games, replays and trees of any rulebook are dama-core's `AnyPosition`,
    // `AnyGame` and `TreeView`; the server writes no dispatch of its own.
    for (file, text) in server_sources() {
        assert!(!text.contains("impl VariantFn for"), "{file} dispatches on the rulebook itself");
        assert!(!text.contains("impl dama_core::VariantFn"), "{file} dispatches on the rulebook itself");
    }
}
