#!/usr/bin/env python3
"""The catalogues of translations: extract the template, update each language's catalogue, compile, check, and make the
pseudo-language that the tests run spite in. Needs GNU gettext's tools (xgettext, msgmerge, msgfmt) on the PATH.

    python scripts/catalogues.py extract     # pbm/locale/spite.pot from every _(...) in engine/ and pbm/
    python scripts/catalogues.py update      # each language's spite.po merged with the template (new messages empty)
    python scripts/catalogues.py compile     # each spite.po compiled to spite.mo (msgfmt --check)
    python scripts/catalogues.py all         # the three above, in that order
    python scripts/catalogues.py check       # what .ci/run checks (below); exit status 1 on any problem
    python scripts/catalogues.py stats       # per language: messages, translated, fuzzy, empty
    python scripts/catalogues.py pseudo DIR  # DIR/qps/LC_MESSAGES/spite.mo: every letter accented, every message longer
    python scripts/catalogues.py todo --lang vi [--all] [--json F]   # what is empty or fuzzy, as JSON to fill in
    python scripts/catalogues.py fill --lang vi --json F             # put the translations of F into the catalogue

`check` fails when the template is stale (the code has messages it lacks, or it has messages the code lost), when a
catalogue lacks a message, has an empty, fuzzy or obsolete one, or is not what its spite.mo holds, when `msgfmt --check`
fails, when a translation is not NFC or changes a placeholder, a notation token, a command or option name, a name of a
variable or file, or rich markup, and when a catalogue uses a letter that pbm.i18n.LETTERS does not list.
docs/translating.md says how to translate.
"""

from __future__ import annotations

import argparse
import gettext
import re
import shutil
import subprocess
import sys
import tempfile
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pbm.i18n import DOMAIN, LANGUAGES, LETTERS, LOCALE_DIR  # noqa: E402

LOCALE = Path(LOCALE_DIR)
TEMPLATE = LOCALE / f"{DOMAIN}.pot"
SOURCES = ("engine", "pbm")
KEYWORDS = ("_", "N_", "ngettext:1,2", "pgettext:1c,2", "npgettext:1c,2,3", "Plural:1,2")  # Plural: engine.text's
TRANSLATED = tuple(code for code in LANGUAGES if code != "en")
PLURAL_FORMS = {  # CLDR's rules, as gettext writes them (../shared/LANGUAGES.md)
    "fil": "nplurals=2; plural=(n != 1 && n != 2 && n != 3 && (n % 10 == 4 || n % 10 == 6 || n % 10 == 9));",
    "id": "nplurals=1; plural=0;",
    "vi": "nplurals=1; plural=0;",
    "pt_BR": "nplurals=2; plural=(n > 1);",
    "qps": "nplurals=2; plural=(n != 1);",
}
HEADER = (
    'msgid ""\nmsgstr ""\n'
    '"Project-Id-Version: spite\\n"\n'
    '"PO-Revision-Date: 2026-12-05 00:00+0000\\n"\n'
    '"Last-Translator: spite\'s developers\\n"\n'
    '"Language-Team: spite\\n"\n'
    '"Language: {language}\\n"\n'
    '"MIME-Version: 1.0\\n"\n'
    '"Content-Type: text/plain; charset=UTF-8\\n"\n'
    '"Content-Transfer-Encoding: 8bit\\n"\n'
    '"Plural-Forms: {plural}\\n"\n'
)


def catalogue(code: str) -> Path:
    return LOCALE / code / "LC_MESSAGES" / f"{DOMAIN}.po"


# --- reading a catalogue ---


@dataclass
class Entry:
    """One message of a catalogue: its context, English text (and plural), translations, flags and notes to translators."""

    context: str | None = None
    msgid: str = ""
    plural: str | None = None
    strs: list[str] = field(default_factory=list)
    flags: set[str] = field(default_factory=set)
    notes: list[str] = field(default_factory=list)  # the "#." lines: TRANSLATORS: comments from the code
    refs: list[str] = field(default_factory=list)  # the "#:" lines: the files that use the message
    previous: list[str] = field(default_factory=list)  # the "#|" lines: the English a fuzzy entry was translated from
    obsolete: bool = False

    @property
    def name(self) -> str:
        """The entry's key in `todo` and `fill`: its context, a U+0004, and its English (as in a compiled catalogue)."""
        return self.msgid if self.context is None else f"{self.context}\x04{self.msgid}"

    @property
    def key(self) -> tuple[str | None, str, str | None]:
        return (self.context, self.msgid, self.plural)


