"""The protocol's modules import one another one way: no circle, not even one hidden under TYPE_CHECKING.

The Party's collaborators (dealsteps, incoming, outgoing) and its saved state (partystate) take a PartyState, which
partystate defines; dealing imports them all, and none of them imports dealing back.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pbm.protocol

PACKAGE = Path(pbm.protocol.__file__).parent
MODULES = {path.stem for path in PACKAGE.glob("*.py")} - {"__init__"}


def _imports(path: Path) -> set[str]:
    """The modules of pbm.protocol that `path` imports anywhere in it (inside functions and `if TYPE_CHECKING:` too)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module == "pbm.protocol":
            found |= {alias.name for alias in node.names if alias.name in MODULES}
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("pbm.protocol."):
            found.add(node.module.split(".")[2])
        elif isinstance(node, ast.Import):
            found |= {alias.name.split(".")[2] for alias in node.names if alias.name.startswith("pbm.protocol.")}
    return found - {path.stem}


def _circle(graph: dict[str, set[str]]) -> list[str] | None:
    """One circle of imports in `graph`, as the modules along it, or None."""
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> list[str] | None:
        if module in path:
            return [*path[path.index(module) :], module]
        if module in done:
            return None
        for imported in sorted(graph.get(module, ())):
            if (circle := visit(imported, [*path, module])) is not None:
                return circle
        done.add(module)
        return None

    for module in sorted(graph):
        if (circle := visit(module, [])) is not None:
            return circle
    return None


def test_the_protocols_modules_import_each_other_without_a_circle() -> None:
    graph = {module: _imports(PACKAGE / f"{module}.py") for module in MODULES}
    assert graph["dealing"] >= {"dealsteps", "incoming", "outgoing", "partystate"}  # the graph is read
    assert _circle(graph) is None, " -> ".join(_circle(graph) or [])
    assert [module for module, imported in graph.items() if "dealing" in imported] == ["seat"]


def test_a_circle_is_found_where_there_is_one() -> None:
    assert _circle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c", "a"]
    assert _circle({"a": {"b"}, "b": set(), "c": {"a", "b"}}) is None


def test_the_public_names_are_still_importable_from_dealing() -> None:
    from pbm.protocol import dealing
    from pbm.protocol.dealsteps import starter_of
    from pbm.protocol.messages import VERSION
    from pbm.protocol.partystate import PartyState

    assert set(dealing.__all__) == {"VERSION", "Party", "starter_of"}
    assert dealing.VERSION == VERSION and dealing.starter_of is starter_of and issubclass(dealing.Party, PartyState)
