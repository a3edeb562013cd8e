"""Seeded fuzzing of every parser and constructor: random strings, byte
sequences and mutations of valid input into position strings, moves,
rule options, and random integers into every size argument. Nothing may
panic or abort; each call either works or raises the exception its
documentation names, and a refused move leaves the game unchanged.

A few seconds by default; HETERODOX_FUZZ_ROUNDS (default 1) multiplies
the work and HETERODOX_FUZZ_SEED (default 0) picks other inputs, e.g.
``HETERODOX_FUZZ_ROUNDS=100 pytest python/tests/test_fuzz.py``."""

import os

import numpy as np
import pytest

import heterodox
from heterodox import (
    Game,
    IllegalMoveError,
    NotationError,
    OptionError,
    Outcome,
    PositionError,
    VecEnv,
)

ROUNDS = int(os.environ.get("HETERODOX_FUZZ_ROUNDS", "1"))
SEED = int(os.environ.get("HETERODOX_FUZZ_SEED", "0"))
VARIANTS = heterodox.variants()
# Characters position strings and moves are made of, and some that are not.
ALPHABET = list("pnbrqkhdgwfcPNBRQKHDGWFC12345678909abcdefgh/-+=#x:@*()[],?! \t") + [
    "\x00",
    "\u00e9",
    "\u265e",
    "\U0001f600",
]


def random_text(rng, valid):
    """A random string: from the alphabet, from random bytes, or a
    mutation (characters replaced, inserted, deleted, cut) of `valid`."""
    kind = rng.integers(4)
    if kind == 0:
        return "".join(rng.choice(ALPHABET, size=rng.integers(0, 40)))
    if kind == 1:
        data = bytes(rng.integers(0, 256, size=rng.integers(0, 40), dtype=np.uint8))
        return data.decode("utf-8", errors="surrogateescape")
    text = list(valid)
    for _ in range(rng.integers(1, 4)):
        op = rng.integers(4)
        at = int(rng.integers(0, len(text) + 1))
        if op == 0 and text:
            text[min(at, len(text) - 1)] = str(rng.choice(ALPHABET))
        elif op == 1:
            text.insert(at, str(rng.choice(ALPHABET)))
        elif op == 2 and text:
            del text[min(at, len(text) - 1)]
        else:
            text = text[:at]
    return "".join(text)


def random_int(rng):
    return int(rng.choice([-1, 0, 1, 2, 7, 2**31, 2**32, 2**63, 2**64, -(2**70), 10**30]))


def positions(variant, rng):
    """Valid position strings of `variant`: its start and a few random games."""
    out = [Game(variant).fen()]
    game = Game(variant)
    for _ in range(30):
        legal = game.legal_moves()
        if not legal:
            break
        game.play(legal[rng.integers(len(legal))])
        out.append(game.fen())
    return out


@pytest.mark.parametrize("variant", VARIANTS)
def test_position_strings(variant):
    rng = np.random.default_rng([SEED, VARIANTS.index(variant), 1])
    valid = positions(variant, rng)
    for k in range(800 * ROUNDS):
        text = random_text(rng, valid[rng.integers(len(valid))])
        if k % 40 == 0:
            # The same parser behind the envs' start positions.
            try:
                VecEnv(variant, 1, fens=[text]).reset()
                heterodox.make(variant, fen=text).reset()
            except (PositionError, UnicodeEncodeError):
                pass
        try:
            game = Game(variant, text)
        except (PositionError, UnicodeEncodeError):
            continue
        # A position that reads writes itself back and plays on.
        assert Game(variant, game.fen()).fen() == game.fen()
        game.legal_moves()
        game.observation()
        game.render()


@pytest.mark.parametrize("variant", VARIANTS)
def test_moves_and_action_indices(variant):
    rng = np.random.default_rng([SEED, VARIANTS.index(variant), 2])
    game = Game(variant)
    for _ in range(10):
        legal = game.legal_moves()
        game.play(legal[rng.integers(len(legal))])
    before = (game.fen(), game.plies, game.legal_moves())
    moves = game.legal_moves() + game.legal_moves_san()
    for _ in range(800 * ROUNDS):
        text = random_text(rng, moves[rng.integers(len(moves))])
        copy = game.copy()
        try:
            index = copy.action_index(text)
        except (IllegalMoveError, NotationError, UnicodeEncodeError):
            pass
        else:
            assert index in game.legal_action_indices()
        try:
            copy.play(text)
        except (IllegalMoveError, NotationError, UnicodeEncodeError):
            assert (copy.fen(), copy.plies, copy.legal_moves()) == before
        else:
            assert copy.plies > game.plies
        for value in (random_int(rng), int(rng.integers(-5, game.num_actions + 5))):
            try:
                game.action_from_index(value)
            except IllegalMoveError:
                pass
            except ValueError as error:
                assert str(error).startswith("index must be an int from 0 to")
    assert (game.fen(), game.plies, game.legal_moves()) == before


@pytest.mark.parametrize("variant", VARIANTS)
def test_rule_options_and_players(variant):
    rng = np.random.default_rng([SEED, VARIANTS.index(variant), 3])
    keys = ["mode", "commitment", "selection", "seed", "announce_check", "no_immediate_undo"]
    for _ in range(200 * ROUNDS):
        key = str(rng.choice(keys)) if rng.integers(2) else random_text(rng, "mode")
        value = random_text(rng, "random") if rng.integers(2) else random_int(rng)
        try:
            Game(variant, **{key: value})
        except (OptionError, UnicodeEncodeError, TypeError):
            pass
        except PositionError:
            assert variant == "traitor"  # selection=fixed needs a position
        player = random_text(rng, "white")
        try:
            Game(variant).observation(player)
        except ValueError as error:
            assert "invalid color" in str(error) or isinstance(error, UnicodeEncodeError)
        try:
            Outcome(player, random_text(rng, "checkmate"))
        except ValueError as error:
            assert "invalid color" in str(error) or isinstance(error, UnicodeEncodeError)


def test_constructor_integers():
    rng = np.random.default_rng([SEED, 4])
    for _ in range(60 * ROUNDS):
        variant = str(rng.choice(VARIANTS))
        kwargs = {
            name: random_int(rng)
            for name in ("num_envs", "seed", "history", "max_plies")
            if rng.integers(2)
        }
        kwargs.setdefault("num_envs", 1)
        try:
            env = VecEnv(variant, **kwargs)
        except ValueError as error:
            assert str(error).split(" ")[0] in {"num_envs", "seed", "history", "max_plies"} or (
                "would need" in str(error)
            )
            continue
        env.reset()
        env.close()
        try:
            Game(variant).perft(int(rng.choice([-1, 2, 11, 2**64, -(2**100)])))
        except ValueError as error:
            assert str(error).startswith("depth must be an int from 0 to 10")
