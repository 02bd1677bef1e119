//! Rating pools: the official rules of a variant rate in the variant's pool (its key,
//! `english`); a seed rulebook rates in a pool of its own (`english-seed001`), so a
//! rating won under a club's rules is not mixed with the official rules' one.

use std::fmt;

use dama_core::Variant;

use crate::protocol::RulesChoice;

/// A pool: a variant and the rulebook its games are played under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pool {
    variant: Variant,
    rules: RulesChoice,
}

impl Pool {
    /// The pool of games of `variant` under `rules`, or why there is none: a seed
    /// rulebook rates only the variant it was written for (seed 000 Russian, seeds
    /// 001 and 003 English).
    pub fn of(variant: Variant, rules: RulesChoice) -> Result<Pool, &'static str> {
        match rules.variant() {
            Some(v) if v != variant => Err(rules.wrong_variant()),
            _ => Ok(Pool { variant, rules }),
        }
    }

    /// The pool a game of `variant` under `rules` is rated in: [`Pool::of`], or the
    /// official rules' pool for a rulebook the variant does not rate (a game's options
    /// were checked to have one when it is rated).
    pub fn of_game(variant: Variant, rules: RulesChoice) -> Pool {
        Pool::of(variant, rules).unwrap_or(Pool::official(variant))
    }

    /// The official rules' pool of `variant`.
    pub fn official(variant: Variant) -> Pool {
        Pool { variant, rules: RulesChoice::Official }
    }

    /// The variant.
    pub fn variant(self) -> Variant {
        self.variant
    }

    /// The rulebook.
    pub fn rules(self) -> RulesChoice {
        self.rules
    }

    /// Reads a pool's key (`english`, `english-seed001`); `None` for anything else.
    pub fn from_key(key: &str) -> Option<Pool> {
        let (v, rules) = match key.split_once('-') {
            None => (key, RulesChoice::Official),
            Some((v, r)) => (v, RulesChoice::ALL.into_iter().find(|x| *x != RulesChoice::Official && x.key() == r)?),
        };
        let variant = Variant::ALL.into_iter().find(|x| x.key() == v)?;
        Pool::of(variant, rules).ok()
    }
}

impl fmt::Display for Pool {
    /// The key the ratings are stored under.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.rules {
            RulesChoice::Official => f.write_str(self.variant.key()),
            r => write!(f, "{}-{}", self.variant.key(), r.key()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_rulebooks_rate_in_pools_of_their_own() {
        let official = Pool::official(Variant::English);
        let seed = Pool::of(Variant::English, RulesChoice::Seed001).unwrap();
        assert_eq!((official.to_string(), seed.to_string()), ("english".into(), "english-seed001".into()));
        assert_ne!(official, seed);
        assert_eq!(Pool::of(Variant::Russian, RulesChoice::Seed000).unwrap().to_string(), "russian-seed000");
        assert!(Pool::of(Variant::International, RulesChoice::Seed003).is_err());
        for key in ["english", "english-seed001", "english-seed003", "russian-seed000", "frisian"] {
            assert_eq!(Pool::from_key(key).map(|p| p.to_string()).as_deref(), Some(key));
        }
        for key in ["english-official", "english-seed000", "chess", "russian-seed", ""] {
            assert_eq!(Pool::from_key(key), None, "{key}");
        }
    }
}
