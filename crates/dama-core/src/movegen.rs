//! Legal move generation for every variant, monomorphised per rules type.
//!
//! Captures come first: if any piece can capture, only captures are legal, and a
//! depth-first search from each capturing piece finds every complete sequence. The
//! rules' precedence key picks the sequences that must be preferred. Otherwise the
//! quiet moves are generated (or, for perft leaves, only counted) with set operations.

use crate::bits::Bits;
use crate::color::Color;
use crate::geometry::{step, valid, Dir, Geometry, E, N, NE, NW, OPPOSITE, S, SE, SW, W};
use crate::moves::{Move, MoveList, Routes, Sink, MAX_PATH};
use crate::position::{Position, BB};
use crate::variant::{KingRange, Precedence, Rules};

const DIAG: [Dir; 4] = [NE, NW, SE, SW];
const ORTH: [Dir; 4] = [N, S, E, W];
const ALL8: [Dir; 8] = [NE, NW, SE, SW, N, S, E, W];
const WHITE_DIAG: [Dir; 2] = [NE, NW];
const BLACK_DIAG: [Dir; 2] = [SE, SW];
const WHITE_ORTH: [Dir; 3] = [N, E, W];
const BLACK_ORTH: [Dir; 3] = [S, E, W];

/// Directions in which men of `c` move without capturing.
#[inline(always)]
pub fn man_move_dirs<R: Rules>(c: Color) -> &'static [Dir] {
    match (R::ORTHOGONAL, c) {
        (true, Color::White) => &WHITE_ORTH,
        (true, Color::Black) => &BLACK_ORTH,
        (false, Color::White) => &WHITE_DIAG,
        (false, Color::Black) => &BLACK_DIAG,
    }
}

/// Directions in which men of `c` capture.
#[inline(always)]
pub fn man_capture_dirs<R: Rules>(c: Color) -> &'static [Dir] {
    if R::ORTHOGONAL_CAPTURES {
        &ALL8
    } else if R::MEN_CAPTURE_BACKWARD && !R::ORTHOGONAL {
        &DIAG
    } else {
        man_move_dirs::<R>(c)
    }
}

/// Directions in which kings move without capturing.
#[inline(always)]
pub fn king_move_dirs<R: Rules>() -> &'static [Dir] {
    if R::ORTHOGONAL {
        &ORTH
    } else {
        &DIAG
    }
}

/// Directions in which kings capture.
#[inline(always)]
pub fn king_capture_dirs<R: Rules>() -> &'static [Dir] {
    if R::ORTHOGONAL_CAPTURES {
        &ALL8
    } else {
        king_move_dirs::<R>()
    }
}

#[inline(always)]
const fn side(white: bool) -> Color {
    if white {
        Color::White
    } else {
        Color::Black
    }
}

/// Enemy pieces that a man of the side to move may capture.
#[inline(always)]
fn man_targets<R: Rules, const WHITE: bool>(pos: &Position<R>) -> BB<R> {
    let them = !side(WHITE);
    if R::MEN_CAPTURE_KINGS {
        pos.pieces(them)
    } else {
        pos.men(them)
    }
}

/// Men of the side to move that can make at least one capture.
#[inline(always)]
fn man_capturers<R: Rules, const WHITE: bool>(pos: &Position<R>) -> BB<R> {
    let empty = pos.empty();
    let targets = man_targets::<R, WHITE>(pos);
    let men = pos.men(side(WHITE));
    let mut from = BB::<R>::ZERO;
    for &d in man_capture_dirs::<R>(side(WHITE)) {
        let back = OPPOSITE[d];
        from |= step::<R::G>(step::<R::G>(empty, back) & targets, back);
    }
    from & men
}

/// True when some king of the side to move can capture.
#[inline(always)]
fn king_can_capture<R: Rules, const WHITE: bool>(pos: &Position<R>) -> bool {
    let kings = pos.kings_of(side(WHITE));
    if kings.is_empty() {
        return false;
    }
    let empty = pos.empty();
    let targets = pos.pieces(!side(WHITE));
    for &d in king_capture_dirs::<R>() {
        let mut f = step::<R::G>(kings, d);
        loop {
            if (step::<R::G>(f & targets, d) & empty).any() {
                return true;
            }
            if R::KING == KingRange::Short {
                break;
            }
            f &= empty;
            if f.is_empty() {
                break;
            }
            f = step::<R::G>(f, d);
        }
    }
    false
}

/// True when the side to move must capture.
#[inline]
pub fn has_capture<R: Rules>(pos: &Position<R>) -> bool {
    can_capture(pos, pos.side())
}

