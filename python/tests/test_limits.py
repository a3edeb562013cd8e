"""Never a crash: sizes are bounded before anything is allocated, negative
and huge integers are ValueErrors naming the argument, and a long perft
stops on Ctrl-C."""

import _thread
import signal
import threading
import time

import pytest

from heterodox import Game, NotationError, VecEnv
from heterodox._core import VecEnv as NativeVecEnv


def test_huge_batches_are_refused_before_allocating():
    with pytest.raises(ValueError, match="num_envs must be an int from 1 to 1048576, not 1000000000"):
        VecEnv("chess", 10**9)
    with pytest.raises(
        ValueError,
        match="num_envs=1048576 with these settings would need .* GiB of buffers "
        "\\(.* KiB per env\\); the limit is 8.0 GiB",
    ):
        NativeVecEnv("chess", 2**20)
    with pytest.raises(ValueError, match="history must be an int from 1 to 256, not 1000000"):
        VecEnv("chess", 1, history=10**6)
    with pytest.raises(ValueError, match="would need .* of buffers"):
        VecEnv("chess", 100_000, history=256)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"num_envs": -1}, "num_envs must be an int from 1 to 1048576, not -1"),
        ({"num_envs": 0}, "num_envs must be an int from 1 to 1048576, not 0"),
        ({"seed": -1}, "seed must be an int from 0 to 18446744073709551615, not -1"),
        ({"seed": 2**64}, "seed must be an int from 0 to 18446744073709551615, not 18446744073709551616"),
        ({"max_plies": 2**63}, "max_plies must be an int from 1 to 4294967295, not 9223372036854775808"),
        ({"max_plies": 0}, "max_plies must be an int from 1 to 4294967295, not 0"),
        ({"history": -5}, "history must be an int from 1 to 256, not -5"),
    ],
)
def test_bad_integers_name_the_argument(kwargs, message):
    args = {"num_envs": 1, **kwargs}
    with pytest.raises(ValueError, match=message) as error:
        VecEnv("chess", **args)
    assert type(error.value) is ValueError
    with pytest.raises(ValueError, match=message):
        NativeVecEnv("chess", **args)


def test_bad_integer_types():
    with pytest.raises(TypeError, match="num_envs must be an int, not float"):
        VecEnv("chess", 2.0)
    with pytest.raises(TypeError, match="num_envs must be an int, not bool"):
        VecEnv("chess", True)
    with pytest.raises(ValueError, match="depth must be an int from 0 to 10, not 11"):
        Game().perft(11)
    with pytest.raises(ValueError, match="depth must be an int from 0 to 10, not -1"):
        Game().perft(-1)
    with pytest.raises(ValueError, match="depth must be an int from 0 to 10, not 1267650600228229401496703205376"):
        Game().divide(2**100)


def test_off_board_square_is_a_notation_error():
    with pytest.raises(
        NotationError, match="^cannot read move 'e9e4': square off the board \\(ranks run 1 to 8\\)$"
    ):
        Game().play("e9e4")


def test_perft_stops_on_ctrl_c():
    def interrupt():
        time.sleep(0.3)
        _thread.interrupt_main()

    # A process started in the background by a non-interactive shell
    # inherits SIGINT ignored, and then interrupt_main does nothing: the
    # test installs Python's own handler for its duration.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        threading.Thread(target=interrupt).start()
        started = time.monotonic()
        with pytest.raises(KeyboardInterrupt):
            Game().perft(9)
        assert time.monotonic() - started < 5.0
    finally:
        signal.signal(signal.SIGINT, previous)
    # The game is usable afterwards.
    assert Game().perft(3) == 8902


def test_perft_counts_are_unchanged():
    assert [Game().perft(d) for d in range(5)] == [1, 20, 400, 8902, 197281]
    assert sum(Game().divide(3).values()) == 8902
    assert Game("poison").perft(3) == Game("poison").perft(3)
    assert sum(Game("hostage").divide(2).values()) == Game("hostage").perft(2) == 400
