//! Tournaments through the API, on SQLite and PostgreSQL: a private Swiss with an odd
//! number of players runs its rounds (pairings made by the director as soon as a
//! round is over, a bye each round to a different player, no pair twice, a late
//! joiner's half point), ends with standings, a crosstable and every game as PDN; an
//! arena pairs its players again as soon as a game ends and scores 2/1/0 with the
//! streak; a balloted round robin plays each pairing's opening with both colours;
//! and every refusal has its code. The games are played by the players' programs (the
//! bot API), as a bot would play in an event.

use std::collections::{HashMap, HashSet};
use std::net::SocketAddr;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::common::*;

on_both!(
    a_private_swiss_runs_its_rounds_and_ends_with_standings,
    an_arena_pairs_again_at_once_and_scores_the_streak,
    a_balloted_round_robin_plays_each_opening_with_both_colours,
    tournaments_refuse_what_they_must,
    the_schedule_makes_each_event_once_in_advance,
    a_swiss_goes_on_across_a_restart
);

fn blitz() -> Value {
    json!({"kind": "fischer", "initial_ms": 180000, "increment_ms": 2000})
}

/// A player: their log-in and their program's token.
struct Entrant {
    name: String,
    cookie: String,
    bot: String,
}

async fn entrant(a: SocketAddr, name: &str) -> Entrant {
    let cookie = account(a, name).await;
    let r = call(a, "POST", "/api/tokens", Some(&cookie), Some(json!({"scopes": ["bot:play"]}))).await;
    assert_eq!(r.status, 201, "{}", r.body);
    Entrant { name: name.into(), cookie, bot: r.body["token"].as_str().unwrap().into() }
}

async fn as_bot(a: SocketAddr, path: &str, token: &str) -> dama_server::client::Reply {
    let auth = format!("Bearer {token}");
    dama_server::client::request(a, "POST", path, &[("Authorization", &auth)], None).await.unwrap()
}

async fn event(a: SocketAddr, id: &str, cookie: Option<&str>) -> Value {
    let r = call(a, "GET", &format!("/api/tournaments/{id}"), cookie, None).await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.body
}

