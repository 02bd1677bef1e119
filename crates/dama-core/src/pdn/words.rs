//! What a word of movetext is: a result, a move (squares joined by `-`, `x`, `:`, or the
//! Russian short form), and whether text in parentheses reads as moves or as prose.

/// Normalises a result token: `1/2:1/2` → `1/2-1/2`, `0:1` → `0-1`; `None` if not one.
pub fn normalize_result(t: &str) -> Option<&'static str> {
    Some(match t {
        "1-0" | "1:0" => "1-0",
        "0-1" | "0:1" => "0-1",
        "2-0" | "2:0" => "2-0",
        "0-2" | "0:2" => "0-2",
        "1-1" | "1:1" => "1-1",
        "0-0" | "0:0" => "0-0",
        "1/2-1/2" | "1/2:1/2" | "½-½" => "1/2-1/2",
        "*" => "*",
        _ => return None,
    })
}

/// Whether a word could be a square: a number, or a file letter and a rank.
fn is_square(w: &str) -> bool {
    let mut c = w.chars();
    match c.next() {
        Some(d) if d.is_ascii_digit() => w.len() <= 3 && w.chars().all(|d| d.is_ascii_digit()),
        Some(f) if matches!(f.to_ascii_lowercase(), 'a'..='l') => {
            let r = c.as_str();
            (1..=2).contains(&r.len()) && r.chars().all(|d| d.is_ascii_digit())
        }
        _ => false,
    }
}

/// Whether a word of movetext could be a move: squares joined by '-', 'x' or ':'
/// (`32-28`, `c3:e5:g3`), or the Russian short form, a file then a square (`cd4`).
pub fn looks_like_move(w: &str) -> bool {
    let parts: Vec<&str> = w.split(['-', 'x', 'X', ':']).collect();
    if parts.len() >= 2 {
        return parts.iter().all(|p| is_square(p));
    }
    let b = w.as_bytes();
    b.len() == 3 && matches!(b[0].to_ascii_lowercase(), b'a'..=b'h') && is_square(&w[1..])
}

/// Whether the words of `text` (outside comments and nested parentheses) are all
/// movetext: moves, move numbers, annotations and results. Prose is not.
pub(super) fn reads_as_moves(text: &str) -> bool {
    let (mut depth, mut comment) = (0usize, false);
    let mut outside = String::new();
    for c in text.chars() {
        match c {
            '{' => comment = true,
            '}' => comment = false,
            '(' if !comment => depth += 1,
            ')' if !comment => depth = depth.saturating_sub(1),
            c if !comment && depth == 0 => outside.push(c),
            _ => {}
        }
    }
    // Fixed-width captures: "29x 7" is one word.
    let words: Vec<&str> = outside.split_whitespace().collect();
    let mut i = 0;
    while i < words.len() {
        let mut w = words[i].to_string();
        if w.ends_with(['x', 'X', '-', ':']) && words.get(i + 1).is_some_and(|n| n.chars().all(|d| d.is_ascii_digit()))
        {
            w.push_str(words[i + 1]);
            i += 1;
        }
        i += 1;
        // A move number, alone or glued to its move ("12.", "12...", "1.32-28").
        let digits = w.chars().take_while(char::is_ascii_digit).count();
        let after = w[digits..].trim_start_matches('.');
        let w = if digits > 0 && after.len() < w.len() - digits { after } else { w.as_str() };
        let w = w.trim_end_matches(['!', '?']);
        let annotation = w.is_empty() || (w.starts_with('$') && w[1..].chars().all(|d| d.is_ascii_digit()));
        if !(annotation || normalize_result(w).is_some() || looks_like_move(w)) {
            return false;
        }
    }
    true
}
