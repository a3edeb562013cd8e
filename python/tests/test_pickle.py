"""pickle and copy.deepcopy round-trip Games, make() envs, VecEnvs and the
PettingZoo env exactly (the copies go on as the originals do), and every
object with a board has _repr_svg_."""

import copy
import pickle

import numpy as np
import pytest

import heterodox
from heterodox import Game, VecEnv
from support import random_playout

VARIANTS = heterodox.variants()


def round_trips(obj):
    return [pickle.loads(pickle.dumps(obj)), copy.deepcopy(obj)]


@pytest.mark.parametrize("variant", VARIANTS)
def test_game_round_trips_with_its_history(variant):
    game = Game(variant)
    random_playout(game, np.random.default_rng(2), 25)
    for copied in round_trips(game):
        assert type(copied) is Game
        assert copied.fen() == game.fen() and copied.plies == game.plies
        assert copied.options == game.options
        np.testing.assert_array_equal(copied.observation(history=4), game.observation(history=4))
        assert copied.legal_moves() == game.legal_moves()


def test_game_from_a_position_with_options_round_trips():
    game = Game("traitor", selection="random", seed=7)
    game.play(game.legal_moves()[0])
    copied = pickle.loads(pickle.dumps(game))
    assert repr(copied) == repr(game)
    # Repetition history survives: three knight shuffles draw in both.
    chess = Game()
    for move in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"]:
        chess.play(move)
    copied = pickle.loads(pickle.dumps(chess))
    for g in (chess, copied):
        g.play("Ng8")
    assert copied.outcome() == chess.outcome() == heterodox.Outcome(None, "threefold repetition")


@pytest.mark.parametrize("variant", VARIANTS)
def test_make_env_round_trips_and_steps_the_same(variant):
    env = heterodox.make(variant, history=2, max_plies=40)
    env.reset(seed=3)
    env.action_space.seed(3)
    for _ in range(5):
        env.step(env.action_space.sample())
    copies = round_trips(env)
    for _ in range(10):
        action = env.action_space.sample()
        expected = env.step(action)
        for copied in copies:
            got = copied.step(action)
            np.testing.assert_array_equal(got[0], expected[0])
            assert got[1:4] == expected[1:4]
            np.testing.assert_array_equal(got[4]["action_mask"], expected[4]["action_mask"])
        if expected[2] or expected[3]:
            break
    # The env's random generator is copied too: the same next set-up.
    assert [c.reset()[0].tolist() for c in copies] == [env.reset()[0].tolist()] * 2


@pytest.mark.parametrize("variant", VARIANTS)
def test_vecenv_round_trips_and_steps_the_same(variant):
    env = VecEnv(variant, 3, seed=5, max_plies=12, history=2)
    env.reset()
    env.action_space.seed(0)
    for _ in range(15):
        env.step(env.action_space.sample())
    copies = round_trips(env)
    rng = np.random.default_rng(1)
    for _ in range(20):
        actions = np.array(
            [env.legal_actions(i)[rng.integers(len(env.legal_actions(i)))] for i in range(3)],
            dtype=np.int64,
        )
        expected = env.step(actions)
        for copied in copies:
            got = copied.step(actions)
            for a, b in zip(expected[:4], got[:4]):
                np.testing.assert_array_equal(a, b)
            np.testing.assert_array_equal(expected[4]["action_mask"], got[4]["action_mask"])
    for copied in copies:
        assert [copied.fen(i) for i in range(3)] == [env.fen(i) for i in range(3)]


def test_pettingzoo_round_trips():
    pytest.importorskip("pettingzoo")
    import heterodox.pettingzoo as hz

    env = hz.raw_env("hostage")
    env.reset(seed=0)
    env.step(int(np.flatnonzero(env.observe("white")["action_mask"])[0]))
    for copied in round_trips(env):
        assert copied.agent_selection == env.agent_selection == "black"
        assert copied.game.fen() == env.game.fen()


def test_every_object_with_a_board_draws_itself():
    svg = Game()._repr_svg_()
    assert svg.startswith("<svg")
    env = heterodox.make("chess")
    env.reset()
    assert env._repr_svg_() == svg
    vec = VecEnv("chess", 2)
    vec.reset()
    assert vec._repr_svg_() == svg
    pytest.importorskip("pettingzoo")
    import heterodox.pettingzoo as hz

    aec = hz.raw_env("chess")
    aec.reset()
    assert aec._repr_svg_() == svg
    wrapped = hz.env("chess")
    wrapped.reset()
    assert wrapped._repr_svg_() == svg
    assert pickle.loads(pickle.dumps(wrapped))._repr_svg_() == svg
