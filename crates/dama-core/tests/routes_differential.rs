//! Capture routes of the flying-king variants against a brute-force enumerator written
//! from the rulebooks for this test: a plain grid of squares, one piece at a time, no
//! bitboards and nothing shared with the move generator. On thousands of random
//! positions per variant, the three counting conventions agree:
//!
//! - keep (`Routes::Every`): every route, a route being the captured pieces in order
//!   with the square landed on after each;
//! - sweeps (`Routes::Sweeps`): routes that differ only in where a king going straight
//!   on along a line passed between two pieces count once: the distinct (origin,
//!   captured pieces in order, destination);
//! - drop (`Routes::Merged`): the distinct (origin, destination, captured set,
//!   crowning), compared as sets of moves, not only counted.
//!
//! Frisian (orthogonal captures, value rules) and Turkish (orthogonal, checked against
//! the `kish` crate in `kish_differential.rs`) are not covered here.

use std::collections::BTreeSet;

use dama_core::geometry::Geometry;
use dama_core::movegen::generate;
use dama_core::variant::{Brazilian, Canadian, Czech, International, Pool, Portuguese, Russian, Spanish, Thai};
use dama_core::{Bits, Color, MoveList, Position, Routes, Rules, Setup};

/// Which capture must be chosen.
#[derive(Clone, Copy, PartialEq)]
enum Choice {
    /// Any.
    Free,
    /// The most pieces.
    Most,
    /// The most pieces, then the most kings.
    MostThenKings,
    /// With a king when a king can capture.
    KingFirst,
}

/// The capture rules of a variant, as its rulebook states them.
#[derive(Clone, Copy)]
struct Book {
    size: i32,
    men_capture_backward: bool,
    /// A man reaching the far row during a capture is crowned and goes on as a king.
    crown_mid_capture: bool,
    /// A capturing king lands on the square right behind the piece (Thai).
    land_right_behind: bool,
    /// Captured pieces leave the board as they are jumped (Thai).
    removed_at_once: bool,
    choice: Choice,
}

/// A piece: (white, king).
type Piece = (bool, bool);
type Sq = (i32, i32);

struct Board {
    size: i32,
    cells: Vec<Option<Piece>>,
}

impl Board {
    fn at(&self, (r, c): Sq) -> Option<Piece> {
        self.cells[(r * self.size + c) as usize]
    }
    fn on(&self, (r, c): Sq) -> bool {
        r >= 0 && c >= 0 && r < self.size && c < self.size
    }
}

/// One complete capture (or a quiet move when `captured` is empty).
#[derive(Clone, Debug)]
struct Route {
    from: Sq,
    to: Sq,
    captured: Vec<Sq>,
    kings_taken: usize,
    by_king: bool,
    crowned: bool,
}

const DIAGONALS: [Sq; 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

struct Search<'a> {
    book: Book,
    board: &'a Board,
    white: bool,
    from: Sq,
    by_king: bool,
    out: Vec<Route>,
}

impl Search<'_> {
    /// Whether `sq` is free for the moving piece: empty, its own origin, or (Thai) a
    /// piece already taken.
    fn free(&self, sq: Sq, taken: &[Sq]) -> bool {
        sq == self.from || self.board.at(sq).is_none() || (self.book.removed_at_once && taken.contains(&sq))
    }

    /// An enemy piece not yet taken.
    fn enemy(&self, sq: Sq, taken: &[Sq]) -> bool {
        sq != self.from && !taken.contains(&sq) && self.board.at(sq).is_some_and(|(w, _)| w != self.white)
    }

    /// Captures possible from `at`: (captured square, landing squares) per direction.
    fn jumps(&self, at: Sq, king: bool, taken: &[Sq]) -> Vec<(Sq, Vec<Sq>)> {
        let forward = if self.white { 1 } else { -1 };
        let mut out = Vec::new();
        for (dr, dc) in DIAGONALS {
            if !king && !self.book.men_capture_backward && dr != forward {
                continue;
            }
            let mut sq = (at.0 + dr, at.1 + dc);
            if king {
                while self.board.on(sq) && self.free(sq, taken) {
                    sq = (sq.0 + dr, sq.1 + dc);
                }
            }
            if !self.board.on(sq) || !self.enemy(sq, taken) {
                continue;
            }
            let mut lands = Vec::new();
            let mut l = (sq.0 + dr, sq.1 + dc);
            while self.board.on(l) && self.free(l, taken) {
                lands.push(l);
                if !king || self.book.land_right_behind {
                    break;
                }
                l = (l.0 + dr, l.1 + dc);
            }
            if !lands.is_empty() {
                out.push((sq, lands));
            }
        }
        out
    }

    fn far_row(&self, sq: Sq) -> bool {
        sq.0 == if self.white { self.book.size - 1 } else { 0 }
    }

    /// Goes on from `at` (a king, or a man) after the captures `taken`.
    fn go(&mut self, at: Sq, king: bool, crowned: bool, taken: &mut Vec<Sq>, kings_taken: usize) {
        let jumps = self.jumps(at, king, taken);
        // A king must land where it can go on capturing, if any such square exists.
        let mut any = false;
        for (over, lands) in &jumps {
            let piece_king = self.board.at(*over).is_some_and(|p| p.1);
            taken.push(*over);
            let goes_on: Vec<bool> = lands
                .iter()
                .map(|&l| {
                    let as_king = king || (self.book.crown_mid_capture && self.far_row(l));
                    !self.jumps(l, as_king, taken).is_empty()
                })
                .collect();
            let must_go_on = goes_on.iter().any(|g| *g);
            for (&l, &g) in lands.iter().zip(&goes_on) {
                if must_go_on && !g {
                    continue;
                }
                any = true;
                let now_king = king || (self.book.crown_mid_capture && self.far_row(l));
                let crowned_here = crowned || (now_king && !king);
                let k = kings_taken + usize::from(piece_king);
                if g {
                    self.go(l, now_king, crowned_here, taken, k);
                } else {
                    let crowned_end = crowned_here || (!self.by_king && self.far_row(l));
                    self.out.push(Route {
                        from: self.from,
                        to: l,
                        captured: taken.clone(),
                        kings_taken: k,
                        by_king: self.by_king,
                        crowned: crowned_end,
                    });
                }
            }
            taken.pop();
        }
        debug_assert!(any || jumps.is_empty());
    }
}

