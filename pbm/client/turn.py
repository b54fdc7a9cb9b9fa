"""Typing a turn at the prompt: what a line asks for, completing a half-typed move, and taking moves back.

No terminal here: the CLI reads the lines, prints the answers and decides when to ask.
Nothing a player types is final before the file is written, so a move may be taken back, except
one that turned up a card the player had not seen (the next card of their pay-off pile).

The prompt's words (``undo``, ``hint``, ``help``, ``q``, ...) may be typed in the player's language too, the English
always working: the catalogue gives each meaning a comma-separated list of words. The move notation is the same in
every language, and a move is never read as a word: a word that a move or a card could be read as is left out
(tests/pbm/test_prompt_words.py checks every catalogue has none), and so is a word another meaning took first.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable

from rich.cells import cell_len

from engine._frozen import frozen_value
from engine.cards import Card, CardNotationError
from engine.game import legal_moves
from engine.moves import END_MOVE, PAYOFF, IllegalMoveError, InvalidMoveError, Move, parse_turn
from pbm.client.receive import Opened
from pbm.errors import SpiteError
from pbm.i18n import _, ngettext, pgettext

QUIT, MOVES, HELP, HINT, UNDO, BOARD, END = "quit", "moves", "help", "hint", "undo", "board", "end"
# The English words of each meaning, which work in every language; help shows the first. The English 'end' is the move
# of the notation (ending a turn with an empty hand), played as a move: only its translations are words.
ENGLISH: dict[str, tuple[str, ...]] = {
    MOVES: ("?", "moves"),
    HINT: ("hint",),
    UNDO: ("undo", "u"),
    BOARD: ("board", "b"),
    HELP: ("help", "h"),
    QUIT: ("q", "quit", "exit"),
    END: ("end",),
}
WORDS: dict[str, str] = {word: meaning for meaning, words in ENGLISH.items() if meaning != END for word in words}
# What the notation names on its own, beside moves and cards: no word may be one of them.
NOTATION = frozenset({"p", "end", *(f"{place}{n}" for place in "sc" for n in range(1, 10))})


def typed(text: str) -> str:
    """A line as it is read: NFC, without the spaces around it."""
    return unicodedata.normalize("NFC", text).strip()


def _listed(said: str) -> list[str]:
    """The words of a comma-separated list from the catalogue, NFC and lower case, in order, none empty."""
    words = (unicodedata.normalize("NFC", part).strip().lower() for part in said.split(","))
    return [word for word in words if word]


def _catalogue_words(meaning: str) -> str:
    """The comma-separated words that mean `meaning` at the move prompt in the player's language (the English if untranslated)."""
    if meaning == MOVES:
        # TRANSLATORS: words the player may type at the move prompt to list their legal moves, comma-separated, lower
        # case, no spaces; '?' and the English 'moves' always work too. Never a move or a card (7-c2, s1, K, A, p).
        return pgettext("prompt word: moves", "moves")
    if meaning == HINT:
        # TRANSLATORS: words the player may type at the move prompt to ask the computer for a suggestion,
        # comma-separated, lower case, no spaces; the English 'hint' always works too. Never a move or a card.
        return pgettext("prompt word: hint", "hint")
    if meaning == UNDO:
        # TRANSLATORS: words the player may type at the move prompt to take back the last move, comma-separated, lower
        # case, no spaces; the English 'undo' and 'u' always work too. Never a move or a card.
        return pgettext("prompt word: undo", "undo")
    if meaning == BOARD:
        # TRANSLATORS: words the player may type at the move prompt to see the board again, comma-separated, lower
        # case, no spaces; the English 'board' and 'b' always work too. Never a move or a card.
        return pgettext("prompt word: board", "board")
    if meaning == HELP:
        # TRANSLATORS: words the player may type at the move prompt for help, comma-separated, lower case, no spaces;
        # the English 'help' and 'h' always work too. Never a move or a card.
        return pgettext("prompt word: help", "help")
    if meaning == QUIT:
        # TRANSLATORS: words the player may type at the move prompt to leave without writing anything, comma-separated,
        # lower case, no spaces; the English 'q', 'quit' and 'exit' always work too. Never a move or a card.
        return pgettext("prompt word: quit", "quit")
    if meaning == END:
        # TRANSLATORS: words the player may type at the move prompt to end their turn when their hand is empty,
        # comma-separated, lower case, no spaces; the English 'end' (the move) always works too. Never a move or a card.
        return pgettext("prompt word: end", "end")
    raise ValueError(f"no prompt word means {meaning!r}")


