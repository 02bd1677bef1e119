//! The Hub protocol, version 2 (Scan's `protocol.txt`), as a state machine without I/O:
//! the adapter feeds it lines and writes out what it answers.
//!
//! dama's dialect, beyond the standard:
//! - `param name=variant` takes dama's variant keys (`english`, `russian`, `turkish`,
//!   ...); `normal` means `international`. Default: `international`.
//! - `param name=level` (1-10) plays at a level; 10 is full strength.
//! - `pos pos=<side><one char per square>` for every variant, the squares in the
//!   variant's numeric order (Turkish: 64 squares by rows from a8; algebraic variants:
//!   the standard numbering, 1 at the top left dark square); or `pos fen="<PDN FEN>"`.
//! - moves (in `pos moves=` and `done move=`) use Hub's capture form `from x to x
//!   captured ...`; `pos moves=` also reads the variant's own notation.

use dama_core::notation::{move_to_string, parse_move, square_name_styled, SquareStyle};
use dama_core::{Bits, Color, Position, Rules, Variant, VariantFn};

use crate::level::Level;
use crate::search::Limits;
use crate::time::{limits, Clock};

/// A parsed line: command and `name=value` arguments (flags have an empty value).
pub fn parse_line(line: &str) -> (String, Vec<(String, String)>) {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    for c in line.trim().chars() {
        match c {
            '"' => quoted = !quoted,
            c if c.is_whitespace() && !quoted => {
                if !cur.is_empty() {
                    words.push(std::mem::take(&mut cur));
                }
            }
            c => cur.push(c),
        }
    }
    if !cur.is_empty() {
        words.push(cur);
    }
    let mut it = words.into_iter();
    let cmd = it.next().unwrap_or_default();
    let args = it
        .map(|w| match w.split_once('=') {
            Some((k, v)) => (k.to_string(), v.to_string()),
            None => (w, String::new()),
        })
        .collect();
    (cmd, args)
}

fn quote(s: &str) -> String {
    if s.is_empty() || s.contains([' ', '=', '"']) {
        format!("\"{}\"", s.replace('"', "'"))
    } else {
        s.to_string()
    }
}

/// A move in Hub's form: quiet `32-28`, capture `from x to x captured ...`.
pub fn hub_move<R: Rules>(pos: &Position<R>, mv: &dama_core::Move<dama_core::BB<R>>) -> String {
    let l = <R::G as dama_core::geometry::Geometry>::LAYOUT;
    let name = |b: u32| square_name_styled::<R>(l.index_of_bit[b as usize] as usize, SquareStyle::Numeric);
    if !mv.is_capture() {
        return move_to_string(pos, mv, false).replace(':', "x");
    }
    let mut parts = vec![name(mv.from as u32), name(mv.to as u32)];
    parts.extend(mv.captured.iter().map(name));
    parts.join("x")
}

/// Reads a move in Hub's capture form or the variant's own notation.
pub fn parse_hub_move<R: Rules>(pos: &Position<R>, text: &str) -> Result<dama_core::Move<dama_core::BB<R>>, String> {
    let list = dama_core::movegen::legal_moves(pos);
    if let Some(m) = list.iter().find(|m| hub_move(pos, m) == text) {
        return Ok(*m);
    }
    // Captured squares may come in any order.
    if text.contains('x') {
        let mut want: Vec<&str> = text.split('x').collect();
        if want.len() >= 2 {
            want[2..].sort_unstable();
            for m in list.iter() {
                let h = hub_move(pos, m);
                let mut got: Vec<&str> = h.split('x').collect();
                if got.len() >= 2 {
                    got[2..].sort_unstable();
                }
                if got == want {
                    return Ok(*m);
                }
            }
        }
    }
    parse_move(pos, text).map_err(|e| e.to_string())
}

/// Reads Hub's `pos=` string: side letter then one character per square.
pub fn parse_hub_pos<R: Rules>(s: &str) -> Result<Position<R>, String> {
    let l = <R::G as dama_core::geometry::Geometry>::LAYOUT;
    let mut chars = s.chars();
    let side = match chars.next() {
        Some('W') | Some('w') => Color::White,
        Some('B') | Some('b') => Color::Black,
        _ => return Err("pos must start with W or B".into()),
    };
    let squares: Vec<char> = chars.collect();
    if squares.len() != l.squares {
        return Err(format!("pos has {} squares, this board has {}", squares.len(), l.squares));
    }
    let mut setup = dama_core::Setup { side, ..Default::default() };
    for (n, c) in squares.iter().enumerate() {
        let name = (n + 1).to_string();
        let i = (0..l.squares)
            .find(|&i| square_name_styled::<R>(i, SquareStyle::Numeric) == name)
            .ok_or_else(|| format!("no square {name}"))?;
        match c {
            'w' => setup.men[0] |= 1 << i,
            'b' => setup.men[1] |= 1 << i,
            'W' => setup.kings[0] |= 1 << i,
            'B' => setup.kings[1] |= 1 << i,
            'e' | '.' => {}
            c => return Err(format!("unexpected '{c}' in pos at square {name}")),
        }
    }
    Position::from_setup(&setup).map_err(|e| e.to_string())
}

