"""The lock of a match in a spite home (pbm.home.match_lock): one holder at a time, and nothing left once let go.

A lock file is there only while it is held (issue 33, item 12: a command refused leaves the home as it was), so the
spite letting go removes it while another may have opened it: that one must not hold a lock of a file no longer there
while a third makes a new one. Real processes take and let go of one match's lock as fast as they can, each adding one
to a count inside the lock, on POSIX and as on Windows.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from cli_helpers import process_env, scratch

from pbm.errors import BusyError
from pbm.home import match_lock

MATCH = "0123456789abcdef0123456789abcdef"

# One spite taking MATCH's lock in HOME TRIES times, adding one to the count in COUNT each time it holds it.
_TAKER = textwrap.dedent(
    """
    import os, sys
    from pathlib import Path
    if sys.argv[4] == "without-posix":
        sys.path.insert(0, {tests!r})
        import without_posix
        without_posix.install()
    from pbm.errors import BusyError
    from pbm.home import match_lock
    home, count, tries = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
    held = 0
    for n in range(tries):
        try:
            with match_lock(home, {match!r}):
                seen = int(count.read_text())
                os.sched_yield() if hasattr(os, "sched_yield") else None  # let another take the lock now, if it can
                count.write_text(str(seen + 1))
                held += 1
        except BusyError:
            pass
    print(held)
    """
).format(tests=str(Path(__file__).parent), match=MATCH)


TAKERS, TRIES = 8, 3000  # enough that a lock file removed once closed, not while held, gives two holders (4 runs in 5)


@pytest.mark.parametrize("system", ["posix", "without-posix"])
def test_one_holder_at_a_time_while_lock_files_come_and_go(tmp_path: Path, system: str) -> None:
    with scratch(tmp_path) as root:
        home, count = root / "home", root / "count"
        home.mkdir()
        count.write_text("0")
        takers = [
            subprocess.Popen(
                [sys.executable, "-c", _TAKER, str(home), str(count), str(TRIES), system],
                env=process_env(home),
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for _ in range(TAKERS)
        ]
        done = [(t.wait(timeout=300), *t.communicate()) for t in takers]
        held, counted, left = sum(int(out or 0) for _code, out, _err in done), int(count.read_text() or -1), sorted(home.iterdir())
    assert all(code == 0 and not err for code, _out, err in done), done  # a count half written is read: two holders at once
    assert held > 0 and counted == held  # no count lost: never two holders at once
    assert left == []  # no lock file, no locks folder


def test_a_lock_let_go_leaves_nothing_and_a_second_holder_is_refused_meanwhile(tmp_path: Path) -> None:
    (tmp_path / "locks").mkdir()
    (tmp_path / "locks" / "ffffffffffffffff.lock").write_bytes(b"")  # another match's, left by a spite before issue 33
    with match_lock(tmp_path, MATCH):
        assert (tmp_path / "locks" / f"{MATCH}.lock").is_file()
        with pytest.raises(BusyError, match="another spite is answering a file of match 01234567"), match_lock(tmp_path, MATCH):
            pass
        assert (tmp_path / "locks" / f"{MATCH}.lock").is_file()  # the refused one did not remove the holder's
    assert sorted(p.name for p in (tmp_path / "locks").iterdir()) == ["ffffffffffffffff.lock"]
    with match_lock(tmp_path, MATCH):  # and it is taken again
        pass
