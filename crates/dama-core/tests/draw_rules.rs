//! Every end and draw rule, with positions built for it, under each variant's default
//! rules and the seeds' presets.

use dama_core::fen::parse_fen;
use dama_core::game::{DrawRules, EndReason, Game, GameResult, RulePreset, Status};
use dama_core::variant::{English, International, Russian, Turkish};
use dama_core::{Color, Rules, Variant};

fn game<R: Rules>(fen: &str, rules: DrawRules) -> Game<R> {
    Game::from_position(parse_fen::<R>(fen).unwrap(), rules)
}

/// Plays the next move of a repeating cycle of move texts.
fn shuttle<R: Rules>(g: &mut Game<R>, cycle: &[&str]) {
    let i = g.plies().len() % cycle.len();
    g.play_text(cycle[i]).unwrap_or_else(|e| panic!("{}: {e}", cycle[i]));
}

const ENGLISH: [&str; 4] = ["4-8", "29-25", "8-4", "25-29"];
const INTERNATIONAL: [&str; 4] = ["47-42", "1-6", "42-47", "6-1"];

fn over(g: &Game<impl Rules>) -> GameResult {
    match g.status() {
        Status::Over(r) => r,
        s => panic!("game not over: {s:?}"),
    }
}

#[test]
fn threefold_repetition_draws() {
    // English: kings shuttle h8-g7 and a1-b2; the start position's third occurrence draws.
    let mut g = game::<English>("B:WK29:BK4", DrawRules::official(Variant::English));
    for (i, m) in ["4-8", "29-25", "8-4", "25-29", "4-8", "29-25", "8-4"].iter().enumerate() {
        g.play_text(m).unwrap();
        assert_eq!(g.status(), Status::Ongoing, "after ply {}", i + 1);
    }
    assert_eq!(g.repetitions(), 2);
    g.play_text("25-29").unwrap();
    assert_eq!(over(&g), GameResult { winner: None, reason: EndReason::Repetition(3) });
    // Taking the move back reopens the game.
    g.undo().unwrap();
    assert_eq!(g.status(), Status::Ongoing);
}

#[test]
fn seed_001_forty_move_pairs_without_capture_or_crowning() {
    let rules = DrawRules { repetition: None, ..DrawRules::preset(Variant::English, RulePreset::Seed001) };
    assert_eq!(rules.no_progress_plies, Some(80));
    let mut g = game::<English>("B:WK29:BK4", rules);
    for _ in 0..79 {
        shuttle(&mut g, &ENGLISH);
        assert_eq!(g.status(), Status::Ongoing);
    }
    shuttle(&mut g, &ENGLISH);
    assert_eq!(over(&g).reason, EndReason::NoProgress(80));
}

#[test]
fn seed_001_two_hundred_move_cap() {
    let rules = DrawRules { move_cap_plies: Some(200), ..DrawRules::default() };
    assert_eq!(DrawRules::preset(Variant::English, RulePreset::Seed001).move_cap_plies, Some(200));
    let mut g = game::<English>("B:WK29:BK4", rules);
    for _ in 0..199 {
        shuttle(&mut g, &ENGLISH);
    }
    assert_eq!(g.status(), Status::Ongoing);
    shuttle(&mut g, &ENGLISH);
    assert_eq!(over(&g), GameResult { winner: None, reason: EndReason::MoveCap(200) });
}

#[test]
fn seed_003_kings_only_with_repetition_asks_for_adjudication() {
    let seed003 = DrawRules::preset(Variant::English, RulePreset::Seed003);
    assert_eq!(seed003.kings_only_adjudication_plies, Some(20));
    // Repeated king moves go to the arbiter, not to an automatic threefold draw.
    assert_eq!(seed003.repetition, None);
    let rules = DrawRules { kings_only_adjudication_plies: Some(20), ..DrawRules::default() };
    let mut g = game::<English>("B:WK29:BK4", rules);
    // Shuttle so that positions repeat; after 20 king moves the arbiter is called.
    for i in 0..19 {
        shuttle(&mut g, &ENGLISH);
        assert_eq!(g.status(), Status::Ongoing, "ply {}", i + 1);
    }
    shuttle(&mut g, &ENGLISH);
    assert_eq!(g.status(), Status::NeedsAdjudication);
    g.adjudicate(None);
    assert_eq!(over(&g), GameResult { winner: None, reason: EndReason::Adjudication });
    // A man move breaks the kings-only run.
    let mut g = game::<English>("B:WK29,26:BK4", rules);
    let after = ["29-25", "4-8", "25-29", "8-4"];
    for m in ENGLISH
        .iter()
        .chain(&ENGLISH)
        .chain(&ENGLISH)
        .chain(&["4-8", "26-22", "8-4"])
        .chain(&after)
        .chain(&after)
        .chain(&after)
    {
        g.play_text(m).unwrap();
        assert_eq!(g.status(), Status::Ongoing);
    }
}

