"""One player's table: a Party and that player's own engine GameState, driven message by message."""

from __future__ import annotations

from typing import Any

from engine.cards import Card
from engine.dealer import Deal, DealerError, Draw
from engine.game import apply, new_game, resign
from engine.moves import IllegalMoveError, Move
from engine.rules import Ruleset
from engine.state import GameState, Pool
from pbm.errors import ProtocolError
from pbm.i18n import _, error_text
from pbm.protocol.dealing import Party
from pbm.protocol.messages import Message


class Seat:
    """Receive a message, play my moves, send mine: the loop both a CLI and the tests run."""

    def __init__(self, party: Party, state: GameState | None = None) -> None:
        self.party = party
        self.state = state
        self.moves: list[Move] = []

    @property
    def my_turn(self) -> bool:
        """Whether it is this player's turn to move in the current game."""
        s = self.state
        return s is not None and s.outcome is None and s.to_move == self.party.me

    def receive(self, message: dict[str, Any]) -> list[Move]:
        """Check `message`, deal a new game if it completes a deal, and apply the other player's moves; returns them."""
        party, state = self.party, self.state
        saved = party.snapshot()
        try:
            moves = party.receive(message, self._dry_run)
            if party.deal_ready and (state is None or state.outcome is not None):
                state = new_game(party, party.ruleset, party._g().starter)
            for move in moves:
                if state is None:
                    raise ProtocolError(_("moves arrived before the deal"))
                try:
                    state = apply(state, move, party)
                except IllegalMoveError as e:
                    # TRANSLATORS: {move} is a move in spite's notation, e.g. 7-c2; {error} says which rule it breaks
                    text = _("turn {turn}: the other player's move {move} is illegal: {error}")
                    raise ProtocolError(text.format(turn=state.turn, move=move, error=error_text(e))) from e
            if moves and state is not None and state.outcome is None and state.to_move != party.me:
                raise ProtocolError(_("turn {turn}: the other player's moves do not end the turn").format(turn=state.turn))
            if party.resigning is not None:
                if state is None or state.outcome is not None:
                    raise ProtocolError(_("the other player resigns a game that is not under way"))
                state = resign(state, party.other)
            party.settle(state)  # the end-of-game audit may still refuse the message: then nothing of it is kept
        except BaseException:
            party.rollback(saved)
            raise
        self.state = state
        return moves

    def _dry_run(self, moves: list[Move]) -> None:
        """Play the received moves on a copy of the state, answering from the message, before anything is taken in."""
        party, state = self.party, self.state
        if party.deal_ready:
            starter = party._g().starter
            state = new_game(_Preview(party, party.peek_deal(party.ruleset, starter)), party.ruleset, starter)
        if party.resigning is not None:
            if state is None or state.outcome is not None:
                raise ProtocolError(_("the other player resigns a game that is not under way"))
            ended = resign(state, party.other)
            assert ended.outcome is not None
            party.check_game_end(ended.outcome)
        if not moves:
            return
        if state is None:
            raise ProtocolError(_("moves arrived before the deal"))
        preview = _Preview(party)
        for move in moves:
            try:
                state = apply(state, move, preview)
            except (IllegalMoveError, DealerError) as e:
                # TRANSLATORS: {move} is a move in spite's notation, e.g. 7-c2; {error} says why it is refused
                text = _("turn {turn}: the other player's move {move} is refused: {error}")
                raise ProtocolError(text.format(turn=state.turn, move=move, error=error_text(e))) from e
        if state.outcome is not None:
            party.check_game_end(state.outcome)

    def play(self, move: Move) -> GameState:
        """Apply one of my own moves (raises IllegalMoveError, state unchanged, if the rules forbid it)."""
        if self.state is None:
            raise ProtocolError(_("there is no game to play yet"))
        self.state = apply(self.state, move, self.party)
        self.moves.append(move)
        return self.state

    def resign(self, whole_match: bool = False, after: dict[str, Any] | None = None) -> Message:
        """My resignation of the game under way (of the match with `whole_match`): the message; my state shows the game over."""
        if self.moves:
            raise ProtocolError(_("moves were played this turn: send or take them back before resigning"))
        message, self.state = self.party.resign(self.state, whole_match, after)
        return message

    def send(self) -> Message:
        """The message for the other player: my moves since the last one, and whatever the protocol has due (``to_data()``: its table)."""
        message = self.party.send(self.state, self.moves)
        self.moves = []
        return message


class _Preview:
    """A dealer that answers from a received message without taking anything in."""

    def __init__(self, party: Party, deal: Deal | None = None) -> None:
        self._party = party
        self._deal = deal
        self._cards = party.staged()

    def deal(self, ruleset: Ruleset, starter: int) -> Deal:
        assert self._deal is not None
        return self._deal

    def turn_up(self, player: int) -> Card:
        return self._next()

    def show(self, player: int, rank: int, card: Card | None) -> Card:
        return self._next()

    def end_turn(self, turn: int, completed: tuple[Pool, ...], merging: tuple[Pool, ...], player: int, count: int) -> Draw:
        # the engine knows which stacks completed: their layers are checked before my draw is opened or anything taken in
        return Draw(tuple(self._party.checks.finish_checks(turn, completed)))

    def _next(self) -> Card:
        if not self._cards:
            raise DealerError(_("the message reveals fewer cards than the moves turn up"))
        return self._cards.pop(0)
