"""heterodox.Search: the Rust MCTS over many games, evaluated from Python."""

import numpy as np
import pytest

import heterodox
from heterodox import EvaluationError, Game, Search

# White mates with Ra8 (back rank); nothing else mates.
MATE_IN_ONE = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"


def uniform(requests):
    """Uniform priors (float32 1/n, as the Rust UniformEvaluator) and value 0."""
    counts = np.diff(requests["offsets"]).astype(np.float32)
    priors = (np.float32(1.0) / counts)[requests["leaf"]]
    return priors.astype(np.float32), np.zeros(len(counts), dtype=np.float32)


def drive(search, evaluate=uniform):
    rounds = 0
    while not search.done:
        requests = search.gather()
        search.apply(*evaluate(requests))
        rounds += 1
    return rounds


def same_results(a, b):
    for key in ("policy", "visits", "value", "best"):
        np.testing.assert_array_equal(a[key], b[key], err_msg=key)


def test_requests_layout():
    search = Search("chess", num_games=3, simulations=8, seed=1)
    requests = search.gather()
    # First round: each game's root alone.
    assert requests["observations"].shape == (3, *search.observation_shape)
    assert requests["observations"].dtype == np.float32
    assert requests["mask"].shape == (3, 4672)
    np.testing.assert_array_equal(requests["game"], [0, 1, 2])
    np.testing.assert_array_equal(requests["offsets"], [0, 20, 40, 60])
    start = Game("chess")
    assert sorted(requests["legal"][:20].tolist()) == sorted(start.legal_action_indices())
    np.testing.assert_array_equal(requests["observations"][0], start.observation())
    np.testing.assert_array_equal(requests["mask"][requests["leaf"], requests["legal"]], True)
    assert requests["mask"].sum() == 60
    search.apply(*uniform(requests))
    later = search.gather()
    assert len(later["game"]) == 3 * 8  # leaves_per_round (8) per game
    assert set(later["game"].tolist()) == {0, 1, 2}


@pytest.mark.parametrize("root_policy", ["puct", "gumbel"])
def test_mate_in_one_is_found(root_policy):
    search = Search("chess", simulations=64, root_policy=root_policy, fens=[MATE_IN_ONE],
                    gumbel_actions=32)
    drive(search)
    mate = Game("chess", MATE_IN_ONE).action_index("Ra8")
    result = search.result()
    assert result["best"].tolist() == [mate]
    assert result["policy"][0].argmax() == mate
    assert result["value"][0] > 0.25  # the mates found back up as wins
    assert search.step().tolist() == [True]
    assert search.results() == ["1-0"]
    assert search.plies() == [1]
    # A game that is over takes no more work.
    assert search.done
    assert search.gather()["observations"].shape == (0, *search.observation_shape)
    assert search.result()["best"].tolist() == [-1]


def hide(action):
    """Uniform priors but none on `action`, value 0."""

    def evaluate(requests):
        priors, values = uniform(requests)
        priors[requests["legal"] == action] = 0.0
        return priors, values

    return evaluate


@pytest.mark.parametrize("immediate_wins", [True, False])
def test_a_win_in_one_the_evaluator_hides(immediate_wins):
    """With immediate_wins the root plays the mate its evaluator gives no
    prior, its target all on it; without, one simulation never tries it."""
    mate = Game("chess", MATE_IN_ONE).action_index("Ra8")
    search = Search("chess", simulations=1, root_policy="gumbel", fens=[MATE_IN_ONE],
                    immediate_wins=immediate_wins)
    drive(search, hide(mate))
    result = search.result()
    if immediate_wins:
        assert result["best"].tolist() == [mate]
        assert result["policy"][0, mate] == 1.0
        assert result["policy"][0].sum() == 1.0
    else:
        assert result["best"].tolist() != [mate]
        assert result["policy"][0, mate] < 1e-6


# Black mates on the back rank (Rb1# or Rxb1#) after any rook move of White's.
BACK_RANK = "1r4k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"


def allows_a_win(game, move):
    after = game.copy()
    after.play(move)
    for reply in after.legal_moves_san():
        answered = after.copy()
        answered.play(reply)
        if answered.is_over() and answered.outcome().winner == "black":
            return True
    return False


