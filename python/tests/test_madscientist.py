"""heterodox.Game("madscientist"): part-pieces in the position string,
Scientist powers and discards in legal_moves(), typed errors as ValueError."""

import pytest

from heterodox import Game
from support import start_game

START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - - 0 1"


def test_start_position():
    game = start_game("madscientist", START_FEN, legal=23)
    assert game.legal_moves()[-3:] == ["W-d1", "F-d1", "F-f1"]
    assert game.perft(3) == 13296


def test_remove_then_animate():
    game = Game("madscientist")
    assert game.play("F-f1") == "F-f1"
    assert game.fen() == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQK[F]NR b KQkq - F 0 1"
    game.play("e5")
    assert "F@e2" not in game.legal_moves()  # e2 holds a pawn
    assert game.play("W-d1") == "W-d1"


def test_capture_into_a_full_hand_then_discards():
    game = Game("madscientist", "k7/8/8/8/3q4/8/8/K2R4 w - - WWFFCCBB 0 1")
    game.play("Rxd4")
    assert game.turn == "white"
    assert game.legal_moves() == ["-W", "-F", "-C", "-B"]
    for discard in ["-W", "-W", "-F", "-F"]:
        game.play(discard)
    assert game.turn == "black"


def test_capturing_the_scientist_wins():
    game = Game("madscientist", "4k3/8/8/8/8/8/8/K3R3 w - - - 0 1")
    game.play("Rxe8")
    outcome = game.outcome()
    assert (outcome.winner, outcome.termination) == ("white", "scientist captured")


def test_bad_input_is_a_value_error():
    with pytest.raises(ValueError, match="at most two of a type"):
        Game("madscientist", "k7/8/8/8/8/8/8/K[WWW]6 w - - - 0 1")
    game = Game("madscientist")
    with pytest.raises(ValueError):
        game.play("W@e2")
    assert game.fen() == START_FEN


def test_hand_planes_stay_in_0_to_1_with_sixteen_parts_in_hand():
    # Mid-turn a hand may hold sixteen parts (encoding version 2: / 16).
    game = Game("madscientist", "4k3/8/8/8/8/8/8/4K3 w - - WWWWWWWWWWFFFFFF 0 1")
    obs = game.observation()
    names = game.channel_names()
    assert obs[names.index("own_hand_wazir")].max() == 10 / 16
    assert obs[names.index("own_hand_ferz")].max() == 6 / 16
    assert obs[names.index("pending_discards")].max() == 1.0
    assert 0.0 <= obs.min() and obs.max() <= 1.0
