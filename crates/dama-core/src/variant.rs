//! Variants: the rules of each rulebook as data, one zero-sized type each.

use core::fmt;
use core::str::FromStr;

use crate::color::Color;
use crate::geometry::{Dark10, Dark12, Dark8, Full8, Geometry};

/// How far a king moves and where it lands after a capture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KingRange {
    /// One square; captures an adjacent piece landing directly behind it.
    Short,
    /// Any distance; captures at any distance, landing on any empty square beyond.
    Flying,
    /// Any distance, but after a capture lands directly behind the captured piece (Thai).
    FlyingLandBehind,
}

/// Which capture sequence a player must choose among the possible ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Precedence {
    /// Any sequence (English, Russian, Pool, Thai).
    Free,
    /// Most pieces (FMJD, Turkish).
    Count,
    /// Most pieces, then most kings (Spanish, Portuguese).
    CountThenKings,
    /// Most pieces, then with a king, then most kings, then earliest king (Italian).
    Italian,
    /// A king must capture when a king can (Czech).
    KingFirst,
    /// Highest value, a king worth a little under two men; then with a king (Frisian).
    FrisianValue,
}

/// How squares are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notation {
    /// Numbers, 1 at the top left dark square seen from White, left to right.
    Numeric,
    /// Numbers on the mirrored board, 1 at the top left (Italian: 1 = a8).
    NumericItalian,
    /// Numbers from White's bottom right (Spanish, Portuguese: 1 = h1).
    NumericSpanish,
    /// File letter and rank number (a1 at White's lower left).
    Algebraic,
}

/// The variant chosen at run time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Variant {
    /// English draughts / American checkers.
    English,
    /// Russian draughts (shashki).
    Russian,
    /// Turkish draughts (dama).
    Turkish,
    /// Brazilian draughts.
    Brazilian,
    /// International draughts on 10x10.
    International,
    /// American pool checkers.
    Pool,
    /// Italian draughts.
    Italian,
    /// Spanish draughts.
    Spanish,
    /// Portuguese draughts.
    Portuguese,
    /// Czech draughts.
    Czech,
    /// Thai draughts.
    Thai,
    /// Frisian draughts.
    Frisian,
    /// Canadian draughts on 12x12.
    Canadian,
}

impl Variant {
    /// Every variant, in the order the documentation lists them.
    pub const ALL: [Variant; 13] = [
        Variant::English,
        Variant::Russian,
        Variant::Turkish,
        Variant::Brazilian,
        Variant::International,
        Variant::Pool,
        Variant::Italian,
        Variant::Spanish,
        Variant::Portuguese,
        Variant::Czech,
        Variant::Thai,
        Variant::Frisian,
        Variant::Canadian,
    ];

    /// The key used on the command line, in the API and in files.
    pub const fn key(self) -> &'static str {
        match self {
            Variant::English => "english",
            Variant::Russian => "russian",
            Variant::Turkish => "turkish",
            Variant::Brazilian => "brazilian",
            Variant::International => "international",
            Variant::Pool => "pool",
            Variant::Italian => "italian",
            Variant::Spanish => "spanish",
            Variant::Portuguese => "portuguese",
            Variant::Czech => "czech",
            Variant::Thai => "thai",
            Variant::Frisian => "frisian",
            Variant::Canadian => "canadian",
        }
    }

    /// The human name.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::English => "English draughts",
            Variant::Russian => "Russian draughts",
            Variant::Turkish => "Turkish draughts",
            Variant::Brazilian => "Brazilian draughts",
            Variant::International => "International draughts",
            Variant::Pool => "Pool checkers",
            Variant::Italian => "Italian draughts",
            Variant::Spanish => "Spanish draughts",
            Variant::Portuguese => "Portuguese draughts",
            Variant::Czech => "Czech draughts",
            Variant::Thai => "Thai draughts",
            Variant::Frisian => "Frisian draughts",
            Variant::Canadian => "Canadian draughts",
        }
    }

    /// The PDN `GameType` number.
    pub const fn game_type(self) -> u32 {
        match self {
            Variant::English => 21,
            Variant::Russian => 25,
            Variant::Turkish => 30,
            Variant::Brazilian => 26,
            Variant::International => 20,
            Variant::Pool => 23,
            Variant::Italian => 22,
            Variant::Spanish => 24,
            Variant::Portuguese => 28,
            Variant::Czech => 29,
            Variant::Thai => 31,
            Variant::Frisian => 40,
            Variant::Canadian => 27,
        }
    }

    /// The variant of a PDN `GameType` number.
    pub fn from_game_type(n: u32) -> Option<Variant> {
        Variant::ALL.into_iter().find(|v| v.game_type() == n)
    }

    /// Applies `f` to this variant's rules type.
    pub fn visit<F: VariantFn>(self, f: F) -> F::Output {
        match self {
            Variant::English => f.call::<English>(),
            Variant::Russian => f.call::<Russian>(),
            Variant::Turkish => f.call::<Turkish>(),
            Variant::Brazilian => f.call::<Brazilian>(),
            Variant::International => f.call::<International>(),
            Variant::Pool => f.call::<Pool>(),
            Variant::Italian => f.call::<Italian>(),
            Variant::Spanish => f.call::<Spanish>(),
            Variant::Portuguese => f.call::<Portuguese>(),
            Variant::Czech => f.call::<Czech>(),
            Variant::Thai => f.call::<Thai>(),
            Variant::Frisian => f.call::<Frisian>(),
            Variant::Canadian => f.call::<Canadian>(),
        }
    }

    /// Who moves first from the start position.
    pub fn first_to_move(self) -> Color {
        self.visit(FirstToMove)
    }
}

