//! Records of any rulebook: a PDN game replayed ([`AnyGame::replay`]), read with its
//! variations ([`TreeView::read`]) or written back ([`AnyPosition::write_tree`]), as
//! clients see them — the same [`MoveView`] a live game shows.

use serde::Serialize;

use crate::any::{any_position_of, view, AnyGame, AnyPosition, MoveView, PositionFn};
use crate::fen::write_fen;
use crate::pdn::PdnGame;
use crate::record::{replay, ReplayError};
use crate::tree::{read_tree, write_tree, GameTree, TextNode, TreeError};
use crate::{Position, Rules, Variant, VariantFn};

/// A recorded game replayed: the game, and the moves it read ambiguously.
#[derive(Clone, Debug)]
pub struct Replayed {
    /// The game after its last move.
    pub game: AnyGame,
    /// Moves the record writes ambiguously, read as their first reading.
    pub warnings: Vec<crate::read_warning::ReadWarning>,
}

struct ReplayOf<'a>(&'a PdnGame);
impl VariantFn for ReplayOf<'_> {
    type Output = Result<Replayed, ReplayError>;
    fn call<R: Rules>(self) -> Self::Output {
        let r = replay::<R>(self.0)?;
        Ok(Replayed { game: AnyGame::of(r.game), warnings: r.warnings })
    }
}

impl AnyGame {
    /// The main line of a PDN game under `variant`'s rules, every move checked (and a
    /// recorded result against the position), as [`crate::record::replay`] reads it.
    pub fn replay(variant: Variant, game: &PdnGame) -> Result<Replayed, ReplayError> {
        variant.visit(ReplayOf(game))
    }
}

/// A move of a tree of variations, as clients see it.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct NodeView {
    /// The move it follows; none for a move from the start.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parent: Option<usize>,
    /// The move.
    #[serde(flatten)]
    pub mv: MoveView,
    /// The position after it.
    pub fen: String,
    /// Annotation glyphs.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub nags: Vec<String>,
    /// Comments after it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub comments: Vec<String>,
}

/// A game read with its variations: the start, every move after its parent, and what
/// was read past.
#[derive(Clone, Debug)]
pub struct TreeView {
    /// The start position.
    pub start: AnyPosition,
    /// The moves, each after its parent.
    pub nodes: Vec<NodeView>,
    /// What was read past.
    pub warnings: Vec<crate::read_warning::ReadWarning>,
}

struct ReadTreeOf<'a>(&'a PdnGame);
impl VariantFn for ReadTreeOf<'_> {
    type Output = Result<TreeView, ReplayError>;
    fn call<R: Rules>(self) -> Self::Output {
        let read = read_tree::<R>(self.0)?;
        let t = &read.tree;
        let nodes = t
            .nodes()
            .iter()
            .enumerate()
            .map(|(i, n)| NodeView {
                parent: n.parent,
                mv: view(t.before(i), &n.mv),
                fen: write_fen(t.after(i)),
                nags: n.nags.clone(),
                comments: n.comments.clone(),
            })
            .collect();
        Ok(TreeView { start: any_position_of(*t.start()), nodes, warnings: read.warnings })
    }
}

impl TreeView {
    /// A PDN game's moves with its variations under `variant`'s rules; the main line
    /// fails as [`AnyGame::replay`] does, a variation that stops being legal is kept up
    /// to that move with a warning.
    pub fn read(variant: Variant, game: &PdnGame) -> Result<TreeView, ReplayError> {
        variant.visit(ReadTreeOf(game))
    }
}

struct WriteTree<'a> {
    tags: &'a [(String, String)],
    nodes: &'a [TextNode],
    leading: &'a str,
    result: &'a str,
}
impl PositionFn for WriteTree<'_> {
    type Output = Result<String, TreeError>;
    fn call<R: Rules>(self, pos: &Position<R>) -> Self::Output {
        let tree = GameTree::new(*pos, self.nodes)?;
        Ok(write_tree(self.tags, &tree, self.leading, self.result))
    }
}

impl AnyPosition {
    /// A tree of moves from this position, given as text, written as one PDN game with
    /// its variations (`leading`: a comment before the first move); a move that is not
    /// legal after its parent is refused.
    pub fn write_tree(
        &self,
        tags: &[(String, String)],
        nodes: &[TextNode],
        leading: &str,
        result: &str,
    ) -> Result<String, TreeError> {
        self.visit(WriteTree { tags, nodes, leading, result })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pdn::PdnReader;

    fn first(text: &str) -> PdnGame {
        PdnReader::new(text.as_bytes()).next().unwrap().unwrap()
    }

    #[test]
    fn a_record_replays_reads_as_a_tree_and_writes_back() {
        // The opening of a real English game (the "Old Fourteenth" opening 11-15 23-19 8-11 22-17 4-8).
        let text = "[GameType \"21\"]\n1. 11-15 23-19 2. 8-11 22-17 (2... 22-18 15x22) 3. 4-8 *\n";
        let g = first(text);
        let r = AnyGame::replay(Variant::English, &g).unwrap();
        assert_eq!(r.game.moves(), ["11-15", "23-19", "8-11", "22-17", "4-8"]);
        assert_eq!(r.game.start_fen(), AnyPosition::new(Variant::English, None).unwrap().fen());
        let views = r.game.views(usize::MAX);
        assert_eq!((views.len(), views[0].path.clone()), (5, vec!["11".to_string(), "15".to_string()]));

        let t = TreeView::read(Variant::English, &g).unwrap();
        assert_eq!(t.nodes.len(), 7, "five main-line moves and a variation of two");
        let capture = t.nodes.iter().find(|n| n.mv.notation == "15x22").unwrap();
        assert_eq!(capture.mv.captured, ["18"]);

        let nodes: Vec<TextNode> = t
            .nodes
            .iter()
            .map(|n| TextNode { parent: n.parent, text: n.mv.long.clone(), ..TextNode::default() })
            .collect();
        let pdn = t.start.write_tree(&[], &nodes, "", "*").unwrap();
        let again = TreeView::read(Variant::English, &first(&pdn)).unwrap();
        assert_eq!(
            again.nodes,
            t.nodes.iter().map(|n| NodeView { nags: vec![], comments: vec![], ..n.clone() }).collect::<Vec<_>>()
        );

        let bad = first("1. 11-15 11-15 *");
        let e = AnyGame::replay(Variant::English, &bad).unwrap_err();
        assert_eq!(e.ply, 2);
    }
}