#[test]
fn russian_three_kings_against_a_lone_king_have_fifteen_moves() {
    let rules = DrawRules { repetition: None, ..DrawRules::official(Variant::Russian) };
    let mut g = game::<Russian>("W:WKc1,Ke1,Kg1:BKh8", rules);
    let cycle = ["c1-d2", "h8-g7", "d2-c1", "g7-h8"];
    // White (strong) moves at plies 1, 3, ..., 29: its 15th move is ply 29.
    for ply in 1..=28 {
        shuttle(&mut g, &cycle);
        assert_eq!(g.status(), Status::Ongoing, "ply {ply}");
    }
    shuttle(&mut g, &cycle);
    let r = over(&g);
    assert_eq!(r, GameResult { winner: None, reason: EndReason::ManyKingsVsKing(15) });
    assert_eq!(r.to_string(), "Draw: 3 kings could not catch the lone king in 15 moves");
}

#[test]
fn russian_king_against_king_is_a_draw_where_neither_can_win() {
    let rules = DrawRules::official(Variant::Russian);
    let g = game::<Russian>("W:WKa1:BKh6", rules);
    assert_eq!(over(&g).reason, EndReason::KingVsKing);
    // Reached by a capture: the white king takes the last man.
    let mut g = game::<Russian>("W:WKa1:BKh6,c3", rules);
    assert_eq!(g.status(), Status::Ongoing);
    g.play_text("a1:d4").unwrap();
    assert_eq!(over(&g).reason, EndReason::KingVsKing);
    // Seed 000 draws only when neither side can win. Here Black takes the king at once.
    let mut g = game::<Russian>("W:WKa1:BKh8,c3", rules);
    g.play_text("a1:d4").unwrap();
    assert_eq!(g.status(), Status::Ongoing);
    g.play_text("h8:c3").unwrap();
    assert_eq!(over(&g).winner, Some(Color::Black));
    // A king shut in the a1 corner must step onto the long diagonal, where it is taken:
    // White to move wins by b2-h8: the a1 king can only go to b2-g7, all in reach.
    let mut g = game::<Russian>("W:WKb2:BKa1", rules);
    assert_eq!(g.status(), Status::Ongoing);
    for m in ["b2-h8", "a1-d4", "h8:c3"] {
        assert_eq!(g.status(), Status::Ongoing);
        g.play_text(m).unwrap();
    }
    assert_eq!(over(&g).winner, Some(Color::White));
}

#[test]
fn russian_king_duels_agree_with_an_independent_count() {
    // 32 x 31 x 2 positions with one king each, solved by a separate brute-force
    // program written for this check: 364 with a capture at once, 24 more won and 4
    // lost by force (kings on the long diagonal with one in its a1 or h8 corner),
    // the other 1,592 drawn.
    let (mut win, mut loss, mut draw) = (0, 0, 0);
    let names: Vec<String> = (0..32).map(dama_core::notation::square_name::<Russian>).collect();
    for side in ["W", "B"] {
        for w in &names {
            for b in names.iter().filter(|b| *b != w) {
                let p = parse_fen::<Russian>(&format!("{side}:WK{w}:BK{b}")).unwrap();
                match dama_core::duel::king_duel(&p) {
                    Some(dama_core::duel::Duel::Win) => win += 1,
                    Some(dama_core::duel::Duel::Loss) => loss += 1,
                    Some(dama_core::duel::Duel::Draw) => draw += 1,
                    None => panic!("one king each"),
                }
            }
        }
    }
    assert_eq!((win, loss, draw), (388, 4, 1592));
}

#[test]
fn turkish_endings_of_seed_002() {
    let rules = DrawRules::official(Variant::Turkish);
    // Several pieces against a lone man win.
    assert_eq!(
        over(&game::<Turkish>("W:Wa2,b2:Bh7", rules)),
        GameResult { winner: Some(Color::White), reason: EndReason::LoneMan }
    );
    assert_eq!(over(&game::<Turkish>("B:WKa2,b2,c2:Bh7", rules)).winner, Some(Color::White));
    assert_eq!(over(&game::<Turkish>("W:Wa2:Bg7,h7", rules)).winner, Some(Color::Black));
    // One piece each draws.
    assert_eq!(over(&game::<Turkish>("W:Wa2:Bh7", rules)).reason, EndReason::OnePieceEach);
    assert_eq!(over(&game::<Turkish>("W:WKa2:BKh7", rules)).reason, EndReason::OnePieceEach);
    // Two against a lone king plays on.
    assert_eq!(game::<Turkish>("W:Wa2,b2:BKh7", rules).status(), Status::Ongoing);
}

