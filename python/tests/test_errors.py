"""Each kind of bad input raises its own exception class, a subclass of
ValueError (so ``except ValueError`` still catches it), with the reason."""

import pickle

import numpy as np
import pytest

import heterodox
from heterodox import (
    Game,
    IllegalMoveError,
    NotationError,
    OptionError,
    PositionError,
    UnknownVariantError,
    VecEnv,
)

START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
CLASSES = [IllegalMoveError, NotationError, OptionError, PositionError, UnknownVariantError]


def raised(call):
    """The exception `call()` raises; fails when it raises none."""
    with pytest.raises(Exception) as info:
        call()
    return info.value


def check(error, cls, message):
    """Exactly `cls` (not a sibling, not a bare ValueError), a ValueError,
    with exactly `message`."""
    assert type(error) is cls
    assert isinstance(error, ValueError)
    assert str(error) == message


@pytest.mark.parametrize("cls", CLASSES)
def test_classes_are_exported_value_errors(cls):
    assert cls.__bases__ == (ValueError,)
    assert cls.__module__ == "heterodox"
    assert getattr(heterodox, cls.__name__) is cls
    assert cls.__name__ in heterodox.__all__
    assert cls.__doc__
    # Exceptions cross process boundaries (multiprocessing) intact.
    copy = pickle.loads(pickle.dumps(cls("why")))
    assert type(copy) is cls and str(copy) == "why"


def test_illegal_move():
    game = Game("chess")
    check(
        raised(lambda: game.play("e5")),
        IllegalMoveError,
        f"illegal move 'e5' in position {START_FEN}",
    )
    check(
        raised(lambda: game.play("e2e5")),
        IllegalMoveError,
        f"illegal move 'e2e5' in position {START_FEN}",
    )
    assert game.fen() == START_FEN
    # Any move once the game is over.
    for move in ["f3", "e5", "g4", "Qh4#"]:
        game.play(move)
    check(
        raised(lambda: game.play("a3")),
        IllegalMoveError,
        "the game is over: 0-1 (checkmate); no move can be played",
    )


def test_illegal_action_in_vecenv_and_env():
    env = VecEnv("chess", 2)
    env.reset()
    legal = env.legal_actions(0)[0]
    error = raised(lambda: env.step(np.array([legal, 0], dtype=np.int64)))
    assert type(error) is IllegalMoveError and isinstance(error, ValueError)
    assert str(error).startswith("illegal action 0 in env 1: ")
    assert env.plies(0) == 0
    # The one-game env: an index outside the action space, and stepping a
    # finished game.
    single = heterodox.make("chess")
    single.reset()
    check(
        raised(lambda: single.step(single.num_actions)),
        IllegalMoveError,
        f"illegal action {single.num_actions}: indices run 0..{single.num_actions} "
        f"(position {START_FEN})",
    )
    error = raised(lambda: single.step(0))
    assert type(error) is IllegalMoveError
    assert str(error).startswith("illegal action 0: not the index of a legal action")


def test_notation():
    game = Game("chess")
    for text, reason in [("Zz9", "unknown piece letter"), ("e9", "bad destination square")]:
        check(
            raised(lambda: game.play(text)),
            NotationError,
            f"cannot read move '{text}': {reason}",
        )
    assert game.fen() == START_FEN
    # Two knights can reach b3.
    fen = "4k3/8/8/8/8/8/8/N1N1K3 w - - 0 1"
    check(
        raised(lambda: Game("chess", fen).play("Nb3")),
        NotationError,
        f"ambiguous move 'Nb3' in position {fen}: it matches 2 legal moves",
    )
    # A Poison Chess suffix that says something false about the move.
    problem = Game("poison", "2d1k3/p2p1p1N/hp4pp/b3Hn2/2P4B/P3D2P/1P3PP1/6K1 w - - 0 1 -")
    check(
        raised(lambda: problem.play("xHe5[f5,4]")),
        NotationError,
        "the suffix of 'xHe5[f5,4]' disagrees with the position: f5,4 is not true of "
        "this action, which writes [f5,5]",
    )
    assert problem.play("xHe5[f5,5]") == "e5*f5"


def test_position_string():
    fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1"
    check(
        raised(lambda: Game("chess", fen)),
        PositionError,
        f"invalid FEN '{fen}': invalid turn field 'x': expected 'w' or 'b'",
    )
    # Read, but not a legal Hostage position: nine white pawns.
    fen = "4k3/8/8/8/8/8/PPPPP3/4K3[-/PP/PP/-] w - - 0 1"
    check(
        raised(lambda: Game("hostage", fen)),
        PositionError,
        f"invalid FEN '{fen}': illegal position: white has 9 pawns on the board, in prisons "
        "and in airfields; a side owns at most 8 (men never leave the game and a promotion "
        "only swaps a pawn for a piece from prison)",
    )
    # A composed Hostage position with fewer men reads.
    assert Game("hostage", "4k3/1P6/8/8/8/8/6p1/4K2R[-/-/N/-] w K - 0 1").perft(2) == 336


def test_unknown_variant():
    message = (
        "unknown variant 'grand-chess' "
        "(valid variants: chess, poison, hostage, madscientist, traitor)"
    )
    check(raised(lambda: Game("grand-chess")), UnknownVariantError, message)
    check(raised(lambda: VecEnv("grand-chess", 2)), UnknownVariantError, message)
    check(raised(lambda: heterodox.make("grand-chess")), UnknownVariantError, message)


def test_option():
    check(
        raised(lambda: Game("chess", mode="defector")),
        OptionError,
        "chess has no rule option 'mode' (valid options: none)",
    )
    error = raised(lambda: Game("traitor", mode="spy"))
    assert type(error) is OptionError and isinstance(error, ValueError)
    assert str(error).startswith("invalid value 'spy' for traitor option 'mode' (valid values: ")
    check(
        raised(lambda: VecEnv("chess", 2, mode="defector")),
        OptionError,
        "chess has no rule option 'mode' (valid options: none)",
    )


def test_other_bad_arguments_stay_plain_value_errors():
    check(
        raised(lambda: Game().perft(11)),
        ValueError,
        "depth must be an int from 0 to 10, not 11",
    )
    check(
        raised(lambda: VecEnv("chess", 0)),
        ValueError,
        "num_envs must be an int from 1 to 1048576, not 0",
    )
