"""heterodox.Game("hostage"): drops and exchanges in legal_moves(), the
text's notation in play(), prisons and airfields as dicts."""

import pytest

from heterodox import Game
from support import start_game

EMPTY = {"P": 0, "N": 0, "B": 0, "R": 0, "Q": 0}


def test_start_position():
    start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[-/-/-/-] w KQkq - 0 1"
    game = start_game("hostage", start, legal=20)
    assert game.prisons() == {"white": EMPTY, "black": EMPTY}
    assert game.airfields() == {"white": EMPTY, "black": EMPTY}


def test_parr_pritchard_opening_with_exchange_and_drop():
    game = Game("hostage")
    for move in "d4 d5 c4 dxc4 Nc3 e5 d5 c6 e4 b5 dxc6".split():
        game.play(move)
    assert game.prisons() == {"white": {**EMPTY, "P": 1}, "black": {**EMPTY, "P": 1}}
    assert "P-P@d4" in game.legal_moves()
    assert "(P-P)*d4" in game.legal_moves_san()
    assert game.play("(P-P)*d4") == "P-P@d4"
    assert game.airfields() == {"white": {**EMPTY, "P": 1}, "black": EMPTY}
    assert "P@d7" in game.legal_moves()
    assert game.play("*d7") == "P@d7"
    assert game.airfields()["white"]["P"] == 0


def test_bad_input_is_a_value_error():
    game = Game("hostage")
    with pytest.raises(ValueError, match="illegal move"):
        game.play("N*f3")
    with pytest.raises(ValueError, match="king never leaves the board"):
        Game("hostage", "k7/8/8/8/8/8/8/4K3[k/-/-/-] w - - 0 1")
    with pytest.raises(ValueError, match="only hostage has"):
        Game("chess").prisons()
