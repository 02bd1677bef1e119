//! Ballot openings for tournaments: each pairing plays both colours of an opening drawn
//! from a list, so that the first moves are chosen by lot rather than by the players.
//!
//! The lists are data files in `crates/dama-core/ballots/` (their sources are named in
//! the files and in `ballots/README.md`), compiled in with `include_str!` and read on
//! first use. Nothing here does I/O.
//!
//! - [`BallotList::English3Move`]: the ACF three-move ballot, 174 openings of which 18
//!   are barred, 156 playable.
//! - [`BallotList::English2Move`]: the older two-move ballot, 49 openings of which 2 are
//!   barred, 47 playable.
//! - [`BallotList::International3Move`]: 301 International positions three plies from
//!   the start that Scan 2.0 scored within ±0.25 men (no FMJD list of ballot openings
//!   could be found; see the README).

use std::sync::OnceLock;

use crate::any::AnyPosition;
use crate::Variant;

const ENGLISH_3MOVE: &str = include_str!("../ballots/english-3move.txt");
const ENGLISH_2MOVE: &str = include_str!("../ballots/english-2move.txt");
const INTERNATIONAL_3MOVE: &str = include_str!("../ballots/international-3move.pdn");

/// A list of ballot openings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BallotList {
    /// English draughts / American checkers: the ACF three-move ballot (174 openings,
    /// 18 barred, 156 playable).
    English3Move,
    /// English draughts: the two-move ballot of about 1900-1934 (49 openings, 2 barred,
    /// 47 playable).
    English2Move,
    /// International draughts: 301 balanced positions three plies (a "move" each) from
    /// the start.
    International3Move,
}

impl BallotList {
    /// Every list.
    pub const ALL: &'static [BallotList] =
        &[BallotList::English3Move, BallotList::English2Move, BallotList::International3Move];

    /// The key used in the API and in files: `english-3move`, `english-2move`,
    /// `international-3move`.
    pub const fn key(self) -> &'static str {
        match self {
            BallotList::English3Move => "english-3move",
            BallotList::English2Move => "english-2move",
            BallotList::International3Move => "international-3move",
        }
    }

    /// The list whose [`key`](BallotList::key) this is.
    pub fn from_key(key: &str) -> Option<Self> {
        BallotList::ALL.iter().copied().find(|l| l.key() == key)
    }

    /// The human name.
    pub const fn name(self) -> &'static str {
        match self {
            BallotList::English3Move => "Three-move ballot (ACF)",
            BallotList::English2Move => "Two-move ballot",
            BallotList::International3Move => "International three-move openings",
        }
    }

    /// Where the list comes from, in a line (the full account is in `ballots/README.md`).
    pub const fn source(self) -> &'static str {
        match self {
            BallotList::English3Move => "ACF three-move list as in github.com/eygilbert/CheckerBoard utility.c, checked against github.com/brainwagon/milhouse acf-openings.c",
            BallotList::English2Move => "the 49 first-move pairs; barred and names per Fortman, acfcheckers.com and others (ballots/README.md)",
            BallotList::International3Move => "positions three plies from the start scored within ±0.25 men by Scan 2.0 (dama's own engine-match openings)",
        }
    }

    /// The variants whose games may start from this list.
    pub fn variants(self) -> &'static [Variant] {
        match self {
            BallotList::English3Move | BallotList::English2Move => &[Variant::English],
            BallotList::International3Move => &[Variant::International],
        }
    }

    /// The lists a variant may use.
    pub fn for_variant(variant: Variant) -> Vec<BallotList> {
        BallotList::ALL.iter().copied().filter(|l| l.variants().contains(&variant)).collect()
    }

    /// The variant the list's moves are written for (the first of
    /// [`variants`](BallotList::variants)).
    pub fn variant(self) -> Variant {
        self.variants()[0]
    }

    /// The playable openings (the barred ones left out), in list order.
    pub fn openings(self) -> &'static [Opening] {
        &self.data().playable
    }

    /// Every opening of the list, the barred ones included, in list order.
    pub fn all_openings(self) -> &'static [Opening] {
        &self.data().all
    }

    /// The opening with this number in the list (barred or not).
    pub fn opening(self, number: u16) -> Option<&'static Opening> {
        self.all_openings().iter().find(|o| o.number == number)
    }

    fn data(self) -> &'static ListData {
        static CELLS: [OnceLock<ListData>; 3] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];
        let i = match self {
            BallotList::English3Move => 0,
            BallotList::English2Move => 1,
            BallotList::International3Move => 2,
        };
        CELLS[i].get_or_init(|| {
            let all = match self {
                BallotList::English3Move => parse_table(ENGLISH_3MOVE),
                BallotList::English2Move => parse_table(ENGLISH_2MOVE),
                BallotList::International3Move => parse_pdn(INTERNATIONAL_3MOVE),
            };
            let playable = all.iter().filter(|o| !o.barred).cloned().collect();
            ListData { all, playable }
        })
    }
}

impl std::fmt::Display for BallotList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.key())
    }
}

struct ListData {
    all: Vec<Opening>,
    playable: Vec<Opening>,
}

