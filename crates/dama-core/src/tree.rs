//! A game with its variations, as an analysis board holds it: a tree of moves from a
//! start position, read from PDN variations and written back as PDN.
//!
//! The tree is a flat list of nodes, each naming its parent (or none: a first move), in
//! an order where a parent always comes before its children. A node's children, in
//! list order, are its continuations: the first is the main one, the others are
//! variations. Keeping it flat keeps every walk a loop, so a long game never deepens
//! the stack; only variations nest, and their depth is bounded.

use crate::moves::Move;
use crate::notation::{move_to_string, SquareStyle};
use crate::pdn::{PdnGame, PdnMove, MAX_VARIATION_DEPTH};
use crate::position::{Position, BB};
use crate::read_warning::{ReadWarning, ReadWarningKind};
use crate::record::{read_move, start_of, ReplayError, ReplayErrorKind};
use crate::variant::Rules;

/// At most this many moves in a tree.
pub const MAX_NODES: usize = 20_000;

/// A move of the tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node<B> {
    /// The node this move is played from; `None` for a move from the start position.
    pub parent: Option<usize>,
    /// The move.
    pub mv: Move<B>,
    /// Annotation glyphs (`!`, `?!`, `$1`).
    pub nags: Vec<String>,
    /// Comments after the move.
    pub comments: Vec<String>,
}

/// A move of a tree as a client sends it: its parent, the move as text (any notation
/// the variant reads), annotations and comments.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TextNode {
    /// The node this move is played from; `None` for a move from the start position.
    pub parent: Option<usize>,
    /// The move.
    pub text: String,
    /// Annotation glyphs.
    pub nags: Vec<String>,
    /// Comments after the move.
    pub comments: Vec<String>,
}

/// Why nodes do not make a tree.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TreeError {
    /// A node names a parent that does not come before it.
    #[error("move {node}: its parent {parent} does not come before it")]
    Parent {
        /// The node (0-based).
        node: usize,
        /// The parent it names.
        parent: usize,
    },
    /// A node's move is not legal where it is played.
    #[error("move {node} (\"{text}\"): {reason}")]
    Move {
        /// The node (0-based).
        node: usize,
        /// The move as given.
        text: String,
        /// Why.
        reason: String,
    },
    /// Too many moves.
    #[error("a tree holds at most {MAX_NODES} moves")]
    TooBig,
    /// Variations nested too deeply.
    #[error("move {node}: variations nest at most {MAX_VARIATION_DEPTH} levels deep")]
    TooDeep {
        /// The first node too deep (0-based).
        node: usize,
    },
}

/// A start position and the moves played from it, with variations. Built only
/// through [`GameTree::new`] or [`read_tree`], which check every move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameTree<R: Rules> {
    start: Position<R>,
    nodes: Vec<Node<BB<R>>>,
    /// The position after each node's move.
    after: Vec<Position<R>>,
}

impl<R: Rules> GameTree<R> {
    /// A tree of `nodes` from `start`, checked: parents come before their children,
    /// every move is legal where it is played (read in the variant's notation), and
    /// variations nest at most [`MAX_VARIATION_DEPTH`] deep.
    pub fn new(start: Position<R>, nodes: &[TextNode]) -> Result<Self, TreeError> {
        if nodes.len() > MAX_NODES {
            return Err(TreeError::TooBig);
        }
        let mut tree =
            GameTree { start, nodes: Vec::with_capacity(nodes.len()), after: Vec::with_capacity(nodes.len()) };
        let mut depth = Vec::with_capacity(nodes.len());
        let mut first_child: Vec<Option<usize>> = vec![None; nodes.len()];
        let mut first_root = None;
        for (i, n) in nodes.iter().enumerate() {
            let (pos, parent_depth, first) = match n.parent {
                None => (start, 0, &mut first_root),
                Some(p) if p < i => (tree.after[p], depth[p], &mut first_child[p]),
                Some(p) => return Err(TreeError::Parent { node: i, parent: p }),
            };
            // A continuation after the first is a variation: one level deeper.
            let d = if first.is_none() { parent_depth } else { parent_depth + 1 };
            first.get_or_insert(i);
            if d > MAX_VARIATION_DEPTH {
                return Err(TreeError::TooDeep { node: i });
            }
            let mv = crate::notation::parse_move(&pos, &n.text).map_err(|e| TreeError::Move {
                node: i,
                text: n.text.chars().take(40).collect(),
                reason: e.to_string(),
            })?;
            tree.nodes.push(Node { parent: n.parent, mv, nags: n.nags.clone(), comments: n.comments.clone() });
            tree.after.push(pos.play(&mv));
            depth.push(d);
        }
        Ok(tree)
    }

