//! The round decided without a server: every refusal a round gives, by its code; what
//! a decision stores and broadcasts; and, for random sequences of legal and illegal
//! actions, that what the store keeps brings back the same round, and that replaying
//! the decisions rebuilds it.

use std::time::Duration;

use dama_core::any::AnyGame;
use dama_core::Color;
use proptest::prelude::*;
use tokio::time::Instant;

use super::*;
use crate::clock::TimeControl;
use crate::protocol::{Action, Mode, Options, Phase, Player, RulesChoice};
use crate::store::{GameRow, MoveRow};

const WHITE: &str = "white-token";
const BLACK: &str = "black-token";

fn opts(mode: Mode, time: TimeControl) -> Options {
    Options { variant: "english".into(), mode, time, ..Options::default() }
}

fn at(base: Instant, ms: i64) -> Now {
    Now { at: base + Duration::from_millis(ms as u64), ms: 1_700_000_000_000 + ms }
}

/// A round with both seats taken (one token for both on one device; the engine's seat
/// empty against it; Black's free in a waiting online game when `waiting`).
fn round(o: Options, waiting: bool, now: Now) -> Round {
    let game =
        AnyGame::new(dama_core::Variant::English, o.fen.as_deref(), rules_of(dama_core::Variant::English, o.rules))
            .unwrap();
    let hash = |t: &str| Some(crate::secret::hash(t));
    let seats = match o.mode {
        Mode::Hotseat => [Seat { token: hash(WHITE), player: None }, Seat { token: hash(WHITE), player: None }],
        Mode::Ai => [Seat { token: hash(WHITE), player: None }, Seat::default()],
        _ if waiting => [Seat { token: hash(WHITE), player: None }, Seat::default()],
        _ => [Seat { token: hash(WHITE), player: None }, Seat { token: hash(BLACK), player: None }],
    };
    Round::new("0123456789ab".into(), o, game, seats, Some(crate::secret::hash("invite")), now)
}

fn white() -> Who {
    Who { seats: vec![Color::White], conn: None }
}
fn black() -> Who {
    Who { seats: vec![Color::Black], conn: None }
}
fn spectator(conn: u64) -> Who {
    Who { seats: vec![], conn: Some(conn) }
}

/// Decides, and applies when decided; the refusal's code otherwise.
fn go(r: &mut Round, who: &Who, input: Input, now: Now) -> Result<Applied, &'static str> {
    let d = r.decide(who, input, now).map_err(|e| e.code())?;
    let applied = r.apply(d);
    match &applied.refusal {
        Some(refused) => Err(refused.code()),
        None => Ok(applied),
    }
}

fn act(a: Action) -> Input {
    Input::Act(a)
}

fn mv(m: &str) -> Input {
    act(Action::Move { mv: m.into() })
}

