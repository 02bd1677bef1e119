//! The Learn section: every lesson and practice position of every rulebook, played over
//! the API, reaches its goal with its solution, and its wrong move is refused with the reason the rules
//! give (`illegal_move`, as a game refuses it); what the goal asks is checked on the
//! position the server answers with, read by the rules. The account's progress is kept
//! on SQLite and PostgreSQL. In the browser a lesson is completed, and a wrong move is
//! refused with the explanation on the page.

use std::net::SocketAddr;

use dama_core::any::AnyPosition;
use dama_core::{Color, Variant};
use dama_server::client::{request, Reply};
use dama_server::learn::{lessons, Goal, Lesson};
use serde_json::{json, Value};

use crate::common::*;
use crate::web::{browser, click, find, shot, start as start_browser, text, until};

on_both!(progress_is_kept_on_the_account);

async fn check(a: SocketAddr, v: Variant, lesson: &str, moves: &[String]) -> (u16, Value) {
    let body = json!({"variant": v.key(), "lesson": lesson, "moves": moves}).to_string();
    http(a, "POST", "/api/learn/check", None, Some(&body)).await
}

/// What the goal asks, read on the position the server ends the lesson with.
fn goal_met(v: Variant, l: &Lesson, end: &Value) -> bool {
    let pos = AnyPosition::new(v, end["fen"].as_str()).unwrap();
    let pieces = pos.pieces();
    let start = AnyPosition::new(v, Some(&l.fen)).unwrap().pieces();
    let kings = |p: &[dama_core::any::PieceView]| p.iter().filter(|p| p.color == Color::White && p.king).count();
    match &l.goal {
        Goal::Reach { square } => pieces.iter().any(|p| p.color == Color::White && &p.square == square),
        Goal::Crown => kings(&pieces) > kings(&start),
        Goal::CaptureAll => pieces.iter().all(|p| p.color == Color::White),
        Goal::Capture { n } => end["played"]["captured"].as_array().unwrap().len() as u32 >= *n,
        Goal::Draw => end["result"]["winner"].is_null() && end["result"]["reason"]["code"].is_string(),
        Goal::Line => true,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_lesson_reaches_its_goal_and_refuses_its_wrong_move() {
    let srv = start(&temp_db("learn")).await;
    let a = srv.addr;
    let mut refusals = 0;
    for v in Variant::ALL {
        let listed = crate::web::get(a, &format!("/api/learn/{}", v.key())).await;
        assert_eq!(crate::web::get(a, "/api/learn").await["variants"][v.key()], lessons::of(v).unwrap().len());
        let all = lessons::of(v).unwrap();
        assert_eq!(listed["lessons"].as_array().unwrap().len(), all.len(), "{v}");
        for l in all {
            // The solution (a practice position's winning line): the lesson goes on after
            // each move but the last, which ends it.
            for n in 1..=l.solution.len() {
                let (st, r) = check(a, v, &l.id, &l.solution[..n]).await;
                assert_eq!(st, 200, "{v} {} {:?}: {r}", l.id, &l.solution[..n]);
                let expected = if n == l.solution.len() { "done" } else { "going" };
                assert_eq!(r["verdict"], expected, "{v} {} {:?}: {r}", l.id, &l.solution[..n]);
                if n == l.solution.len() {
                    assert!(goal_met(v, l, &r), "{v} {}: the goal is not met: {r}", l.id);
                }
            }
            // The wrong move: refused with the rule it breaks.
            if let Some(w) = &l.wrong {
                let (st, e) = check(a, v, &l.id, std::slice::from_ref(&w.text)).await;
                assert_eq!((st, e["code"].as_str()), (400, Some("illegal_move")), "{v} {} {}: {e}", l.id, w.text);
                assert_eq!(e["arg"]["why"], w.why, "{v} {} {}: {e}", l.id, w.text);
                refusals += 1;
            }
        }
    }
    assert!(refusals >= 100, "{refusals} refusals checked");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_legal_move_that_misses_the_goal_fails_and_bad_requests_are_refused() {
    let srv = start(&temp_db("learn-miss")).await;
    let a = srv.addr;
    let v = Variant::Russian;
    // A man moved the other way does not reach the square in time.
    let moves = ["c3-b4".to_string(), "b4-a5".to_string()];
    let (_, r) = check(a, v, "men_move", &moves[..1]).await;
    assert_eq!(r["verdict"], "going", "{r}");
    let (_, r) = check(a, v, "men_move", &moves).await;
    assert_eq!((&r["verdict"], &r["why"]), (&json!("failed"), &json!("out_of_moves")), "{r}");
    // Where the engine answers, the opponent moves: a black man steps down the board.
    let (_, r) = check(a, v, "crown", &["b6-c7".into()]).await;
    assert_eq!(r["verdict"], "going", "{r}");
    let reply = r["reply"]["path"].as_array().expect("the engine's reply");
    let after = AnyPosition::new(v, r["fen"].as_str()).unwrap();
    let moved = after.pieces().into_iter().find(|p| Some(&json!(p.square)) == reply.last()).unwrap();
    assert_eq!((moved.color, after.side()), (Color::Black, Color::White), "{r}");
    // Under free choice the smaller capture is allowed; under the majority rule it is
    // refused, and a capture short of the goal fails.
    let (_, r) = check(a, Variant::Russian, "free_choice", &["a3:c5".into()]).await;
    assert_eq!(r["verdict"], "done", "{r}");
    let (_, e) = check(a, Variant::Brazilian, "majority", &["a3:c5".into()]).await;
    assert_eq!(
        (&e["code"], &e["arg"]["why"], &e["arg"]["n"]),
        (&json!("illegal_move"), &json!("must_take_most"), &json!(2))
    );
    // Practice: another legal move than the winning one is not the shot.
    let p = lessons::of(v).unwrap().iter().find(|l| l.id == "p1").unwrap();
    let other =
        AnyPosition::new(v, Some(&p.fen)).unwrap().legal().into_iter().find(|m| m.long != p.solution[0]).unwrap();
    let (_, r) = check(a, v, "p1", &[other.long]).await;
    assert_eq!((&r["verdict"], &r["why"]), (&json!("failed"), &json!("not_the_shot")), "{r}");
    // Unknown lessons and rulebooks, too many moves.
    assert_eq!(check(a, v, "nope", &["c3-d4".into()]).await.0, 404);
    let (st, _) = http(a, "GET", "/api/learn/chess", None, None).await;
    assert_eq!(st, 400);
    let three = vec!["c3-d4".to_string(); 3];
    assert_eq!(check(a, v, "men_move", &three).await.0, 400);
}

async fn call(addr: SocketAddr, method: &str, path: &str, cookie: Option<&str>, body: Option<Value>) -> Reply {
    let cookie = cookie.map(|c| format!("dama_session={c}"));
    let headers: Vec<(&str, &str)> = cookie.as_deref().map(|c| ("Cookie", c)).into_iter().collect();
    request(addr, method, path, &headers, body.map(|b| b.to_string()).as_deref()).await.expect("request")
}

async fn progress_is_kept_on_the_account(db: String) {
    let srv = start(&db).await;
    let a = srv.addr;
    let r = call(a, "POST", "/api/accounts", None, Some(json!({"name": "learner", "password": "correct horse"}))).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let c = r.header("set-cookie").unwrap();
    let session = c.strip_prefix("dama_session=").and_then(|c| c.split(';').next()).unwrap().to_string();
    let s = Some(session.as_str());
    // Nobody logged in: no progress on the server.
    assert_eq!(call(a, "GET", "/api/learn/progress", None, None).await.status, 401);
    let r = call(a, "POST", "/api/learn/progress", None, Some(json!({"done": {"russian": ["men_move"]}}))).await;
    assert_eq!(r.status, 401);
    assert_eq!(call(a, "GET", "/api/learn/progress", s, None).await.body, json!({"done": {}}));
    // The browser's progress is merged with the account's, each lesson once.
    let r = call(a, "POST", "/api/learn/progress", s, Some(json!({"done": {"russian": ["men_move", "p1"]}}))).await;
    assert_eq!((r.status, &r.body), (200, &json!({"done": {"russian": ["men_move", "p1"]}})));
    let body = json!({"done": {"russian": ["men_move"], "turkish": ["tr_king"]}});
    let r = call(a, "POST", "/api/learn/progress", s, Some(body)).await;
    let all = json!({"done": {"russian": ["men_move", "p1"], "turkish": ["tr_king"]}});
    assert_eq!(r.body, all);
    assert_eq!(call(a, "GET", "/api/learn/progress", s, None).await.body, all);
    // Only lessons that exist, of rulebooks that exist.
    let r = call(a, "POST", "/api/learn/progress", s, Some(json!({"done": {"russian": ["tr_king"]}}))).await;
    assert_eq!(r.status, 400, "{}", r.body);
    let r = call(a, "POST", "/api/learn/progress", s, Some(json!({"done": {"chess": ["p1"]}}))).await;
    assert_eq!(r.status, 400, "{}", r.body);
    // A page of another origin cannot write it with the cookie.
    let cookie = format!("dama_session={session}");
    let headers = [("Cookie", cookie.as_str()), ("Origin", "http://evil.example")];
    let body = json!({"done": {"russian": ["capture"]}}).to_string();
    let r = request(a, "POST", "/api/learn/progress", &headers, Some(&body)).await.unwrap();
    assert_eq!(r.status, 403, "{}", r.body);
    assert_eq!(call(a, "GET", "/api/learn/progress", s, None).await.body, all);
}

/// A beginner opens the Russian lessons, tries a quiet move where a capture is
/// compulsory and is told why on the page, then captures and completes the lesson; on
/// signing up, the progress kept in the browser goes to the account.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lesson_is_completed_after_a_wrong_move_is_refused_with_its_reason() {
    let Some((addr, d)) = start_browser("learn").await else { return };
    let c = browser(&d, 1200, 900, "en-US").await;
    c.goto(&format!("http://{addr}/")).await.unwrap();
    click(&c, "nav a[href='/learn']").await;
    click(&c, "a.learn-variant[data-variant='russian']").await;
    click(&c, "button[data-lesson='compulsory']").await;
    find(&c, "button[data-lesson='compulsory'][aria-current='step']").await;
    assert!(text(&c, "#learn-lesson").await.contains("compulsory"));
    // A quiet move while a capture is possible: refused, and the page says why.
    click(&c, "button[data-sq='c3']").await;
    click(&c, "button[data-sq='d4']").await;
    until("the refusal", || async { text(&c, "#learn-status").await.contains("A capture is compulsory: g3:e5") }).await;
    shot(&c, "learn-refused").await;
    // The hint, then the capture.
    click(&c, "#learn-hint").await;
    assert!(find(&c, "#learn-hint-text").await.is_displayed().await.unwrap());
    click(&c, "button[data-sq='g3']").await;
    click(&c, "button[data-sq='e5']").await;
    until("the lesson done", || async { text(&c, "#learn-status").await.contains("Well done") }).await;
    until("its mark", || async { text(&c, "button[data-lesson='compulsory']").await.starts_with('✓') }).await;
    shot(&c, "learn-done").await;
    // The progress stays in the browser: the index counts it.
    let kept = c.execute("return localStorage.getItem('dama.learn')", vec![]).await.unwrap();
    assert!(kept.as_str().unwrap_or_default().contains("compulsory"), "{kept}");
    click(&c, "#learn-back").await;
    let total = lessons::of(Variant::Russian).unwrap().len();
    let count = format!("1 of {total} completed");
    until("the count", || async { text(&c, "main").await.contains(&count) }).await;
    // Signing up afterwards: the browser's progress goes to the new account.
    crate::web::sign_up(&c, addr, "learner3").await;
    let js = "const done = arguments[arguments.length - 1]; \
        fetch('/api/learn/progress').then((r) => r.json()).then((j) => done(JSON.stringify(j)), (e) => done(String(e)));";
    until("the account's progress", || async {
        let v = c.execute_async(js, vec![]).await.unwrap();
        v.as_str().unwrap_or_default().contains("compulsory")
    })
    .await;
    c.close().await.unwrap();
}
