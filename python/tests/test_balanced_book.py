"""bench/balanced_book.py's mirrored secrets: Black's selection is the mirror
image of White's, so that a Traitor Standard or Simplified book's openings
give neither side better secrets, and the book itself is deterministic."""

import sys

import heterodox
from support import load_script


def load_book():
    return load_script("bench/balanced_book.py")


def test_standard_selections_mirror_square_by_square():
    book = load_book()
    assert [book.mirror_square(s) for s in ("c8", "g7", "a1", "h2")] == ["c1", "g2", "a8", "h7"]
    game = heterodox.Game("traitor")
    game.play("S-c8,g7")
    assert book.mirrored_selection(game, "S-c8,g7") == "S-c1,g2"
    game.play("S-c1,g2")
    assert game.fen().split()[-4] == "g7,c8/c1,g2"


def test_simplified_counts_are_their_own_mirror():
    book = load_book()
    game = heterodox.Game("traitor", commitment="simplified")
    game.play("S-NP")
    assert book.mirrored_selection(game, "S-NP") == "S-NP"


def test_a_mirrored_book_is_deterministic_and_mirrored(tmp_path, monkeypatch):
    book = load_book()
    texts = []
    for name in ("a.txt", "b.txt"):
        out = tmp_path / name
        argv = ["balanced_book.py", "--mirror-secrets", "--plies", "0", "--count", "3",
                "--depth", "1", "--out", str(out)]
        monkeypatch.setattr(sys, "argv", argv)
        book.main()
        texts.append(out.read_text())
    assert texts[0] == texts[1]
    lines = texts[0].splitlines()
    assert lines[0].startswith("# traitor default rules: 3 openings of mirrored secret selections")
    for fen in lines[1:]:
        white, black = fen.split()[-4].split("/")
        assert sorted(book.mirror_square(s) for s in white.split(",")) == sorted(black.split(","))
