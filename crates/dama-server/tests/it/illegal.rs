//! An illegal move is refused with the rule it breaks: over the API (`illegal_move`,
//! its `arg` naming the reason and its details), and on the board in the player's
//! language.

use serde_json::{json, Value};

use crate::common::*;
use crate::web::{browser, click, find, hotseat_from, start as start_browser, text, until, wait_interactive};

/// variant, FEN, attempted move, the reason's JSON, words the English `error` holds.
const CASES: &[(&str, &str, &str, &str, &str)] = &[
    (
        "english",
        "W:W18,30:B14",
        "30-26",
        r#"{"why":"capture_compulsory","example":"18x9"}"#,
        "a capture is compulsory: 18x9",
    ),
    ("international", "W:W28,32:B14,23,27", "32x21", r#"{"why":"must_take_most","n":2}"#, "the most pieces: 2"),
    ("international", "W:W28,32:B14,23,27", "28x19", r#"{"why":"incomplete_capture"}"#, "must go on"),
    ("russian", "W:Wd4", "d4-c3", r#"{"why":"man_backwards"}"#, "a man cannot move backwards"),
    ("thai", "W:WK25:B18", "25x11", r#"{"why":"king_must_stop_after_capture"}"#, "right after the last captured"),
    ("italian", "W:W30:BK26", "30x21", r#"{"why":"man_cannot_take_king"}"#, "cannot take a king"),
    ("english", "W:W18:B12", "12-16", r#"{"why":"not_your_piece","square":"12"}"#, "not yours"),
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_illegal_move_is_refused_with_its_reason() {
    let srv = start(&temp_db("illegal")).await;
    let a = srv.addr;
    for (variant, fen, mv, why, words) in CASES {
        let (id, token, _) = create(a, json!({"variant": variant, "mode": "hotseat", "fen": fen})).await;
        let body = json!({"type": "move", "move": mv}).to_string();
        let (st, e) = http(a, "POST", &format!("/api/games/{id}/actions"), Some(&token), Some(&body)).await;
        let expected: Value = serde_json::from_str(why).unwrap();
        assert_eq!((st, e["code"].as_str()), (400, Some("illegal_move")), "{variant} {mv}: {e}");
        for (k, v) in expected.as_object().unwrap() {
            assert_eq!(&e["arg"][k], v, "{variant} {mv}: {e}");
        }
        assert!(e["error"].as_str().unwrap().contains(words), "{variant} {mv}: {e}");
    }
}

/// A Spanish player taps a man that cannot move while a capture is compulsory: the
/// board says so in Spanish and names the capture.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_board_says_why_in_the_players_language() {
    let Some((addr, d)) = start_browser("illegal-es").await else { return };
    let c = browser(&d, 1024, 800, "es-ES").await;
    hotseat_from(&c, addr, "english", "W:W18,30:B14").await;
    wait_interactive(&c).await;
    click(&c, "button[data-sq='30']").await;
    let toast = text(&c, ".toasts").await;
    assert!(toast.contains("La captura es obligatoria: 18x9"), "{toast}");
    // A man taken backwards, on the board: the man on 18 (White's, moving up the board
    // to 1-4) to 22.
    hotseat_from(&c, addr, "english", "W:W18:B1").await;
    wait_interactive(&c).await;
    click(&c, "button[data-sq='18']").await;
    click(&c, "button[data-sq='22']").await;
    until("the reason", || async { text(&c, ".toasts").await.contains("Un peón no puede mover hacia atrás") }).await;
    // International: 32 takes one man (32x21), 28 two (28x19x10); the majority rule
    // refuses the shorter one, on the board and typed. (Russian has no such rule: seed
    // 000 lets the player choose any capture.)
    hotseat_from(&c, addr, "international", "W:W28,32:B14,23,27").await;
    wait_interactive(&c).await;
    click(&c, "button[data-sq='32']").await;
    click(&c, "button[data-sq='21']").await;
    until("the majority rule", || async { text(&c, ".toasts").await.contains("piezas") }).await;
    let toast = text(&c, ".toasts").await;
    assert!(toast.contains("Debes capturar el mayor número de piezas: 2"), "{toast}");
    hotseat_from(&c, addr, "international", "W:W28,32:B14,23,27").await;
    wait_interactive(&c).await;
    find(&c, "#move-input").await.send_keys("32x21\u{E007}").await.unwrap();
    until("the typed move's reason", || async { text(&c, ".toasts").await.contains("mayor número de piezas: 2") })
        .await;
    // The position is as it was: nothing was played.
    find(&c, "button[data-sq='32'] svg.piece").await;
    // Thai: a king that takes stops on the square right after the man it took.
    hotseat_from(&c, addr, "thai", "W:WK25:B18").await;
    wait_interactive(&c).await;
    click(&c, "button[data-sq='25']").await;
    click(&c, "button[data-sq='11']").await;
    until("the king's landing", || async { text(&c, ".toasts").await.contains("justo detrás") }).await;
}