/// One opening of a ballot list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// Its number in the list (the ACF number for the three-move ballot).
    pub number: u16,
    /// Its traditional name, when the source gives one.
    pub name: Option<&'static str>,
    /// The moves from the start, in the notation dama-core writes (`9-13`, `13x22`,
    /// `29x20`), forced captures included.
    pub moves: Vec<String>,
    /// Barred from play (kept in the list so its numbering stays whole).
    pub barred: bool,
}

impl Opening {
    /// The position after the moves, played from the start position of `variant` with
    /// dama-core's move generator; or why a move does not play.
    pub fn position(&self, variant: Variant) -> Result<AnyPosition, String> {
        let mut pos = AnyPosition::new(variant, None).map_err(|e| e.to_string())?;
        for (i, text) in self.moves.iter().enumerate() {
            let (_, next) = pos.play(text).map_err(|e| format!("opening {} move {}: {e}", self.number, i + 1))?;
            pos = next;
        }
        Ok(pos)
    }

    /// The position after the moves, as the FEN dama-core writes.
    ///
    /// # Panics
    ///
    /// If a move is not legal in `variant`; every opening plays in each of its list's
    /// [`variants`](BallotList::variants) (the tests check it).
    pub fn fen(&self, variant: Variant) -> String {
        match self.position(variant) {
            Ok(p) => p.fen(),
            Err(e) => panic!("ballot opening does not play in {variant}: {e}"),
        }
    }

    /// The moves joined by spaces (`9-13 21-17 5-9`).
    pub fn line(&self) -> String {
        self.moves.join(" ")
    }
}

/// The playable opening of `list` that `seed` picks: the same seed always picks the
/// same opening, and different seeds spread evenly over the list.
pub fn draw(list: BallotList, seed: u64) -> &'static Opening {
    let openings = list.openings();
    &openings[pick(seed, openings.len())]
}

/// Draws `count` distinct playable openings of `list` for `seed` (all of them, shuffled,
/// when `count` is the list's length or more), for an event that wants no opening twice.
pub fn draw_distinct(list: BallotList, seed: u64, count: usize) -> Vec<&'static Opening> {
    let mut pool: Vec<&'static Opening> = list.openings().iter().collect();
    let mut state = seed;
    // Fisher-Yates from the front, as far as needed.
    let n = count.min(pool.len());
    for i in 0..n {
        state = state.wrapping_add(GOLDEN);
        let j = i + pick(state, pool.len() - i);
        pool.swap(i, j);
    }
    pool.truncate(n);
    pool
}

const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64 of `x`.
fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(GOLDEN);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// An index below `n` (`n` > 0) from `seed`.
fn pick(seed: u64, n: usize) -> usize {
    ((u128::from(splitmix64(seed)) * n as u128) >> 64) as usize
}

/// Reads a table of `number | moves | status | name` lines (`#` starts a comment).
fn parse_table(text: &'static str) -> Vec<Opening> {
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let cols: Vec<&'static str> = line.split('|').map(str::trim).collect();
        let number = cols[0].parse().unwrap_or_else(|_| panic!("ballot line '{line}': bad number"));
        let moves = cols[1].split_whitespace().map(str::to_string).collect();
        let barred = match cols.get(2).copied() {
            Some("barred") => true,
            Some("play" | "mail") => false,
            _ => panic!("ballot line '{line}': status must be play, mail or barred"),
        };
        let name = cols.get(3).copied().filter(|n| !n.is_empty());
        out.push(Opening { number, name, moves, barred });
    }
    out
}

/// Reads the openings of a PDN file of games numbered by `[Event "... N"]`, each with
/// its moves in an `[Opening "..."]` tag.
fn parse_pdn(text: &'static str) -> Vec<Opening> {
    let tag = |line: &'static str, name: &str| -> Option<&'static str> {
        let rest = line.strip_prefix('[')?.strip_prefix(name)?.trim_start();
        rest.strip_prefix('"')?.strip_suffix("\"]")
    };
    let mut out = Vec::new();
    let mut number: Option<u16> = None;
    for line in text.lines().map(str::trim) {
        if let Some(event) = tag(line, "Event") {
            let n = event.rsplit(' ').next().and_then(|n| n.parse().ok());
            number = Some(n.unwrap_or_else(|| panic!("ballot PDN: no number in event '{event}'")));
        } else if let Some(moves) = tag(line, "Opening") {
            let number = number.take().expect("ballot PDN: Opening tag before its Event");
            let moves = moves.split_whitespace().map(str::to_string).collect();
            out.push(Opening { number, name: None, moves, barred: false });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ballot_lists_read() {
        assert_eq!(BallotList::English3Move.all_openings().len(), 174);
        assert_eq!(BallotList::English2Move.all_openings().len(), 49);
        assert_eq!(BallotList::International3Move.all_openings().len(), 301);
    }

    #[test]
    fn ballot_pick_stays_in_range() {
        for n in [1, 2, 3, 47, 156, 301] {
            for seed in 0..1000 {
                assert!(pick(seed, n) < n);
            }
        }
    }

    #[test]
    fn ballot_draw_distinct_has_no_repeats() {
        let list = BallotList::English3Move;
        let all = draw_distinct(list, 7, 1000);
        assert_eq!(all.len(), 156);
        let mut numbers: Vec<u16> = all.iter().map(|o| o.number).collect();
        numbers.sort_unstable();
        numbers.dedup();
        assert_eq!(numbers.len(), 156);
        assert_eq!(draw_distinct(list, 7, 10), all[..10].to_vec());
    }
}
