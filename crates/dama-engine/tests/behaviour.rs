//! Engine behaviour: adjudication, levels, time budgets and staying within them.

use std::collections::BTreeSet;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use dama_core::fen::parse_fen;
use dama_core::variant::{English, Russian};
use dama_core::{Color, Variant};
use dama_engine::level::{pick, Level};
use dama_engine::player::player;
use dama_engine::search::{adjudicate, Limits};
use dama_engine::time::{limits, Clock};
use rand::rngs::StdRng;
use rand::SeedableRng;

#[test]
fn adjudication_names_the_clearly_winning_side() {
    // Seed 003's arbiter: three kings against one is a win; one king each a draw.
    let win = parse_fen::<English>("W:WK1,K2,K3:BK32").unwrap();
    assert_eq!(adjudicate(&win, 200_000, 150), Some(Color::White));
    let lose = parse_fen::<English>("B:WK1,K2,K3:BK32").unwrap();
    assert_eq!(adjudicate(&lose, 200_000, 150), Some(Color::White));
    let even = parse_fen::<English>("W:WK1:BK32").unwrap();
    assert_eq!(adjudicate(&even, 200_000, 150), None);
    let russian = parse_fen::<Russian>("W:WKa1,Kc1,Ke1,g3:BKh8").unwrap();
    assert_eq!(adjudicate(&russian, 200_000, 150), Some(Color::White));
}

#[test]
fn low_levels_vary_full_strength_does_not() {
    let stop = AtomicBool::new(false);
    let first_moves = |level: u8| -> BTreeSet<String> {
        (0..12)
            .map(|seed| {
                let mut p = player(Variant::English, 4, None, seed);
                p.think(Limits::default(), Level::new(level), &stop, &mut |_| {}).best.unwrap()
            })
            .collect()
    };
    assert!(first_moves(1).len() >= 3, "level 1 should not always play the same opening");
    let limits = Limits { depth: Some(8), ..Limits::default() };
    let full: BTreeSet<String> = (0..4)
        .map(|seed| {
            let mut p = player(Variant::English, 4, None, seed);
            p.think(limits, Level::full(), &stop, &mut |_| {}).best.unwrap()
        })
        .collect();
    assert_eq!(full.len(), 1);
}

#[test]
fn picking_prefers_better_moves_within_the_noise() {
    let scored = [("best", 100), ("near", 80), ("bad", -300)];
    let mut rng = StdRng::seed_from_u64(3);
    let picks: Vec<&str> = (0..400).map(|_| pick(&scored, 50, &mut rng).unwrap()).collect();
    let best = picks.iter().filter(|p| **p == "best").count();
    let near = picks.iter().filter(|p| **p == "near").count();
    assert!(!picks.contains(&"bad"));
    assert!(best > near && near > 0, "{best} {near}");
    assert_eq!(pick(&scored, 0, &mut rng), Some("best"));
}

#[test]
fn budgets_fit_every_clock() {
    for remaining_ms in [50u64, 300, 1_000, 60_000, 600_000] {
        let remaining = Duration::from_millis(remaining_ms);
        for inc in [0u64, 1_000] {
            let l = limits(Clock::Game { remaining, increment: Duration::from_millis(inc), moves_to_go: None });
            let (soft, hard) = (l.soft_time.unwrap(), l.hard_time.unwrap());
            assert!(soft <= hard && hard < remaining, "{remaining_ms} {inc}: {soft:?} {hard:?}");
        }
    }
    // Seed 003: 5 minutes a move, 1 minute for a single forced capture.
    let hard = limits(Clock::PerMove(Duration::from_secs(60))).hard_time.unwrap();
    assert!(hard < Duration::from_secs(60));
}

#[test]
fn search_stops_within_its_hard_limit() {
    let stop = AtomicBool::new(false);
    let mut p = player(Variant::International, 16, None, 1);
    let l = limits(Clock::Game { remaining: Duration::from_millis(400), increment: Duration::ZERO, moves_to_go: None });
    let t = Instant::now();
    let d = p.think(l, Level::full(), &stop, &mut |_| {});
    assert!(d.best.is_some());
    assert!(t.elapsed() < Duration::from_millis(400), "{:?}", t.elapsed());
}

/// A move with no choice is played at once, whatever the clock allows: the search
/// looks at one node (a forced capture on seed 003's five-minute clock, and on a
/// game clock of ten minutes).
#[test]
fn a_forced_move_is_played_at_once() {
    let stop = AtomicBool::new(false);
    let clocks = [
        Clock::PerMove(Duration::from_secs(60)),
        Clock::Game { remaining: Duration::from_secs(600), increment: Duration::ZERO, moves_to_go: None },
    ];
    for clock in clocks {
        let mut p = player(Variant::English, 4, None, 1);
        // White's man on 18 must take the man on 14: its one legal move.
        p.set_position(Some("W:W18:B14,1"), &[]).unwrap();
        let d = p.think(limits(clock), Level::full(), &stop, &mut |_| {});
        assert_eq!(d.best.as_deref(), Some("18x9"), "{clock:?}");
        assert!(d.nodes <= 1, "{clock:?}: {} nodes", d.nodes);
    }
}
