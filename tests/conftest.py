"""Every test runs in English unless it says otherwise: tests that assert wording assert the English (docs/translating.md)."""

import os

os.environ["SPITE_LANG"] = "en"
os.environ.pop("SPITE_LOCALEDIR", None)
