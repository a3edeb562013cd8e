"""heterodox.Game("poison"): poison and cure actions in legal_moves(), the
text's notation in play(), typed errors as ValueError."""

import pytest

from heterodox import Game
from support import start_game

START_FEN = "hnbdkbnh/pppppppp/8/8/8/8/PPPPPPPP/HNBDKBNH w KQkq - 0 1 -"
# The text's problem: White mates with xHe5 (the Harpy on e5 poisons f5).
PROBLEM_FEN = "2d1k3/p2p1p1N/hp4pp/b3Hn2/2P4B/P3D2P/1P3PP1/6K1 w - - 0 1 -"
# White Doctor g6, White Knight g5 poisoned (counter 3).
CURE_FEN = "k7/8/6D1/6N1/8/8/8/4K3 w - - 0 1 g5:3"


def test_start_position():
    game = start_game("poison", START_FEN, legal=20)
    assert game.perft(4) == 197269


def test_the_texts_problem_mates_with_a_poisoning():
    game = Game("poison", PROBLEM_FEN)
    notation = dict(zip(game.legal_moves(), game.legal_moves_san()))
    assert notation["e5*f5"] == "xHe5#[f5,5]"
    assert notation["e5c5"] == "Hc5+"
    assert game.play("xHe5#[f5,5]") == "e5*f5"
    assert game.fen() == "2d1k3/p2p1p1N/hp4pp/b4n2/2P4B/P3D2P/1P3PP1/6K1 b - - 0 1 f5:5"
    outcome = game.outcome()
    assert (outcome.winner, outcome.termination) == ("white", "checkmate")


def test_cure_in_long_and_text_notation():
    for text in ["g6~g5", "Dg6", "Dg6[g5,C]"]:
        game = Game("poison", CURE_FEN)
        assert "g6~g5" in game.legal_moves()
        assert game.play(text) == "g6~g5"
        assert game.fen() == "k7/8/6D1/6N1/8/8/8/4K3 b - - 0 1 -"


def test_bad_input_raises_and_leaves_the_game_unchanged():
    game = Game("poison", PROBLEM_FEN)
    with pytest.raises(ValueError, match=r"the suffix of 'xHe5\[f5,4\]' disagrees"):
        game.play("xHe5[f5,4]")
    with pytest.raises(ValueError, match="illegal move"):
        game.play("e5*d4")
    assert game.fen() == PROBLEM_FEN
    with pytest.raises(ValueError, match="counter '6' on f5 is out of range 1 to 5"):
        Game("poison", "4k3/8/8/5n2/8/8/8/4K3 w - - 0 1 f5:6")


def test_a_poisoned_king_dies_on_the_poisoners_move():
    game = Game("poison", "4k3/8/8/8/8/8/8/4K2N w - - 0 1 e8:1")
    assert game.play("Kd1[xe8]") == "e1d1"
    outcome = game.outcome()
    assert (outcome.winner, outcome.termination) == ("white", "king died of poison")
    assert game.legal_moves() == []
