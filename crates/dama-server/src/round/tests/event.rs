//! Tournament games in the round: the 30-second first move and berserk.

use dama_core::game::EndReason;
use dama_core::Color;
use tokio::time::Instant;

use super::*;

/// A tournament game's first move is awaited 30 s, not 60, and the player who does not
/// make it loses (an ordinary game is called off); a move in time starts the clock.
#[test]
fn a_tournament_game_is_lost_by_the_player_who_does_not_come() {
    let base = Instant::now();
    let blitz = TimeControl::Fischer { initial_ms: 180_000, increment_ms: 2_000 };
    let event = Options { tournament: Some("t1".into()), ..opts(Mode::Friend, blitz) };
    let mut r = round(event.clone(), false, at(base, 0));
    assert_eq!(r.clock.first_move_until, Some(at(base, 30_000).at));
    assert!(r.decide(&Who::default(), Input::Deadline, at(base, 29_999)).unwrap().is_empty());
    go(&mut r, &Who::default(), Input::Deadline, at(base, 30_000)).unwrap();
    // English: Black moves first and did not; White wins, by abandonment.
    let o = r.outcome.as_ref().unwrap();
    assert_eq!((r.phase, o.winner, o.reason), (Phase::Finished, Some(Color::White), Some(EndReason::Abandonment)));
    // The same without the event: called off after 60 s, nobody loses.
    let mut plain = round(opts(Mode::Friend, blitz), false, at(base, 0));
    assert_eq!(plain.clock.first_move_until, Some(at(base, 60_000).at));
    go(&mut plain, &Who::default(), Input::Deadline, at(base, 60_000)).unwrap();
    assert_eq!(plain.outcome.as_ref().unwrap().winner, None);
    // In time, the second player's wait is 30 s too.
    let mut moved = round(event, false, at(base, 0));
    go(&mut moved, &black(), mv("11-15"), at(base, 10_000)).unwrap();
    assert_eq!(moved.clock.first_move_until, Some(at(base, 40_000).at));
    // Spectators' suggestions are refused in an event's game.
    let o = Options { suggestions: true, ..Options { tournament: Some("t1".into()), ..opts(Mode::Friend, blitz) } };
    assert!(o.validate().is_err());
}

/// Berserk: in an event's game that allows it, before one's first move, once: the
/// player's time is halved and earns no increment; the store keeps it across a restart.
#[test]
fn berserk_halves_the_clock_before_the_first_move_and_survives_a_restart() {
    let base = Instant::now();
    let blitz = TimeControl::Fischer { initial_ms: 180_000, increment_ms: 2_000 };
    let event = Options { tournament: Some("t1".into()), berserk: true, ..opts(Mode::Friend, blitz) };
    let refused = |o: Options, who: Who| {
        let r = round(o, false, at(base, 0));
        r.decide(&who, act(Action::Berserk), at(base, 1_000)).map(|_| ()).map_err(|e| e.code())
    };
    // Not in an ordinary game, nor in an event that does not allow it.
    assert_eq!(refused(opts(Mode::Friend, blitz), white()), Err("no_berserk"));
    assert_eq!(refused(Options { berserk: false, ..event.clone() }, white()), Err("no_berserk"));
    let mut r = round(event, false, at(base, 0));
    let mut kept = Kept::of(&r);
    let mut step = |r: &mut Round, who: &Who, input: Input, now: Now| {
        let d = r.decide(who, input, now).map_err(|e| e.code())?;
        kept.commit(&r.persist(&d));
        Ok::<_, &str>(r.apply(d))
    };
    // White (second to move in English) goes berserk before Black's first move.
    let a = step(&mut r, &white(), act(Action::Berserk), at(base, 1_000)).unwrap();
    assert_eq!(a.events[0].body.kind(), "berserk");
    assert_eq!(r.clock.remaining, [90_000, 180_000]);
    assert_eq!(step(&mut r, &white(), act(Action::Berserk), at(base, 1_500)).unwrap_err(), "no_berserk");
    step(&mut r, &black(), mv("11-15"), at(base, 2_000)).unwrap();
    // Black has moved: too late for Black. First moves cost no time; then Black's
    // move earns the increment and White's, 7 s, does not.
    assert_eq!(step(&mut r, &black(), act(Action::Berserk), at(base, 2_500)).unwrap_err(), "no_berserk");
    step(&mut r, &white(), mv("22-18"), at(base, 12_000)).unwrap();
    assert_eq!(r.clock.remaining[Color::White.index()], 90_000);
    step(&mut r, &black(), mv("15x22"), at(base, 13_000)).unwrap();
    assert_eq!(r.clock.remaining[Color::Black.index()], 181_000);
    step(&mut r, &white(), mv("25x18"), at(base, 20_000)).unwrap();
    assert_eq!(r.clock.remaining[Color::White.index()], 83_000);
    // A restart: White is still berserk (no increment) with the time its move left.
    let back = kept.restore(at(base, 21_000));
    assert_eq!(back.clock.berserk, [true, false]);
    assert_eq!(back.clock.remaining[Color::White.index()], 83_000);
    assert_eq!(back.snapshot(at(base, 21_000).at).berserk, [true, false]);
}