/// Writes Hub's `pos=` string: side letter then one character per square.
pub fn write_hub_pos<R: Rules>(pos: &Position<R>) -> String {
    let l = <R::G as dama_core::geometry::Geometry>::LAYOUT;
    let mut by_number = vec!['e'; l.squares];
    for i in 0..l.squares {
        let n: usize = square_name_styled::<R>(i, SquareStyle::Numeric).parse().unwrap_or(1);
        let b = l.bit_of[i] as u32;
        let king = pos.kings().has(b);
        by_number[n - 1] = match (pos.pieces(Color::White).has(b), pos.pieces(Color::Black).has(b), king) {
            (true, _, false) => 'w',
            (true, _, true) => 'W',
            (_, true, false) => 'b',
            (_, true, true) => 'B',
            _ => 'e',
        };
    }
    std::iter::once(pos.side().letter()).chain(by_number).collect()
}

/// What the adapter must do after a line.
#[derive(Debug)]
pub enum Action {
    /// Write these lines.
    Reply(Vec<String>),
    /// Start a search with these limits (write `info` lines and `done` when it ends).
    Search {
        /// Search limits.
        limits: Limits,
        /// Playing level.
        level: Level,
        /// The position: FEN.
        fen: String,
        /// Moves played from it (the variant's own long notation).
        moves: Vec<String>,
        /// Pondering: search without a time limit until `ponder-hit` or `stop`.
        ponder: bool,
    },
    /// The opponent played the move pondered on: the search now keeps to `limits`,
    /// counted from now.
    PonderHit,
    /// Stop the running search.
    Stop,
    /// Quit.
    Quit,
}

/// The protocol state between searches.
pub struct Hub {
    /// Variant being played.
    pub variant: Variant,
    /// Playing level.
    pub level: Level,
    fen: Option<String>,
    moves: Vec<String>,
    /// Limits of the next search.
    pub limits: Limits,
    /// Search threads.
    pub threads: usize,
}

impl Default for Hub {
    fn default() -> Self {
        Hub {
            variant: Variant::International,
            level: Level::full(),
            fen: None,
            moves: Vec::new(),
            limits: Limits::default(),
            threads: 1,
        }
    }
}

struct SetPos<'a>(Option<&'a str>, Option<&'a str>, &'a str);
impl VariantFn for SetPos<'_> {
    type Output = Result<(String, Vec<String>), String>;
    fn call<R: Rules>(self) -> Self::Output {
        let mut p = match (self.0, self.1) {
            (Some(hubpos), _) => parse_hub_pos::<R>(hubpos)?,
            (None, Some(fen)) => dama_core::fen::parse_fen::<R>(fen).map_err(|e| e.to_string())?,
            (None, None) => Position::<R>::start(),
        };
        let fen = dama_core::fen::write_fen(&p);
        let mut moves = Vec::new();
        for m in self.2.split_whitespace() {
            let mv = parse_hub_move(&p, m)?;
            moves.push(move_to_string(&p, &mv, true));
            p = p.play(&mv);
        }
        Ok((fen, moves))
    }
}