    /// The start position.
    pub fn start(&self) -> &Position<R> {
        &self.start
    }

    /// The moves, parents before children.
    pub fn nodes(&self) -> &[Node<BB<R>>] {
        &self.nodes
    }

    /// The position after node `i`'s move.
    pub fn after(&self, i: usize) -> &Position<R> {
        &self.after[i]
    }

    /// The position node `i`'s move is played from.
    pub fn before(&self, i: usize) -> &Position<R> {
        self.nodes[i].parent.map_or(&self.start, |p| &self.after[p])
    }

    /// The continuations of each node (index `i`) and of the start (the last entry),
    /// main continuation first.
    pub fn children(&self) -> Vec<Vec<usize>> {
        let mut out = vec![Vec::new(); self.nodes.len() + 1];
        for (i, n) in self.nodes.iter().enumerate() {
            out[n.parent.unwrap_or(self.nodes.len())].push(i);
        }
        out
    }

    /// The main line: the first continuation from the start, then from each move.
    pub fn main_line(&self) -> Vec<usize> {
        let children = self.children();
        let mut line = Vec::new();
        let mut at = self.nodes.len();
        while let Some(&c) = children[at].first() {
            line.push(c);
            at = c;
        }
        line
    }
}

/// A game read with its variations: the tree, and warnings about variations cut
/// where they stopped being legal (the main line must replay whole).
#[derive(Debug)]
pub struct ReadTree<R: Rules> {
    /// The tree.
    pub tree: GameTree<R>,
    /// What was read past.
    pub warnings: Vec<ReadWarning>,
}

/// Reads a game's moves with its variations (and their comments and annotations) into
/// a tree. The main line is read as [`crate::record::replay`] reads it, and fails as it
/// does; a variation that stops being legal is kept up to that move, with a warning.
pub fn read_tree<R: Rules>(g: &PdnGame) -> Result<ReadTree<R>, ReplayError> {
    let start = match g.tag("FEN") {
        Some(f) => start_of::<R>(f).map_err(|e| ReplayError {
            ply: 0,
            text: f.to_string(),
            at: g.at,
            reason: e,
            kind: ReplayErrorKind::Setup,
        })?,
        None => Position::<R>::start(),
    };
    let mut r = Reader::<R> { nodes: Vec::new(), after: Vec::new(), warnings: Vec::new(), style: SquareStyle::Own };
    r.line(start, None, &g.moves, 0, true)?;
    let tree = GameTree { start, nodes: r.nodes, after: r.after };
    Ok(ReadTree { tree, warnings: r.warnings })
}

struct Reader<R: Rules> {
    nodes: Vec<Node<BB<R>>>,
    after: Vec<Position<R>>,
    warnings: Vec<ReadWarning>,
    style: SquareStyle,
}

