"""What the Python tests share (``from support import ...``: pytest puts
this folder on ``sys.path``)."""


def random_playout(game, rng, steps):
    """Plays up to `steps` random legal actions; the indices played."""
    played = []
    for _ in range(steps):
        legal = game.legal_action_indices()
        if not legal:
            break
        index = legal[rng.integers(len(legal))]
        played.append(index)
        game.play_index(index)
    return played