#[test]
fn turkish_men_stepping_sideways_repeat_positions() {
    // A Turkish man may step left or right, so a man's sideways step can be undone and
    // the position can repeat (rules.md: threefold repetition draws in Turkish too); a
    // forward step cannot be undone and starts the count afresh.
    let rules = DrawRules::official(Variant::Turkish);
    let mut g = game::<Turkish>("W:Wc2,e2:Bd7,f7", rules);
    let cycle = ["c2-b2", "f7-g7", "b2-c2", "g7-f7"];
    for i in 0..7 {
        shuttle(&mut g, &cycle);
        assert_eq!(g.status(), Status::Ongoing, "after ply {}", i + 1);
    }
    assert_eq!(g.repetitions(), 2);
    shuttle(&mut g, &cycle);
    assert_eq!(over(&g), GameResult { winner: None, reason: EndReason::Repetition(3) });
    // A man's forward step cannot be undone: the positions before it never come back,
    // and the count starts from the position it made.
    let mut g = game::<Turkish>("W:Wc2,e2:Bd7,f7", rules);
    for m in ["c2-b2", "f7-g7", "b2-c2", "g7-f7", "c2-b2", "f7-g7", "e2-e3"] {
        g.play_text(m).unwrap();
    }
    assert_eq!(g.repetitions(), 1);
    for m in ["g7-f7", "b2-c2", "f7-g7", "c2-b2", "g7-f7", "b2-c2", "f7-g7"] {
        g.play_text(m).unwrap();
        assert_eq!(g.status(), Status::Ongoing, "after {m}");
    }
    g.play_text("c2-b2").unwrap();
    assert_eq!(over(&g).reason, EndReason::Repetition(3));
}

#[test]
fn fmjd_twenty_five_king_moves_each() {
    let rules = DrawRules { repetition: None, fmjd_endgames: false, ..DrawRules::official(Variant::International) };
    let mut g = game::<International>("W:WK47,K50:BK1,K3", rules);
    for _ in 0..49 {
        shuttle(&mut g, &INTERNATIONAL);
    }
    assert_eq!(g.status(), Status::Ongoing);
    shuttle(&mut g, &INTERNATIONAL);
    assert_eq!(over(&g).reason, EndReason::KingsOnly(50));
}

#[test]
fn fmjd_sixteen_and_five_move_endgames() {
    let rules = DrawRules { repetition: None, kings_only_plies: None, ..DrawRules::official(Variant::International) };
    // Three pieces with a king against a lone king: 16 moves each.
    let mut g = game::<International>("W:WK47,K48,36:BK1", rules);
    for _ in 0..31 {
        shuttle(&mut g, &INTERNATIONAL);
        assert_eq!(g.status(), Status::Ongoing);
    }
    shuttle(&mut g, &INTERNATIONAL);
    assert_eq!(over(&g).reason, EndReason::LoneKingEndgame(16));
    // Two pieces with a king: 5 moves each.
    let mut g = game::<International>("W:WK47,K48:BK1", rules);
    for _ in 0..9 {
        shuttle(&mut g, &INTERNATIONAL);
        assert_eq!(g.status(), Status::Ongoing);
    }
    shuttle(&mut g, &INTERNATIONAL);
    assert_eq!(over(&g).reason, EndReason::LoneKingEndgame(5));
}

#[test]
fn no_legal_move_loses() {
    let rules = DrawRules::official(Variant::English);
    // No pieces.
    assert_eq!(
        over(&game::<English>("W:W:B1", rules)),
        GameResult { winner: Some(Color::Black), reason: EndReason::NoPieces }
    );
    // Blocked: the white man on a1 faces b2 with c3 behind it occupied.
    assert_eq!(
        over(&game::<English>("W:W29:B25,22", rules)),
        GameResult { winner: Some(Color::Black), reason: EndReason::NoMoves }
    );
    // Reached by a move: Black takes the last white piece.
    let mut g = game::<English>("B:W18:B14,1", rules);
    g.play_text("14x23").unwrap();
    assert_eq!(over(&g).reason, EndReason::NoPieces);
    assert!(g.play_text("1-5").is_err());
}

