"""heterodox.Engine: the alpha-beta engine from Python (docs/engine.md)."""

import threading
from pathlib import Path

import pytest

import heterodox

#: The fixture catalogue (tests/fixtures/zoo/: small nets of seeded random
#: weights), which the tests of the engine's default net play.
FIXTURE_ZOO = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "zoo"

SCHOLAR = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 4 4"


def test_finds_the_mate_in_one():
    engine = heterodox.Engine("chess")
    game = heterodox.Game("chess", fen=SCHOLAR)
    result = engine.search(game, depth=3)
    assert (result.move, result.notation) == ("f3f7", "Qxf7#")
    assert (result.mate, result.score_cp, result.value) == (1, None, 1.0)
    assert result.pv == ["f3f7"]
    assert result.action == game.action_index("f3f7")
    # A mate in one is proved at the first iteration, which ends the search.
    assert result.depth == 1 and result.nodes > 0 and result.seconds >= 0.0
    assert repr(result).startswith("EngineResult(move='f3f7', mate 1, depth=1")
    game.play(result.move)
    assert game.outcome() == heterodox.Outcome("white", "checkmate")


def test_the_poison_rule_texts_problem():
    # poison-chess.txt: Black just played 1...Nf5??; 2.xHe5#[f5,5] mates.
    engine = heterodox.Engine("poison")
    fen = "2d1k3/p2p1p1N/hp4pp/b3Hn2/2P4B/P3D2P/1P3PP1/6K1 w - - 0 1 -"
    game = heterodox.Game("poison", fen=fen)
    result = engine.search(game, depth=4)
    assert (result.notation, result.mate) == ("xHe5#[f5,5]", 1), result
    game.play(result.move)
    assert game.outcome() is not None and game.outcome().winner == "white"


def test_a_depth_limit_is_deterministic():
    game = heterodox.Game("hostage")
    for move in ["e4", "e5", "Nf3", "Nc6"]:
        game.play(move)
    engine = heterodox.Engine("hostage")
    first = engine.search(game, depth=5)
    engine.new_game()
    second = engine.search(game, depth=5)
    other = heterodox.Engine("hostage").search(game, depth=5)
    for result in (second, other):
        assert (result.move, result.score_cp, result.pv, result.nodes) == (
            first.move, first.score_cp, first.pv, first.nodes)
    by_nodes = heterodox.Engine("hostage").search(game, nodes=3000)
    assert by_nodes.nodes == 3000


def test_hand_set_weights_play_the_evaluation_before_tuning(monkeypatch):
    # Hostage's evaluation is tuned (docs/engine.md, "Tuning"): after
    # 4.Nc3 the queen goes to e5 with the tuned numbers, to a5 with those
    # set by hand. Chess kept its hand-set numbers: both are the same.
    game = heterodox.Game("hostage")
    for move in ["e4", "d5", "exd5", "Qxd5", "Nc3"]:
        game.play(move)
    tuned = heterodox.Engine("hostage", evaluation="classical").search(game, depth=3)
    hand = heterodox.Engine("hostage", weights="hand").search(game, depth=3)
    assert (tuned.move, tuned.score_cp, tuned.nodes) == ("d5e5", -75, 2957)
    assert (hand.move, hand.score_cp, hand.nodes) == ("d5a5", -63, 2486)
    assert heterodox.Engine("hostage", evaluation="hand").search(game, depth=3).nodes == 2486
    # Without a choice the engine plays the net the catalogue ships for
    # Hostage (here the fixture catalogue's: its results do not move when
    # agents/ ships another net), and says which file it read.
    monkeypatch.setenv("HETERODOX_ZOO", str(FIXTURE_ZOO))
    learned = heterodox.Engine("hostage")
    result = learned.search(game, depth=3)
    assert (result.move, result.score_cp, result.nodes) == ("d5g2", 7, 4982)
    assert learned.network == FIXTURE_ZOO / "hostage" / "nnue.safetensors"
    start = heterodox.Game("chess")
    for engine in [heterodox.Engine("chess", evaluation="classical"), heterodox.Engine("chess", weights="hand")]:
        result = engine.search(start, depth=3)
        assert (result.move, result.score_cp) == ("b1c3", 50)
    # Chess's net is a correction added to the classical evaluation.
    learned = heterodox.Engine("chess")
    result = learned.search(start, depth=3)
    assert (result.move, result.score_cp, result.nodes) == ("d2d4", -46, 896)
    assert learned.network.parent.name == "chess"
    # So is Poison's: the same start, another move than the classical one.
    start = heterodox.Game("poison")
    result = heterodox.Engine("poison", evaluation="classical").search(start, depth=3)
    assert (result.move, result.score_cp, result.nodes) == ("b1c3", 52, 340)
    learned = heterodox.Engine("poison")
    result = learned.search(start, depth=3)
    assert (result.move, result.score_cp, result.nodes) == ("c2c4", -10, 854)
    assert learned.network.parent.name == "poison"
    # Without $HETERODOX_ZOO, the catalogue built into the module: its file
    # is named where the catalogue keeps it.
    monkeypatch.delenv("HETERODOX_ZOO")
    learned = heterodox.Engine("poison")
    learned.search(start, depth=1)
    assert learned.network == Path("agents/poison/nnue.safetensors")