def reads_as_notation(word: str) -> bool:
    """Whether `word` is, or could be read as, a move, a card or a stack of the notation (``7-c2``, ``K``, ``s1``, ``end``)."""
    if word.lower() in NOTATION:
        return True
    for parse in (Move.parse, Card.parse):
        try:
            parse(word)
        except (InvalidMoveError, CardNotationError):
            continue
        return True
    return False


def translated(meaning: str) -> list[str]:
    """The words for `meaning` the catalogue lists in the player's language beyond the English ones, as it lists them."""
    english = ENGLISH[meaning]
    return [word for word in dict.fromkeys(_listed(_catalogue_words(meaning))) if word not in english]


def words() -> dict[str, str]:
    """Every word the move prompt takes, lower case, and what it means: the English ones, then the player's language's.

    A translated word that holds a space, could be read as a move or a card, or that another meaning took first, is left out.
    """
    found = dict(WORDS)
    for meaning in ENGLISH:
        for word in translated(meaning):
            if not any(ch.isspace() for ch in word) and not reads_as_notation(word):
                found.setdefault(word, meaning)
    return found


def own_words(meaning: str) -> list[str]:
    """The words the prompt takes for `meaning` in the player's language only (none in English)."""
    return [word for word, means in words().items() if means == meaning and word not in ENGLISH[meaning]]


def first_word(meaning: str) -> str:
    """The word for `meaning` a sentence names: the player's language's first, else the English."""
    return next(iter(own_words(meaning)), ENGLISH[meaning][0])


def command(text: str) -> str | None:
    """The word a line asks for (QUIT, MOVES, ..., END for a translation of 'end'), or None if the line is moves."""
    return words().get(typed(text).lower())


class UndoError(SpiteError):
    """A move that cannot be taken back, or nothing to take back."""


def play_line(opened: Opened, text: str) -> int:
    """Play the moves written on `text` in order until one is refused; returns how many were played.

    Raises InvalidMoveError or IllegalMoveError for the first move refused (the ones before it stay played), and
    IllegalMoveError for moves written after the one that ended the turn: they are never dropped without a word.
    """
    played = 0
    moves = parse_turn(typed(text))
    for n, move in enumerate(moves):
        if not opened.seat.my_turn:
            after = " ".join(map(str, moves[n:]))
            left = len(moves) - n
            if opened.seat.moves:
                said = ngettext(
                    # TRANSLATORS: {moves} are the moves typed after the turn ended (like "7-c2 K-c1"), {move} the one that ended it
                    "{moves}: your turn ended with {move}, so it was not played",
                    "{moves}: your turn ended with {move}, so these moves were not played",
                    left,
                )
                raise IllegalMoveError(said.format(moves=after, move=opened.seat.moves[-1]))
            said = ngettext(
                # TRANSLATORS: {moves} are the moves typed after the turn was over (like "7-c2 K-c1")
                "{moves}: your turn is over, so it was not played",
                "{moves}: your turn is over, so these moves were not played",
                left,
            )
            raise IllegalMoveError(said.format(moves=after))
        opened.seat.play(move)
        played += 1
    return played


def take_back(opened: Opened, reopen: Callable[[], Opened]) -> tuple[Opened, Move]:
    """The turn without its last move: the file opened again and the other moves played again; returns it and the move.

    A pay-off card cannot be taken back: playing it turned up the next card of the pile.
    """
    played = list(opened.seat.moves)
    if not played:
        raise UndoError(_("nothing to take back: no move played yet this turn"))
    last = played[-1]
    if last.source == PAYOFF:
        # TRANSLATORS: {move} is the pay-off card's move, like p-c1
        raise UndoError(_("{move} stays played: it turned up your next pay-off card").format(move=last))
    again = reopen()
    for move in played[:-1]:
        again.seat.play(move)
    return again, last


@frozen_value
class Confirm:
    """The answer to "write this turn?": write it, take back the discard, or leave."""

    write: bool = False
    undo: bool = False
    quit: bool = False


WRITE = "write"
# The English answers to "write this turn?" (Enter writes it too), which work in every language.
ANSWERS: dict[str, tuple[str, ...]] = {WRITE: ("y", "yes", "w", "write"), UNDO: ("n", "no", "u", "undo"), QUIT: ("q", "quit", "exit")}