@pytest.mark.parametrize("avoid", [True, False])
def test_a_root_whose_prior_is_on_blunders_avoids_them(avoid):
    """The evaluator's prior is on the moves that allow mate in one: a
    Gumbel root considering 4 actions sees only them, unless
    avoid_losses_in_one puts them last."""
    game = Game("chess", BACK_RANK)
    blunders = {game.action_index(m) for m in game.legal_moves_san() if allows_a_win(game, m)}
    assert len(blunders) == 7  # Ra2 to Ra7, Rb1 (Ra8 pins the rook on b8)

    def misleading(requests):
        priors, values = uniform(requests)
        priors[:] = np.where(np.isin(requests["legal"], list(blunders)), 1.0, 1e-3)
        for k in range(len(requests["offsets"]) - 1):
            a, b = requests["offsets"][k], requests["offsets"][k + 1]
            priors[a:b] /= priors[a:b].sum()
        return priors.astype(np.float32), values

    search = Search("chess", simulations=16, root_policy="gumbel", gumbel_actions=4,
                    fens=[BACK_RANK], immediate_wins=True, avoid_losses_in_one=avoid)
    drive(search, misleading)
    best = int(search.result()["best"][0])
    assert (best in blunders) == (not avoid)


@pytest.mark.parametrize("variant", ["chess", "traitor"])
@pytest.mark.parametrize("root_policy", ["puct", "gumbel"])
def test_python_uniform_equals_rust_uniform(variant, root_policy):
    """Uniform priors from Python give what the Rust UniformEvaluator gives
    (Search::run inside Rust), noise and determinizations included, move
    after move."""
    kwargs = dict(num_games=3, simulations=24, seed=7, root_policy=root_policy, noise=True)
    by_python = Search(variant, **kwargs)
    by_rust = Search(variant, **kwargs)
    for _ in range(4):
        drive(by_python)
        by_rust.run()
        assert by_rust.done
        same_results(by_python.result(), by_rust.result())
        np.testing.assert_array_equal(by_python.step(), by_rust.step())
    assert [by_python.fen(k) for k in range(3)] == [by_rust.fen(k) for k in range(3)]


def test_run_with_a_python_evaluator_and_dense_priors():
    flat = Search("hostage", num_games=2, simulations=16, seed=3)
    dense = Search("hostage", num_games=2, simulations=16, seed=3)
    flat.run(uniform)

    def dense_uniform(requests):
        priors, values = uniform(requests)
        out = np.zeros(requests["mask"].shape, dtype=np.float32)
        out[requests["leaf"], requests["legal"]] = priors
        out[~requests["mask"]] = 123.0  # never read
        return out, values[:, None]

    dense.run(dense_uniform)
    same_results(flat.result(), dense.result())


@pytest.mark.parametrize("variant", heterodox.variants())
def test_every_variant_searches_and_plays(variant):
    search = Search(variant, num_games=2, simulations=12, seed=11)
    for _ in range(3):
        drive(search)
        policy = search.policy()
        assert policy.shape == (2, search.num_actions)
        live = ~search.over()
        np.testing.assert_allclose(policy[live].sum(axis=1), 1.0, rtol=1e-5)
        best = search.result()["best"]
        for k in np.flatnonzero(live):
            assert policy[k, best[k]] > 0
        search.step()


def test_step_with_given_actions():
    search = Search("chess", num_games=2, simulations=4)
    search.run()
    e4 = Game("chess").action_index("e4")
    search.step(np.array([e4, -1], dtype=np.int64))
    assert search.fen(0) == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    search.run()
    with pytest.raises(heterodox.IllegalMoveError, match="not legal in game 1"):
        search.step(np.array([-1, 0], dtype=np.int64))
    assert search.plies() == [1, 1]  # nothing moved
    with pytest.raises(ValueError, match="shape"):
        search.step(np.array([-1], dtype=np.int64))