/// Every refusal a round gives, each from a game built for it.
#[test]
fn each_refusal_of_a_round_has_its_code() {
    let base = Instant::now();
    let t0 = at(base, 0);
    let friend = || round(opts(Mode::Friend, TimeControl::None), false, t0);
    // English: Black moves first.
    let mut cases: Vec<(&str, Round, Who, Input)> = vec![
        ("not_a_player", friend(), spectator(1), mv("11-15")),
        ("not_your_turn", friend(), white(), mv("22-18")),
        ("not_started", round(opts(Mode::Friend, TimeControl::None), true, t0), white(), mv("11-15")),
        ("move_too_long", friend(), black(), mv(&"1".repeat(201))),
        ("illegal_move", friend(), black(), mv("11-17")),
        ("no_draw_offer", friend(), white(), act(Action::AcceptDraw)),
        ("nothing_to_take_back", friend(), black(), act(Action::Takeback)),
        ("no_takeback_request", friend(), white(), act(Action::DeclineTakeback)),
        ("rematch_too_early", friend(), white(), act(Action::Rematch)),
        (
            "no_free_seat",
            friend(),
            Who::default(),
            Input::Join { token: "t".into(), player: None, invite: Some("invite".into()) },
        ),
        (
            "invite_needed",
            round(opts(Mode::Friend, TimeControl::None), true, t0),
            Who::default(),
            Input::Join { token: "t".into(), player: None, invite: Some("wrong".into()) },
        ),
        ("suggestions_off", friend(), spectator(1), act(Action::Suggest { mv: "11-15".into() })),
        ("wait_for_engine", round(opts(Mode::Ai, TimeControl::None), false, t0), white(), act(Action::Takeback)),
        ("opponent_not_here", friend().hold(), black(), mv("11-15")),
    ];
    // A move played, then an abort.
    let mut r = friend();
    go(&mut r, &black(), mv("11-15"), t0).unwrap();
    go(&mut r, &white(), mv("22-18"), t0).unwrap();
    cases.push(("cannot_abort", r.clone(), white(), act(Action::Abort)));
    // Berserk outside an event that allows it.
    cases.push(("no_berserk", friend(), white(), act(Action::Berserk)));
    // A draw offered: another one waits; the asker cannot answer; and once more at this move.
    let mut r = friend();
    go(&mut r, &black(), act(Action::OfferDraw), t0).unwrap();
    cases.push(("draw_offer_pending", r.clone(), white(), act(Action::OfferDraw)));
    cases.push(("no_draw_offer", r.clone(), black(), act(Action::AcceptDraw)));
    go(&mut r, &white(), act(Action::DeclineDraw), t0).unwrap();
    cases.push(("draw_offered_this_move", r.clone(), black(), act(Action::OfferDraw)));
    // A takeback asked for.
    let mut r = friend();
    go(&mut r, &black(), mv("11-15"), t0).unwrap();
    go(&mut r, &white(), act(Action::Takeback), t0).unwrap();
    cases.push(("takeback_pending", r.clone(), black(), act(Action::Takeback)));
    go(&mut r, &black(), act(Action::DeclineTakeback), t0).unwrap();
    cases.push(("takeback_asked_this_move", r.clone(), white(), act(Action::Takeback)));
    // Against the engine: no move of the player's own yet (the engine moves first:
    // Black, as White sits).
    let mut ai = round(opts(Mode::Ai, TimeControl::None), false, t0);
    go(&mut ai, &Who::default(), Input::EngineMove("11-15".into()), t0).unwrap();
    cases.push(("no_move_of_yours", ai.clone(), white(), act(Action::Takeback)));
    // Over: moves are refused, a rematch asked twice, the next game there.
    let mut r = friend();
    go(&mut r, &black(), act(Action::Resign), t0).unwrap();
    cases.push(("game_over", r.clone(), white(), mv("22-18")));
    go(&mut r, &white(), act(Action::Rematch), t0).unwrap();
    cases.push(("rematch_asked", r.clone(), white(), act(Action::Rematch)));
    go(&mut r, &Who::default(), Input::NextGameCreated { id: "aaaaaaaaaaaa".into(), series: None }, t0).unwrap();
    cases.push(("next_game_exists", r.clone(), black(), act(Action::Rematch)));
    // Touch-move.
    let mut touch = round(Options { touch_move: true, ..opts(Mode::Friend, TimeControl::None) }, false, t0);
    go(&mut touch, &black(), act(Action::Touch { square: "11".into() }), t0).unwrap();
    cases.push(("touched_another", touch.clone(), black(), act(Action::Touch { square: "9".into() })));
    cases.push(("must_move_touched", touch.clone(), black(), mv("9-13")));
    // Suggestions.
    let sugg = round(Options { suggestions: true, ..opts(Mode::Friend, TimeControl::None) }, false, t0);
    cases.push(("players_cannot_suggest", sugg.clone(), black(), act(Action::Suggest { mv: "11-15".into() })));
    cases.push(("suggest_over_socket", sugg.clone(), Who::default(), act(Action::Suggest { mv: "11-15".into() })));
    cases.push(("not_legal_here", sugg.clone(), spectator(1), act(Action::Suggest { mv: "11-17".into() })));
    let mut over = sugg.clone();
    go(&mut over, &black(), act(Action::Resign), t0).unwrap();
    cases.push(("not_being_played", over, spectator(1), act(Action::Suggest { mv: "11-15".into() })));
    let mut full = sugg.clone();
    full.votes = (0..decide::MAX_VOTERS as u64).map(|c| (c, "11-15".to_string())).collect();
    cases.push(("too_many_suggestions", full, spectator(u64::MAX), act(Action::Suggest { mv: "11-15".into() })));
    // Rated games: an account is needed, not a guest's, not the same one twice.
    let rated =
        Options { rated: true, ..opts(Mode::Open, TimeControl::Fischer { initial_ms: 60_000, increment_ms: 0 }) };
    let mut seeking = round(rated, true, t0);
    let ann = Player { id: "a1".into(), name: "ann".into(), guest: false };
    seeking.seats[0].player = Some(ann.clone());
    let join = |p: Option<Player>| Input::Join { token: "t".into(), player: p, invite: None };
    cases.push(("log_in_for_rated", seeking.clone(), Who::default(), join(None)));
    cases.push(("guest_rated", seeking.clone(), Who::default(), join(Some(Player { guest: true, ..ann.clone() }))));
    cases.push(("rated_against_self", seeking.clone(), Who::default(), join(Some(ann))));
    // The time ran out before the move: the game ends, the move is refused.
    let mut clocked = round(opts(Mode::Friend, TimeControl::Fischer { initial_ms: 1_000, increment_ms: 0 }), false, t0);
    go(&mut clocked, &black(), mv("11-15"), t0).unwrap();
    go(&mut clocked, &white(), mv("22-18"), t0).unwrap();
    cases.push(("time_ran_out", clocked, black(), mv("8-11")));

    let mut seen = std::collections::BTreeSet::new();
    for (code, mut r, who, input) in cases {
        let got = go(&mut r, &who, input.clone(), at(base, 5_000)).err();
        assert_eq!(got, Some(code), "{input:?}");
        seen.insert(code);
    }
    // The codes the game's task gives itself (chat, hints, connections, moderation,
    // the engine's answer to a draw) are tested through the server in
    // tests/it/refusals.rs; every other code is here.
    let elsewhere = [
        "engine_busy",
        "hints_against_engine_only",
        "hint_for_player_to_move",
        "hint_busy",
        "too_many_connections",
        "chat_empty",
        "chat_too_long",
        "chat_full",
        "chat_too_fast",
        "chat_muted",
        // In tests/it/challenges.rs, with the blocks.
        "chat_blocked",
        "no_chat_on_one_device",
        "watch_to_chat",
        "not_moderator",
        "no_chat_line",
    ];
    for r in Refusal::examples() {
        assert!(seen.contains(r.code()) || elsewhere.contains(&r.code()), "no test of '{}'", r.code());
    }
}

