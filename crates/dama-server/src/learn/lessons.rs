//! The lessons and practice positions as data (`lessons.json`, `practice.json`), read
//! once and checked: every lesson of every rulebook its rules call for, its squares
//! named in the variant's notation and its position a legal FEN of the variant.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use dama_core::any::AnyPosition;
use dama_core::Variant;
use serde::{Deserialize, Serialize};

use super::rules::{tags, TAGS};

/// What the learner must do.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Goal {
    /// Bring a piece to this square.
    Reach {
        /// The square (in the variant's notation once read for a variant).
        square: String,
    },
    /// Crown a man.
    Crown,
    /// Take every piece of the opponent.
    CaptureAll,
    /// Take at least this many pieces in one move.
    Capture {
        /// How many.
        n: u32,
    },
    /// Draw the game by one of its rules.
    Draw,
    /// Practice: play the winning line (the opponent's replies are the line's).
    Line,
}

/// How the opponent answers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Replies {
    /// The opponent does not move: the learner moves again.
    Pass,
    /// The opponent's moves, one after each of the learner's.
    Moves(Vec<String>),
    /// The engine answers (a short search: the opponent plays on as in a game).
    Engine,
}

/// A move the rules refuse, and the reason they give (`Illegal`'s tag): for the tests.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Wrong {
    /// The move.
    #[serde(rename = "move")]
    pub text: String,
    /// The reason.
    pub why: String,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum RepliesData {
    Word(String),
    Moves(Vec<String>),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LessonData {
    id: String,
    when: Vec<String>,
    white: Vec<String>,
    black: Vec<String>,
    goal: Goal,
    moves: usize,
    replies: RepliesData,
    solution: Vec<String>,
    #[serde(default)]
    wrong: Option<Wrong>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LessonFile {
    #[allow(dead_code)]
    about: String,
    lessons: Vec<LessonData>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PracticeData {
    fen: String,
    line: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PracticeFile {
    #[allow(dead_code)]
    about: String,
    variants: BTreeMap<String, Vec<PracticeData>>,
}

/// A lesson or practice position of one rulebook.
#[derive(Clone, Debug, Serialize)]
pub struct Lesson {
    /// Its id: the lesson's name (its texts are `learn_<id>_title`, `_text`,
    /// `_hint`), or `p1`..`p10` for the practice positions.
    pub id: String,
    /// A practice position, not a lesson.
    pub practice: bool,
    /// The position, the learner to move.
    pub fen: String,
    /// What the learner must do.
    pub goal: Goal,
    /// The most moves the learner has for it.
    pub moves: usize,
    /// The opponent's answers.
    #[serde(skip)]
    pub replies: Replies,
    /// A way to reach the goal (the learner's moves), for the tests and the hint of a
    /// practice position.
    #[serde(skip)]
    pub solution: Vec<String>,
    /// A move the rules refuse here, and why.
    #[serde(skip)]
    pub wrong: Option<Wrong>,
}

/// How many practice positions each rulebook has.
pub const PRACTICE: usize = 10;

/// A square of the lesson board (`c3`: an 8x8 board seen from White, on a larger
/// board its ranks raised by the rows it has more) in the variant's notation.
pub fn square(variant: Variant, canonical: &str) -> Result<String, String> {
    let none = || format!("{variant}: no square {canonical}");
    let mut chars = canonical.chars();
    let file = chars.next().filter(char::is_ascii_lowercase).ok_or_else(none)?;
    let rank: usize = chars.as_str().parse().map_err(|_| none())?;
    if !(1..=8).contains(&rank) {
        return Err(none());
    }
    let board = variant.board();
    // Rows of the board view are counted from the top, White at the bottom.
    let (row, col) = (8 - rank, (file as u8 - b'a') as usize);
    board.squares.iter().find(|s| s.1 == row && s.2 == col).map(|s| s.0.clone()).ok_or_else(none)
}

/// A move of the lesson board (`c3-d4`, `a1xc3xe5`) in the variant's notation.
pub fn move_text(variant: Variant, canonical: &str) -> Result<String, String> {
    let mut out = String::new();
    let mut word = String::new();
    for c in canonical.chars().chain(std::iter::once('-')) {
        if c == '-' || c == 'x' {
            out.push_str(&square(variant, &word)?);
            out.push(c);
            word.clear();
        } else {
            word.push(c);
        }
    }
    out.pop();
    Ok(out)
}

fn fen_of(variant: Variant, white: &[String], black: &[String]) -> Result<String, String> {
    let side = |list: &[String]| -> Result<String, String> {
        let named: Result<Vec<String>, String> = list
            .iter()
            .map(|p| match p.strip_prefix('K') {
                Some(sq) => square(variant, sq).map(|s| format!("K{s}")),
                None => square(variant, p),
            })
            .collect();
        Ok(named?.join(","))
    };
    let fen = format!("W:W{}:B{}", side(white)?, side(black)?);
    AnyPosition::new(variant, Some(&fen)).map_err(|e| format!("{variant}: {fen}: {e}"))?;
    Ok(fen)
}

fn lesson_for(variant: Variant, d: &LessonData) -> Result<Lesson, String> {
    let goal = match &d.goal {
        Goal::Reach { square: s } => Goal::Reach { square: square(variant, s)? },
        g => g.clone(),
    };
    let moves = |list: &[String]| list.iter().map(|m| move_text(variant, m)).collect::<Result<Vec<_>, _>>();
    let replies = match &d.replies {
        RepliesData::Word(w) if w == "pass" => Replies::Pass,
        RepliesData::Word(w) if w == "engine" => Replies::Engine,
        RepliesData::Word(w) => return Err(format!("{}: replies: \"pass\", \"engine\" or moves, not \"{w}\"", d.id)),
        RepliesData::Moves(m) => Replies::Moves(moves(m)?),
    };
    let wrong = match &d.wrong {
        Some(w) => Some(Wrong { text: move_text(variant, &w.text)?, why: w.why.clone() }),
        None => None,
    };
    Ok(Lesson {
        id: d.id.clone(),
        practice: false,
        fen: fen_of(variant, &d.white, &d.black)?,
        goal,
        moves: d.moves,
        replies,
        solution: moves(&d.solution)?,
        wrong,
    })
}

/// Every rulebook's lessons then its practice positions.
type Book = BTreeMap<Variant, Vec<Lesson>>;

fn read() -> Result<Book, String> {
    let lessons: LessonFile =
        serde_json::from_str(include_str!("lessons.json")).map_err(|e| format!("lessons: {e}"))?;
    let practice: PracticeFile =
        serde_json::from_str(include_str!("practice.json")).map_err(|e| format!("practice: {e}"))?;
    let mut book = Book::new();
    for d in &lessons.lessons {
        if let Some(t) = d.when.iter().find(|t| !TAGS.contains(&t.as_str())) {
            return Err(format!("{}: no rule is called \"{t}\"", d.id));
        }
    }
    for v in Variant::ALL {
        let has = tags(v);
        let mut list = Vec::new();
        for d in lessons.lessons.iter().filter(|d| d.when.iter().all(|t| has.contains(&t.as_str()))) {
            list.push(lesson_for(v, d)?);
        }
        let positions = practice.variants.get(v.key()).map(Vec::as_slice).unwrap_or_default();
        if positions.len() != PRACTICE {
            return Err(format!("{v}: {} practice positions, not {PRACTICE}", positions.len()));
        }
        for (i, p) in positions.iter().enumerate() {
            AnyPosition::new(v, Some(&p.fen)).map_err(|e| format!("{v} p{}: {e}", i + 1))?;
            list.push(Lesson {
                id: format!("p{}", i + 1),
                practice: true,
                fen: p.fen.clone(),
                goal: Goal::Line,
                moves: p.line.len().div_ceil(2),
                replies: Replies::Moves(p.line.iter().skip(1).step_by(2).cloned().collect()),
                solution: p.line.iter().step_by(2).cloned().collect(),
                wrong: None,
            });
        }
        if let Some(l) = list.iter().enumerate().find(|(i, l)| list[..*i].iter().any(|m| m.id == l.id)) {
            return Err(format!("{v}: two lessons \"{}\"", l.1.id));
        }
        book.insert(v, list);
    }
    Ok(book)
}

static BOOK: LazyLock<Result<Book, String>> = LazyLock::new(read);

/// The lessons and practice positions of a rulebook, or why the data does not read
/// (the tests read it all).
pub fn of(variant: Variant) -> Result<&'static [Lesson], String> {
    match &*BOOK {
        Ok(book) => Ok(book.get(&variant).map(Vec::as_slice).unwrap_or_default()),
        Err(e) => Err(e.clone()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_are_named_in_each_notation() {
        assert_eq!(square(Variant::Russian, "c3").unwrap(), "c3");
        assert_eq!(square(Variant::English, "a1").unwrap(), "29");
        assert_eq!(square(Variant::International, "a1").unwrap(), "36");
        assert_eq!(square(Variant::Turkish, "d4").unwrap(), "d4");
        assert!(square(Variant::English, "a2").is_err(), "a light square");
        assert_eq!(move_text(Variant::English, "a1xc3xe5").unwrap(), "29x22x15");
    }

    #[test]
    fn every_rulebook_has_its_lessons() {
        for v in Variant::ALL {
            let list = of(v).unwrap();
            let lessons = list.iter().filter(|l| !l.practice).count();
            assert!(lessons >= 8, "{v}: {lessons} lessons");
            assert_eq!(list.iter().filter(|l| l.practice).count(), PRACTICE, "{v}");
        }
        let ids = |v| of(v).unwrap().iter().map(|l| l.id.as_str()).collect::<Vec<_>>();
        assert!(ids(Variant::Russian).contains(&"crown_mid_capture"));
        assert!(!ids(Variant::International).contains(&"crown_mid_capture"));
        assert!(ids(Variant::International).contains(&"majority"));
        assert!(ids(Variant::Turkish).contains(&"tr_majority") && !ids(Variant::Turkish).contains(&"men_move"));
    }
}
