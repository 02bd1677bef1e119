//! What a rulebook's rules are, as the tags a lesson's `when` names: the lessons that
//! apply to a variant follow from its rules in `dama_core` ([`Variant::facts`]), not
//! from a list of names.

use dama_core::variant::{KingRange, Precedence};
use dama_core::Variant;

/// Every tag a lesson may ask for (a lesson naming another is refused when the data
/// is read).
pub const TAGS: &[&str] = &[
    "diagonal",
    "orthogonal",
    "diagonal_captures",
    "orthogonal_captures",
    "short_king",
    "flying_king",
    "free_landing",
    "land_behind",
    "men_capture_back",
    "men_capture_forward",
    "majority",
    "free_choice",
    "king_first",
    "men_cannot_take_kings",
    "crown_mid_capture",
    "crown_at_end",
];

/// The tags of a variant's rules.
pub fn tags(variant: Variant) -> Vec<&'static str> {
    let f = variant.facts();
    let mut t = vec![if f.orthogonal { "orthogonal" } else { "diagonal" }];
    if !f.orthogonal {
        t.push(if f.orthogonal_captures { "orthogonal_captures" } else { "diagonal_captures" });
    }
    match f.king {
        KingRange::Short => t.push("short_king"),
        KingRange::Flying => t.extend(["flying_king", "free_landing"]),
        KingRange::FlyingLandBehind => t.extend(["flying_king", "land_behind"]),
    }
    t.push(if f.men_capture_backward { "men_capture_back" } else { "men_capture_forward" });
    match f.precedence {
        Precedence::Free => t.push("free_choice"),
        Precedence::KingFirst => t.extend(["free_choice", "king_first"]),
        Precedence::Count | Precedence::CountThenKings | Precedence::Italian | Precedence::FrisianValue => {
            t.push("majority")
        }
    }
    if !f.men_capture_kings {
        t.push("men_cannot_take_kings");
    }
    t.push(if f.crown_mid_capture { "crown_mid_capture" } else { "crown_at_end" });
    t
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_follow_the_rules() {
        let has = |v: Variant, t: &str| tags(v).contains(&t);
        assert!(has(Variant::Turkish, "orthogonal") && has(Variant::Turkish, "majority"));
        assert!(has(Variant::Russian, "crown_mid_capture") && has(Variant::Russian, "free_choice"));
        assert!(has(Variant::International, "majority") && has(Variant::International, "crown_at_end"));
        assert!(has(Variant::English, "short_king") && has(Variant::English, "men_capture_forward"));
        assert!(has(Variant::Thai, "land_behind") && !has(Variant::Thai, "free_landing"));
        assert!(has(Variant::Czech, "king_first") && has(Variant::Italian, "men_cannot_take_kings"));
        for v in Variant::ALL {
            assert!(tags(v).iter().all(|t| TAGS.contains(t)), "{v}");
        }
    }
}
