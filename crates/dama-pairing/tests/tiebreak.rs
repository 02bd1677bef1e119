//! Tie-breaks on small crosstables computed by hand from the definitions (FIDE C.07:
//! Buchholz is the sum of the opponents' scores; Sonneborn-Berger the sum of the scores of
//! the opponents beaten plus half the scores of those drawn), with this crate's rule for
//! unplayed rounds (a draw against oneself).

use dama_pairing::tiebreak::{buchholz, sonneborn_berger, standings};
use dama_pairing::{Colour, Entrant, Played, PlayerId};

fn game(opponent: PlayerId, colour: Colour, points2: u32) -> Played {
    Played { opponent: Some(opponent), colour: Some(colour), points2, played: true }
}

fn bye() -> Played {
    Played { opponent: None, colour: None, points2: 2, played: false }
}

fn entrant(id: PlayerId, history: Vec<Played>) -> Entrant {
    Entrant { id, rating: 0, had_bye: history.iter().any(|p| p.opponent.is_none()), history }
}

/// A(1) B(2) C(3) D(4), three rounds:
/// R1 A 1-0 D, B ½-½ C; R2 A ½-½ C, B 1-0 D; R3 A 0-1 B, C 1-0 D.
/// Scores A 1.5, B 2.5, C 2, D 0.
/// Buchholz: A 0+2+2.5 = 4.5; B 2+0+1.5 = 3.5; C 2.5+1.5+0 = 4; D 1.5+2.5+2 = 6.
/// Sonneborn-Berger: A 0 + ½·2 + 0 = 1; B ½·2 + 0 + 1.5 = 2.5; C ½·2.5 + ½·1.5 + 0 = 2; D 0.
fn round_robin() -> Vec<Entrant> {
    use Colour::{Black as B, White as W};
    vec![
        entrant(1, vec![game(4, W, 2), game(3, B, 1), game(2, W, 0)]),
        entrant(2, vec![game(3, W, 1), game(4, B, 2), game(1, B, 2)]),
        entrant(3, vec![game(2, B, 1), game(1, W, 1), game(4, W, 2)]),
        entrant(4, vec![game(1, B, 0), game(2, W, 0), game(3, B, 0)]),
    ]
}

#[test]
fn buchholz_and_sonneborn_berger_by_hand() {
    let es = round_robin();
    let b2: Vec<u32> = (1..=4).map(|id| buchholz(&es, id).unwrap()).collect();
    assert_eq!(b2, vec![9, 7, 8, 12]);
    let sb4: Vec<u32> = (1..=4).map(|id| sonneborn_berger(&es, id).unwrap()).collect();
    assert_eq!(sb4, vec![4, 10, 8, 0]);
    assert_eq!(buchholz(&es, 99), None);
}

#[test]
fn standings_by_hand() {
    let s = standings(&round_robin());
    let rows: Vec<(PlayerId, u32, u32, u32, u32, u32, u32)> =
        s.iter().map(|r| (r.id, r.rank, r.points2, r.buchholz2, r.sonneborn_berger4, r.games, r.wins)).collect();
    assert_eq!(
        rows,
        vec![(2, 1, 5, 7, 10, 3, 2), (3, 2, 4, 8, 8, 3, 1), (1, 3, 3, 9, 4, 3, 1), (4, 4, 0, 12, 0, 3, 0),]
    );
}

/// X(1) Y(2) Z(3): R1 X 1-0 Y, Z bye; R2 X ½-½ Z, Y bye. Scores X 1.5, Y 1, Z 1.5.
/// A bye counts as a draw against oneself: Buchholz X 1+1.5 = 2.5, Y 1.5+1 = 2.5,
/// Z 1.5+1.5 = 3; Sonneborn-Berger X 1 + ½·1.5 = 1.75, Y 0 + ½·1 = 0.5, Z ½·1.5 + ½·1.5 = 1.5.
#[test]
fn byes_count_as_a_draw_against_oneself() {
    use Colour::{Black as B, White as W};
    let es = vec![
        entrant(1, vec![game(2, W, 2), game(3, B, 1)]),
        entrant(2, vec![game(1, B, 0), bye()]),
        entrant(3, vec![bye(), game(1, W, 1)]),
    ];
    let b2: Vec<u32> = (1..=3).map(|id| buchholz(&es, id).unwrap()).collect();
    assert_eq!(b2, vec![5, 5, 6]);
    let sb4: Vec<u32> = (1..=3).map(|id| sonneborn_berger(&es, id).unwrap()).collect();
    assert_eq!(sb4, vec![7, 2, 6]);
    let order: Vec<(PlayerId, u32)> = standings(&es).iter().map(|r| (r.id, r.rank)).collect();
    assert_eq!(order, vec![(3, 1), (1, 2), (2, 3)]);
}

#[test]
fn equal_in_everything_shares_the_rank() {
    use Colour::{Black as B, White as W};
    let es = vec![
        entrant(1, vec![game(2, W, 1)]),
        entrant(2, vec![game(1, B, 1)]),
        entrant(3, vec![game(4, W, 0)]),
        entrant(4, vec![game(3, B, 2)]),
    ];
    let ranks: Vec<(PlayerId, u32)> = standings(&es).iter().map(|r| (r.id, r.rank)).collect();
    assert_eq!(ranks, vec![(4, 1), (1, 2), (2, 2), (3, 4)]);
}