#[test]
fn a_move_that_ends_the_game_is_stored_with_the_end_in_one_write() {
    let t0 = at(Instant::now(), 0);
    // White's man on 18 takes Black's last man on 15 (jumping to 11).
    let o = Options { fen: Some("W:W18:B15".into()), ..opts(Mode::Friend, TimeControl::None) };
    let mut r = round(o, false, t0);
    let d = r.decide(&white(), mv("18x11"), t0).unwrap();
    assert_eq!(d.event_types(), ["move", "end"]);
    let p = r.persist(&d);
    assert_eq!(p.moves.len(), 1);
    assert_eq!(p.moves[0].v, Some(2), "the move's row carries the version after both events");
    let state = p.state.expect("the end is stored with the move");
    assert_eq!((state.status, state.reason.as_deref(), state.version), (Phase::Finished, Some("no_pieces"), 2));
    let applied = r.apply(d);
    assert_eq!(applied.events.iter().map(|e| e.v).collect::<Vec<_>>(), [1, 2]);
    assert!(applied.effects.contains(&Effect::Over));
    assert_eq!(r.phase, Phase::Finished);
    // A plain move writes its row alone.
    let r = round(opts(Mode::Friend, TimeControl::None), false, t0);
    let d = r.decide(&black(), mv("11-15"), t0).unwrap();
    assert_eq!(r.persist(&d).state, None);
    // Deciding changes nothing until applied.
    assert_eq!((r.game.ply(), r.version), (0, 0));
}

const PER_MOVE: TimeControl = TimeControl::PerMove { limit_ms: 300_000, capture_limit_ms: 60_000 };