_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "r": "\r", "a": "\a", "b": "\b", "f": "\f", "v": "\v"}


def _unquote(text: str) -> str:
    text = text.strip()
    if len(text) < 2 or text[0] != '"' or text[-1] != '"':
        raise ValueError(f"not a quoted string: {text[:40]!r}")
    out, i, body = [], 0, text[1:-1]
    while i < len(body):
        ch = body[i]
        if ch == "\\" and i + 1 < len(body):
            out.append(_ESCAPES.get(body[i + 1], body[i + 1]))
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def read_po(path: Path) -> list[Entry]:
    """The entries of a .po or .pot file, the header (msgid "") first."""
    entries: list[Entry] = []
    entry = Entry()
    target: tuple[str, int] | None = None  # the field continuation lines add to

    def finish() -> None:
        nonlocal entry, target
        if target is not None:
            entries.append(entry)
        entry, target = Entry(), None

    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        obsolete = line.startswith("#~")
        if obsolete:
            line = line[2:].strip()
        if not line:
            finish()
            continue
        if line.startswith("#"):
            if target is not None and target[0] != "comment":
                finish()
            if line.startswith("#,"):
                entry.flags |= {f.strip() for f in line[2:].split(",") if f.strip()}
            elif line.startswith("#."):
                entry.notes.append(line[2:].strip())
            elif line.startswith("#:"):
                entry.refs.append(line[2:].strip())
            elif line.startswith("#|"):
                entry.previous.append(line[2:].strip())
            continue
        entry.obsolete = entry.obsolete or obsolete
        if line.startswith('"'):
            if target is None:
                raise ValueError(f"{path}: a string with no field: {raw[:40]!r}")
            name, index = target
            text = _unquote(line)
            if name == "msgctxt":
                entry.context = (entry.context or "") + text
            elif name == "msgid":
                entry.msgid += text
            elif name == "msgid_plural":
                entry.plural = (entry.plural or "") + text
            else:
                entry.strs[index] += text
            continue
        keyword, _, rest = line.partition(" ")
        if keyword == "msgctxt":
            if target is not None and target[0] not in ("comment",):
                finish()
            entry.context, target = _unquote(rest), ("msgctxt", 0)
        elif keyword == "msgid":
            if target is not None and target[0] not in ("comment", "msgctxt"):
                finish()
            entry.msgid, target = _unquote(rest), ("msgid", 0)
        elif keyword == "msgid_plural":
            entry.plural, target = _unquote(rest), ("msgid_plural", 0)
        elif keyword == "msgstr":
            entry.strs, target = [_unquote(rest)], ("msgstr", 0)
        elif keyword.startswith("msgstr["):
            index = int(keyword[7:-1])
            while len(entry.strs) <= index:
                entry.strs.append("")
            entry.strs[index], target = _unquote(rest), ("msgstr", index)
        else:
            raise ValueError(f"{path}: cannot read {raw[:60]!r}")
    finish()
    return entries


def messages(entries: Iterable[Entry]) -> list[Entry]:
    """The entries that are messages: not the header, not obsolete."""
    return [e for e in entries if e.msgid and not e.obsolete]


# --- running gettext's tools ---


def _run(*command: str) -> None:
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command[:2])} failed:\n{done.stderr}")


def _sources() -> list[str]:
    return sorted(str(p.relative_to(ROOT)) for top in SOURCES for p in (ROOT / top).rglob("*.py"))


def extract_to(path: Path) -> None:
    """The template of every message the code marks, written to `path` (no date: the same code gives the same bytes)."""
    with tempfile.TemporaryDirectory() as tmp:
        raw = Path(tmp) / "raw.pot"
        keywords = [f"--keyword={k}" for k in KEYWORDS]
        _run(
            "xgettext",
            "--language=Python",
            "--from-code=UTF-8",
            "--no-wrap",
            "--add-location=file",
            "--add-comments=TRANSLATORS:",
            "--sort-by-file",
            *keywords,
            f"--directory={ROOT}",
            f"--output={raw}",
            *_sources(),
        )
        body = raw.read_text(encoding="utf-8")
    start = body.index("\n\n") + 2  # after xgettext's header
    path.write_text(HEADER.format(language="", plural="nplurals=INTEGER; plural=EXPRESSION;") + "\n" + body[start:], encoding="utf-8")


def extract() -> None:
    extract_to(TEMPLATE)
    print(f"{TEMPLATE.relative_to(ROOT)}: {len(messages(read_po(TEMPLATE)))} messages")


