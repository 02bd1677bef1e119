//! Small hand-checked Swiss cases: round 1, byes, errors.

use dama_pairing::{swiss, Colour, Entrant, Pairing, PairingError, Played};

fn fresh(n: u64) -> Vec<Entrant> {
    (1..=n).map(|id| Entrant { id, rating: 2000 - id as i32, history: Vec::new(), had_bye: false }).collect()
}

fn games(p: &[Pairing]) -> Vec<(u64, u64)> {
    p.iter().map(|g| (g.white, g.black)).collect()
}

#[test]
fn round_one_top_half_against_bottom_half_white_on_odd_boards() {
    // C.04.3: S1 = 1..3 against S2 = 4..6; the top seed has White (initial colour drawn
    // as White), and colours alternate down the boards.
    let got = swiss::pair(&fresh(6), 1, 5).unwrap();
    assert_eq!(games(&got.pairings), vec![(1, 4), (5, 2), (3, 6)]);
    assert_eq!(got.bye, None);
    let black = swiss::Options { initial_colour: Colour::Black };
    let got = swiss::pair_with(&fresh(6), 1, 5, black).unwrap();
    assert_eq!(games(&got.pairings), vec![(4, 1), (2, 5), (6, 3)]);
}

#[test]
fn round_one_odd_count_bye_to_the_lowest() {
    let got = swiss::pair(&fresh(7), 1, 5).unwrap();
    assert_eq!(got.bye, Some(7));
    assert_eq!(games(&got.pairings), vec![(1, 4), (5, 2), (3, 6)]);
}

#[test]
fn rating_order_not_input_order() {
    let mut es = fresh(4);
    es.reverse();
    let got = swiss::pair(&es, 1, 3).unwrap();
    assert_eq!(games(&got.pairings), vec![(1, 3), (4, 2)]);
}

#[test]
fn no_second_bye() {
    // Three players; 3 had the bye and 1 and 2 played each other: 3 must play, and since
    // 1-2 may not meet again, whoever is left gets the bye — but it cannot be 3.
    let mut es = fresh(3);
    es[0].history.push(Played { opponent: Some(2), colour: Some(Colour::White), points2: 2, played: true });
    es[1].history.push(Played { opponent: Some(1), colour: Some(Colour::Black), points2: 0, played: true });
    es[2].history.push(Played { opponent: None, colour: None, points2: 2, played: false });
    es[2].had_bye = true;
    let got = swiss::pair(&es, 2, 3).unwrap();
    assert_ne!(got.bye, Some(3));
    assert_eq!(got.pairings.len(), 1);
    let g = got.pairings[0];
    assert!(g.white == 3 || g.black == 3);
}

#[test]
fn errors_say_what() {
    assert_eq!(swiss::pair(&fresh(4), 0, 3), Err(PairingError::BadRound { round: 0, total_rounds: 3 }));
    assert_eq!(swiss::pair(&fresh(4), 4, 3), Err(PairingError::BadRound { round: 4, total_rounds: 3 }));
    let mut es = fresh(3);
    es[2].id = 1;
    assert_eq!(swiss::pair(&es, 1, 3), Err(PairingError::DuplicatePlayer(1)));
    // Two players who already met cannot be paired again.
    let mut es = fresh(2);
    es[0].history.push(Played { opponent: Some(2), colour: Some(Colour::White), points2: 1, played: true });
    es[1].history.push(Played { opponent: Some(1), colour: Some(Colour::Black), points2: 1, played: true });
    let err = swiss::pair(&es, 2, 3).unwrap_err();
    assert_eq!(err, PairingError::NoLegalPairing { round: 2 });
    assert!(err.to_string().contains("no legal pairing"));
    // Nobody, or one player who may take the bye.
    assert_eq!(swiss::pair(&[], 1, 1).unwrap().pairings, vec![]);
    assert_eq!(swiss::pair(&fresh(1), 1, 1).unwrap().bye, Some(1));
}