/// A next game is held: no clock, no first-move wait, no engine until its players are
/// there; it starts when the last of them comes, with the whole time for the move.
#[test]
fn a_held_game_starts_its_clock_when_its_players_are_there() {
    let base = Instant::now();
    let t0 = at(base, 0);
    let r = round(opts(Mode::Friend, PER_MOVE), false, t0).hold();
    assert!(r.is_held());
    assert_eq!(r.clock.running_since, None);
    let view = r.clock_view(at(base, 20_000).at).unwrap();
    assert_eq!((view.black_ms, view.running, view.first_move_ms), (300_000, None, None));
    assert!(r.snapshot(t0.at).held);
    // Nothing runs but the long wait for players who never come (then it ends void).
    let late = at(base, patience(Mode::Friend));
    assert_eq!(r.deadline(t0), Some(late.at));
    assert!(r.decide(&Who::default(), Input::Deadline, at(base, 600_000)).unwrap().is_empty());
    let mut gone = r.clone();
    go(&mut gone, &Who::default(), Input::Deadline, late).unwrap();
    let outcome = gone.outcome.as_ref().unwrap();
    assert_eq!((outcome.winner, outcome.reason.is_some_and(|x| x.is_void())), (None, true));
    // Stored without a turn start: a restart brings it back held.
    assert_eq!(r.state_row().turn_started_ms, None);
    let back = Kept::of(&r).restore(at(base, 30_000));
    assert!(back.is_held() && back.clock.running_since.is_none());
    // A spectator is nobody's arrival; Black (to move) comes, but White is not there.
    let mut r = r;
    assert!(r.decide(&spectator(1), Input::Arrived, t0).unwrap().is_empty());
    let d = r.decide(&black(), Input::Arrived, at(base, 10_000)).unwrap();
    assert!(d.events.is_empty() && r.persist(&d).is_empty(), "an arrival alone is kept in memory");
    r.apply(d);
    assert!(r.is_held());
    assert_eq!(go(&mut r, &black(), mv("11-15"), at(base, 11_000)).err(), Some("opponent_not_here"));
    // White comes 20 s after the game was made: it starts then, Black with 5:00.
    let t20 = at(base, 20_000);
    let a = go(&mut r, &white(), Input::Arrived, t20).unwrap();
    assert_eq!(a.events.iter().map(|e| e.body.kind()).collect::<Vec<_>>(), ["started"]);
    let crate::protocol::EventBody::Started { clocks: Some(c) } = &a.events[0].body else { panic!() };
    assert_eq!((c.black_ms, c.running), (300_000, Some(Color::Black)));
    assert!(!r.is_held() && r.state_row().turn_started_ms == Some(t20.ms));
    assert_eq!(r.clock.left(Color::Black, Color::Black, at(base, 25_000).at), 295_000);
    assert_eq!(r.deadline(t20), Some(at(base, 320_000).at));
    // Arriving again changes nothing; the move is played.
    assert!(r.decide(&black(), Input::Arrived, t20).unwrap().is_empty());
    go(&mut r, &black(), mv("11-15"), at(base, 21_000)).unwrap();
}

/// Against the engine only the player's arrival counts, and the engine does not think
/// while the game is held; on one device one arrival holds both seats.
#[test]
fn a_held_game_against_the_engine_or_on_one_device_waits_for_one_arrival() {
    let base = Instant::now();
    let t0 = at(base, 0);
    // English: Black moves first; the engine is Black (the player sits White).
    let mut ai = round(opts(Mode::Ai, PER_MOVE), false, t0).hold();
    assert!(!ai.engine_to_move());
    assert!(ai.decide(&Who::default(), Input::EngineMove("11-15".into()), t0).unwrap().is_empty());
    let a = go(&mut ai, &white(), Input::Arrived, at(base, 5_000)).unwrap();
    assert_eq!(a.effects, [Effect::Think]);
    assert!(ai.engine_to_move());
    assert_eq!(ai.clock.running_since, Some(at(base, 5_000).at));
    let mut hotseat =
        round(opts(Mode::Hotseat, TimeControl::Fischer { initial_ms: 60_000, increment_ms: 0 }), false, t0).hold();
    let both = Who { seats: vec![Color::White, Color::Black], conn: None };
    go(&mut hotseat, &both, Input::Arrived, at(base, 5_000)).unwrap();
    // A game clock's first move waits as in a first game, from the arrival.
    assert!(!hotseat.is_held());
    assert_eq!(hotseat.clock.first_move_until, Some(at(base, 65_000).at));
}

/// The store as the server's would keep a game: its row and its moves.
#[derive(Clone, Debug)]
struct Kept {
    row: GameRow,
    moves: Vec<MoveRow>,
}

impl Kept {
    fn of(r: &Round) -> Kept {
        let row = GameRow {
            id: r.id.clone(),
            variant: dama_core::Variant::English,
            mode: r.opts.mode,
            start_fen: r.game.start_fen(),
            options: r.opts.clone(),
            created_ms: r.created_ms,
            invite_hash: r.invite_hash.clone(),
            state: r.state_row(),
        };
        Kept { row, moves: Vec::new() }
    }

    fn commit(&mut self, p: &Persist) {
        if let Some(keep) = p.keep {
            self.moves.retain(|m| m.ply <= keep);
        }
        self.moves.extend(p.moves.iter().cloned());
        if let Some(s) = &p.state {
            self.row.state = s.clone();
        }
    }

    fn restore(&self, now: Now) -> Round {
        let game = AnyGame::new(
            dama_core::Variant::English,
            Some(&self.row.start_fen),
            rules_of(dama_core::Variant::English, RulesChoice::Official),
        )
        .unwrap();
        let stored = Stored { moves: self.moves.clone(), ..Stored::default() };
        Round::restore(&self.row, game, stored, now, Resumed::default()).unwrap()
    }
}

