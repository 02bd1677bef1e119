//! FEN and move text: the forms PDN 3.0 and real sites write, and clear errors.

use dama_core::fen::{parse_fen, write_fen, FenError};
use dama_core::notation::{detailed_moves, parse_move, square_name, MoveError, MoveTextError};
use dama_core::variant::{English, International, Italian, Russian, Spanish, Thai, Turkish};
use dama_core::{Bits, Position, SetupError};

#[test]
fn numeric_ranges_colour_order_dot_and_suffix() {
    let start = Position::<International>::start();
    for fen in [
        "W:W31-50:B1-20",
        "W:B1-20:W31-50",
        "W:W31-50:B1-20.",
        "W:W31-50:B1-20:H0:F1",
        "\"W:W31-50:B1-20\"",
        " W:W31,32,33,34,35,36-50:B1-5,6,7-20 ",
    ] {
        let p = parse_fen::<International>(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(p, start, "{fen}");
    }
}

#[test]
fn algebraic_fen_as_lidraughts_writes_it() {
    let fen = "W:Wa3,c3,e3,g3,b2,d2,f2,h2,a1,c1,e1,g1:Bb8,d8,f8,h8,a7,c7,e7,g7,b6,d6,f6,h6";
    assert_eq!(parse_fen::<Russian>(fen).unwrap(), Position::<Russian>::start());
}

#[test]
fn canonical_fen_is_written_back() {
    assert_eq!(
        write_fen(&Position::<English>::start()),
        "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    );
    let p = parse_fen::<Russian>("B:WKa1,c3:Bh8,Kb8").unwrap();
    assert_eq!(write_fen(&p), "B:Wc3,Ka1:BKb8,h8");
    assert_eq!(parse_fen::<Russian>(&write_fen(&p)).unwrap(), p);
}

#[test]
fn mirrored_numbering_of_italian_and_spanish() {
    // Italian: 1 = a8 on a board whose a1 is light; White (moving first) on 21-32.
    let it = Position::<Italian>::start();
    assert_eq!(write_fen(&it), "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12");
    // Spanish: 1 = h1, White on 1-12.
    let es = Position::<Spanish>::start();
    assert_eq!(write_fen(&es), "W:W1,2,3,4,5,6,7,8,9,10,11,12:B21,22,23,24,25,26,27,28,29,30,31,32");
    assert_eq!(square_name::<Turkish>(0), "a1");
}

#[test]
fn bad_fen_says_what_and_where() {
    let cases: Vec<(&str, FenError)> = vec![
        ("", FenError::Empty),
        ("X:W1", FenError::BadSide { found: "X".into(), at: 1 }),
        ("W:Q31:B1", FenError::BadList { found: "Q31".into(), at: 3 }),
        ("W:W51:B1", FenError::BadSquare { text: "51".into(), at: 4 }),
        ("W:W31,3x:B1", FenError::BadSquare { text: "3x".into(), at: 7 }),
        ("W:W40-31:B1", FenError::BadRange { text: "40-31".into(), at: 4 }),
        ("W:W31:W32", FenError::Repeated(dama_core::Color::White)),
        ("W:W31:B31", FenError::Setup(SetupError::Overlap("31".into()))),
        (
            "W:W3:B31",
            FenError::Setup(SetupError::ManOnCrowningRow { color: dama_core::Color::White, square: "3".into() }),
        ),
        ("B:W:B", FenError::Setup(SetupError::Empty)),
        (
            "W:W1-50:B",
            FenError::Setup(SetupError::TooManyPieces { color: dama_core::Color::White, count: 50, max: 20 }),
        ),
    ];
    for (fen, want) in cases {
        let got = parse_fen::<International>(fen).unwrap_err();
        assert_eq!(got, want, "{fen}");
        assert!(!got.to_string().is_empty());
    }
    let e = parse_fen::<Russian>("W:Wz9:Bb8").unwrap_err();
    assert_eq!(e.to_string(), "'z9' at character 4 is not a square of this board");
}

#[test]
fn move_text_forms() {
    let p = Position::<English>::start();
    assert!(parse_move(&p, "11-15").is_ok());
    assert!(parse_move(&p, " 11 - 15 ").is_ok());
    let r = parse_fen::<Russian>("W:Wh6:Bg7,c5,d2").unwrap();
    for t in ["h6:f8:b4:e1", "h6:e1", "H6:E1", "h6xf8xb4xe1", "h6:f8:e1"] {
        assert!(parse_move(&r, t).is_ok(), "{t}");
    }
    let t = parse_fen::<Turkish>("W:Wd4:Bd5,d7,c4").unwrap();
    assert!(parse_move(&t, "d4xd6xd8").is_ok());
    assert!(parse_move(&t, "d4xd8").is_ok());
}

#[test]
fn bad_move_text_says_what_and_where() {
    let p = Position::<English>::start();
    let text_err = |t: &str| match parse_move(&p, t) {
        Err(MoveError::Text { source, .. }) => source,
        other => panic!("{t}: {other:?}"),
    };
    assert_eq!(text_err(""), MoveTextError::Empty);
    assert_eq!(text_err("11"), MoveTextError::OneSquare);
    assert_eq!(text_err("11-99"), MoveTextError::BadSquare { text: "99".into(), at: 4 });
    assert_eq!(text_err("11?15"), MoveTextError::Unexpected { ch: '?', at: 3 });
    match parse_move(&p, "21-17") {
        Err(MoveError::Illegal { .. }) => {}
        other => panic!("{other:?}"),
    }
    // A capture is compulsory: the error says so.
    let c = parse_fen::<English>("B:W18:B14,1").unwrap();
    let e = parse_move(&c, "1-5").unwrap_err();
    assert!(e.to_string().contains("capture is compulsory"), "{e}");
}

#[test]
fn ambiguous_short_capture_names_the_candidates() {
    let p = parse_fen::<International>("W:WK4:B13,32,37,20").unwrap();
    match parse_move(&p, "4x15") {
        Err(MoveError::Ambiguous { candidates, .. }) => {
            let mut c = candidates.clone();
            c.sort();
            assert_eq!(c, vec!["4x27x38x15".to_string(), "4x31x42x15".to_string()]);
        }
        other => panic!("{other:?}"),
    }
    assert!(parse_move(&p, "4x27x38x15").is_ok());
    assert!(parse_move(&p, "4x31x15").is_ok());
}

#[test]
fn a_full_route_names_its_move_beside_a_longer_route_through_the_same_squares() {
    // Thai captures need not be the longest: the king may stop after two men or go on
    // round the board to the same square. Each full route names one move.
    let p = parse_fen::<Thai>("B:W13,16,17,K18,25,27:BK32").unwrap();
    let short = parse_move(&p, "32x23x12").unwrap();
    let long = parse_move(&p, "32x23x14x21x30x12").unwrap();
    assert_ne!(short, long);
    assert_eq!(short.captured.count(), 2);
    assert_eq!(long.captured.count(), 5);
    // The bare origin and destination still fits both, and says so.
    assert!(matches!(parse_move(&p, "32x12"), Err(MoveError::Ambiguous { .. })));
}

#[test]
fn detailed_moves_carry_path_and_captures_in_order() {
    let r = parse_fen::<Russian>("W:Wh6:Bg7,c5,d2").unwrap();
    let d = detailed_moves(&r);
    assert_eq!(d.len(), 1);
    let names = |v: &[usize]| v.iter().map(|&i| square_name::<Russian>(i)).collect::<Vec<_>>();
    assert_eq!(names(&d[0].path), ["h6", "f8", "b4", "e1"]);
    assert_eq!(names(&d[0].captured), ["g7", "c5", "d2"]);
    assert!(d[0].promote);
    assert_eq!(d[0].long, "h6:f8:b4:e1");
    assert_eq!(d[0].short, "h6:e1");
}

#[test]
fn positions_from_bit_sets_are_checked_like_setups() {
    use dama_core::variant::English;
    use dama_core::{Bits, Color, Position, SetupError};
    let p = Position::<English>::start();
    let men = [p.men(Color::White), p.men(Color::Black)];
    let none = [0u64; 2];
    // Two pieces on one square.
    let err = Position::<English>::from_bits([men[0], men[0]], none, Color::White).unwrap_err();
    assert!(matches!(err, SetupError::Overlap(_)), "{err}");
    // A man on the row where it would have been crowned.
    let crown = Position::<English>::crowning_row(Color::White).lowest();
    let black_king = u64::bit(men[0].lowest());
    let err = Position::<English>::from_bits([u64::bit(crown), 0], [0, black_king], Color::White).unwrap_err();
    assert!(matches!(err, SetupError::ManOnCrowningRow { .. }), "{err}");
    // A bit off the board.
    let off = (0..64).find(|&b| !dama_core::geometry::valid::<dama_core::geometry::Dark8>().has(b)).unwrap();
    let err = Position::<English>::from_bits([u64::bit(off), 0], [0, men[1]], Color::White).unwrap_err();
    assert!(matches!(err, SetupError::SquareOutOfRange(_)), "{err}");
    // The start position itself.
    assert_eq!(Position::<English>::from_bits(men, none, p.side()).unwrap(), p);
}

#[test]
fn frisian_king_moves_survive_fen() {
    use dama_core::game::{DrawRules, Game};
    use dama_core::movegen::legal_moves;
    use dama_core::variant::Frisian;
    // White's king makes three moves in a row while its side still has a man: the
    // fourth must be another piece's. The count is part of the FEN, as lidraughts
    // writes it (Black's run first, then White's).
    let start = parse_fen::<Frisian>("W:W36,K47:B1,2,3").unwrap();
    let mut g = Game::from_position(start, DrawRules::official(dama_core::Variant::Frisian));
    for m in ["47-42", "1-7", "42-47", "7-11", "47-42", "11-16"] {
        g.play_text(m).unwrap();
    }
    let pos = *g.position();
    let fen = write_fen(&pos);
    assert_eq!(fen, "W:W36,K42:B2,3,16:+0+342");
    let back = parse_fen::<Frisian>(&fen).unwrap();
    assert_eq!(back, pos);
    assert_eq!(back.hash(), pos.hash());
    let moves: Vec<String> =
        legal_moves(&back).iter().map(|m| dama_core::notation::move_to_string(&back, m, false)).collect();
    assert_eq!(moves, ["36-31"], "only the man may move");
    // lidraughts' full form with the clock fields reads the same.
    assert_eq!(parse_fen::<Frisian>("W:W36,K42:B2,3,16:H6:F4:+0+342").unwrap(), pos);
    // No run: no field, and a zero field reads as none.
    assert_eq!(write_fen(&start), "W:W36,K47:B1,2,3");
    assert_eq!(parse_fen::<Frisian>("W:W36,K47:B1,2,3:+0+0").unwrap(), start);
    // Runs that cannot be: over the limit, on a square without the side's king, in a
    // variant without the rule, or unreadable.
    for bad in ["W:W36,K42:B2,3,16:+0+442", "W:W36,K42:B2,3,16:+0+336", "W:W36,K42:B2,3,16:+0+3", "W:W36,K42:B2:+x"] {
        assert!(parse_fen::<Frisian>(bad).is_err(), "{bad}");
    }
    assert!(parse_fen::<International>("W:W36,K42:B2,3,16:+0+342").is_err());
    // A run ends with its king: once taken, the position has no run (found by the
    // random-game property test, which writes and reads every position).
    let p = parse_fen::<Frisian>("W:W27:BK22,3:+122+0").unwrap();
    let m = dama_core::notation::parse_move(&p, "27x18").unwrap();
    let after = p.play(&m);
    assert_eq!(write_fen(&after), "B:W18:B3");
    assert_eq!(parse_fen::<Frisian>("B:W18:B3").unwrap(), after);
}
