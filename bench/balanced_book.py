"""A balanced opening book for `heterodox arena --openings`: random openings
that the engine judges close to level.

Random openings of a few plies are the arena's default. In most variants
they are harmless, but in Traitor mode (T4a: a traitor announced next to
the enemy King mates) a random opening often leaves the side to move a mate
that nothing stops, and the pair then measures the opening, not the players
(docs/engine.md, Strength). This script keeps only the openings after which
`heterodox.Engine` at --depth finds no mate for either side and scores
within --max-cp of level, and writes them as position strings, one a line.

    .venv/bin/python bench/balanced_book.py --variant traitor --option commitment=impromptu \
        --count 100 --out runs/books/traitor-impromptu.txt
    target/release/heterodox arena --variant traitor --commitment impromptu \
        --openings runs/books/traitor-impromptu.txt --opening-plies 0 --agents ab@100ms,greedy --games 200

With --mirror-secrets (Traitor with secret selections, Standard or
Simplified), White's selection is drawn at random and Black's is its mirror
image, the same pieces of the other colour, so that the secrets favour
neither side and a pair's two games measure the players rather than the
draw of the selections; --plies random steps follow the two selections.

    .venv/bin/python bench/balanced_book.py --variant traitor --mirror-secrets --plies 2 \
        --count 200 --out runs/books/traitor-standard-mirrored.txt

Deterministic: the same arguments write the same book.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

import heterodox


def options_of(pairs: list[str]) -> dict[str, str]:
    options = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise SystemExit(f"--option takes KEY=VALUE, not '{pair}'")
        options[key] = value
    return options


def mirror_square(square: str) -> str:
    """The square on the same file, the other side of the board: c8 <-> c1."""
    return f"{square[0]}{9 - int(square[1:])}"


def mirrored_selection(game: heterodox.Game, selection: str) -> str:
    """Black's legal selection that mirrors White's `selection` (`S-c8,g7` -> `S-c1,g2`;
    a Simplified count list such as `S-NP` is its own mirror)."""
    chosen = selection.removeprefix("S-").split(",")
    wanted = sorted(mirror_square(s) if s[-1].isdigit() else s for s in chosen)
    for move in game.legal_moves():
        if move.startswith("S-") and sorted(move.removeprefix("S-").split(",")) == wanted:
            return move
    raise SystemExit(f"no selection of Black mirrors White's {selection}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="traitor")
    parser.add_argument("--option", action="append", default=[], help="KEY=VALUE, repeatable")
    parser.add_argument("--plies", type=int, default=4, help="random steps per opening")
    parser.add_argument("--count", type=int, default=100, help="openings to write")
    parser.add_argument("--depth", type=int, default=4, help="the engine's depth for the judgement")
    parser.add_argument("--max-cp", type=int, default=150, help="the largest |score| kept")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--mirror-secrets", action="store_true",
                        help="Traitor: Black's secret selection mirrors White's random one")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()

    options = options_of(args.option)
    rng = random.Random(args.seed)
    engine = heterodox.Engine(args.variant, seed=args.seed)
    book: list[str] = []
    seen: set[str] = set()
    tried = 0
    while len(book) < args.count:
        tried += 1
        if tried > 100 * args.count:
            raise SystemExit(f"only {len(book)} balanced openings in {tried - 1} tries")
        game = heterodox.Game(args.variant, **options)
        if args.mirror_secrets:
            white = rng.choice(game.legal_moves())
            if not white.startswith("S-"):
                raise SystemExit("--mirror-secrets needs rules with a selection phase")
            game.play(white)
            game.play(mirrored_selection(game, white))
        for _ in range(args.plies):
            if game.is_over():
                break
            game.play(rng.choice(game.legal_moves()))
        if game.is_over() or game.fen() in seen:
            continue
        result = engine.search(game, depth=args.depth)
        engine.new_game()
        if result.mate is not None or abs(result.score_cp) > args.max_cp:
            continue
        seen.add(game.fen())
        book.append(game.fen())
    args.out.parent.mkdir(parents=True, exist_ok=True)
    mirrored = "mirrored secret selections and " if args.mirror_secrets else ""
    header = (f"# {args.variant} {','.join(args.option) or 'default rules'}: {len(book)} openings of "
              f"{mirrored}{args.plies} random steps, |score| <= {args.max_cp} cp and no mate at depth "
              f"{args.depth} (bench/balanced_book.py, seed {args.seed}; {tried} tried)\n")
    args.out.write_text(header + "\n".join(book) + "\n")
    print(f"{args.out}: {len(book)} openings kept of {tried} tried")


if __name__ == "__main__":
    main()