def update() -> None:
    for code in TRANSLATED:
        po = catalogue(code)
        if not po.exists():
            po.parent.mkdir(parents=True, exist_ok=True)
            body = TEMPLATE.read_text(encoding="utf-8")
            start = body.index("\n\n") + 2
            po.write_text(HEADER.format(language=code, plural=PLURAL_FORMS[code]) + "\n" + body[start:], encoding="utf-8")
        _run("msgmerge", "--quiet", "--update", "--backup=none", "--no-wrap", "--add-location=file", "--previous", str(po), str(TEMPLATE))
        _set_header(po, code)
        print(f"{po.relative_to(ROOT)}: {_count(po)}")


def _set_header(po: Path, code: str) -> None:
    """The catalogue's header as spite writes it (msgmerge keeps the old one; the plural rule is pinned here)."""
    text = po.read_text(encoding="utf-8")
    end = text.index("\n\n")
    po.write_text(HEADER.format(language=code, plural=PLURAL_FORMS[code]) + text[end:], encoding="utf-8")


def compile_one(po: Path, mo: Path) -> None:
    _run("msgfmt", "--check", f"--output-file={mo}", str(po))


def compile_all() -> None:
    for code in TRANSLATED:
        po = catalogue(code)
        compile_one(po, po.with_suffix(".mo"))
        print(f"{po.with_suffix('.mo').relative_to(ROOT)}")


def _count(po: Path) -> str:
    entries = messages(read_po(po))
    done = sum(1 for e in entries if all(e.strs) and e.strs and "fuzzy" not in e.flags)
    fuzzy = sum(1 for e in entries if "fuzzy" in e.flags)
    share = 100 * done / max(1, len(entries))
    return f"{len(entries)} messages, {done} translated ({share:.1f}%), {fuzzy} fuzzy, {len(entries) - done - fuzzy} empty"


def stats() -> None:
    print(f"template: {len(messages(read_po(TEMPLATE)))} messages")
    for code in TRANSLATED:
        print(f"{code}: {_count(catalogue(code))}")


# --- translating: what is left to do, and filling it in ---


def todo(code: str, everything: bool = False) -> list[dict[str, object]]:
    """The messages of `code`'s catalogue that are empty or fuzzy (every one with `everything`), as `fill` takes them back."""
    out: list[dict[str, object]] = []
    for e in messages(read_po(catalogue(code))):
        if not everything and e.strs and all(e.strs) and "fuzzy" not in e.flags:
            continue
        item: dict[str, object] = {"key": e.name, "english": e.msgid}
        if e.plural is not None:
            item["english_plural"] = e.plural
        if e.context is not None:
            item["context"] = e.context
        if e.notes:
            item["notes"] = " ".join(e.notes)
        item["files"] = " ".join(e.refs)
        if "fuzzy" in e.flags:
            item["fuzzy, was"] = " ".join(e.previous)
        item["translation"] = (
            (e.strs if e.plural is not None else (e.strs[0] if e.strs else ""))
            if everything or "fuzzy" in e.flags
            else (
                [""] * int(re.search(r"nplurals=(\d+)", PLURAL_FORMS[code]).group(1)) if e.plural is not None else ""  # type: ignore[union-attr]
            )
        )
        out.append(item)
    return out


def write_po(path: Path, code: str, entries: list[Entry]) -> None:
    """`entries` written as a catalogue of `code` (the header as spite writes it)."""
    lines = [HEADER.format(language=code, plural=PLURAL_FORMS[code])]
    for e in messages(entries):
        lines += [f"#. {note}" for note in e.notes]
        lines += [f"#: {ref}" for ref in e.refs]
        if e.flags:
            lines.append("#, " + ", ".join(sorted(e.flags)))
        lines += [f"#| {prev}" for prev in e.previous]
        if e.context is not None:
            lines.append(f"msgctxt {_quote(e.context)}")
        lines.append(f"msgid {_quote(e.msgid)}")
        if e.plural is None:
            lines.append(f"msgstr {_quote(e.strs[0] if e.strs else '')}")
        else:
            lines.append(f"msgid_plural {_quote(e.plural)}")
            lines += [f"msgstr[{i}] {_quote(text)}" for i, text in enumerate(e.strs)]
        lines.append("")
    path.write_text("\n".join(lines), encoding="utf-8")