/// What must survive a restart: everything but the clocks' running instants, the
/// touched piece and the spectators' votes (kept in memory only).
fn lasting(r: &Round) -> String {
    format!(
        "{:?}|{}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{}|{:?}|{:?}",
        r.phase,
        r.game.fen(),
        r.game.moves(),
        r.seats,
        r.outcome,
        r.offers,
        r.next_game,
        r.record.history,
        r.version,
        r.record.clocks_after,
        r.game.status(),
    )
}

fn action_of(k: u8, legal: &[dama_core::any::MoveView], pick: usize) -> Input {
    let any_move =
        |i: usize| legal.get(i % legal.len().max(1)).map(|m| m.long.clone()).unwrap_or_else(|| "11-15".into());
    match k % 16 {
        0..=5 => mv(&any_move(pick)),
        6 => mv("31-27x99"),
        7 => act(Action::OfferDraw),
        8 => act(Action::AcceptDraw),
        9 => act(Action::DeclineDraw),
        10 => act(Action::Takeback),
        11 => act(Action::AcceptTakeback),
        12 => act(Action::DeclineTakeback),
        13 => act(Action::Rematch),
        14 => act(Action::Abort),
        _ => Input::Deadline,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// For random sequences of legal and illegal actions by either side, in friend
    /// games with and without a clock: what the store keeps brings back the same round,
    /// and replaying the decisions on the starting round rebuilds it.
    #[test]
    fn the_store_and_the_decisions_rebuild_the_round(
        steps in proptest::collection::vec((0u8..16, any::<bool>(), 0usize..40, 0i64..4_000), 1..60),
        clocked in any::<bool>(),
        resign_at in proptest::option::of(0usize..60),
    ) {
        let base = Instant::now();
        let time = if clocked { TimeControl::Fischer { initial_ms: 20_000, increment_ms: 500 } } else { TimeControl::None };
        let start = round(opts(Mode::Friend, time), false, at(base, 0));
        let mut live = start.clone();
        let mut kept = Kept::of(&start);
        let mut decisions = Vec::new();
        let mut t = 0;
        for (i, (k, as_white, pick, dt)) in steps.into_iter().enumerate() {
            t += dt;
            let now = at(base, t);
            let who = if as_white { white() } else { black() };
            let input = if resign_at == Some(i) { act(Action::Resign) } else { action_of(k, &live.game.legal(), pick) };
            let Ok(d) = live.decide(&who, input, now) else { continue };
            kept.commit(&live.persist(&d));
            decisions.push(d.clone());
            live.apply(d);
            prop_assert_eq!(lasting(&kept.restore(now)), lasting(&live));
        }
        let mut replayed = start;
        for d in decisions {
            replayed.apply(d);
        }
        prop_assert_eq!(lasting(&replayed), lasting(&live));
        prop_assert_eq!(format!("{:?}", replayed.clock), format!("{:?}", live.clock));
    }
}

/// Correspondence without waiting days (the test's own time): each move has its days;
/// the time a turn had used before a restart is charged after it; nobody moving, the
/// flag falls at the server's deadline, which the restored round keeps.
#[test]
fn a_correspondence_game_charges_its_days_across_a_restart_and_its_flag_falls() {
    let base = Instant::now();
    let day: i64 = 86_400_000;
    let two_days = TimeControl::Correspondence { days: 2 };
    let mut r = round(opts(Mode::Friend, two_days), false, at(base, 0));
    let mut kept = Kept::of(&r);
    let mut step = |r: &mut Round, who: &Who, input: Input, now: Now| {
        let d = r.decide(who, input, now).unwrap();
        kept.commit(&r.persist(&d));
        r.apply(d)
    };
    // English: Black moves first, an hour in; White a day later (each had 2 days).
    step(&mut r, &black(), mv("11-15"), at(base, 3_600_000));
    step(&mut r, &white(), mv("22-18"), at(base, day));
    assert_eq!(r.clock.remaining[Color::White.index()], 2 * day as u64 - (day as u64 - 3_600_000));
    // Black's turn began a day in; the server restarts a day and a half later: Black
    // has half a day left, and the flag falls at the end of it.
    let restart = at(base, day + 3 * day / 2);
    let mut back = kept.restore(restart);
    assert_eq!(back.clock.left(Color::Black, Color::Black, restart.at), day as u64 / 2);
    let flag = at(base, 3 * day);
    assert_eq!(back.deadline(restart), Some(flag.at));
    assert!(back.decide(&Who::default(), Input::Deadline, at(base, 3 * day - 1)).unwrap().is_empty());
    go(&mut back, &Who::default(), Input::Deadline, flag).unwrap();
    let o = back.outcome.as_ref().unwrap();
    assert_eq!((back.phase, o.winner), (Phase::Finished, Some(Color::White)));
}

mod event;
