//! What a PDN import read past, as clients word it: each warning of the reader
//! ([`PdnIssue`]) and of the replay ([`ReadWarning`]) with a code (`pdnw_<kind>`), its
//! details and its English words — the shape of the API's errors (`{code, arg, error}`),
//! so a page words a warning as it words an error.

use dama_core::pdn::PdnIssue;
use dama_core::read_warning::ReadWarning;
use serde::Serialize;

/// One warning, as the API carries it.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Note {
    /// `pdnw_<kind>`: the kind's code.
    pub code: String,
    /// Where, and what it names.
    pub arg: NoteArg,
    /// The reader's words, in English.
    pub error: String,
}

/// The details of a [`Note`].
#[derive(Clone, Debug, Default, Serialize, PartialEq, Eq)]
pub struct NoteArg {
    /// Line, from 1.
    pub line: usize,
    /// Column (character), from 1.
    pub col: usize,
    /// The text concerned: a move, a tag's name, a character, stray words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// Tags named (stray tags before stray text).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tags: Option<String>,
    /// The moves an ambiguous move could be.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moves: Option<String>,
    /// A number: a count, a limit, a line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub n: Option<usize>,
}

impl From<&PdnIssue> for Note {
    fn from(i: &PdnIssue) -> Note {
        Note {
            code: format!("pdnw_{}", i.what.code()),
            arg: NoteArg {
                line: i.at.line,
                col: i.at.col,
                text: i.what.text(),
                tags: i.what.tags(),
                n: i.what.n(),
                ..NoteArg::default()
            },
            error: i.to_string(),
        }
    }
}

impl From<&ReadWarning> for Note {
    fn from(w: &ReadWarning) -> Note {
        Note {
            code: format!("pdnw_{}", w.what.code()),
            arg: NoteArg {
                line: w.at.line,
                col: w.at.col,
                text: Some(w.text.clone()),
                moves: w.what.moves(),
                n: w.what.n(),
                ..NoteArg::default()
            },
            error: w.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dama_core::pdn::read_all;

    #[test]
    fn a_warning_has_its_code_place_and_words() {
        let g = read_all("[Round 17]\n1. 11-15 23-19 {a {b} 2. 8-11 *\n").remove(0).unwrap();
        let notes: Vec<Note> = g.warnings.iter().map(Note::from).collect();
        let codes: Vec<&str> = notes.iter().map(|n| n.code.as_str()).collect();
        assert_eq!(codes, ["pdnw_tag_without_quotes", "pdnw_nested_comment"]);
        assert_eq!((notes[0].arg.line, notes[0].arg.col, notes[0].arg.text.as_deref()), (1, 1, Some("Round")));
        assert_eq!(notes[1].arg.line, 2);
        assert!(notes[0].error.contains("value without quotes"), "{}", notes[0].error);
    }
}
