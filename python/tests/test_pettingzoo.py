"""heterodox.pettingzoo: the AEC env passes PettingZoo's own api_test and
plays a known game with zero-sum rewards."""

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

import heterodox  # noqa: E402
import heterodox.pettingzoo as hz  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402


@pytest.mark.parametrize("variant", heterodox.variants())
def test_api_test(variant):
    api_test(hz.env(variant), num_cycles=300)


def test_fools_mate_rewards():
    env = hz.env("chess")
    env.reset(seed=0)
    assert env.agents == ["white", "black"]
    assert env.agent_selection == "white"
    assert env.observe("black")["action_mask"].sum() == 0
    for move in ["f2f3", "e7e5", "g2g4", "d8h4"]:
        agent = env.agent_selection
        _, _, _, _, info = env.last()
        assert env.observe(agent)["action_mask"].sum() == len(info["legal_moves"])
        assert np.flatnonzero(env.observe(agent)["action_mask"]).tolist() == sorted(
            info["legal_actions"]
        )
        env.step(info["legal_actions"][info["legal_moves"].index(move)])
    assert env.terminations == {"white": True, "black": True}
    assert env.rewards == {"white": -1.0, "black": 1.0}
    for agent in ("white", "black"):
        assert env.infos[agent]["outcome"] == heterodox.Outcome("black", "checkmate")
    _, reward, terminated, _, _ = env.last()
    assert env.agent_selection == "white" and reward == -1.0 and terminated
    env.step(None)
    _, reward, _, _, _ = env.last()
    assert env.agent_selection == "black" and reward == 1.0
    env.step(None)
    assert env.agents == []


def test_illegal_action_raises():
    env = hz.env("chess")
    env.reset()
    with pytest.raises(ValueError, match="illegal action 0: not the index of a legal action"):
        env.step(0)
    assert env.agent_selection == "white"


def test_render_ansi():
    env = hz.env("chess", render_mode="ansi")
    env.reset()
    assert env.render().splitlines()[1] == "8  r  n  b  q  k  b  n  r  8"


def test_render_rgb_array():
    env = hz.env("hostage", render_mode="rgb_array")
    assert env.metadata["render_modes"] == ["ansi", "svg", "rgb_array"]
    env.reset()
    frame = env.render()
    assert frame.shape == (384, 576, 3) and frame.dtype == np.uint8
    assert frame.tobytes() == heterodox.Game("hostage").render_rgb().tobytes()
    env.step(env.infos["white"]["legal_actions"][env.infos["white"]["legal_moves"].index("e2e4")])
    game = heterodox.Game("hostage")
    game.play("e4")
    assert env.render().tobytes() == game.render_rgb().tobytes()
    with pytest.raises(ValueError, match="render_mode must be None, 'ansi', 'svg' or 'rgb_array'"):
        hz.env("chess", render_mode="human")


def test_observation_masks_are_int8():
    env = hz.env("chess")
    env.reset()
    for agent in ("white", "black"):
        observation = env.observe(agent)
        assert observation["action_mask"].dtype == np.int8
        assert env.observation_space(agent).contains(observation)
