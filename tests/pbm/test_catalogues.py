"""The catalogues of translations: complete, checked, compiled, and shipped in the wheel."""

from __future__ import annotations

import gettext
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from pbm import i18n
from pbm.i18n import DOMAIN, LANGUAGES, LOCALE_DIR

ROOT = Path(__file__).resolve().parents[2]
TRANSLATED = [code for code in LANGUAGES if code != "en"]
needs_gettext = pytest.mark.skipif(
    not all(shutil.which(tool) for tool in ("xgettext", "msgmerge", "msgfmt")), reason="GNU gettext's tools are not installed"
)


@needs_gettext
def test_the_catalogues_pass_every_check_of_the_catalogue_script() -> None:
    """Template fresh, every catalogue complete and not fuzzy, msgfmt --check, compiled, NFC, tokens kept, letters listed."""
    done = subprocess.run([sys.executable, "scripts/catalogues.py", "check"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_language_has_a_compiled_catalogue_with_its_plural_rule(code: str) -> None:
    path = Path(LOCALE_DIR) / code / "LC_MESSAGES" / f"{DOMAIN}.mo"
    with path.open("rb") as file:
        catalogue = gettext.GNUTranslations(file)
    assert catalogue.info()["language"] == code
    assert len(catalogue._catalog) > 500  # type: ignore[attr-defined]
    singular, plural = "{n} card", "{n} cards"  # any message with a plural would do: the rule is the header's
    forms = {n: catalogue.ngettext(singular, plural, n) for n in (1, 2, 4, 14)}
    if code == "fil":  # one: 1, 2, 3 and numbers not ending in 4, 6, 9 (CLDR)
        assert catalogue.plural(1) == catalogue.plural(2) == catalogue.plural(5) == 0 and catalogue.plural(4) == catalogue.plural(14) == 1
    elif code in ("id", "vi"):
        assert {catalogue.plural(n) for n in range(30)} == {0}
    else:
        assert catalogue.plural(0) == catalogue.plural(1) == 0 and catalogue.plural(2) == 1
    assert forms


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_installed_spite_finds_each_catalogue(code: str) -> None:
    """In this (editable) install, spite reads the catalogue from the source tree: a known message comes back translated."""
    try:
        i18n.setup(["--lang", code], {}, encoding="utf-8")
        assert i18n.current().code == code
        assert i18n._("Show this message and exit.") != "Show this message and exit."
    finally:
        i18n.setup([], {"SPITE_LANG": "en"})


def test_the_wheel_carries_every_compiled_catalogue(tmp_path: Path) -> None:
    """A wheel built from the checkout holds pbm/locale/CODE/LC_MESSAGES/spite.mo for every language, and no .po."""
    source = tmp_path / "source"  # a copy: a build in the checkout would leave build/ and *.egg-info there
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(".git", "*venv*", "__pycache__", "build", "*.egg-info", ".*cache"))
    env = {**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(tmp_path), str(source)],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    (wheel,) = tmp_path.glob("spite-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for code in TRANSLATED:
        assert f"pbm/locale/{code}/LC_MESSAGES/{DOMAIN}.mo" in names
    assert not [n for n in names if n.endswith((".po", ".pot"))]
