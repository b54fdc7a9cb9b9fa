"""Getting a save from one player to the other: the chat form (code.py) and the clipboard (clipboard.py)."""