def test_bad_evaluations_raise_and_change_nothing():
    search = Search("chess", num_games=2, simulations=8)
    requests = search.gather()
    priors, values = uniform(requests)
    cases = [
        (priors.astype(np.float64), values, "dtype float32"),
        (priors.tolist(), values, "numpy array"),
        (priors[:-1], values, "shape"),
        (priors, values[:1], "shape"),
        (np.where(np.arange(len(priors)) == 5, np.nan, priors).astype(np.float32), values, "leaf 0"),
        (np.where(np.arange(len(priors)) == 25, -0.5, priors).astype(np.float32), values, "leaf 1"),
        (priors, np.array([0.0, 1.5], dtype=np.float32), "values must be in"),
        (priors, np.array([0.0, np.inf], dtype=np.float32), "values must be in"),
    ]
    for bad_priors, bad_values, message in cases:
        with pytest.raises(EvaluationError, match=message):
            search.apply(bad_priors, bad_values)
    assert issubclass(EvaluationError, ValueError)
    with pytest.raises(ValueError, match="await apply"):
        search.gather()
    search.apply(priors, values)
    with pytest.raises(EvaluationError, match="gather"):
        search.apply(priors, values)
    reference = Search("chess", num_games=2, simulations=8)
    drive(search)
    reference.run()
    same_results(search.result(), reference.result())


def test_an_evaluator_exception_leaves_the_search_usable():
    search = Search("chess", simulations=8)

    def broken(requests):
        raise RuntimeError("out of memory")

    with pytest.raises(RuntimeError, match="out of memory"):
        search.run(broken)
    search.run(uniform)
    assert search.done


# Issue 24: White has two moves, Kf3 (Black mates in two: P@e4+, Kg3 the
# only reply, Qg2#) and Ke5 (f6#, Black mates at once).
INTO_MATE = "r3kbnr/p1p1pp1p/2P5/3p2p1/4K3/7b/3q4/1n6[-/QRRBBNNPPPPPP/P/p] w kq - 0 22"
MATING_LINES = [
    (("Ke5",), "f7f6"),
    (("Kf3",), "P@e4"),
    (("Kf3", "P@e4"), "Kg3"),
    (("Kf3", "P@e4", "Kg3"), "d2g2"),
]


def into_mate():
    """An evaluator whose priors lead every descent into mate: all the prior
    on the move MATING_LINES names at its position (known by its
    observation), uniform elsewhere (the root), value 0."""
    prefer = {}
    for moves, move in MATING_LINES:
        game = Game("hostage", INTO_MATE)
        for played in moves:
            game.play(played)
        prefer[game.observation().tobytes()] = game.action_index(move)

    def evaluate(requests):
        legal, offsets = requests["legal"], requests["offsets"]
        priors = np.zeros(len(legal), dtype=np.float32)
        for leaf, observation in enumerate(requests["observations"]):
            start, end = offsets[leaf], offsets[leaf + 1]
            move = prefer.get(observation.tobytes())
            priors[start:end] = 1.0 / (end - start) if move is None else legal[start:end] == move
        return priors, np.zeros(len(offsets) - 1, dtype=np.float32)

    return evaluate


def test_run_goes_through_a_round_of_mates_only():
    """After four rounds every descent ends in mate: the fifth round gathers
    no leaves and runs the last ten simulations, finishing the search.
    run() neither raises nor hands the evaluator an empty batch."""
    search = Search("hostage", simulations=16, root_policy="gumbel", fens=[INTO_MATE],
                    immediate_wins=False)
    evaluate = into_mate()
    batches = []

    def counting(requests):
        batches.append(len(requests["offsets"]) - 1)
        return evaluate(requests)

    search.run(counting)
    assert search.done
    assert batches == [1, 2, 1, 1]
    assert search.simulations() == [16]
    result = search.result()
    assert result["visits"].sum() == 16
    # Twelve simulations ended in mate (-1 for White), four were leaves of
    # value 0; Kf3, the longer way to lose, is the choice.
    assert result["value"].tolist() == [-0.75]
    assert result["best"].tolist() == [Game("hostage", INTO_MATE).action_index("Kf3")]