/// True when `c` would have a capture if it were to move (a threat, when `c` is not
/// the side to move).
#[inline]
pub fn can_capture<R: Rules>(pos: &Position<R>, c: Color) -> bool {
    match c {
        Color::White => man_capturers::<R, true>(pos).any() || king_can_capture::<R, true>(pos),
        Color::Black => man_capturers::<R, false>(pos).any() || king_can_capture::<R, false>(pos),
    }
}

/// Generates every legal move into `sink`.
#[inline]
pub fn generate<R: Rules, S: Sink<BB<R>>>(pos: &Position<R>, sink: &mut S) {
    match pos.side() {
        Color::White => generate_for::<R, S, true>(pos, sink),
        Color::Black => generate_for::<R, S, false>(pos, sink),
    }
}

#[inline(always)]
fn generate_for<R: Rules, S: Sink<BB<R>>, const WHITE: bool>(pos: &Position<R>, sink: &mut S) {
    let men = man_capturers::<R, WHITE>(pos);
    if men.any() || king_can_capture::<R, WHITE>(pos) {
        generate_captures::<R, S, WHITE>(pos, men, sink);
    } else {
        generate_quiet::<R, S, WHITE>(pos, sink);
    }
}

/// Kings of the side to move barred from non-capturing moves (Frisian).
#[inline(always)]
fn restricted_king<R: Rules>(pos: &Position<R>, us: Color) -> BB<R> {
    if R::KING_MOVE_LIMIT == 0 {
        return BB::<R>::ZERO;
    }
    let run = pos.king_runs()[us.index()];
    if run.count >= R::KING_MOVE_LIMIT && pos.men(us).any() {
        BB::<R>::bit(run.bit as u32) & pos.kings_of(us)
    } else {
        BB::<R>::ZERO
    }
}

fn generate_quiet<R: Rules, S: Sink<BB<R>>, const WHITE: bool>(pos: &Position<R>, sink: &mut S) {
    let us = side(WHITE);
    let empty = pos.empty();
    let crown = Position::<R>::crowning_row(us);
    let men = pos.men(us);
    for &d in man_move_dirs::<R>(us) {
        let off = R::G::LAYOUT.offset[d];
        for to in (step::<R::G>(men, d) & empty).iter() {
            sink.quiet((to as i32 - off) as u32, to, crown.has(to));
        }
    }
    let kings = pos.kings_of(us) & !restricted_king(pos, us);
    for from in kings.iter() {
        let f = BB::<R>::bit(from);
        for &d in king_move_dirs::<R>() {
            let mut t = step::<R::G>(f, d) & empty;
            while t.any() {
                sink.quiet(from, t.lowest(), false);
                if R::KING == KingRange::Short {
                    break;
                }
                t = step::<R::G>(t, d) & empty;
            }
        }
    }
}

/// Counts the quiet moves of a position without captures.
#[inline]
fn count_quiet<R: Rules, const WHITE: bool>(pos: &Position<R>) -> u64 {
    let us = side(WHITE);
    let empty = pos.empty();
    let men = pos.men(us);
    let mut n = 0u64;
    for &d in man_move_dirs::<R>(us) {
        n += (step::<R::G>(men, d) & empty).count() as u64;
    }
    let kings = pos.kings_of(us) & !restricted_king(pos, us);
    if kings.any() {
        for &d in king_move_dirs::<R>() {
            let mut f = step::<R::G>(kings, d) & empty;
            while f.any() {
                n += f.count() as u64;
                if R::KING == KingRange::Short {
                    break;
                }
                f = step::<R::G>(f, d) & empty;
            }
        }
    }
    n
}

/// Number of legal moves, capture routes counted by `routes`.
#[inline]
pub fn count_moves<R: Rules>(pos: &Position<R>, routes: Routes) -> u64 {
    match pos.side() {
        Color::White => count_for::<R, true>(pos, routes),
        Color::Black => count_for::<R, false>(pos, routes),
    }
}

#[inline(always)]
fn count_for<R: Rules, const WHITE: bool>(pos: &Position<R>, routes: Routes) -> u64 {
    let men = man_capturers::<R, WHITE>(pos);
    if men.any() || king_can_capture::<R, WHITE>(pos) {
        let mut list = MoveList::with_routes(routes);
        generate_captures::<R, _, WHITE>(pos, men, &mut list);
        list.len() as u64
    } else {
        count_quiet::<R, WHITE>(pos)
    }
}