def test_hidden_information_reads_only_the_players_view():
    # The same public position with each consistent secret of the opponent:
    # the engine's answer is the same (it never reads the secret).
    engine = heterodox.Engine("traitor", seed=3)
    start = heterodox.Game("traitor", commitment="simplified")
    assert start.turn == "white"
    results = set()
    for secret in start.legal_moves():  # White's secret selection
        line = start.copy()
        line.play(secret)
        line.play(line.legal_moves()[0])  # Black's own, the same in every line
        line.play("e4")
        assert line.turn == "black"
        engine.new_game()
        r = engine.search(line, depth=3)
        results.add((r.move, r.score_cp, r.mate, r.nodes))
    assert len(start.legal_moves()) > 1
    assert len(results) == 1, results


def test_bad_arguments_are_value_errors_naming_them():
    engine = heterodox.Engine("chess")
    game = heterodox.Game("chess")
    with pytest.raises(ValueError, match="^depth must be an int from 1 to 64, not 0$"):
        engine.search(game, depth=0)
    with pytest.raises(ValueError, match="^depth must be an int from 1 to 64, not 65$"):
        engine.search(game, depth=65)
    with pytest.raises(ValueError, match="^movetime_ms must be an int from 1 to"):
        engine.search(game, movetime_ms=0)
    with pytest.raises(ValueError, match="^nodes must be an int from 1 to"):
        engine.search(game, nodes=-1)
    with pytest.raises(TypeError, match="^depth must be an int, not str$"):
        engine.search(game, depth="3")
    with pytest.raises(ValueError, match="^search needs a limit: depth, movetime_ms or nodes$"):
        engine.search(game)
    with pytest.raises(ValueError, match="^this engine plays chess, the game is poison$"):
        engine.search(heterodox.Game("poison"), depth=2)
    over = heterodox.Game("chess", fen=SCHOLAR)
    over.play("Qxf7#")
    with pytest.raises(ValueError, match=r"^the game is over \(.*\): there is nothing to search$"):
        engine.search(over, depth=2)
    with pytest.raises(ValueError, match="^hash_mib must be an int from 1 to 65536, not 0$"):
        heterodox.Engine("chess", hash_mib=0)
    with pytest.raises(ValueError, match="^threads must be an int from 1 to 256, not 0$"):
        heterodox.Engine("chess", threads=0)
    with pytest.raises(heterodox.UnknownVariantError):
        heterodox.Engine("checkers")
    with pytest.raises(ValueError, match=r"^unknown evaluation weights 'best' \(tuned or hand\)$"):
        heterodox.Engine("chess", weights="best")


def test_the_search_releases_the_gil():
    engine = heterodox.Engine("chess")
    game = heterodox.Game("chess")
    done = threading.Event()
    results = []

    def search():
        results.append(engine.search(game, movetime_ms=400))
        done.set()

    thread = threading.Thread(target=search)
    thread.start()
    counted = 0
    while not done.is_set():
        counted += 1
    thread.join()
    assert results[0].move in [m for m in game.legal_moves()]
    # With the GIL held for the whole search this loop could not run.
    assert counted > 10_000, counted