/// Every legal route of the side to move, by the book.
fn routes(book: Book, board: &Board, white: bool) -> Vec<Route> {
    let mut all = Vec::new();
    for r in 0..book.size {
        for c in 0..book.size {
            let Some((w, king)) = board.at((r, c)) else { continue };
            if w != white {
                continue;
            }
            let mut s = Search { book, board, white, from: (r, c), by_king: king, out: Vec::new() };
            s.go((r, c), king, false, &mut Vec::new(), 0);
            all.extend(s.out);
        }
    }
    if !all.is_empty() {
        let best = |f: &dyn Fn(&Route) -> usize, v: Vec<Route>| -> Vec<Route> {
            let m = v.iter().map(f).max().unwrap_or(0);
            v.into_iter().filter(|x| f(x) == m).collect()
        };
        return match book.choice {
            Choice::Free => all,
            Choice::Most => best(&|x| x.captured.len(), all),
            Choice::MostThenKings => best(&|x| x.kings_taken, best(&|x| x.captured.len(), all)),
            Choice::KingFirst => best(&|x| usize::from(x.by_king), all),
        };
    }
    // No capture: quiet moves.
    let forward = if white { 1 } else { -1 };
    let mut quiet = Vec::new();
    for r in 0..book.size {
        for c in 0..book.size {
            let Some((w, king)) = board.at((r, c)) else { continue };
            if w != white {
                continue;
            }
            for (dr, dc) in DIAGONALS {
                if !king && dr != forward {
                    continue;
                }
                let mut sq = (r + dr, c + dc);
                while board.on(sq) && board.at(sq).is_none() {
                    let far = sq.0 == if white { book.size - 1 } else { 0 };
                    let crowned = !king && far;
                    quiet.push(Route {
                        from: (r, c),
                        to: sq,
                        captured: Vec::new(),
                        kings_taken: 0,
                        by_king: king,
                        crowned,
                    });
                    if !king {
                        break;
                    }
                    sq = (sq.0 + dr, sq.1 + dc);
                }
            }
        }
    }
    quiet
}

/// The dense index of a dark square (row-major, row 0 first, a1 dark).
fn dense(size: i32, (r, c): Sq) -> u32 {
    (r * (size / 2) + c / 2) as u32
}

