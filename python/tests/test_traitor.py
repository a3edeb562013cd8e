"""Traitor Chess through heterodox.Game: rule options, the selection phase,
whole turns in the text's notation, and player views, with exact values."""

import copy

import pytest

import heterodox
from heterodox import Game, VecEnv

# The six FIDE fields and the empty ids / announced fields of a new game.
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 - -"
SELECT_FEN = f"{START} 9,9 -/- */* select - -"


def fixed(secrets: str) -> Game:
    """A game at the start of play with both secrets given ('white/black')."""
    return Game("traitor", f"{START} 9,9 -/- {secrets} open - -", selection="fixed")


# --- rule options -------------------------------------------------------------


def test_default_game_opens_with_the_selection_phase():
    game = Game("traitor")
    assert game.variant == "traitor"
    assert game.options == {}
    assert game.turn == "white"
    assert game.fen() == SELECT_FEN
    # White's 2204 Standard selections: black pieces (not the King) worth at most 9.
    moves = game.legal_moves()
    assert len(moves) == 2204
    assert moves[:5] == ["S-h8", "S-g8", "S-g8,h8", "S-f8", "S-f8,h8"]
    assert moves[-1] == "S-a7,b7,c7,d7,e7,f7,g7,h7"
    assert game.legal_moves_san()[:3] == ["(S-Rh8)", "(S-Ng8)", "(S-Ng8,Rh8)"]
    assert game.outcome() is None
    assert game.perft(1) == 2204


