"""One player's client: a save received (receive.py), the turn typed on it (turn.py), the answer written (answer.py),
and between their files the player's side of the match (side.py).

No terminal here: the CLI (pbm/cli/) asks, prints and exits; this package says what is so, as values and SpiteErrors.
The save carries the protocol message, the public table, and each player's side of the match (public part in
`protocol.carry`, secrets sealed in `secrets`, pbm/carry.py). The journal keeps this player's own side too; without
it, the player goes on from the file (docs/save-format.md). A turn code (pbm/transport/code.py) carries only the turn:
the journal completes it into the save it stands for, which is then opened exactly as the file would be.
"""