def fill(code: str, source: Path) -> None:
    """Put the translations of a JSON file (a list as `todo` gives, or an object key -> translation) into `code`'s
    catalogue: each one NFC, its fuzzy flag removed. A key the catalogue lacks is reported, not added."""
    import json

    data = json.loads(source.read_text(encoding="utf-8"))
    given = {d["key"]: d["translation"] for d in data} if isinstance(data, list) else dict(data)
    po = catalogue(code)
    entries = read_po(po)
    by_name = {e.name: e for e in messages(entries)}
    nplurals = int(re.search(r"nplurals=(\d+)", PLURAL_FORMS[code]).group(1))  # type: ignore[union-attr]
    done = 0
    for key, text in given.items():
        e = by_name.get(key)
        if e is None:
            print(f"not in the catalogue: {key[:70]!r}")
            continue
        forms = [text] if isinstance(text, str) else list(text)
        if e.plural is not None and len(forms) == 1:
            forms = forms * nplurals
        if (e.plural is None and len(forms) != 1) or (e.plural is not None and len(forms) != nplurals):
            print(f"wrong number of forms ({len(forms)}) for {key[:70]!r}")
            continue
        if not all(isinstance(f, str) and f for f in forms):
            continue
        e.strs = [unicodedata.normalize("NFC", f) for f in forms]
        e.flags.discard("fuzzy")
        e.previous = []
        done += 1
    write_po(po, code, entries)
    print(f"{po.relative_to(ROOT)}: {done} filled; {_count(po)}")


# --- what a translation must keep ---

_TOKENS = [
    re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*(?:![rsa])?(?::[^{}]*)?\}"),  # placeholders
    re.compile(r"\[/?(?:bold|dim|italic|red|green|yellow|blue|cyan|magenta|reverse|underline|link)(?:[ =][^\]\[]*)?\]"),  # rich markup
    re.compile(r"(?<![\w-])(?:[pP]|[sS][1-4]|[cC][1-3]|10|[2-9]|[AJQKT])-(?:[cC][1-3]|[sS][1-4])(?![\w-])"),  # moves: 7-c2, s1-s4
    re.compile(r"(?<![\w-])[sc][1-4](?![\w-])"),  # stacks
    re.compile(
        r"\bspite (?:id|new|play|resign|show|verify|code|games|record|stats|practice|arena|send|resend|inbox|mail setup|rules|help"
        r"|version)\b"
    ),  # commands
    re.compile(r"(?<![\w\-/])--?[a-z][a-z0-9]*(?:-[a-z0-9]+)*"),  # options
    re.compile(r"(?<![\w-])[A-Z][A-Z0-9]+(?:[-_][A-Z0-9]+)*(?![\w-])"),  # names in capitals: FILE, SPITE_HOME, SMTP, UTF-8
    re.compile(r"\b[\w.-]+\.(?:toml|pem|html|json|txt|md|pot?|mo|sqlite)\b"),  # files
    re.compile(r"(?<![\w-])(?:BEGIN SPITE|END SPITE)(?![\w-])"),  # the turn code's fences
    re.compile(r"\bspite1:"),  # a public key's prefix
]


def tokens(text: str) -> list[str]:
    """What a translation keeps as the English has it: placeholders, markup, notation, commands, options, names."""
    found: list[str] = []
    for pattern in _TOKENS:
        found += pattern.findall(text)
    return sorted(set(found))


def _placeholders(text: str) -> set[str]:
    return set(_TOKENS[0].findall(text))


def _letters_of(text: str) -> set[str]:
    return {ch for ch in text if ord(ch) > 127 and unicodedata.category(ch).startswith("L")}