struct FirstToMove;
impl VariantFn for FirstToMove {
    type Output = Color;
    fn call<R: Rules>(self) -> Color {
        R::FIRST
    }
}

/// A function generic over the rules, for run-time dispatch with [`Variant::visit`].
pub trait VariantFn {
    /// What the function returns.
    type Output;
    /// Runs the function for rules `R`.
    fn call<R: Rules>(self) -> Self::Output;
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

/// The variant key was not one dama knows.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown variant '{0}'; known: english, russian, turkish, brazilian, international, pool, italian, spanish, portuguese, czech, thai, frisian, canadian")]
pub struct UnknownVariant(pub String);

impl FromStr for Variant {
    type Err = UnknownVariant;
    fn from_str(s: &str) -> Result<Variant, UnknownVariant> {
        let t = s.trim().to_ascii_lowercase();
        let alias = match t.as_str() {
            "checkers" | "american" | "draughts" => Some(Variant::English),
            "shashki" => Some(Variant::Russian),
            "dama" => Some(Variant::Turkish),
            "standard" | "fmjd" | "10x10" => Some(Variant::International),
            _ => None,
        };
        alias
            .or_else(|| Variant::ALL.into_iter().find(|v| v.key() == t))
            .or_else(|| t.parse::<u32>().ok().and_then(Variant::from_game_type))
            .ok_or_else(|| UnknownVariant(s.to_string()))
    }
}

/// The rules of one variant, as compile-time data.
pub trait Rules: Copy + Default + Send + Sync + fmt::Debug + PartialEq + Eq + core::hash::Hash + 'static {
    /// The board.
    type G: Geometry;
    /// The run-time name of these rules.
    const VARIANT: Variant;
    /// Who moves first.
    const FIRST: Color;
    /// Men of each side on the start position: number of rows filled from each edge,
    /// and the number of empty rows between the edge and the men (Turkish: 1).
    const START_ROWS: usize;
    /// Empty rows at each edge before the men start.
    const START_GAP: usize;
    /// Men and kings move orthogonally instead of diagonally (Turkish).
    const ORTHOGONAL: bool = false;
    /// Captures may also be orthogonal, besides diagonal (Frisian).
    const ORTHOGONAL_CAPTURES: bool = false;
    /// Men capture backward too.
    const MEN_CAPTURE_BACKWARD: bool;
    /// Men may capture kings (false in Italian).
    const MEN_CAPTURE_KINGS: bool = true;
    /// How kings move and capture.
    const KING: KingRange;
    /// Captured pieces leave the board as they are jumped (Turkish, Thai);
    /// otherwise they stay until the sequence ends and block it.
    const REMOVE_AS_JUMPED: bool = false;
    /// A man reaching the far row during a capture is crowned at once and goes on
    /// capturing as a king (Russian).
    const CROWN_MID_CAPTURE: bool = false;
    /// A king may not reverse its direction between two jumps (Turkish).
    const NO_REVERSE: bool = false;
    /// Which capture sequence must be chosen.
    const PRECEDENCE: Precedence;
    /// A king may not make more than this many non-capturing moves in a row while its
    /// side still has men (Frisian: 3); 0 for no limit.
    const KING_MOVE_LIMIT: u8 = 0;
    /// In the "keep every route" perft convention, a flying king that goes on along
    /// the same line counts once per intermediate landing square (kish's convention,
    /// used for Turkish) instead of once (dctl's, used for the others). The merged
    /// move list players see is the same either way.
    const COLLINEAR_ROUTES_DISTINCT: bool = false;
    /// How squares are written.
    const NOTATION: Notation;
    /// Separator of a capture in move text.
    const CAPTURE_SEP: char = 'x';