def test_a_gather_loop_goes_through_the_empty_round():
    """The loop of the docs, unchanged: the empty round (L = 0) comes while
    done is False, finishes the search, and its apply takes empty arrays."""
    search = Search("hostage", simulations=16, root_policy="gumbel", fens=[INTO_MATE],
                    immediate_wins=False)
    evaluate = into_mate()
    rounds = []
    while not search.done:
        requests = search.gather()
        rounds.append((len(requests["offsets"]) - 1, search.done))
        search.apply(*evaluate(requests))
    assert rounds == [(1, False), (2, False), (1, False), (1, False), (0, True)]
    assert search.simulations() == [16]
    empty = search.gather()
    assert empty["observations"].shape == (0, *search.observation_shape)
    assert empty["mask"].shape == (0, search.num_actions)
    with pytest.raises(EvaluationError, match="priors must have shape"):
        search.apply(np.zeros(1, dtype=np.float32), np.zeros(0, dtype=np.float32))
    search.apply(*evaluate(empty))
    with pytest.raises(EvaluationError, match="call gather"):
        search.apply(*evaluate(empty))
    assert search.step().tolist() == [False]
    assert search.simulations() == [0]  # the next search has not run yet


def test_settings_are_checked():
    with pytest.raises(heterodox.UnknownVariantError):
        Search("shogi")
    with pytest.raises(ValueError, match="root_policy"):
        Search("chess", root_policy="ucb")
    with pytest.raises(ValueError, match="simulations"):
        Search("chess", simulations=0)
    with pytest.raises(ValueError, match="num_games"):
        Search("chess", num_games=10**9)
    with pytest.raises(ValueError, match="determinizations"):
        Search("traitor", simulations=2, determinizations=3)
    with pytest.raises(heterodox.OptionError):
        Search("traitor", mode="nonsense")
    with pytest.raises(heterodox.PositionError):
        Search("chess", fens=["not a fen"])
    with pytest.raises(ValueError, match="not finished"):
        Search("chess").policy()
    with pytest.raises(ValueError, match="history"):
        Search("traitor", history=2)


def test_traitor_search_never_reads_the_opponents_secret():
    """White's search after the selections is the same whatever Black
    selected in secret (a1 or b1): determinizations are drawn from White's
    view, never from the true state."""
    selecting = Game("traitor")
    white = selecting.action_index("S-h8")
    selecting.play("S-h8")

    def searched(black_secret):
        search = Search("traitor", simulations=32, seed=3)
        for action in (white, selecting.action_index(black_secret)):
            search.run()
            search.step(np.array([action], dtype=np.int64))
        search.run()
        return search

    a, b = searched("S-a1"), searched("S-b1")
    assert a.fen(0).endswith("h8/a1 open - -") and b.fen(0).endswith("h8/b1 open - -")
    same_results(a.result(), b.result())


# The Knight on e3 can take the undefended Doctor on d5 (Poison Chess).
HANGING_DOCTOR = "4k3/8/8/3d4/8/4N3/8/4K3 w - - 0 1 -"


@pytest.mark.parametrize("weight, move", [(0.5, "e3d5"), (0.0, "e1f1")])
def test_quiescence_at_the_leaves_sees_the_hanging_doctor(weight, move):
    """With quiescence_weight, a uniform search's leaves see the capture the
    evaluator's value 0 hides; without, nothing tells the moves apart (the
    Rust test selfplay/tests/integration/quiescence_leaves.rs plays the same: Nxd5 and
    Kf1)."""
    search = Search("poison", simulations=64, root_policy="gumbel", gumbel_actions=256,
                    seed=7, fens=[HANGING_DOCTOR], quiescence_weight=weight)
    drive(search)
    game = Game("poison", HANGING_DOCTOR)
    assert game.action_from_index(int(search.result()["best"][0])) == move


@pytest.mark.parametrize("weight", [-0.1, 1.5, float("nan")])
def test_a_quiescence_weight_out_of_range_is_a_value_error(weight):
    with pytest.raises(ValueError, match="quiescence_weight"):
        Search("poison", quiescence_weight=weight)


def test_agent_strings_say_their_quiescence_weight():
    assert heterodox.parse_agent("zoo:hostage@64/quiescence")["quiescence_weight"] == 0.5
    assert heterodox.parse_agent("uniform@8/quiescence=0.25")["quiescence_weight"] == 0.25
    assert heterodox.parse_agent("zoo:hostage@64")["quiescence_weight"] == 0.0
