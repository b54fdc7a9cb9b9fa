"""The rules of Spite & Malice as a player reads them (`spite rules`): sections of paragraphs, bullets and notation tables.

The text follows docs/rules.md (the ``g4a`` ruleset) and says it plainly, without the rulings' numbers. Every sentence is
a message marked with :func:`~pbm.i18n.N_` and translated where it is shown; its numbers are placeholders filled from
:data:`VALUES` (the ``g4a`` ruleset's). The notation (``p``, ``s1``, ``7-c2``, ``end``) is never translated: the tokens of
a :class:`Row` are plain text, and a message names a move only as the notation writes it.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.rules import G4A
from pbm.i18n import N_

END = "end"  # the move that ends a turn with an empty hand: notation, never translated

# What fills the messages' placeholders: the numbers of the ruleset spite plays, and the move `end`.
VALUES: dict[str, object] = {
    "hand": G4A.hand_size,
    "payoff": G4A.payoff_size,
    "side": G4A.side_stacks,
    "center": G4A.center_stacks,
    "complete": G4A.complete_at,
    "target": G4A.target_score,
    "end": END,
}


@dataclass(frozen=True, slots=True)
class Paragraph:
    """A paragraph: one message."""

    text: str


@dataclass(frozen=True, slots=True)
class Bullet:
    """An item of a list: one message."""

    text: str


@dataclass(frozen=True, slots=True)
class Row:
    """A line of a notation table: a token as the notation writes it (never translated) and what it means (a message)."""

    token: str
    meaning: str


@dataclass(frozen=True, slots=True)
class Notation:
    """A table of notation tokens and their meanings, in two columns."""

    rows: tuple[Row, ...]


Block = Paragraph | Bullet | Notation


@dataclass(frozen=True, slots=True)
class Section:
    """A heading (a message) and its blocks."""

    heading: str
    blocks: tuple[Block, ...]


def _places(letter: str, count: int) -> str:
    """The tokens of `count` stacks: ``s1 s2 s3 s4``."""
    return " ".join(f"{letter}{n}" for n in range(1, count + 1))


SECTIONS: tuple[Section, ...] = (
    Section(
        # TRANSLATORS: the title of spite rules; Spite & Malice is the game's name, never translated
        N_("The rules of Spite & Malice"),
        (
            Paragraph(N_("Spite & Malice is a card game for two players. It is played with two decks of 52 cards, without jokers.")),
            Paragraph(N_("Your goal in each game: be the first to get rid of your pay-off pile.")),
        ),
    ),
    Section(
        N_("The table"),
        (
            Paragraph(N_("Each player has:")),
            # TRANSLATORS: {hand} is the number of cards in a hand (5)
            Bullet(N_("A hand of {hand} cards. Your opponent sees only how many you hold.")),
            # TRANSLATORS: {payoff} is the number of cards in a pay-off pile at the start of a game (20)
            Bullet(N_("A pay-off pile of {payoff} cards. Only its top card is face up.")),
            # TRANSLATORS: {side} is the number of side stacks of a player (4)
            Bullet(N_("{side} side stacks, empty at the start. You put cards from your hand on them.")),
            Paragraph(N_("Between the players:")),
            # TRANSLATORS: {center} is the number of center stacks (3)
            Bullet(N_("{center} center stacks, empty at the start. Both players play cards onto them.")),
            Bullet(N_("The stock: all the other cards, face down. You draw your cards from it.")),
        ),
    ),
    Section(
        N_("Your turn"),
        (
            Paragraph(
                N_(
                    # TRANSLATORS: {hand} is the number of cards in a full hand (5)
                    "At the start of your turn, you draw cards from the stock until you hold {hand}. "
                    "If the stock has fewer cards than you need, you take them all and play on."
                )
            ),
            Paragraph(N_("Then you may make these moves, in any order and as many times as you like:")),
            Bullet(N_("Play the top card of your pay-off pile onto a center stack.")),
            Bullet(N_("Play the top card of one of your side stacks onto a center stack.")),
            Bullet(N_("Play a card from your hand onto a center stack.")),
            Bullet(N_("Put a card from your hand onto one of your side stacks. This ends your turn.")),
            Paragraph(
                N_(
                    "Any card from your hand may go on any side stack, whatever lies there. "
                    "Only the top card of a side stack can be played."
                )
            ),
            Paragraph(
                N_(
                    "You may not move a card from one side stack to another, nor from your pay-off pile to a side stack. "
                    "A card on a center stack stays there."
                )
            ),
            Paragraph(N_("While you have cards in your hand, the only way to end your turn is to put one on a side stack.")),
            Paragraph(
                N_(
                    # TRANSLATORS: {end} is the move that ends a turn, written in English as the notation has it: end
                    "If your hand empties during your turn, you get no new cards until your next turn. You may go on playing from your "
                    "pay-off pile and your side stacks. When you are done, the move {end} ends your turn."
                )
            ),
        ),
    ),
    Section(
        N_("The center stacks"),
        (
            Paragraph(
                N_("A center stack is built up from Ace to Queen, one rank at a time: Ace, 2, 3 and so on up to 10, then Jack, Queen.")
            ),
            Paragraph(N_("An empty center stack takes only an Ace, or a King. Suits do not matter: any 2 goes on any Ace.")),
            Paragraph(
                N_(
                    # TRANSLATORS: {complete} is the number of cards in a completed center stack (12)
                    "A center stack that reaches Queen is complete: a Queen, or a King that counts as a Queen, on a Jack. "
                    "Its {complete} cards are shuffled back into the stock, and the center stack is empty again."
                )
            ),
            Paragraph(
                N_(
                    # TRANSLATORS: "being shuffled in": as the board says of these cards beside the stock ("shuffling in")
                    'These cards are "being shuffled in" for a while: the next two draws, one for each player, cannot take them. '
                    "After those two draws they are back in the stock."
                )
            ),
        ),
    ),
    Section(
        N_("Kings"),
        (
            Bullet(N_("Kings are wild: a King counts as the rank the center stack needs next.")),
            Bullet(N_("On an empty center stack, a King counts as an Ace.")),
            Bullet(N_("On a 10, a King counts as a Jack. On a Jack, it counts as a Queen and completes the stack.")),
            Bullet(N_("You may put a King on a side stack. It is still wild when you play it from there.")),
        ),
    ),
    Section(
        N_("The end of a game"),
        (
            Bullet(
                N_(
                    "You win the game when you play the last card of your pay-off pile onto a center stack. "
                    "You score one point for each card left in your opponent's pay-off pile."
                )
            ),
            Bullet(
                N_(
                    "If the stock has run out when a turn begins, the game is a tie and nobody scores. "
                    "The stock has run out when it is empty and no cards are being shuffled in."
                )
            ),
            Bullet(
                N_(
                    "You may resign a game at any time with spite resign. "
                    "Your opponent wins it and scores the cards left in your pay-off pile."
                )
            ),
        ),
    ),
    Section(
        N_("The match"),
        (
            # TRANSLATORS: {target} is the score that wins a match (50)
            Bullet(N_("A match is a series of games. The first player to reach {target} points wins the match.")),
            Bullet(N_("The player who created the match starts the first game. After that, the players take turns starting a game.")),
            Bullet(N_("If you resign the match (spite resign --match), your opponent wins it, whatever the score.")),
        ),
    ),
    Section(
        N_("Writing moves"),
        (
            Paragraph(
                N_(
                    "A move says where a card comes from and where it goes, joined by a dash: 7-c2 plays a 7 from your hand "
                    "onto center stack c2. Capital and small letters both work."
                )
            ),
            Notation(
                (
                    # TRANSLATORS: the table of the move notation: each token (p, s1, A, end) stays as it is; this is its meaning
                    Row("p", N_("the top card of your pay-off pile")),
                    Row(_places("s", G4A.side_stacks), N_("your side stacks: play the top card of one, or put a hand card on one")),
                    Row(_places("c", G4A.center_stacks), N_("the center stacks (cards only go onto them)")),
                    Row("A", N_("an Ace from your hand")),
                    Row("2 3 4 5 6 7 8 9 10", N_("a card of that rank from your hand")),
                    # TRANSLATORS: the token T is another way to write 10
                    Row("T", N_("the same as 10")),
                    Row("J", N_("a Jack from your hand")),
                    Row("Q", N_("a Queen from your hand")),
                    Row("K", N_("a King from your hand")),
                    Row(END, N_("end your turn when your hand is empty")),
                )
            ),
            Paragraph(N_("A card in your hand is named by its rank alone: its suit does not matter. For example:")),
            Notation(
                (
                    Row("p-c1", N_("your pay-off pile's top card onto center stack c1")),
                    Row("7-c2", N_("a 7 from your hand onto center stack c2")),
                    Row("s3-c1", N_("the top card of side stack s3 onto center stack c1")),
                    Row("K-c3", N_("a King from your hand onto center stack c3")),
                    Row("Q-s2", N_("a Queen from your hand onto side stack s2, which ends your turn")),
                    Row(END, N_("end your turn when your hand is empty")),
                )
            ),
            Paragraph(N_("You may write several moves on one line, separated by spaces: p-c1 7-c2 Q-s2.")),
        ),
    ),
)