impl<R: Rules> Reader<R> {
    /// Reads `moves` from `pos`, the first one a continuation of `parent`; variations
    /// recurse (the reader bounds their depth), the line itself is a loop.
    fn line(
        &mut self,
        mut pos: Position<R>,
        mut parent: Option<usize>,
        moves: &[PdnMove],
        depth: usize,
        main: bool,
    ) -> Result<(), ReplayError> {
        let mut i = 0;
        while i < moves.len() {
            let m = &moves[i];
            if self.nodes.len() >= MAX_NODES {
                let what = ReadWarningKind::TooManyMoves(MAX_NODES);
                self.warnings.push(ReadWarning { at: m.at, text: m.text.clone(), what });
                return Ok(());
            }
            let stop = |why: String, kind| -> Result<(), ReplayError> {
                if main {
                    Err(ReplayError { ply: i + 1, text: m.text.clone(), at: m.at, reason: why, kind })
                } else {
                    Ok(())
                }
            };
            if m.setup.is_some() {
                let why = "a position set up inside the moves".to_string();
                let what = ReadWarningKind::SetupInMoves;
                self.warnings.push(ReadWarning { at: m.at, text: m.text.clone(), what });
                return stop(why, ReplayErrorKind::Setup);
            }
            let (mv, used, warning) = match read_move(&pos, &moves[i..], &mut self.style) {
                Ok(x) => x,
                Err((why, kind)) => {
                    if !main {
                        let what = ReadWarningKind::VariationStops { kind, why: why.clone() };
                        self.warnings.push(ReadWarning { at: m.at, text: m.text.clone(), what });
                    }
                    return stop(why, kind);
                }
            };
            if let Some(w) = warning {
                self.warnings.push(ReadWarning { at: m.at, text: m.text.clone(), what: w });
            }
            let last = &moves[i + used - 1];
            let node = self.nodes.len();
            let mut comments = m.comments.clone();
            let mut nags = m.nags.clone();
            if used > 1 {
                comments = last.comments.clone();
                nags = last.nags.clone();
            }
            self.nodes.push(Node { parent, mv, nags, comments });
            self.after.push(pos.play(&mv));
            // The variations written after this move are alternatives to it.
            for v in &m.variations {
                if depth < MAX_VARIATION_DEPTH {
                    self.line(pos, parent, v, depth + 1, false)?;
                }
            }
            pos = self.after[node];
            parent = Some(node);
            i += used;
        }
        Ok(())
    }
}

/// Writes a tree as one PDN game: `tags` (the seven standard ones, `GameType` and
/// `FEN` as [`crate::record::write_pdn`] writes them), a comment before the first move
/// if `leading` is not empty, the main line numbered, each variation in parentheses
/// after the move it replaces, comments in braces, and `result`.
pub fn write_tree<R: Rules>(tags: &[(String, String)], tree: &GameTree<R>, leading: &str, result: &str) -> String {
    let mut out = crate::record::write_tags::<R>(tags, tree.start(), result);
    let mut words: Vec<String> = Vec::new();
    if !leading.trim().is_empty() {
        words.push(format!("{{{}}}", leading.replace('}', ")")));
    }
    let children = tree.children();
    if let Some(&first) = children[tree.nodes().len()].first() {
        write_line(tree, &children, first, 1, &mut words);
    }
    words.push(result.to_string());
    crate::record::wrap(&mut out, words);
    out
}

