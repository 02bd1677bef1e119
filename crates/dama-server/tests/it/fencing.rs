//! Cluster mode's fence, on a real PostgreSQL: a node that lost a game's lease (it ran
//! out while the node stalled, and another node took the game) can never write to the
//! game again, neither a move nor its state nor a takeback; the new owner can.

use crate::common;

use dama_core::Variant;
use dama_server::protocol::{Mode, Phase};
use dama_server::round::Persist;
use dama_server::store::{Claim, GameRow, GameState, MoveRow, Store};

fn mv(ply: i64, notation: &str) -> MoveRow {
    MoveRow { ply, notation: notation.into(), clock_ms: None, at_ms: ply, v: Some(ply) }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_that_lost_the_lease_cannot_write() {
    let Some(url) = common::postgres().await else { return };
    let a = Store::connect(&url).await.unwrap().for_node("fence-a");
    let b = Store::connect(&url).await.unwrap().for_node("fence-b");
    let id = format!("{:012x}", rand::random::<u64>() >> 16);
    let row = GameRow {
        id: id.clone(),
        variant: Variant::English,
        mode: Mode::Friend,
        start_fen: "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12".into(),
        state: GameState { status: Phase::Live, ..GameState::default() },
        ..GameRow::default()
    };
    a.create(&row).await.unwrap();

    // Node a, alive until t = 1000, owns the game; b cannot take it before.
    a.renew(1000).await.unwrap();
    b.renew(1500).await.unwrap();
    assert_eq!(a.claim(&id, 0).await.unwrap(), Claim::Mine(1));
    assert_eq!(b.claim(&id, 500).await.unwrap(), Claim::Theirs("fence-a".into()));
    a.add_move(&id, &mv(1, "11-15")).await.unwrap();
    // A write for a game a node never held is refused without touching the database.
    assert!(b.add_move(&id, &mv(2, "22-18")).await.is_err());

    // a stalls past its lease; b takes the game over with a larger token.
    b.renew(3000).await.unwrap();
    assert_eq!(b.claim(&id, 2000).await.unwrap(), Claim::Mine(2));
    b.add_move(&id, &mv(2, "22-18")).await.unwrap();

    // a wakes up still believing it owns the game: every write is refused, and its
    // heartbeat tells it the game is no longer its.
    assert!(a.renew(5000).await.unwrap().is_empty());
    assert!(a.add_move(&id, &mv(3, "15x22")).await.is_err(), "a stale owner wrote a move");
    let state = GameState { status: Phase::Finished, result: Some("1-0".into()), ..GameState::default() };
    let save = Persist { state: Some(state.clone()), ..Persist::default() };
    assert!(a.commit(&id, &save).await.is_err(), "a stale owner saved the game");
    let take_back = Persist { state: Some(state), keep: Some(0), ..Persist::default() };
    assert!(a.commit(&id, &take_back).await.is_err(), "a stale owner took moves back");
    let stored: Vec<String> = b.moves(&id).await.unwrap().into_iter().map(|m| m.notation).collect();
    assert_eq!(stored, ["11-15", "22-18"]);
    assert_eq!(b.game(&id).await.unwrap().unwrap().state.status, Phase::Live);

    // The new owner goes on; and when it gives the game up, the next owner's token is
    // above both.
    b.add_move(&id, &mv(3, "15x22")).await.unwrap();
    b.release(&id, 2, true).await.unwrap();
    assert_eq!(a.claim(&id, 2500).await.unwrap(), Claim::Mine(3));
    assert!(b.add_move(&id, &mv(4, "25x18")).await.is_err(), "the previous owner wrote after a handover");
}
