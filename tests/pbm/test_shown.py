"""What spite echoes of a value from outside is cut by screen cells: a wide character counts two, a combining mark none."""

from __future__ import annotations

import unicodedata

from rich.cells import cell_len

from pbm.shown import cut, plain, shown


def test_short_text_is_kept_whole() -> None:
    assert cut("Alice") == "Alice"
    assert cut("a" * 40) == "a" * 40
    nfd = unicodedata.normalize("NFD", "Nguyễn Thị Hương " * 2)  # 34 cells in 46 characters
    assert cut(nfd) == nfd


def test_text_is_cut_by_screen_cells() -> None:
    assert cut("a" * 41) == "a" * 39 + "…"
    wide = cut("山田太郎" * 10)  # 80 cells
    assert wide == "山田太郎" * 4 + "山田太" + "…" and cell_len(wide) == 39
    nfd = unicodedata.normalize("NFD", "Nguyễn Thị Hương " * 4)
    kept = cut(nfd, 20)
    assert cell_len(kept) == 20 and unicodedata.normalize("NFC", kept) == "Nguyễn Thị Hương Ng…"  # the marks stay with their letter


def test_what_shows_as_nothing_is_still_counted() -> None:
    assert len(plain(cut("\x1b" * 1000, 10))) <= 4 * 10  # controls count a cell each: escaped, they stay short
    piled = cut("a" + "\u0301" * 10_000, 10)  # combining marks take no cell, but a hostile pile of them is cut too
    assert len(piled) <= 4 * 10 and piled.endswith("…")
    assert len(shown("x" * 10_000)) == 40