fn generate_captures<R: Rules, S: Sink<BB<R>>, const WHITE: bool>(pos: &Position<R>, men: BB<R>, sink: &mut S) {
    let us = side(WHITE);
    let them = !us;
    let every_landing = sink.every_landing().unwrap_or(R::COLLINEAR_ROUTES_DISTINCT);
    let mut dfs = Dfs::<R, S, WHITE> {
        sink,
        from: 0,
        occ: pos.occupied(),
        enemy: pos.pieces(them),
        enemy_kings: pos.kings_of(them),
        crown: Position::<R>::crowning_row(us),
        captured: BB::<R>::ZERO,
        with_king: false,
        order: 0,
        path: [0; MAX_PATH],
        len: 1,
        every_landing,
    };
    let all = pos.occupied();
    for from in men.iter() {
        dfs.start(all, from, false);
        dfs.man(from);
    }
    for from in pos.kings_of(us).iter() {
        dfs.start(all, from, true);
        dfs.king(from, usize::MAX, true, false);
    }
}

struct Dfs<'a, R: Rules, S, const WHITE: bool> {
    sink: &'a mut S,
    from: u32,
    occ: BB<R>,
    enemy: BB<R>,
    enemy_kings: BB<R>,
    crown: BB<R>,
    captured: BB<R>,
    with_king: bool,
    order: u32,
    path: [u8; MAX_PATH],
    len: usize,
    /// A king going on along a line is offered from every landing square before the
    /// next piece, not only from the last one ([`Sink::every_landing`]).
    every_landing: bool,
}

impl<R: Rules, S: Sink<BB<R>>, const WHITE: bool> Dfs<'_, R, S, WHITE> {
    #[inline(always)]
    fn start(&mut self, all: BB<R>, from: u32, king: bool) {
        self.from = from;
        self.occ = all & !BB::<R>::bit(from);
        self.with_king = king;
        self.captured = BB::<R>::ZERO;
        self.order = 0;
        self.path[0] = from as u8;
        self.len = 1;
    }

    #[inline(always)]
    fn empty(&self) -> BB<R> {
        if R::REMOVE_AS_JUMPED {
            valid::<R::G>() & !(self.occ & !self.captured)
        } else {
            valid::<R::G>() & !self.occ
        }
    }

    #[inline(always)]
    fn take(&mut self, piece: BB<R>) -> u32 {
        let saved = self.order;
        if R::PRECEDENCE == Precedence::Italian && (piece & self.enemy_kings).any() {
            // Earlier kings weigh more: the k-th capture sets bit 31 - k.
            self.order |= 1 << (32 - self.len);
        }
        self.captured |= piece;
        saved
    }

    #[inline(always)]
    fn untake(&mut self, piece: BB<R>, saved: u32) {
        self.captured ^= piece;
        self.order = saved;
    }

    #[inline(always)]
    fn emit(&mut self, to: u32, promote: bool) {
        let captured = self.captured;
        let key = match R::PRECEDENCE {
            Precedence::Free => 0,
            Precedence::Count => captured.count() as u64,
            Precedence::CountThenKings => {
                ((captured.count() as u64) << 8) | (captured & self.enemy_kings).count() as u64
            }
            Precedence::Italian => {
                ((captured.count() as u64) << 48)
                    | ((self.with_king as u64) << 47)
                    | (((captured & self.enemy_kings).count() as u64) << 40)
                    | self.order as u64
            }
            Precedence::KingFirst => self.with_king as u64,
            Precedence::FrisianValue => {
                let n = captured.count() as u64;
                let k = (captured & self.enemy_kings).count() as u64;
                ((((n + k) << 8) - k) << 1) | self.with_king as u64
            }
        };
        let mv = Move { from: self.from as u8, to: to as u8, promote, captured };
        let len = self.len;
        self.sink.capture(mv, key, &self.path[..len]);
    }

    #[inline(always)]
    fn push(&mut self, sq: u32) {
        if self.len < MAX_PATH {
            self.path[self.len] = sq as u8;
        }
        self.len += 1;
    }

    /// Cheap test: could a man on `here` capture once more (with the current captures)?
    #[inline(always)]
    fn man_may_continue(&self, here: BB<R>) -> bool {
        let empty = self.empty();
        let mut targets = self.enemy & !self.captured;
        if !R::MEN_CAPTURE_KINGS {
            targets &= !self.enemy_kings;
        }
        man_capture_dirs::<R>(side(WHITE))
            .iter()
            .any(|&d| (step::<R::G>(step::<R::G>(here, d) & targets, d) & empty).any())
    }

    /// Continues a man's capture from `sq`; returns true when it could capture.
    fn man(&mut self, sq: u32) -> bool {
        let here = BB::<R>::bit(sq);
        let empty = self.empty();
        let mut targets = self.enemy & !self.captured;
        if !R::MEN_CAPTURE_KINGS {
            targets &= !self.enemy_kings;
        }
        let mut found = false;
        for &d in man_capture_dirs::<R>(side(WHITE)) {
            let over = step::<R::G>(here, d) & targets;
            if over.is_empty() {
                continue;
            }
            let land = step::<R::G>(over, d) & empty;
            if land.is_empty() {
                continue;
            }
            found = true;
            let to = land.lowest();
            let saved = self.take(over);
            self.push(to);
            let crowned = (land & self.crown).any();
            if R::CROWN_MID_CAPTURE && crowned {
                if !self.king(to, d, true, true) {
                    self.emit(to, true);
                }
            } else if !self.man_may_continue(land) || !self.man(to) {
                self.emit(to, crowned);
            }
            self.len -= 1;
            self.untake(over, saved);
        }
        found
    }

    /// Continues a king's capture from `sq` after a jump in direction `last`
    /// (`usize::MAX` at the start); `ahead` is false when more empty squares follow
    /// on that line; `crowned` marks a man crowned during this move.
    fn king(&mut self, sq: u32, last: Dir, ahead: bool, crowned: bool) -> bool {
        let here = BB::<R>::bit(sq);
        let empty = self.empty();
        let targets = self.enemy & !self.captured;
        let mut found = false;
        for &d in king_capture_dirs::<R>() {
            if (R::NO_REVERSE && last < 8 && OPPOSITE[d] == last) || (!ahead && d == last) {
                continue;
            }
            let mut over = step::<R::G>(here, d);
            if R::KING != KingRange::Short {
                while (over & empty).any() {
                    over = step::<R::G>(over, d);
                }
            }
            over &= targets;
            if over.is_empty() {
                continue;
            }
            let first = step::<R::G>(over, d) & empty;
            if first.is_empty() {
                continue;
            }
            found = true;
            let saved = self.take(over);
            let mut goes_on = false;
            let mut land = first;
            while land.any() {
                let to = land.lowest();
                let next = if R::KING == KingRange::Flying { step::<R::G>(land, d) & empty } else { BB::<R>::ZERO };
                self.push(to);
                // Going on along the same line is one route, found from the last
                // landing square only; from nearer squares the king turns.
                goes_on |= self.king(to, d, self.every_landing || next.is_empty(), crowned);
                self.len -= 1;
                land = next;
            }
            if !goes_on {
                // No landing square lets the capture continue: each one ends the move.
                let mut land = first;
                while land.any() {
                    let to = land.lowest();
                    self.push(to);
                    self.emit(to, crowned);
                    self.len -= 1;
                    if R::KING != KingRange::Flying {
                        break;
                    }
                    land = step::<R::G>(land, d) & empty;
                }
            }
            self.untake(over, saved);
        }
        found
    }
}