#[test]
fn events_that_are_not_moves() {
    let mut g = Game::<English>::new();
    g.resign(Color::Black);
    assert_eq!(over(&g), GameResult { winner: Some(Color::White), reason: EndReason::Resignation });
    let mut g = Game::<English>::new();
    g.agree_draw();
    assert_eq!(over(&g).winner, None);
    let mut g = Game::<English>::new();
    g.time_out(Color::White);
    assert_eq!(over(&g), GameResult { winner: Some(Color::Black), reason: EndReason::Time });
}

#[test]
fn russian_federation_counts_kings_only_moves_and_the_balance_of_forces() {
    // FMJD's rules for draughts-64, 7.2: with kings on both sides, 15 moves each in which
    // only kings move and nothing is captured draw. The men stay where they are.
    let rules = DrawRules { repetition: None, ..DrawRules::official(Variant::Russian) };
    let cycle = ["c1-d2", "f8-g7", "d2-c1", "g7-f8"];
    let mut g = game::<Russian>("W:WKc1,a3:BKf8,h6", rules);
    for ply in 1..30 {
        shuttle(&mut g, &cycle);
        assert_eq!(g.status(), Status::Ongoing, "ply {ply}");
    }
    shuttle(&mut g, &cycle);
    assert_eq!(over(&g), GameResult { winner: None, reason: EndReason::KingsOnly(30) });
    assert_eq!(over(&g).to_string(), "Draw: 15 moves each with only kings moving and no capture");
    // 7.2.6: the balance unchanged (no capture, no crowning) for 30 moves each with 4 or 5
    // pieces, 60 moves each with 6 or 7 (the kings-only count left out to see it alone);
    // none with 8.
    let rules = DrawRules { kings_only_plies: None, ..rules };
    for (fen, plies) in [("W:WKc1,a3:BKf8,h6", 60), ("W:WKc1,a3,e1:BKf8,h6,a7", 120)] {
        let mut g = game::<Russian>(fen, rules);
        for ply in 1..plies {
            shuttle(&mut g, &cycle);
            assert_eq!(g.status(), Status::Ongoing, "{fen} ply {ply}");
        }
        shuttle(&mut g, &cycle);
        assert_eq!(over(&g).reason, EndReason::NoProgress(plies), "{fen}");
    }
    let mut g = game::<Russian>("W:WKc1,a3,e1,g1:BKf8,h6,a7,b8", rules);
    for _ in 0..200 {
        shuttle(&mut g, &cycle);
    }
    assert_eq!(g.status(), Status::Ongoing);
}

#[test]
fn seed_000_preset_draws_by_its_own_list_only() {
    // Seed 000 names four draws: neither side can win (a king against a king), the third
    // repetition, agreement, and three kings that do not catch a lone king by their 15th
    // move. Its preset keeps those and leaves out FMJD's counts: the kings shuttle on
    // with men on the board long after the federation's 15 moves each.
    let seed = DrawRules::preset(Variant::Russian, RulePreset::Seed000);
    assert_eq!((seed.repetition, seed.many_kings_vs_king_moves, seed.king_vs_king), (Some(3), Some(15), true));
    let rules = DrawRules { repetition: None, ..seed };
    let mut g = game::<Russian>("W:WKc1,a3:BKf8,h6", rules);
    for _ in 0..200 {
        shuttle(&mut g, &["c1-d2", "f8-g7", "d2-c1", "g7-f8"]);
    }
    assert_eq!(g.status(), Status::Ongoing);
    let mut g = game::<Russian>("W:WKc1,Ke1,Kg1:BKh8", rules);
    for _ in 0..29 {
        shuttle(&mut g, &["c1-d2", "h8-g7", "d2-c1", "g7-h8"]);
    }
    assert_eq!(over(&g).reason, EndReason::ManyKingsVsKing(15));
    assert_eq!(over(&game::<Russian>("W:WKa1:BKh6", seed)).reason, EndReason::KingVsKing);
    // The preset is Russian's: English under it plays its official rules.
    assert_eq!(DrawRules::preset(Variant::English, RulePreset::Seed000), DrawRules::official(Variant::English));
}

#[test]
fn pool_three_kings_have_thirteen_moves() {
    use dama_core::variant::Pool;
    // APCA: three kings against one must win within thirteen moves. Black (the lone king)
    // moves first; White's 13th move is ply 26.
    let rules = DrawRules { repetition: None, ..DrawRules::official(Variant::Pool) };
    let mut g = game::<Pool>("B:WK29,K30,K31:BK3", rules);
    let cycle = ["3-7", "29-25", "7-3", "25-29"];
    for ply in 1..26 {
        shuttle(&mut g, &cycle);
        assert_eq!(g.status(), Status::Ongoing, "ply {ply}");
    }
    shuttle(&mut g, &cycle);
    assert_eq!(over(&g), GameResult { winner: None, reason: EndReason::ManyKingsVsKing(13) });
}