/// The event once `ready` says so, within 10 s (the director works every second and
/// at once when a game ends).
async fn until(a: SocketAddr, id: &str, what: &str, ready: impl Fn(&Value) -> bool) -> Value {
    let start = Instant::now();
    loop {
        let v = event(a, id, None).await;
        if ready(&v) {
            return v;
        }
        assert!(start.elapsed() < Duration::from_secs(10), "{what}: {v:#}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The games of `round` under way.
fn open_games(v: &Value, round: i64) -> Vec<Value> {
    v["pairings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["round"] == round && p["kind"] == "game" && p["result"].is_null() && !p["game"].is_null())
        .cloned()
        .collect()
}

/// The player seated `seat` ("white" or "black") resigns each game (English: White
/// moves second, so resigning before a move is not taken for a no-show).
async fn resign(a: SocketAddr, games: &[Value], by: &HashMap<String, &Entrant>, seat: &str) {
    for g in games {
        let who = by[g[seat].as_str().unwrap()];
        let r = as_bot(a, &format!("/api/bot/game/{}/resign", g["game"].as_str().unwrap()), &who.bot).await;
        assert_eq!(r.status, 200, "{}", r.body);
    }
}

async fn create(a: SocketAddr, cookie: &str, body: Value) -> String {
    let r = call(a, "POST", "/api/tournaments", Some(cookie), Some(body)).await;
    assert_eq!(r.status, 201, "{}", r.body);
    r.body["tournament"]["id"].as_str().unwrap().to_string()
}

async fn join(a: SocketAddr, id: &str, who: &Entrant, body: Option<Value>) -> dama_server::client::Reply {
    call(a, "POST", &format!("/api/tournaments/{id}/join"), Some(&who.cookie), body).await
}

fn code(r: &dama_server::client::Reply) -> (u16, &str) {
    (r.status, r.body["code"].as_str().unwrap_or(""))
}

async fn a_private_swiss_runs_its_rounds_and_ends_with_standings(db: String) {
    let srv = start(&db).await;
    let a = srv.addr;
    let mut players = Vec::new();
    for n in ["ann", "bob", "cid", "dee", "eve"] {
        players.push(entrant(a, n).await);
    }
    let by: HashMap<String, &Entrant> = players.iter().map(|p| (p.name.clone(), p)).collect();
    let id = create(
        a,
        &players[0].cookie,
        json!({"name": "Club Swiss", "format": "swiss", "variant": "english", "time": blitz(), "rated": true,
               "rounds": 3, "starts_in_minutes": 1, "password": "club"}),
    )
    .await;
    let listed = call(a, "GET", "/api/tournaments", None, None).await.body;
    let mine = listed["tournaments"].as_array().unwrap().iter().find(|t| t["id"] == id.as_str()).cloned().unwrap();
    assert_eq!((mine["format"].as_str(), mine["private"].as_bool()), (Some("swiss"), Some(true)));
    assert_eq!(code(&join(a, &id, &players[1], None).await), (403, "tournament_password"));
    assert_eq!(code(&join(a, &id, &players[1], Some(json!({"password": "nope"}))).await), (403, "tournament_password"));
    for p in &players[..4] {
        assert_eq!(join(a, &id, p, Some(json!({"password": "club"}))).await.status, 200);
    }
    // Not started yet: the director starts it at its time (the test's clock).
    dama_server::tournaments::director::tick(&srv.state, &id, dama_server::clock::now_ms() + 61_000).await.unwrap();
    // Its players are told it started, in their inbox.
    let (list, _) = inbox(a, &players[1].cookie).await;
    let told = list.iter().find(|n| n["kind"] == "tournament_started").unwrap_or_else(|| panic!("{list:?}"));
    assert_eq!((told["name"].as_str(), told["tournament"].as_str()), (Some("Club Swiss"), Some(id.as_str())));
    let mut met = HashSet::new();
    for round in 1..=3 {
        let v = until(a, &id, "the round's games", |v| v["round"] == round && open_games(v, round).len() == 2).await;
        if round == 1 {
            // Eve joins late: half a point for the round she missed, then paired.
            assert_eq!(join(a, &id, &players[4], Some(json!({"password": "club"}))).await.status, 200);
        }
        for g in open_games(&v, round) {
            let pair = [g["white"].as_str().unwrap().to_string(), g["black"].as_str().unwrap().to_string()];
            let key = if pair[0] < pair[1] { pair.clone() } else { [pair[1].clone(), pair[0].clone()] };
            assert!(met.insert(key), "{pair:?} met twice: {v:#}");
        }
        resign(a, &open_games(&v, round), &by, "white").await;
    }
    let v = until(a, &id, "the end", |v| v["status"] == "finished").await;
    let byes: Vec<&Value> = v["pairings"].as_array().unwrap().iter().filter(|p| p["kind"] != "game").collect();
    // Round 1: no bye (four players); Eve's late half point; a bye in rounds 2 and 3, to
    // two different players.
    let late: Vec<_> = byes.iter().filter(|p| p["kind"] == "late").collect();
    assert_eq!((late.len(), late[0]["white"].as_str(), late[0]["result"].as_str()), (1, Some("eve"), Some("½")));
    let paired_byes: HashSet<_> = byes.iter().filter(|p| p["kind"] == "bye").map(|p| p["white"].clone()).collect();
    assert_eq!(paired_byes.len(), 2, "{byes:?}");
    // Every game was won by Black: the standings add up (2 games a round, 1 point each,
    // plus the byes' points), and the crosstable has a row per player.
    let total: f64 = v["standings"].as_array().unwrap().iter().map(|s| s["points"].as_f64().unwrap()).sum();
    assert_eq!(total, 2.0 + 3.0 + 3.0 + 0.5, "{:#}", v["standings"]);
    assert_eq!(v["crosstable"].as_array().unwrap().len(), 5);
    assert_eq!(v["standings"][0]["rank"], 1);
    // Every game, as PDN, under the event's name.
    let r =
        dama_server::client::request(a, "GET", &format!("/api/tournaments/{id}/games.pdn"), &[], None).await.unwrap();
    assert_eq!(r.status, 200);
    let text = r.body.as_str().unwrap();
    assert_eq!(text.matches("[Event \"Club Swiss\"]").count(), 6, "{text}");
    // Black won each: English's first mover, "1-0" in PDN.
    assert_eq!(text.matches("[Result \"1-0\"]").count(), 6, "{text}");
}

async fn an_arena_pairs_again_at_once_and_scores_the_streak(db: String) {
    let srv = start(&db).await;
    let a = srv.addr;
    let (ann, bob) = (entrant(a, "ann").await, entrant(a, "bob").await);
    let by: HashMap<String, &Entrant> = [(ann.name.clone(), &ann), (bob.name.clone(), &bob)].into_iter().collect();
    let id = create(
        a,
        &ann.cookie,
        json!({"name": "Blitz arena", "format": "arena", "variant": "english", "time": blitz(), "rated": true,
               "minutes": 30, "berserk": true}),
    )
    .await;
    for p in [&ann, &bob] {
        assert_eq!(join(a, &id, p, None).await.status, 200);
    }
    // Each game ends with White resigning: the player at Black wins. A new game is
    // paired as soon as one ends.
    let mut last_game = String::new();
    for n in 1..=4 {
        let v = until(a, &id, "a new pairing", |v| {
            open_games(v, n).first().is_some_and(|g| g["game"].as_str() != Some(last_game.as_str()))
        })
        .await;
        let g = open_games(&v, n);
        last_game = g[0]["game"].as_str().unwrap().to_string();
        let me = event(a, &id, Some(&ann.cookie)).await;
        assert_eq!(me["me"]["game"].as_str(), Some(last_game.as_str()), "{:#}", me["me"]);
        if n == 1 {
            // The player at Black goes berserk before their first move: half the clock.
            let black = by[g[0]["black"].as_str().unwrap()];
            let path = format!("/api/bot/game/{last_game}/berserk");
            assert_eq!(as_bot(a, &path, &black.bot).await.status, 200);
            assert_eq!(as_bot(a, &path, &black.bot).await.body["code"], "no_berserk");
            let snap = snapshot(a, &last_game).await;
            assert_eq!((snap["berserk"][1].as_bool(), snap["clocks"]["black_ms"].as_u64()), (Some(true), Some(90_000)));
        }
        if n == 4 {
            // Bob leaves during the fourth game: it goes on, and he is not paired again.
            let r = call(a, "POST", &format!("/api/tournaments/{id}/leave"), Some(&bob.cookie), None).await;
            assert_eq!(r.status, 200);
        }
        resign(a, &g, &by, "white").await;
    }
    let v = until(a, &id, "four results", |v| {
        v["standings"].as_array().unwrap().iter().map(|s| s["sheet"].as_array().unwrap().len()).sum::<usize>() == 8
    })
    .await;
    // Four wins, 2 points each unless on a streak (two wins in a row: the next counts
    // double), as each player's sheet says.
    for s in v["standings"].as_array().unwrap() {
        let sheet: Vec<i64> = s["sheet"].as_array().unwrap().iter().map(|x| x.as_i64().unwrap()).collect();
        assert_eq!(sheet.iter().sum::<i64>(), s["points"].as_i64().unwrap(), "{s}");
    }
    // The first game's berserk is kept with it; won before 7 moves, it earns no bonus.
    assert_eq!(v["pairings"][0]["berserk"], 2, "{:#}", v["pairings"]);
    tokio::time::sleep(Duration::from_millis(2500)).await;
    let v = event(a, &id, None).await;
    assert!(open_games(&v, 5).is_empty(), "{:#}", v["pairings"]);
    assert_eq!(v["standings"].as_array().unwrap().iter().filter(|s| s["active"] == false).count(), 1);
}

async fn a_balloted_round_robin_plays_each_opening_with_both_colours(db: String) {
    let srv = start(&db).await;
    let a = srv.addr;
    let mut players = Vec::new();
    for n in ["ann", "bob", "cid"] {
        players.push(entrant(a, n).await);
    }
    let by: HashMap<String, &Entrant> = players.iter().map(|p| (p.name.clone(), p)).collect();
    let id = create(
        a,
        &players[0].cookie,
        json!({"name": "Ballot robin", "format": "robin", "variant": "english", "time": blitz(),
               "ballot": "english-3move", "starts_in_minutes": 5}),
    )
    .await;
    for p in &players {
        assert_eq!(join(a, &id, p, None).await.status, 200);
    }
    dama_server::tournaments::director::tick(&srv.state, &id, dama_server::clock::now_ms() + 301_000).await.unwrap();
    // Started: a round robin takes no one more.
    let late = entrant(a, "dan").await;
    assert_eq!(code(&join(a, &id, &late, None).await), (409, "tournament_closed"));
    // Three players: three rounds, one resting each round; each pairing two games.
    for round in 1..=3 {
        for leg in 1..=2 {
            let v = until(a, &id, "the leg's game", |v| open_games(v, round).iter().any(|g| g["leg"] == leg)).await;
            assert_eq!(v["rounds"], 3);
            let g: Vec<Value> = open_games(&v, round);
            assert_eq!(g.len(), 1, "{:#}", v["pairings"]);
            let snap = snapshot(a, g[0]["game"].as_str().unwrap()).await;
            // The ballot's position (three moves played), not the standard start.
            let start = snap["start_fen"].as_str().unwrap();
            assert_eq!(snap["options"]["fen"].as_str(), Some(start), "{:#}", snap["options"]);
            assert_ne!(start, "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12", "{snap:#}");
            resign(a, &g, &by, "white").await;
        }
    }
    let v = until(a, &id, "the end", |v| v["status"] == "finished").await;
    let games: Vec<&Value> = v["pairings"].as_array().unwrap().iter().filter(|p| p["kind"] == "game").collect();
    assert_eq!(games.len(), 6);
    for pair in games.chunks(2) {
        assert_eq!(
            (pair[0]["white"].clone(), pair[0]["ballot"].clone()),
            (pair[1]["black"].clone(), pair[1]["ballot"].clone())
        );
    }
    // A level micro-match (each won one) is a drawn pairing: a point each.
    for s in v["standings"].as_array().unwrap() {
        assert_eq!(s["points"], 1.0, "{:#}", v["standings"]);
    }
}

async fn tournaments_refuse_what_they_must(db: String) {
    let srv = start(&db).await;
    let a = srv.addr;
    let ann = entrant(a, "ann").await;
    let bad = |body: Value| {
        let cookie = ann.cookie.clone();
        async move {
            let r = call(a, "POST", "/api/tournaments", Some(&cookie), Some(body)).await;
            (r.status, r.body["code"].as_str().unwrap_or("").to_string())
        }
    };
    let base = json!({"name": "x event", "format": "arena", "variant": "english", "time": blitz()});
    let with = |k: &str, v: Value| {
        let mut b = base.clone();
        b[k] = v;
        b
    };
    assert_eq!(bad(with("time", json!({"kind": "none"}))).await, (400, "tournament_needs_clock".into()));
    assert_eq!(
        bad(with("time", json!({"kind": "correspondence", "days": 2}))).await,
        (400, "tournament_arena_clock".into())
    );
    assert_eq!(bad(with("ballot", json!("international-3move"))).await, (400, "tournament_ballot_variant".into()));
    assert_eq!(bad(with("minutes", json!(2))).await.0, 400);
    assert_eq!(bad(with("variant", json!("chess"))).await.0, 400);
    let r = call(a, "POST", "/api/tournaments", None, Some(base.clone())).await;
    assert_eq!(r.status, 401);
    // Conditions: a rating range the newcomer (1500) is outside of.
    let id = create(a, &ann.cookie, with("conditions", json!({"min_rating": 1800}))).await;
    let bob = entrant(a, "bob").await;
    let r = join(a, &id, &bob, None).await;
    assert_eq!((code(&r), r.body["arg"].as_i64()), ((403, "tournament_rating"), Some(1500)));
    let id2 = create(a, &ann.cookie, with("conditions", json!({"min_rated_games": 5}))).await;
    assert_eq!(code(&join(a, &id2, &bob, None).await), (403, "tournament_rated_games"));
    let id3 = create(a, &ann.cookie, with("conditions", json!({"min_account_days": 7}))).await;
    assert_eq!(code(&join(a, &id3, &bob, None).await), (403, "tournament_account_age"));
    let r = call(a, "GET", "/api/tournaments/nope1234", None, None).await;
    assert_eq!(code(&r), (404, "tournament_not_found"));
    let r = call(a, "POST", &format!("/api/tournaments/{id}/leave"), Some(&bob.cookie), None).await;
    assert_eq!(code(&r), (403, "tournament_not_playing"));
}

async fn the_schedule_makes_each_event_once_in_advance(db: String) {
    use dama_server::tournaments::schedule::{make_next, Schedule};
    let srv = start(&db).await;
    let hourly: Schedule = serde_json::from_value(json!({
        "name": "Hourly English arena", "format": "arena", "variant": "english", "time": blitz(),
        "every_minutes": 60, "offset_minutes": 0, "minutes": 45
    }))
    .unwrap();
    let daily: Schedule = serde_json::from_value(json!({
        "name": "Daily International Swiss", "format": "swiss", "variant": "international", "time": blitz(),
        "every_minutes": 1440, "offset_minutes": 1080, "rounds": 7
    }))
    .unwrap();
    // Tomorrow (UTC) at 14:20: the next hourly one at 15:00, the daily one at 18:00.
    // (A fixed date would pass, and the events would no longer be upcoming.)
    let day = 86_400_000_i64;
    let two_pm = (dama_server::clock::now_ms() / day + 1) * day + 14 * 3_600_000;
    let now = two_pm + 20 * 60_000;
    assert_eq!(hourly.next_start(now), two_pm + 3_600_000);
    assert_eq!(daily.next_start(now), two_pm + 4 * 3_600_000);
    // Two nodes making them at once (or one, twice) make each once.
    let both = [hourly, daily];
    tokio::join!(make_next(&srv.state, &both, now), make_next(&srv.state, &both, now + 1000));
    let v = call(srv.addr, "GET", "/api/tournaments", None, None).await.body;
    let listed: Vec<&Value> = v["tournaments"].as_array().unwrap().iter().filter(|t| t["scheduled"] == true).collect();
    assert_eq!(listed.len(), 2, "{v:#}");
    let arena = listed.iter().find(|t| t["format"] == "arena").unwrap();
    let (start, end) = (two_pm + 3_600_000, two_pm + 3_600_000 + 45 * 60_000);
    assert_eq!((arena["name"].as_str(), arena["starts_ms"].as_i64()), (Some("Hourly English arena"), Some(start)));
    assert_eq!(arena["ends_ms"].as_i64(), Some(end));
}

async fn a_swiss_goes_on_across_a_restart(db: String) {
    let srv = start(&db).await;
    let a = srv.addr;
    let (ann, bob, cid) = (entrant(a, "ann").await, entrant(a, "bob").await, entrant(a, "cid").await);
    let body = json!({"name": "Restart Swiss", "format": "swiss", "variant": "russian", "time": blitz(), "rounds": 2,
                      "starts_in_minutes": 1});
    let id = create(a, &ann.cookie, body).await;
    for p in [&ann, &bob, &cid] {
        assert_eq!(join(a, &id, p, None).await.status, 200);
    }
    dama_server::tournaments::director::tick(&srv.state, &id, dama_server::clock::now_ms() + 61_000).await.unwrap();
    let v = until(a, &id, "round 1", |v| open_games(v, 1).len() == 1).await;
    let first = open_games(&v, 1)[0]["game"].clone();
    // The server stops mid-round and starts again over the same database.
    srv.state.begin_shutdown();
    srv.task.abort();
    let _ = srv.task.await;
    let srv = start(&db).await;
    let a = srv.addr;
    let v = event(a, &id, None).await;
    assert_eq!((v["status"].as_str(), v["round"].as_i64()), (Some("started"), Some(1)), "{v:#}");
    assert_eq!(open_games(&v, 1)[0]["game"], first, "the round's game is the same one");
    // The game goes on there; its end pairs round 2 (Russian: White moves first, so
    // Black resigns before a move of theirs, which is no no-show).
    let by: HashMap<String, &Entrant> = [&ann, &bob, &cid].into_iter().map(|p| (p.name.clone(), p)).collect();
    resign(a, &open_games(&v, 1), &by, "black").await;
    let v = until(a, &id, "round 2", |v| open_games(v, 2).len() == 1).await;
    let g1 = v["pairings"].as_array().unwrap().iter().find(|p| p["round"] == 1).unwrap().clone();
    assert_eq!(g1["result"], "1-0", "{v:#}");
    // Round 1's players do not meet again.
    let g2 = &open_games(&v, 2)[0];
    assert_ne!(
        [&g2["white"], &g2["black"]]
            .map(|x| x.as_str())
            .iter()
            .filter(|n| [g1["white"].as_str(), g1["black"].as_str()].contains(n))
            .count(),
        2,
        "{v:#}"
    );
    resign(a, &open_games(&v, 2), &by, "black").await;
    let v = until(a, &id, "the end", |v| v["status"] == "finished").await;
    // Two games and two byes: four points in all.
    let points: f64 = v["standings"].as_array().unwrap().iter().map(|s| s["points"].as_f64().unwrap()).sum();
    assert_eq!(points, 4.0, "{:#}", v["standings"]);
}
