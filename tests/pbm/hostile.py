"""Hostile saves for the tests: any payload signed as it is, with a real key, as a cheating opponent's own program would.

A SaveFile refuses to be built with a bad field; an opponent's program is under no such rule. These
helpers sign the plain document instead, so the tests can offer what spite must refuse on receipt.
"""

from __future__ import annotations

import base64
import copy
from typing import Any

import tomli_w

from pbm import saves
from pbm.canonical import canonical
from pbm.identity import Identity


def sign_doc(doc: dict[str, Any], identity: Identity) -> bytes:
    """`doc` (a save's payload, any content) signed by `identity` over its canonical bytes, as TOML."""
    body = copy.deepcopy(doc)
    body.pop("signature", None)
    signature = base64.urlsafe_b64encode(identity.sign(canonical(body))).rstrip(b"=").decode()
    return tomli_w.dumps({**body, "signature": signature}).encode()


def resign_doc(data: bytes, identity: Identity, change: Any) -> bytes:
    """The save in `data` with `change(doc)` applied to its payload, signed again by `identity`."""
    doc = saves.payload(saves.parse(data))
    change(doc)
    return sign_doc(doc, identity)