struct Rng(u64);
impl Rng {
    fn next(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// What one variant's positions showed.
#[derive(Default, Debug)]
struct Tally {
    positions: usize,
    with_captures: usize,
    king_captures: usize,
    keep_beyond_sweeps: usize,
    sweeps_beyond_drop: usize,
}

fn check<R: Rules>(book: Book, max_side: usize, positions: usize, seed: u64) -> Tally {
    let size = book.size;
    let layout = R::G::LAYOUT;
    // The dense order this test assumes is the board's.
    for r in 0..size {
        for c in (r % 2..size).step_by(2) {
            let bit = layout.bit_of[dense(size, (r, c)) as usize] as usize;
            assert_eq!((layout.row_of_bit[bit] as i32, layout.col_of_bit[bit] as i32), (r, c));
        }
    }
    let sq_of = |bit: u8| -> Sq { (layout.row_of_bit[bit as usize] as i32, layout.col_of_bit[bit as usize] as i32) };
    let mut rng = Rng(seed);
    let mut t = Tally::default();
    while t.positions < positions {
        // Sparse boards with many kings: long captures, lines with room to land.
        let mut board = Board { size, cells: vec![None; (size * size) as usize] };
        let mut setup =
            Setup { side: if rng.next(2) == 0 { Color::White } else { Color::Black }, men: [0; 2], kings: [0; 2] };
        let mut count = [0usize; 2];
        let density = 15 + rng.next(30);
        for r in 0..size {
            for c in (r % 2..size).step_by(2) {
                if rng.next(100) >= density {
                    continue;
                }
                let white = rng.next(2) == 0;
                let king = rng.next(3) == 0;
                let side = usize::from(!white);
                // No man on its own crowning row; at most the side's limit of pieces.
                if (!king && r == if white { size - 1 } else { 0 }) || count[side] >= max_side {
                    continue;
                }
                count[side] += 1;
                board.cells[(r * size + c) as usize] = Some((white, king));
                let bit = 1u128 << dense(size, (r, c));
                if king {
                    setup.kings[side] |= bit;
                } else {
                    setup.men[side] |= bit;
                }
            }
        }
        let Ok(pos) = Position::<R>::from_setup(&setup) else { continue };
        t.positions += 1;
        let book_routes = routes(book, &board, setup.side == Color::White);
        let count_of = |routes: Routes| {
            let mut l = MoveList::with_routes(routes);
            generate(&pos, &mut l);
            l
        };
        let (every, sweeps, merged) = (count_of(Routes::Every), count_of(Routes::Sweeps), count_of(Routes::Merged));
        let fen = dama_core::fen::write_fen(&pos);
        // keep: every route.
        assert_eq!(every.len(), book_routes.len(), "{} keep {fen}: {book_routes:?}", R::VARIANT);
        // sweeps: distinct origin, captured pieces in order, destination.
        let by_sweep: BTreeSet<_> = book_routes.iter().map(|x| (x.from, x.captured.clone(), x.to)).collect();
        assert_eq!(sweeps.len(), by_sweep.len(), "{} sweeps {fen}", R::VARIANT);
        // drop: the same moves, as sets.
        let book_moves: BTreeSet<_> = book_routes
            .iter()
            .map(|x| {
                let mut taken = x.captured.clone();
                taken.sort();
                (x.from, x.to, taken, x.crowned)
            })
            .collect();
        let gen_moves: BTreeSet<_> = merged
            .iter()
            .map(|m| {
                let mut taken: Vec<Sq> = m.captured.iter().map(|b| sq_of(b as u8)).collect();
                taken.sort();
                (sq_of(m.from), sq_of(m.to), taken, m.promote)
            })
            .collect();
        assert_eq!(merged.len(), gen_moves.len());
        assert_eq!(gen_moves, book_moves, "{} drop {fen}", R::VARIANT);
        if !book_routes.is_empty() && !book_routes[0].captured.is_empty() {
            t.with_captures += 1;
            t.king_captures += usize::from(book_routes.iter().any(|x| x.by_king));
            t.keep_beyond_sweeps += usize::from(every.len() > sweeps.len());
            t.sweeps_beyond_drop += usize::from(sweeps.len() > merged.len());
        }
    }
    t
}

fn book(size: i32, men_capture_backward: bool, choice: Choice) -> Book {
    Book {
        size,
        men_capture_backward,
        crown_mid_capture: false,
        land_right_behind: false,
        removed_at_once: false,
        choice,
    }
}

#[test]
fn flying_king_routes_match_a_brute_force_enumeration() {
    let n = 3000;
    let mut report = Vec::new();
    let mut run = |name: &str, t: Tally, dup: bool| {
        // Enough captures, by kings, and (where the rules allow) routes that the
        // conventions count differently, for the comparison to mean something.
        assert!(t.with_captures >= n / 4, "{name}: {t:?}");
        assert!(t.king_captures >= n / 10, "{name}: {t:?}");
        if dup {
            assert!(t.keep_beyond_sweeps > 0 && t.sweeps_beyond_drop > 0, "{name}: {t:?}");
        }
        report.push(format!("{name}: {t:?}"));
    };
    let russian = Book { crown_mid_capture: true, ..book(8, true, Choice::Free) };
    run("russian", check::<Russian>(russian, 12, n, 11), true);
    run("brazilian", check::<Brazilian>(book(8, true, Choice::Most), 12, n, 12), true);
    run("pool", check::<Pool>(book(8, true, Choice::Free), 12, n, 13), true);
    run("international", check::<International>(book(10, true, Choice::Most), 20, n, 14), true);
    run("canadian", check::<Canadian>(book(12, true, Choice::Most), 30, n, 15), true);
    run("spanish", check::<Spanish>(book(8, false, Choice::MostThenKings), 12, n, 16), true);
    run("portuguese", check::<Portuguese>(book(8, false, Choice::MostThenKings), 12, n, 17), true);
    run("czech", check::<Czech>(book(8, false, Choice::KingFirst), 12, n, 18), true);
    // Thai kings land right behind the piece: no choice of square, so no duplicates
    // between keep and sweeps.
    let thai = Book { land_right_behind: true, removed_at_once: true, ..book(8, false, Choice::Free) };
    run("thai", check::<Thai>(thai, 12, n, 19), false);
    println!("{}", report.join("\n"));
}