def problems_of(code: str, entries: list[Entry], template: list[Entry]) -> Iterator[str]:
    """What is wrong with one language's catalogue, one line a problem."""
    header = next((e for e in read_po(catalogue(code)) if not e.msgid), None)
    if header is None or f"Plural-Forms: {PLURAL_FORMS[code]}" not in (header.strs[0] if header.strs else ""):
        yield f"{code}: the header does not pin the plural rule {PLURAL_FORMS[code]!r} (run update)"
    by_key = {e.key: e for e in messages(entries)}
    if any(e.obsolete for e in entries):
        yield f"{code}: {sum(e.obsolete for e in entries)} obsolete entries (#~): run update, then delete them"
    wanted = {e.key for e in template}
    for key in sorted(wanted - by_key.keys(), key=str):
        yield f"{code}: missing {key[1][:60]!r}"
    for key in sorted(by_key.keys() - wanted, key=str):
        yield f"{code}: not in the template {key[1][:60]!r}"
    nplurals = int(re.search(r"nplurals=(\d+)", PLURAL_FORMS[code]).group(1))  # type: ignore[union-attr]
    english_letters = set().union(*(_letters_of(e.msgid + (e.plural or "")) for e in template))
    allowed = set(LETTERS.get(code, "")) | english_letters
    for key in sorted(wanted & by_key.keys(), key=str):
        e = by_key[key]
        name = f"{code}: {e.msgid[:50]!r}"
        if "fuzzy" in e.flags:
            yield f"{name}: fuzzy"
        if not e.strs or not all(e.strs):
            yield f"{name}: not translated"
            continue
        if e.plural is not None and len(e.strs) != nplurals:
            yield f"{name}: {len(e.strs)} plural forms where the language has {nplurals}"
        english = tokens(e.msgid + " " + (e.plural or ""))
        for i, text in enumerate(e.strs):
            if unicodedata.normalize("NFC", text) != text:
                yield f"{name}: not NFC"
            if e.plural is None:
                if tokens(text) != tokens(e.msgid):
                    yield f"{name}: keeps {tokens(e.msgid)} as they are, the translation has {tokens(text)}"
            else:
                wanted_sets = (
                    [_placeholders(e.plural)]
                    if (nplurals == 1 or (code == "fil" and i == 0))
                    else [
                        _placeholders(e.msgid),
                        _placeholders(e.plural),
                    ]
                )
                if _placeholders(text) not in wanted_sets:
                    yield f"{name}: form {i} has the placeholders {sorted(_placeholders(text))}, not {sorted(wanted_sets[-1])}"
                others = [t for t in tokens(text) if t not in _placeholders(text)]
                if not set(others) <= set(english):
                    yield f"{name}: form {i} adds {sorted(set(others) - set(english))}"
            strange = _letters_of(text) - allowed
            if strange:
                yield f"{name}: letters pbm.i18n.LETTERS[{code!r}] lacks: {''.join(sorted(strange))}"


def glossary_problems(code: str, entries: list[Entry]) -> Iterator[str]:
    """Messages whose English holds a term of pbm/locale/glossary.toml that has `forms`, translated without one of them."""
    import tomllib

    terms = tomllib.loads((LOCALE / "glossary.toml").read_text(encoding="utf-8"))["terms"]
    for term, row in terms.items():
        forms = row.get("forms", {}).get(code)
        if not forms:
            continue
        english = re.compile(rf"(?<![\w-]){re.escape(term)}s?(?![\w-])", re.IGNORECASE)
        for e in messages(entries):
            if not english.search(e.msgid + " " + (e.plural or "")) or not all(e.strs):
                continue
            for text in e.strs:
                if not any(form.lower() in text.lower() for form in forms):
                    yield f"{code}: {e.msgid[:50]!r}: says {term!r} without the glossary's {' or '.join(repr(f) for f in forms)}"
                    break


def _compiled(path: Path) -> dict[object, object]:
    with path.open("rb") as file:
        return dict(gettext.GNUTranslations(file)._catalog)  # type: ignore[attr-defined]


def check() -> int:
    """Every check of the module's docstring; returns the number of problems (each printed)."""
    problems: list[str] = []
    for tool in ("xgettext", "msgmerge", "msgfmt"):
        if shutil.which(tool) is None:
            raise SystemExit(f"{tool} is not installed: GNU gettext's tools are needed (Debian: apt-get install gettext)")
    with tempfile.TemporaryDirectory() as tmp:
        fresh = Path(tmp) / "fresh.pot"
        extract_to(fresh)
        template = messages(read_po(fresh))
        kept = messages(read_po(TEMPLATE))
        code_keys, kept_keys = {e.key for e in template}, {e.key for e in kept}
        problems += [f"template: stale, the code has {k[1][:60]!r} (run: python scripts/catalogues.py all)" for k in code_keys - kept_keys]
        problems += [f"template: stale, the code no longer has {k[1][:60]!r}" for k in kept_keys - code_keys]
        notes = {e.key: e.notes for e in template}
        problems += [f"template: stale note for {e.msgid[:60]!r}" for e in kept if e.key in notes and notes[e.key] != e.notes]
        for e in template:
            if unicodedata.normalize("NFC", e.msgid) != e.msgid:
                problems.append(f"template: {e.msgid[:60]!r} is not NFC")
        for code in TRANSLATED:
            po = catalogue(code)
            if not po.exists():
                problems.append(f"{code}: no catalogue {po.relative_to(ROOT)}")
                continue
            problems += list(problems_of(code, read_po(po), template))
            problems += list(glossary_problems(code, read_po(po)))
            mo = Path(tmp) / f"{code}.mo"
            done = subprocess.run(["msgfmt", "--check", f"--output-file={mo}", str(po)], capture_output=True, text=True, check=False)
            if done.returncode != 0:
                problems += [f"{code}: msgfmt --check: {line}" for line in done.stderr.splitlines()]
                continue
            kept_mo = po.with_suffix(".mo")
            if not kept_mo.exists() or _compiled(kept_mo) != _compiled(mo):
                problems.append(f"{code}: {kept_mo.relative_to(ROOT)} is not what spite.po compiles to (run compile)")
    for line in problems:
        print(line)
    print(f"{len(problems)} problems" if problems else "catalogues: ok")
    return len(problems)