    /// A position of these rules as a position of any rulebook.
    fn any_position(p: crate::Position<Self>) -> crate::any::AnyPosition;
    /// A game of these rules as the inside of a game of any rulebook.
    fn any_game(g: crate::game::Game<Self>) -> crate::any::Games;
    /// The typed game inside a game of any rulebook, when it is of these rules.
    fn game_in(g: &crate::any::Games) -> Option<&crate::game::Game<Self>>;
}

macro_rules! rules {
    ($(#[$m:meta])* $name:ident { $($body:tt)* }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $name;
        impl Rules for $name {
            $($body)*
            fn any_position(p: crate::Position<Self>) -> crate::any::AnyPosition {
                crate::any::AnyPosition::$name(p)
            }
            fn any_game(g: crate::game::Game<Self>) -> crate::any::Games {
                crate::any::Games::$name(g)
            }
            fn game_in(g: &crate::any::Games) -> Option<&crate::game::Game<Self>> {
                match g {
                    crate::any::Games::$name(g) => Some(g),
                    _ => None,
                }
            }
        }
    };
}

rules!(
    /// English draughts: short kings, men forward only, free choice of capture.
    English {
        type G = Dark8;
        const VARIANT: Variant = Variant::English;
        const FIRST: Color = Color::Black;
        const START_ROWS: usize = 3;
        const START_GAP: usize = 0;
        const MEN_CAPTURE_BACKWARD: bool = false;
        const KING: KingRange = KingRange::Short;
        const PRECEDENCE: Precedence = Precedence::Free;
        const NOTATION: Notation = Notation::Numeric;
    }
);
rules!(
    /// Russian draughts: flying kings, men capture backward, crowning mid-capture, free choice.
    Russian {
        type G = Dark8;
        const VARIANT: Variant = Variant::Russian;
        const FIRST: Color = Color::White;
        const START_ROWS: usize = 3;
        const START_GAP: usize = 0;
        const MEN_CAPTURE_BACKWARD: bool = true;
        const KING: KingRange = KingRange::Flying;
        const CROWN_MID_CAPTURE: bool = true;
        const PRECEDENCE: Precedence = Precedence::Free;
        const NOTATION: Notation = Notation::Algebraic;
        const CAPTURE_SEP: char = ':';
    }
);
rules!(
    /// Turkish draughts: orthogonal moves on all 64 squares, majority rule, pieces removed as jumped.
    Turkish {
        type G = Full8;
        const VARIANT: Variant = Variant::Turkish;
        const FIRST: Color = Color::White;
        const START_ROWS: usize = 2;
        const START_GAP: usize = 1;
        const ORTHOGONAL: bool = true;
        const MEN_CAPTURE_BACKWARD: bool = false;
        const KING: KingRange = KingRange::Flying;
        const REMOVE_AS_JUMPED: bool = true;
        const NO_REVERSE: bool = true;
        const COLLINEAR_ROUTES_DISTINCT: bool = true;
        const PRECEDENCE: Precedence = Precedence::Count;
        const NOTATION: Notation = Notation::Algebraic;
    }
);
rules!(
    /// Brazilian draughts: international rules on 8x8.
    Brazilian {
        type G = Dark8;
        const VARIANT: Variant = Variant::Brazilian;
        const FIRST: Color = Color::White;
        const START_ROWS: usize = 3;
        const START_GAP: usize = 0;
        const MEN_CAPTURE_BACKWARD: bool = true;
        const KING: KingRange = KingRange::Flying;
        const PRECEDENCE: Precedence = Precedence::Count;
        const NOTATION: Notation = Notation::Algebraic;
    }
);
rules!(
    /// International draughts (FMJD) on 10x10.
    International {
        type G = Dark10;
        const VARIANT: Variant = Variant::International;
        const FIRST: Color = Color::White;
        const START_ROWS: usize = 4;
        const START_GAP: usize = 0;
        const MEN_CAPTURE_BACKWARD: bool = true;
        const KING: KingRange = KingRange::Flying;
        const PRECEDENCE: Precedence = Precedence::Count;
        const NOTATION: Notation = Notation::Numeric;
    }
);
rules!(
    /// American pool checkers: flying kings, men capture backward, free choice, Black first.
    Pool {
        type G = Dark8;
        const VARIANT: Variant = Variant::Pool;
        const FIRST: Color = Color::Black;
        const START_ROWS: usize = 3;
        const START_GAP: usize = 0;
        const MEN_CAPTURE_BACKWARD: bool = true;
        const KING: KingRange = KingRange::Flying;
        const PRECEDENCE: Precedence = Precedence::Free;
        const NOTATION: Notation = Notation::Numeric;
    }
);
rules!(
    /// Italian draughts: short kings, men may not take kings, four precedence rules.
    Italian {
        type G = Dark8;
        const VARIANT: Variant = Variant::Italian;
        const FIRST: Color = Color::White;
        const START_ROWS: usize = 3;
        const START_GAP: usize = 0;
        const MEN_CAPTURE_BACKWARD: bool = false;
        const MEN_CAPTURE_KINGS: bool = false;
        const KING: KingRange = KingRange::Short;
        const PRECEDENCE: Precedence = Precedence::Italian;
        const NOTATION: Notation = Notation::NumericItalian;
    }
);
rules!(
    /// Spanish draughts: flying kings, men forward only, most pieces then most kings.
    Spanish {
        type G = Dark8;
        const VARIANT: Variant = Variant::Spanish;
        const FIRST: Color = Color::White;
        const START_ROWS: usize = 3;
        const START_GAP: usize = 0;
        const MEN_CAPTURE_BACKWARD: bool = false;
        const KING: KingRange = KingRange::Flying;
        const PRECEDENCE: Precedence = Precedence::CountThenKings;
        const NOTATION: Notation = Notation::NumericSpanish;
    }
);
rules!(
    /// Portuguese draughts: the Spanish rules.
    Portuguese {
        type G = Dark8;
        const VARIANT: Variant = Variant::Portuguese;
        const FIRST: Color = Color::White;
        const START_ROWS: usize = 3;
        const START_GAP: usize = 0;
        const MEN_CAPTURE_BACKWARD: bool = false;
        const KING: KingRange = KingRange::Flying;
        const PRECEDENCE: Precedence = Precedence::CountThenKings;
        const NOTATION: Notation = Notation::NumericSpanish;
    }
);
rules!(
    /// Czech draughts: flying kings, men forward only, a king must capture when it can.
    Czech {
        type G = Dark8;
        const VARIANT: Variant = Variant::Czech;
        const FIRST: Color = Color::White;
        const START_ROWS: usize = 3;
        const START_GAP: usize = 0;
        const MEN_CAPTURE_BACKWARD: bool = false;
        const KING: KingRange = KingRange::Flying;
        const PRECEDENCE: Precedence = Precedence::KingFirst;
        const NOTATION: Notation = Notation::Algebraic;
        const CAPTURE_SEP: char = ':';
    }
);
rules!(
    /// Thai draughts: 8 men each, kings land directly behind, pieces removed as jumped.
    Thai {
        type G = Dark8;
        const VARIANT: Variant = Variant::Thai;
        const FIRST: Color = Color::Black;
        const START_ROWS: usize = 2;
        const START_GAP: usize = 0;
        const MEN_CAPTURE_BACKWARD: bool = false;
        const KING: KingRange = KingRange::FlyingLandBehind;
        const REMOVE_AS_JUMPED: bool = true;
        const PRECEDENCE: Precedence = Precedence::Free;
        const NOTATION: Notation = Notation::Numeric;
    }
);
rules!(
    /// Frisian draughts: orthogonal captures too, value majority, limited king moves.
    Frisian {
        type G = Dark10;
        const VARIANT: Variant = Variant::Frisian;
        const FIRST: Color = Color::White;
        const START_ROWS: usize = 4;
        const START_GAP: usize = 0;
        const ORTHOGONAL_CAPTURES: bool = true;
        const MEN_CAPTURE_BACKWARD: bool = true;
        const KING: KingRange = KingRange::Flying;
        const PRECEDENCE: Precedence = Precedence::FrisianValue;
        const KING_MOVE_LIMIT: u8 = 3;
        const NOTATION: Notation = Notation::Numeric;
    }
);
rules!(
    /// Canadian draughts: international rules on 12x12.
    Canadian {
        type G = Dark12;
        const VARIANT: Variant = Variant::Canadian;
        const FIRST: Color = Color::White;
        const START_ROWS: usize = 5;
        const START_GAP: usize = 0;
        const MEN_CAPTURE_BACKWARD: bool = true;
        const KING: KingRange = KingRange::Flying;
        const PRECEDENCE: Precedence = Precedence::Count;
        const NOTATION: Notation = Notation::Numeric;
    }
);