impl Hub {
    /// Handles one line from the GUI.
    pub fn handle(&mut self, line: &str) -> Action {
        let (cmd, args) = parse_line(line);
        let get = |k: &str| args.iter().find(|(a, _)| a == k).map(|(_, v)| v.as_str());
        let secs = |k: &str| get(k).and_then(|v| v.parse::<f64>().ok()).map(std::time::Duration::from_secs_f64);
        match cmd.as_str() {
            "hub" => {
                let keys: Vec<&str> = Variant::ALL.iter().map(|v| v.key()).collect();
                Action::Reply(vec![
                    format!("id name=dama version={} author=\"dama team\" country=Earth", env!("CARGO_PKG_VERSION")),
                    format!(
                        "param name=variant value={} type=enum values={}",
                        self.variant.key(),
                        quote(&keys.join(" "))
                    ),
                    format!("param name=level value={} type=int min=1 max=10", self.level.number),
                    format!("param name=threads value={} type=int min=1 max=64", self.threads),
                    "wait".to_string(),
                ])
            }
            "set-param" => {
                let (name, value) = (get("name").unwrap_or(""), get("value").unwrap_or(""));
                match name {
                    "variant" => {
                        let v = if value == "normal" { Ok(Variant::International) } else { value.parse::<Variant>() };
                        match v {
                            Ok(v) => {
                                self.variant = v;
                                self.fen = None;
                                self.moves.clear();
                                Action::Reply(vec![])
                            }
                            Err(e) => Action::Reply(vec![format!("error message={}", quote(&e.to_string()))]),
                        }
                    }
                    "level" => match value.parse::<u8>() {
                        Ok(n) if (1..=10).contains(&n) => {
                            self.level = Level::new(n);
                            Action::Reply(vec![])
                        }
                        _ => Action::Reply(vec![format!("error message={}", quote("level must be 1 to 10"))]),
                    },
                    "threads" => match value.parse::<usize>() {
                        Ok(n) if (1..=64).contains(&n) => {
                            self.threads = n;
                            Action::Reply(vec![])
                        }
                        _ => Action::Reply(vec![format!("error message={}", quote("threads must be 1 to 64"))]),
                    },
                    _ => Action::Reply(vec![]),
                }
            }
            "init" => Action::Reply(vec!["ready".to_string()]),
            "ping" => Action::Reply(vec!["pong".to_string()]),
            "new-game" => {
                self.fen = None;
                self.moves.clear();
                Action::Reply(vec![])
            }
            "pos" => match self.variant.visit(SetPos(get("pos"), get("fen"), get("moves").unwrap_or(""))) {
                Ok((fen, moves)) => {
                    self.fen = Some(fen);
                    self.moves = moves;
                    Action::Reply(vec![])
                }
                Err(e) => Action::Reply(vec![format!("error message={}", quote(&e))]),
            },
            "level" => {
                let mut l = Limits::default();
                if let Some(d) = get("depth").and_then(|d| d.parse().ok()) {
                    l.depth = Some(d);
                } else if let Some(n) = get("nodes").and_then(|n| n.parse().ok()) {
                    l.nodes = Some(n);
                } else if let Some(t) = secs("move-time") {
                    l = limits(Clock::MoveTime(t));
                } else if let Some(t) = secs("time") {
                    let clock = Clock::Game {
                        remaining: t,
                        increment: secs("inc").unwrap_or_default(),
                        moves_to_go: get("moves").and_then(|m| m.parse().ok()),
                    };
                    l = limits(clock);
                }
                self.limits = l;
                Action::Reply(vec![])
            }
            "go" => {
                let fen = match &self.fen {
                    Some(f) => f.clone(),
                    None => self.variant.visit(StartFen),
                };
                let level = if args.iter().any(|(a, _)| a == "analyze") { Level::full() } else { self.level };
                let ponder = args.iter().any(|(a, _)| a == "ponder");
                Action::Search { limits: self.limits, level, fen, moves: self.moves.clone(), ponder }
            }
            "ponder-hit" => Action::PonderHit,
            "stop" => Action::Stop,
            "quit" => Action::Quit,
            _ => Action::Reply(vec![]),
        }
    }
}

struct StartFen;
impl VariantFn for StartFen {
    type Output = String;
    fn call<R: Rules>(self) -> String {
        dama_core::fen::write_fen(&Position::<R>::start())
    }
}

/// Converts a move of the variant's own notation to Hub's form, in the position given
/// by `fen` and `moves`.
pub fn to_hub_move(variant: Variant, fen: &str, moves: &[String], mv: &str) -> String {
    struct Conv<'a>(&'a str, &'a [String], &'a str);
    impl VariantFn for Conv<'_> {
        type Output = String;
        fn call<R: Rules>(self) -> String {
            let Ok(mut p) = dama_core::fen::parse_fen::<R>(self.0) else {
                return self.2.to_string();
            };
            for m in self.1 {
                match parse_move(&p, m) {
                    Ok(mv) => p = p.play(&mv),
                    Err(_) => return self.2.to_string(),
                }
            }
            match parse_move(&p, self.2) {
                Ok(mv) => hub_move(&p, &mv),
                Err(_) => self.2.to_string(),
            }
        }
    }
    variant.visit(Conv(fen, moves, mv))
}

#[cfg(test)]
mod tests {
    use super::*;
    use dama_core::variant::{English, International, Turkish};

    #[test]
    fn hub_position_strings_round_trip() {
        let start = Position::<International>::start();
        let s = write_hub_pos(&start);
        assert_eq!(s, format!("W{}{}{}", "b".repeat(20), "e".repeat(10), "w".repeat(20)));
        assert_eq!(parse_hub_pos::<International>(&s).unwrap(), start);
        for fen in ["B:WK4,18:B1,K32", "W:W21-32:B1-12"] {
            let p = dama_core::fen::parse_fen::<English>(fen).unwrap();
            assert_eq!(parse_hub_pos::<English>(&write_hub_pos(&p)).unwrap(), p);
        }
        let t = Position::<Turkish>::start();
        assert_eq!(parse_hub_pos::<Turkish>(&write_hub_pos(&t)).unwrap(), t);
    }

    #[test]
    fn lines_with_quotes_and_flags() {
        let (cmd, args) = parse_line("pos pos=Wee moves=\"32-28 19-23\" analyze");
        assert_eq!(cmd, "pos");
        assert_eq!(args[1], ("moves".to_string(), "32-28 19-23".to_string()));
        assert_eq!(args[2], ("analyze".to_string(), String::new()));
    }
}