def answer_words() -> dict[str, list[str]]:
    """The words that answer "write this turn?" (WRITE, UNDO, QUIT), the English ones first, then the player's language's."""
    # TRANSLATORS: the words that answer yes to a question, comma-separated, lower case; y and yes always work too
    yes = _listed(pgettext("answers yes", "y,yes"))
    # TRANSLATORS: the words that answer no to a question, comma-separated, lower case; n and no always work too
    no = _listed(pgettext("answers no", "n,no"))
    found: dict[str, list[str]] = {
        WRITE: [*ANSWERS[WRITE], *yes],
        UNDO: [*ANSWERS[UNDO], *no, *own_words(UNDO)],
        QUIT: [*ANSWERS[QUIT], *own_words(QUIT)],
    }
    return {meaning: list(dict.fromkeys(listed)) for meaning, listed in found.items()}


def confirm_answer(text: str) -> Confirm | None:
    """What an answer to the confirmation means; None when it means nothing (ask again)."""
    word = typed(text).lower()
    answers = answer_words()
    if word == "" or word in answers[WRITE]:
        return Confirm(write=True)
    if word in answers[UNDO]:
        return Confirm(undo=True)
    if word in answers[QUIT]:
        return Confirm(quit=True)
    return None


def candidates(opened: Opened) -> list[str]:
    """What may be typed now: the legal moves (``end`` among them when it is one) and the words, the player's language's too."""
    state = opened.seat.state
    legal = legal_moves(state.view(opened.me)) if state is not None else []
    names = {meaning for meaning in ENGLISH if meaning != END}
    mine = {word for word, meaning in words().items() if meaning in names and word not in ENGLISH[meaning]}
    if END_MOVE in legal:
        mine.update(own_words(END))
    return [str(m) for m in legal] + sorted(names | mine)


def complete(opened: Opened, word: str) -> list[str]:
    """The completions of a half-typed `word`, case aside: legal moves first, then words."""
    low = unicodedata.normalize("NFC", word).lower()
    return [c for c in candidates(opened) if c.lower().startswith(low)]


# --- help ---

WIDTH = 80  # the words' two columns of help are laid side by side only within this many cells


def _padded(text: str, width: int) -> str:
    """`text` with spaces after it to fill `width` screen cells."""
    return text + " " * (width - cell_len(text))


def _labelled(rows: list[tuple[str, str]], least: int) -> list[str]:
    """`rows` of a label and what it does, the labels in a column at least `least` cells wide (two more than the longest)."""
    width = max(least, *(cell_len(label) + 2 for label, __ in rows))
    return [_padded(label, width) + text for label, text in rows]


def _side_by_side(left: list[tuple[str, str]], right: list[tuple[str, str]]) -> list[str] | None:
    """Two columns of rows side by side (as the English has them), or None if they would not fit in WIDTH cells."""
    lefts = _labelled(left, 8)
    width = max(38, *(cell_len(line) + 2 for line in lefts))
    lines = [f"  {_padded(line, width)}{more}" for line, more in zip(lefts, _labelled(right, 7), strict=True)]
    return None if max(cell_len(line) for line in lines) > WIDTH else lines


def help_lines() -> list[str]:
    """What ``help`` at the move prompt prints: the notation and the words, each word in the player's language beside the English."""
    end = ", ".join(["end", *own_words(END)])
    moves = [
        ("p-c1", _("your pay-off card to center stack c1")),
        ("7-c2", _("a 7 from your hand to c2 (A, 2-10, J, Q, K; T for 10)")),
        ("s3-c1", _("the top card of your side stack s3 to c1")),
        ("Q-s2", _("a Queen from your hand onto side stack s2: a discard, which ends your turn")),
        (end, _("ends your turn when your hand is empty")),
    ]

    def label(meaning: str) -> str:
        return ", ".join([ENGLISH[meaning][0], *own_words(meaning)])

    left = [(label(MOVES), _("your legal moves now")), (label(UNDO), _("take back your last move")), (label(HELP), _("this help"))]
    right = [
        (label(HINT), _("the computer's suggestion")),
        (label(BOARD), _("the board again")),
        (label(QUIT), _("leave without writing anything")),
    ]
    both = _side_by_side(left, right)
    if both is None:
        both = [f"  {line}" for line in _labelled([row for pair in zip(left, right, strict=True) for row in pair], 8)]
    return [
        # TRANSLATORS: the first line of the help at the move prompt, above the examples of moves
        _("Moves (several on a line are fine; suits are never needed):"),
        *(f"  {line}" for line in _labelled(moves, 8)),
        # TRANSLATORS: the heading of the help's list of the words the move prompt takes (undo, hint, help, q)
        _("Words:"),
        *both,
        _("Tab completes a move, the arrow keys edit the line and recall earlier ones."),
    ]
