//! The networks built into this binary and which one each variant plays: its family's,
//! one trained for the variant alone, or none (then its pattern weights). A variant has
//! a file of its own where its rules make its games unlike the rest of its family's
//! (Frisian's valued kings and king-move limit, Pool's men that take backwards without
//! the majority rule), so the family's network, learned from other games, misjudges it,
//! or where a later generation trained on its games alone measured ahead (English).

use std::sync::{Arc, OnceLock};

use dama_core::Variant;

use super::{Family, Net};

fn embedded(f: Family) -> &'static [u8] {
    match f {
        Family::ShortKings => include_bytes!("../../weights/short-kings.nnue"),
        Family::Flying8 => include_bytes!("../../weights/flying8.nnue"),
        Family::Flying10 => include_bytes!("../../weights/flying10.nnue"),
        Family::Canadian => include_bytes!("../../weights/canadian.nnue"),
        Family::Orthogonal => include_bytes!("../../weights/orthogonal.nnue"),
    }
}

/// The variants that may have a network of their own, and its file (empty: none).
const OWN: [(Variant, &[u8]); 3] = [
    (Variant::English, include_bytes!("../../weights/english.nnue")),
    (Variant::Frisian, include_bytes!("../../weights/frisian.nnue")),
    (Variant::Pool, include_bytes!("../../weights/pool.nnue")),
];

/// The variants with a network file of their own (`weights/<variant>.nnue`).
pub fn own_variants() -> impl Iterator<Item = Variant> {
    OWN.iter().map(|(v, _)| *v)
}

/// Whether a variant plays with its family's built-in network (when there is one) rather
/// than the pattern weights: only the variants for which a match at 0.1 s a move measured
/// the network ahead of the pattern weights (the figures, and the variants left out, are in
/// docs/training.md, "Which family plays with which"). Russian and Brazilian trained the
/// flying8 network; Spanish and Portuguese (men that do not take backwards, the most
/// pieces first), Czech (kings first) and Thai (kings that stop behind the piece they
/// take) play it too since matches measured it ahead. Frisian and English play networks
/// of their own ([`own`]); Pool its pattern weights.
pub fn plays(v: Variant) -> bool {
    matches!(
        v,
        Variant::International
            | Variant::Russian
            | Variant::Brazilian
            | Variant::Spanish
            | Variant::Portuguese
            | Variant::Czech
            | Variant::Thai
            | Variant::Turkish
            | Variant::Canadian
            | Variant::Italian
    )
}

/// The network built into this binary for a family, if one was kept (an empty file
/// means none: the family plays with its pattern weights).
pub fn builtin(f: Family) -> Option<Arc<Net>> {
    static N: [OnceLock<Option<Arc<Net>>>; Family::ALL.len()] = [const { OnceLock::new() }; Family::ALL.len()];
    N[f.index()].get_or_init(|| parse(embedded(f), f)).clone()
}

/// The network built in for `v` alone, if it has a file of its own and one was kept
/// (a network of `v`'s family's board, trained on `v`'s games).
pub fn own(v: Variant) -> Option<Arc<Net>> {
    static N: [OnceLock<Option<Arc<Net>>>; OWN.len()] = [const { OnceLock::new() }; OWN.len()];
    let i = OWN.iter().position(|(x, _)| *x == v)?;
    N[i].get_or_init(|| parse(OWN[i].1, Family::of_variant(v))).clone()
}

/// A built-in file as a network of family `f`; `None` for an empty file (or one of
/// another family).
fn parse(bytes: &[u8], f: Family) -> Option<Arc<Net>> {
    Net::from_bytes(bytes).ok().filter(|n| n.family == f).map(Arc::new)
}

/// The network `v` plays with: its own where one is built in, otherwise its family's
/// where [`plays`] says so; `None` means its pattern weights.
pub fn for_variant(v: Variant) -> Option<Arc<Net>> {
    own(v).or_else(|| builtin(Family::of_variant(v)).filter(|_| plays(v)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_gets_a_network_of_its_own_board() {
        for v in Variant::ALL {
            if let Some(n) = for_variant(v) {
                assert_eq!(n.family, Family::of_variant(v), "{}", v.key());
            }
        }
    }

    #[test]
    fn every_file_built_in_is_empty_or_a_network_of_its_board() {
        // A file that does not parse, or of another family, would be dropped without a
        // word by `builtin`/`own` and the variant would play its pattern weights.
        let files = Family::ALL
            .iter()
            .map(|f| (format!("{f:?}"), embedded(*f), *f))
            .chain(OWN.iter().map(|(v, b)| (v.key().to_string(), *b, Family::of_variant(*v))));
        for (name, bytes, f) in files {
            if !bytes.is_empty() {
                let n = Net::from_bytes(bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
                assert_eq!(n.family, f, "{name}");
            }
        }
    }
}