/// Writes the line starting at `node` (move number `number`), with the variations
/// that branch off it.
fn write_line<R: Rules>(
    tree: &GameTree<R>,
    children: &[Vec<usize>],
    mut node: usize,
    mut number: u32,
    out: &mut Vec<String>,
) {
    let mut numbered = false;
    loop {
        let pos = tree.before(node);
        let first_mover = pos.side() == R::FIRST;
        if first_mover {
            out.push(format!("{number}."));
        } else if !numbered {
            out.push(format!("{number}..."));
        }
        numbered = true;
        let n = &tree.nodes()[node];
        out.push(move_to_string(pos, &n.mv, false));
        out.extend(n.nags.iter().cloned());
        for c in &n.comments {
            out.push(format!("{{{}}}", c.replace('}', ")")));
        }
        // A main continuation is followed by its alternatives.
        let siblings = &children[n.parent.unwrap_or(tree.nodes().len())];
        if siblings.first() == Some(&node) {
            for &alt in &siblings[1..] {
                let at = out.len();
                write_line(tree, children, alt, number, out);
                out[at].insert(0, '(');
                if let Some(last) = out.last_mut() {
                    last.push(')');
                }
                numbered = false;
            }
        }
        if !first_mover {
            number += 1;
        }
        match children[node].first() {
            Some(&next) => node = next,
            None => break,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pdn::read_all;
    use crate::variant::English;

    const GAME: &str = r#"[GameType "21"]

{Two openings.} 1. 11-15 {Old Faithful} (1. 9-13 22-18 (1... 24-19) 2. 5-9) 1... 23-19 ?!
2. 8-11 (2. 9-13 {the Edinburgh reply} 17-14) 2... 22-17 *
"#;

    fn read() -> ReadTree<English> {
        let g = read_all(GAME).into_iter().next().unwrap().unwrap();
        read_tree::<English>(&g).unwrap()
    }

    fn texts(t: &GameTree<English>, line: &[usize]) -> Vec<String> {
        line.iter().map(|&i| move_to_string(t.before(i), &t.nodes()[i].mv, false)).collect()
    }

    #[test]
    fn variations_become_continuations_after_the_main_one() {
        let r = read();
        let t = &r.tree;
        // "17-14" is no legal reply there: the variation stops before it, with a warning.
        assert_eq!(r.warnings.len(), 1, "{:?}", r.warnings);
        assert_eq!(r.warnings[0].text, "17-14", "{:?}", r.warnings);
        assert_eq!(r.warnings[0].what.code(), "variation_illegal_move", "{:?}", r.warnings);
        assert_eq!(texts(t, &t.main_line()), ["11-15", "23-19", "8-11", "22-17"]);
        let children = t.children();
        let roots = &children[t.nodes().len()];
        assert_eq!(roots.len(), 2);
        // 1. 9-13 22-18 (1... 24-19) 2. 5-9: 24-19 is an alternative to 22-18.
        let alt = roots[1];
        assert_eq!(texts(t, &[alt]), ["9-13"]);
        let replies = &children[alt];
        assert_eq!(texts(t, replies), ["22-18", "24-19"]);
        assert_eq!(texts(t, &children[replies[0]]), ["5-9"]);
        // The comment and the glyph stay with their moves.
        assert_eq!(t.nodes()[t.main_line()[0]].comments, ["Old Faithful"]);
        assert_eq!(t.nodes()[t.main_line()[1]].nags, ["?!"]);
    }

    #[test]
    fn written_and_read_again_it_is_the_same_tree() {
        let t = read().tree;
        let tags = vec![("GameType".to_string(), "21".to_string())];
        let text = write_tree(&tags, &t, "Two openings.", "*");
        let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            flat.contains(
                "{Two openings.} 1. 11-15 {Old Faithful} (1. 9-13 22-18 (1... 24-19) 2. 5-9) 1... 23-19 ?! 2. 8-11 \
                 (2. 9-13 {the Edinburgh reply}) 2... 22-17 *"
            ),
            "{text}"
        );
        let g = read_all(&text).into_iter().next().unwrap().unwrap();
        let back = read_tree::<English>(&g).unwrap();
        assert!(back.warnings.is_empty(), "{:?}", back.warnings);
        assert_eq!(back.tree, t, "{text}");
    }

    #[test]
    fn a_tree_from_text_is_checked() {
        let start = Position::<English>::start();
        let node = |parent, text: &str| TextNode { parent, text: text.into(), ..TextNode::default() };
        let t = GameTree::new(start, &[node(None, "11-15"), node(Some(0), "23-19"), node(None, "9-13")]).unwrap();
        assert_eq!(t.main_line(), [0, 1]);
        assert_eq!(
            GameTree::new(start, &[node(Some(1), "11-15"), node(None, "23-19")]),
            Err(TreeError::Parent { node: 0, parent: 1 })
        );
        let e = GameTree::new(start, &[node(None, "11-15"), node(Some(0), "11-15")]).unwrap_err();
        assert!(matches!(e, TreeError::Move { node: 1, .. }), "{e}");
        // Kings shuttling: each second continuation is one level deeper than its parent.
        let kings = crate::fen::parse_fen::<English>("W:WK1:BK32").unwrap();
        let cycle = [("1-5", "1-6"), ("32-27", "32-28"), ("6-2", "6-1"), ("28-24", "28-32")];
        let mut deep = Vec::new();
        let mut parent = None;
        for i in 0..=MAX_VARIATION_DEPTH {
            let (a, b) = cycle[i % 4];
            deep.push(node(parent, a));
            deep.push(node(parent, b));
            parent = Some(deep.len() - 1);
        }
        assert!(GameTree::new(kings, &deep[..deep.len() - 2]).is_ok());
        let start = kings;
        assert!(matches!(GameTree::new(start, &deep), Err(TreeError::TooDeep { .. })));
    }
}