#[test]
fn frisian_two_kings_against_one_have_seven_moves_and_one_each_two() {
    use dama_core::variant::Frisian;
    let rules = DrawRules { repetition: None, ..DrawRules::official(Variant::Frisian) };
    let cycle = ["46-41", "1-6", "41-46", "6-1"];
    // Two kings against one: 7 moves each from when the balance arose.
    let mut g = game::<Frisian>("W:WK46,K50:BK1", rules);
    for ply in 1..14 {
        shuttle(&mut g, &cycle);
        assert_eq!(g.status(), Status::Ongoing, "ply {ply}");
    }
    shuttle(&mut g, &cycle);
    assert_eq!(over(&g), GameResult { winner: None, reason: EndReason::LoneKingEndgame(7) });
    // One king each: 2 moves each, room to capture at once.
    let mut g = game::<Frisian>("W:WK46:BK1", rules);
    for _ in 0..3 {
        shuttle(&mut g, &cycle);
        assert_eq!(g.status(), Status::Ongoing);
    }
    shuttle(&mut g, &cycle);
    assert_eq!(over(&g).reason, EndReason::LoneKingEndgame(2));
    // With a man left on the strong side, no such count (the kings take turns: a king
    // may move three times in a row while its side has men).
    let mut g = game::<Frisian>("W:WK46,K50,36:BK1", rules);
    for _ in 0..5 {
        for m in ["46-41", "1-6", "41-46", "6-1", "50-45", "1-6", "45-50", "6-1"] {
            g.play_text(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        }
    }
    assert_eq!(g.status(), Status::Ongoing);
}

#[test]
fn a_record_kept_under_older_rules_replays_past_a_newer_count() {
    // A Russian game played before the 15-moves-each kings-only rule: under the rules in
    // force it would end at ply 30, and a stored record goes on to ply 34.
    let rules = DrawRules { repetition: None, ..DrawRules::official(Variant::Russian) };
    let cycle = ["c1-d2", "f8-g7", "d2-c1", "g7-f8"];
    let mut g = game::<Russian>("W:WKc1,a3:BKf8,h6", rules);
    for i in 0..34 {
        let pos = *g.position();
        let mv = dama_core::notation::parse_move(&pos, cycle[i % 4]).unwrap();
        g.play_recorded(&mv).unwrap_or_else(|e| panic!("ply {}: {e}", i + 1));
    }
    assert_eq!(g.plies().len(), 34);
    // Still a draw by the rules in force; a move the board forbids is still refused.
    assert_eq!(over(&g).reason, EndReason::KingsOnly(30));
    let mut g = game::<Russian>("B:WKc1:B", DrawRules::official(Variant::Russian));
    assert_eq!(over(&g).reason, EndReason::NoPieces);
    let any = dama_core::Move { from: 0, to: 1, promote: false, captured: Default::default() };
    assert!(g.play_recorded(&any).is_err());
}

#[test]
fn italian_forty_moves_each_without_capture_or_man_move() {
    use dama_core::variant::Italian;
    // FID, Regolamento Tecnico 10.4: 40 moves each in which no man moves and nothing is
    // captured draw. A man's move starts the count again.
    let rules = DrawRules { repetition: None, ..DrawRules::official(Variant::Italian) };
    assert_eq!(rules.kings_only_plies, Some(80));
    let cycle = ["29-25", "4-8", "25-29", "8-4"];
    let mut g = game::<Italian>("W:WK29,22:BK4,11", rules);
    for ply in 1..60 {
        shuttle(&mut g, &cycle);
        assert_eq!(g.status(), Status::Ongoing, "ply {ply}");
    }
    // Ply 60 is Black's: a man moves instead of the king, and the count starts again.
    g.play_text("11-15").unwrap();
    // The kings go on, White first.
    let cycle = ["29-25", "8-4", "25-29", "4-8"];
    for ply in 1..80 {
        g.play_text(cycle[(ply - 1) % 4]).unwrap();
        assert_eq!(g.status(), Status::Ongoing, "ply {ply} after the man's move");
    }
    g.play_text(cycle[79 % 4]).unwrap();
    assert_eq!(over(&g), GameResult { winner: None, reason: EndReason::KingsOnly(80) });
    assert_eq!(over(&g).to_string(), "Draw: 40 moves each with only kings moving and no capture");
}
