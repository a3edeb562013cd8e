"""heterodox.make: one game as a Gymnasium-style environment."""

import numpy as np
import pytest

import heterodox
from heterodox import Game


def play(env, move, info):
    """Steps the action whose long notation is `move`."""
    action = info["legal_actions"][info["legal_moves"].index(move)]
    return env.step(action)


def test_reset_gives_observation_and_info():
    env = heterodox.make("chess")
    obs, info = env.reset(seed=0)
    assert obs.shape == env.observation_shape == (len(env.channel_names), 8, 8)
    assert obs.dtype == np.float32
    assert sorted(info) == ["action_mask", "current_player", "legal_actions", "legal_moves"]
    assert info["current_player"] == 0
    assert info["action_mask"].shape == (4672,) and info["action_mask"].dtype == np.int8
    assert int(info["action_mask"].sum()) == 20
    assert np.flatnonzero(info["action_mask"]).tolist() == sorted(info["legal_actions"])
    assert sorted(info["legal_moves"]) == sorted(Game("chess").legal_moves())


def test_fools_mate():
    env = heterodox.make("chess")
    _, info = env.reset()
    for move in ["f2f3", "e7e5", "g2g4"]:
        obs, reward, terminated, truncated, info = play(env, move, info)
        assert (reward, terminated, truncated) == (0.0, False, False)
    assert info["current_player"] == 1
    obs, reward, terminated, truncated, info = play(env, "d8h4", info)
    assert (reward, terminated, truncated) == (1.0, True, False)
    assert info["legal_moves"] == [] and int(info["action_mask"].sum()) == 0
    assert env.fen() == "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
    with pytest.raises(ValueError, match="the game is over: call reset"):
        env.step(0)
    env.reset()
    assert env.fen() == Game("chess").fen()


def test_illegal_and_bad_actions():
    env = heterodox.make("chess")
    env.reset()
    start = env.fen()
    with pytest.raises(ValueError, match=f"illegal action 0: not the index of a legal action .* in position {start}"):
        env.step(0)
    with pytest.raises(ValueError, match=f"illegal action 4672: indices run 0..4672 \\(position {start}\\)"):
        env.step(4672)
    with pytest.raises(TypeError, match="action must be an int, not str"):
        env.step("e2e4")
    with pytest.raises(TypeError, match="action must be an int, not bool"):
        env.step(True)
    assert env.fen() == start


def test_render_and_svg():
    env = heterodox.make("chess", render_mode="ansi")
    env.reset()
    assert env.render() == Game("chess").render()
    assert env._repr_svg_() == Game("chess")._repr_svg_()


def test_unknown_variant_and_option():
    with pytest.raises(ValueError, match="valid variants: chess, poison, hostage, madscientist, traitor"):
        heterodox.make("shogi")
    with pytest.raises(ValueError, match="chess has no rule option 'foo' \\(valid options: none\\)"):
        heterodox.make("chess", foo=1)


def test_gymnasium_spaces():
    """The spaces, when gymnasium is installed. (Gymnasium's check_env does
    not apply: it steps unmasked random actions, which we refuse.)"""
    gymnasium = pytest.importorskip("gymnasium")
    env = heterodox.make("chess")
    assert isinstance(env, gymnasium.Env)
    assert env.action_space == gymnasium.spaces.Discrete(4672)
    assert env.observation_space.shape == env.observation_shape
    assert env.observation_space.dtype == np.float32
    obs, info = env.reset(seed=4)
    assert env.observation_space.contains(obs)
    assert env.action_space.contains(info["legal_actions"][0])