# --- the pseudo-language ---

_ACCENTED = dict(
    zip(
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
        "áƀçđéƒĝĥíĵķĺɱñóƥǫŕšţúṽŵẋýžÁƁÇĐÉƑĜĤÍĴĶĹṀÑÓƤǪŔŠŢÚṼŴẊÝŽ",
        strict=True,
    )
)
OPEN, CLOSE = "⟦", "⟧"


def pseudo_text(text: str) -> str:
    """`text` with every letter accented and a third longer, between ⟦ and ⟧; what a translation keeps stays as it is."""
    spans = sorted((m.start(), m.end()) for pattern in _TOKENS for m in pattern.finditer(text))
    out, i = [], 0
    for start, end in spans:
        if start < i:
            continue
        out.append("".join(_ACCENTED.get(ch, ch) for ch in text[i:start]))
        out.append(text[start:end])
        i = end
    out.append("".join(_ACCENTED.get(ch, ch) for ch in text[i:]))
    body = "".join(out)
    letters = sum(ch.isalpha() for ch in text)
    pad = "·" * -(-letters // 3)
    lead = len(body) - len(body.lstrip("\n "))
    trail = len(body) - len(body.rstrip("\n "))
    core = body[lead : len(body) - trail] if trail else body[lead:]
    return body[:lead] + OPEN + core + pad + CLOSE + (body[len(body) - trail :] if trail else "")


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t") + '"'


def pseudo(directory: Path) -> Path:
    """The pseudo-language's catalogue (code qps) compiled into `directory`, from the messages the code marks now (not the
    template, which may be stale while one works); returns the .mo."""
    directory.mkdir(parents=True, exist_ok=True)
    fresh = directory / f"{DOMAIN}.pot"
    extract_to(fresh)
    entries = messages(read_po(fresh))
    for e in entries:
        e.strs = [pseudo_text(e.msgid)] if e.plural is None else [pseudo_text(e.msgid), pseudo_text(e.plural)]
    target = directory / "qps" / "LC_MESSAGES"
    target.mkdir(parents=True, exist_ok=True)
    po = target / f"{DOMAIN}.po"
    write_po(po, "qps", entries)
    mo = target / f"{DOMAIN}.mo"
    _run("msgfmt", f"--output-file={mo}", str(po))
    return mo


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=("extract", "update", "compile", "all", "check", "stats", "pseudo", "todo", "fill"))
    parser.add_argument("directory", nargs="?", type=Path, help="pseudo: where it writes the pseudo-language's catalogue")
    parser.add_argument("--lang", choices=TRANSLATED, help="todo, fill: the language")
    parser.add_argument("--all", action="store_true", help="todo: every message, translated or not")
    parser.add_argument("--json", type=Path, help="todo: where to write the list (default: print it); fill: the file to read")
    args = parser.parse_args()
    if args.what in ("extract", "all"):
        extract()
    if args.what in ("update", "all"):
        update()
    if args.what in ("compile", "all"):
        compile_all()
    if args.what == "stats":
        stats()
    if args.what == "check":
        sys.exit(1 if check() else 0)
    if args.what in ("todo", "fill") and args.lang is None:
        parser.error(f"{args.what} needs --lang")
    if args.what == "todo":
        import json

        text = json.dumps(todo(args.lang, args.all), ensure_ascii=False, indent=1)
        if args.json is None:
            print(text)
        else:
            args.json.write_text(text, encoding="utf-8")
    if args.what == "fill":
        if args.json is None:
            parser.error("fill needs --json FILE")
        fill(args.lang, args.json)
    if args.what == "pseudo":
        if args.directory is None:
            parser.error("pseudo needs a DIRECTORY")
        print(pseudo(args.directory))


if __name__ == "__main__":
    main()