/// Non-capturing moves `c` could make if it were to move (a mobility measure).
pub fn quiet_mobility<R: Rules>(pos: &Position<R>, c: Color) -> u64 {
    match c {
        Color::White => count_quiet::<R, true>(pos),
        Color::Black => count_quiet::<R, false>(pos),
    }
}

/// True when the side to move has a legal move (cheaper than generating them).
pub fn has_moves<R: Rules>(pos: &Position<R>) -> bool {
    has_capture(pos) || quiet_mobility(pos, pos.side()) > 0
}

/// All legal moves of a position (duplicate routes merged).
pub fn legal_moves<R: Rules>(pos: &Position<R>) -> MoveList<BB<R>> {
    let mut list = MoveList::new();
    generate(pos, &mut list);
    list
}

/// True when `mv` is one of the legal moves of `pos`. Quiet moves are checked
/// directly against the board; captures against the generated sequences.
pub fn is_legal<R: Rules>(pos: &Position<R>, mv: &Move<BB<R>>) -> bool {
    let l = R::G::LAYOUT;
    let us = pos.side();
    if mv.from as usize >= 128
        || mv.to as usize >= 128
        || l.row_of_bit[mv.from as usize] < 0
        || l.row_of_bit[mv.to as usize] < 0
    {
        return false;
    }
    let from = BB::<R>::bit(mv.from as u32);
    let to = BB::<R>::bit(mv.to as u32);
    if (pos.pieces(us) & from).is_empty() {
        return false;
    }
    if mv.captured.any() {
        return legal_moves(pos).as_slice().contains(mv);
    }
    if has_capture(pos) || (pos.empty() & to).is_empty() {
        return false;
    }
    let is_king = (pos.kings() & from).any();
    if !is_king {
        let crowned = (Position::<R>::crowning_row(us) & to).any();
        return mv.promote == crowned && man_move_dirs::<R>(us).iter().any(|&d| step::<R::G>(from, d) == to);
    }
    if mv.promote || (restricted_king(pos, us) & from).any() {
        return false;
    }
    let empty = pos.empty();
    king_move_dirs::<R>().iter().any(|&d| {
        let mut x = step::<R::G>(from, d) & empty;
        while x.any() {
            if x == to {
                return true;
            }
            if R::KING == KingRange::Short {
                return false;
            }
            x = step::<R::G>(x, d) & empty;
        }
        false
    })
}