def test_selection_phase_white_then_black():
    game = Game("traitor")
    assert game.play("S-d8") == "S-d8"
    assert game.turn == "black"
    assert game.plies == 1
    assert game.fen() == (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1 - - 9,9 -/- d8/* select - -"
    )
    assert len(game.legal_moves()) == 2204
    assert game.legal_moves()[:3] == ["S-h2", "S-g2", "S-g2,h2"]
    assert game.play("S-c1,g2,h1") == "S-c1,h1,g2"
    assert game.turn == "white"
    assert game.plies == 2
    assert game.fen() == f"{START} 9,9 -/- d8/c1,h1,g2 open - -"
    # Play: 20 moves and the announcement of the d8 Queen.
    assert game.legal_moves()[:2] == ["T-d8", "b1a3"]
    assert game.legal_moves_san()[:2] == ["(T-Qd8)", "Na3"]
    assert len(game.legal_moves()) == 21


def test_simplified_selections_are_type_counts():
    game = Game("traitor", commitment="simplified")
    assert game.options == {"commitment": "simplified"}
    assert len(game.legal_moves()) == 46
    assert game.legal_moves()[:6] == ["S-Q", "S-R", "S-B", "S-RB", "S-BB", "S-N"]


def test_impromptu_defector_has_no_selection_and_plays_a_defection():
    game = Game("traitor", mode="defector", commitment="impromptu")
    assert game.options == {"commitment": "impromptu", "mode": "defector"}
    assert game.fen() == f"{START} 9,9 -/- -/- open - -"
    # No secrets: both views are the full position string.
    assert game.view("white") == game.view("black") == game.fen()
    assert len(game.legal_moves()) == 32
    game.play("e4")
    game.play("d5")
    # The d5 pawn (id d7) defects to White; a White move follows in the same turn.
    assert game.play("(T-d7)Nf3") == "T-d7 g1f3"
    assert game.turn == "black"
    assert game.plies == 4
    assert game.fen() == (
        "rnbqkbnr/ppp1pppp/8/3P4/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2 "
        "f3=g1,e4=e2,d5=d7 - 8,9 d7/- -/- open - d7"
    )


def test_option_values_may_be_int_or_bool():
    game = Game("traitor", selection="random", seed=7, no_immediate_undo=False)
    assert game.options == {"no_immediate_undo": "false", "selection": "random", "seed": "7"}
    assert game.fen() == f"{START} 9,9 -/- b7,e7,c8,f8/c2,f2,g2 open - -"
    # Seeded: the same seed draws the same secrets.
    assert Game("traitor", selection="random", seed="7").fen() == game.fen()
    assert Game("traitor", selection="random", seed=8).fen() != game.fen()


def test_announce_check_reaches_game_make_and_vecenv():
    # T4a: at the Impromptu Traitor start only T-d8 would check; with
    # announce_check='forbidden' it is not legal (index 4672 + 59 for White).
    text = Game("traitor", commitment="impromptu")
    strict = Game("traitor", commitment="impromptu", announce_check="forbidden")
    assert strict.options == {"announce_check": "forbidden", "commitment": "impromptu"}
    assert len(text.legal_moves()) == 35 and "T-d8" in text.legal_moves()
    assert len(strict.legal_moves()) == 34 and "T-d8" not in strict.legal_moves()
    with pytest.raises(ValueError, match="illegal"):
        strict.play("(T-d8)e4")
    env = heterodox.make("traitor", commitment="impromptu", announce_check="forbidden")
    _, info = env.reset(seed=0)
    assert int(info["action_mask"].sum()) == 34
    assert not info["action_mask"][4672 + 59]
    vec = VecEnv("traitor", 2, commitment="impromptu", announce_check="forbidden")
    _, info = vec.reset()
    assert info["action_mask"].sum(axis=1).tolist() == [34, 34]
    assert not info["action_mask"][:, 4672 + 59].any()
    _, info = VecEnv("traitor", 1, commitment="impromptu").reset()
    assert info["action_mask"][0, 4672 + 59]


def test_repr_carries_the_options_and_copies_keep_them():
    game = Game("traitor", selection="random", seed=7)
    assert repr(game) == (
        f"Game(variant='traitor', fen='{START} 9,9 -/- b7,e7,c8,f8/c2,f2,g2 open - -', "
        "seed='7', selection='random')"  # options sorted by key
    )
    assert eval(repr(game), {"Game": Game}).fen() == game.fen()
    assert game.copy().options == copy.deepcopy(game).options == game.options
    assert repr(Game()) == f"Game(variant='chess', fen='{START[:-4]}')"


# --- the text's notation ------------------------------------------------------


def test_sample_game_with_fixed_selections():
    # docs/rules/traitor.md: White's secret Qd8, Black's Rh1, Bc1, g2.
    game = fixed("d8/c1,g2,h1")
    turns = ["e4", "e5", "Nf3", "Nf6", "Bc4", "Ng4", "0-0", "Bc5", "Nc3", "(T-Rh1)N:f2"]
    played = [game.play(turn) for turn in turns]
    assert played[-4:] == ["e1g1", "f8c5", "b1c3", "T-h1 g4f2"]
    assert game.plies == 11  # ten turns, one of them an announcement and a move
    assert game.fen() == (
        "rnbqk2r/pppp1ppp/8/2b1p3/2B1P3/2N2N2/PPPP1nPP/R1BQ1RK1 w kq - 0 6 "
        "f1=h1,g1=e1,f2=g8,c3=b1,f3=g1,c4=f1,e4=e2,c5=f8,e5=e7 f1 9,4 -/h1 d8/c1,g2 open - -"
    )
    assert game.is_over()
    assert str(game.outcome()) == "0-1 (checkmate)"
    assert game.outcome().winner == "black"
    assert game.view("white").endswith(" 9,4 -/h1 d8/? open - -")
    assert game.view("black").endswith(" 9,4 -/h1 ?/c1,g2 open - -")


def test_announcement_long_and_short_forms():
    for text in ["T-d8 e2e4", "(T-Q)e4", "(T-Qd8)e4"]:
        game = fixed("d8/c1,g2,h1")
        assert game.play(text) == "T-d8 e2e4"
        assert game.turn == "black"
        assert game.fen() == (
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 "
            "e4=e2 d8 0,9 d8/- -/c1,h1,g2 open - -"
        )


def test_an_announcement_is_a_step_but_not_a_turn():
    game = fixed("d8/c1,g2,h1")
    # The text's notation needs the move after the announcement (T3) ...
    with pytest.raises(ValueError) as info:
        game.play("(T-Qd8)")
    assert "cannot read move '(T-Qd8)'" in str(info.value)
    assert game.fen() == f"{START} 9,9 -/- d8/c1,h1,g2 open - -"
    # ... while the long form of one step, as legal_moves() lists it, is a
    # step: White announces and is still to move.
    assert "T-d8" in game.legal_moves()
    assert game.play("T-d8") == "T-d8"
    assert game.turn == "white"
    assert all(not m.startswith("T-") for m in game.legal_moves())
    game.play("e2e4")
    assert game.turn == "black"
    game = fixed("d8/c1,g2,h1")
    with pytest.raises(ValueError, match="illegal move"):
        game.play("(T-Rh1)e4")  # h1 is Black's traitor, not White's


# --- views --------------------------------------------------------------------


def play_out(black_secret: str) -> Game:
    game = fixed(f"c8,g7/{black_secret}")
    # White makes the g7 pawn a traitor and later moves it; Black announces h1.
    for turn in ["(T-g7)e4", "e5", "Nf3", "(T-Rh1)Nc6", "g6"]:
        game.play(turn)
    return game


def test_white_view_never_holds_blacks_secret():
    a, b = play_out("c1,g2,h1"), play_out("h1")
    board = (
        "r1bqkbnr/pppp1p1p/2n3p1/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b Qkq - 0 3 "
        "f3=g1,e4=e2,e5=e7,c6=b8,g6=g7 h1,g6 8,4 g7/h1"
    )
    assert a.fen() == f"{board} c8/c1,g2 open - -"
    assert b.fen() == f"{board} c8/- open - -"
    assert a.view("white") == b.view("white") == f"{board} c8/? open - -"
    assert a.view("black") == f"{board} ?/c1,g2 open - -"
    assert b.view("black") == f"{board} ?/- open - -"


def test_views_during_the_selection_phase():
    a, b = Game("traitor"), Game("traitor")
    assert a.view("white") == a.view("black") == SELECT_FEN
    a.play("S-d8")
    b.play("S-a8,b8")
    assert a.view("black") == b.view("black")
    assert a.view("black").endswith(" 9,9 -/- ?/* select - -")
    assert a.view("white").endswith(" 9,9 -/- d8/* select - -")
    a.play("S-c1,g2,h1")
    b.play("S-c1,g2,h1")
    c = Game("traitor")
    c.play("S-d8")
    c.play("S-a1")
    assert a.view("white") == c.view("white") == f"{START} 9,9 -/- d8/? open - -"
    assert a.view("black") == b.view("black") == f"{START} 9,9 -/- ?/c1,h1,g2 open - -"


# --- errors -------------------------------------------------------------------


@pytest.mark.parametrize(
    "variant, options, message",
    [
        ("chess", {"mode": "x"}, "chess has no rule option 'mode' (valid options: none)"),
        (
            "traitor",
            {"speed": "x"},
            "traitor has no rule option 'speed' "
            "(valid options: mode, commitment, no_immediate_undo, announce_check, selection, seed)",
        ),
        (
            "traitor",
            {"announce_check": "never"},
            "invalid value 'never' for traitor option 'announce_check' "
            "(valid values: allowed, forbidden)",
        ),
        (
            "traitor",
            {"mode": "x"},
            "invalid value 'x' for traitor option 'mode' (valid values: traitor, defector, "
            "double-agent, defector-double-agent, mercenary)",
        ),
        (
            "traitor",
            {"no_immediate_undo": 1},
            "invalid value '1' for traitor option 'no_immediate_undo' "
            "(valid values: on, off, true, false)",
        ),
        (
            "traitor",
            {"selection": "random", "seed": -1},
            "invalid value '-1' for traitor option 'seed' "
            "(valid values: a whole number from 0 to 18446744073709551615)",
        ),
        (
            "traitor",
            {"selection": "fixed"},
            "invalid selection field 'fixed': selection=fixed takes both players' "
            "choices from a position string; give one",
        ),
    ],
)
def test_bad_options(variant, options, message):
    with pytest.raises(ValueError) as info:
        Game(variant, **options)
    assert str(info.value) == message


def test_option_of_another_type_is_a_type_error():
    with pytest.raises(TypeError) as info:
        Game("traitor", seed=1.5)
    assert str(info.value) == "rule option 'seed' must be a str, int or bool, not float"


def test_bad_traitor_fen():
    with pytest.raises(ValueError) as info:
        Game("traitor", START[:-4])
    assert str(info.value).startswith(f"invalid FEN '{START[:-4]}': ")


def test_view_errors():
    with pytest.raises(ValueError) as info:
        Game("chess").view("white")
    assert str(info.value) == (
        "chess has perfect information: there are no player views "
        "(only traitor has hidden information)"
    )
    with pytest.raises(ValueError) as info:
        Game("traitor").view("red")
    assert str(info.value) == "invalid color 'red': expected 'white' or 'black'"


def test_the_engine_s_beliefs_about_the_opponent_s_secret():
    # Standard, White's engine; Black held White's queen (d1) and could
    # have mated at once by T-d1 after any White move, but played e5.
    assert heterodox.Engine("chess").beliefs() is None
    engine = heterodox.Engine("traitor", hash_mib=4, seed=3)
    assert engine.beliefs() is None
    game = Game("traitor")
    game.play("S-a8")
    game.play("S-a1,b1")
    white = engine.search(game, depth=2)
    uniform = engine.beliefs()
    assert len(uniform) == 2204
    assert uniform[0][1] == pytest.approx(1 / 2204, abs=1e-15)
    game.play(white.move)
    while game.turn == "white":  # an announcement, then the move
        game.play(engine.search(game, depth=2).move)
    game.play("e7e5" if "e7e5" in game.legal_moves() else game.legal_moves()[0])
    engine.search(game, depth=2)
    beliefs = engine.beliefs()
    assert len(beliefs) == 2204
    assert sum(p for _, p in beliefs) == pytest.approx(1.0, abs=1e-12)
    assert [p for _, p in beliefs] == sorted((p for _, p in beliefs), reverse=True)
    # Black's secret {d1} would have mated by T-d1: only the model's noise
    # is left to it, the floor no secret falls below.
    queen = dict(beliefs)["d1"]
    assert queen < 1 / 2204
    assert queen <= beliefs[-1][1] * (1 + 1e-9)
