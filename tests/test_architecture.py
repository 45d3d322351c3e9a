"""The package's layers, read from the import statements of every module under ``src/``.

Each sub-package of ``setgame`` is a layer and imports only the layers below it; no module
imports, through any chain, a module that imports it back; and the rules import nothing that
reaches outside the process or reads a clock. Every import counts: at the top of a module,
inside a function, or under ``if TYPE_CHECKING:`` (a circle there is still one to a reader,
and one step from a real one).
"""

from __future__ import annotations

import ast
from collections.abc import Collection, Iterator, Mapping
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"

#: What each layer may import besides itself ("" is the package's own face: ``setgame``'s
#: ``__init__`` and ``__main__``, which may import anything).
ALLOWED: Mapping[str, frozenset[str]] = {
    "rules": frozenset(),
    "words": frozenset({"rules"}),
    "analysis": frozenset({"rules", "words"}),
    "bots": frozenset({"rules", "words"}),
    "arena": frozenset({"rules", "words", "analysis"}),  # pure too: times passed in
    "photo": frozenset({"rules"}),  # the cards in a photo of a table (docs/photo.md)
    "server": frozenset({"rules", "words", "analysis", "bots", "arena", "photo"}),
    "tui": frozenset({"rules", "words", "analysis", "bots", "arena", "server"}),  # server.client
    "cli": frozenset({"rules", "words", "analysis", "bots", "arena", "server", "tui", "photo"}),
}

#: The modules outside ``setgame`` the rules may import: computation only. Not ``time``,
#: ``asyncio``, ``os``, ``io``, ``pathlib``, ``sys``, ``logging``... (no I/O, no clock).
PURE: frozenset[str] = frozenset(
    {"__future__", "collections", "dataclasses", "datetime", "enum", "fractions", "functools",
     "hashlib", "itertools", "math", "numpy", "operator", "random", "re", "typing"}
)  # fmt: skip

#: The layers held to :data:`PURE`: the rules, and the arenas' rules (issue 23: times passed in).
PURE_LAYERS: frozenset[str] = frozenset({"rules", "arena"})

#: What reads the clock (``date.today()``, ``datetime.now()``) or the outside (``open(...)``).
CLOCK_ATTRIBUTES: frozenset[str] = frozenset({"now", "today", "utcnow", "fromtimestamp"})
IO_BUILTINS: frozenset[str] = frozenset({"open", "print", "input", "breakpoint"})


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules(root: Path) -> dict[str, Path]:
    """Every module under ``root`` (a ``src`` folder) by its dotted name."""
    return {module_name(path, root): path for path in sorted(root.rglob("*.py"))}


def imported(name: str, path: Path, known: Collection[str]) -> Iterator[tuple[str, int]]:
    """Each module ``name`` imports (relative imports resolved), with its line; every statement
    of the file counts. ``from a import b`` imports ``a.b`` when that is a module, else ``a``."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            names = [f"{base}.{alias.name}" for alias in node.names]
            yield from ((full, node.lineno) for full in names if full in known)
            if any(full not in known for full in names):
                yield base, node.lineno


def graph(root: Path) -> dict[str, dict[str, int]]:
    """Module -> {module of this tree it imports: line}."""
    known = modules(root)
    edges: dict[str, dict[str, int]] = {}
    for name, path in known.items():
        targets = edges.setdefault(name, {})
        for target, line in imported(name, path, known):
            if target in known and target != name:
                targets.setdefault(target, line)
    return edges


def layer(name: str) -> str:
    parts = name.split(".")
    return parts[1] if len(parts) > 2 or (len(parts) == 2 and parts[1] in ALLOWED) else ""


def circle(edges: Mapping[str, Mapping[str, int]]) -> list[str]:
    """One import circle (its modules in order, the first repeated at the end), or []."""
    try:
        TopologicalSorter({name: set(targets) for name, targets in edges.items()}).prepare()
    except CycleError as error:
        return list(reversed(error.args[1]))
    return []


def upward(edges: Mapping[str, Mapping[str, int]]) -> list[str]:
    """Each import of a layer that the importing module's layer may not import."""
    wrong = []
    for name, targets in edges.items():
        mine = layer(name)
        if not mine:
            continue
        for target, line in targets.items():
            theirs = layer(target)
            if theirs != mine and theirs not in ALLOWED[mine]:
                wrong.append(f"{name}:{line} imports {target} ({mine} may not import it)")
    return wrong


def impure(root: Path) -> list[str]:
    """Each import of the rules (or the arena's rules) outside :data:`PURE`, and each use of
    an impure name."""
    wrong = []
    known = modules(root)
    for name, path in known.items():
        if layer(name) not in PURE_LAYERS:
            continue
        for target, line in imported(name, path, known):
            if target.split(".")[0] not in {"setgame", *PURE}:
                wrong.append(f"{name}:{line} imports {target}")
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Attribute) and node.attr in CLOCK_ATTRIBUTES:
                wrong.append(f"{name}:{node.lineno} reads the clock: .{node.attr}")
            elif isinstance(node, ast.Call) and getattr(node.func, "id", "") in IO_BUILTINS:
                wrong.append(f"{name}:{node.lineno} calls {ast.unparse(node.func)}()")
    return wrong


def test_no_import_circle_in_src() -> None:
    assert circle(graph(SRC)) == []


def test_each_layer_imports_only_the_layers_below_it() -> None:
    assert upward(graph(SRC)) == []


def test_the_rules_import_no_io_no_asyncio_no_clock() -> None:
    assert impure(SRC) == []


def test_every_module_belongs_to_a_layer() -> None:
    """A new sub-package must be given its place in :data:`ALLOWED`."""
    names = modules(SRC)
    assert {layer(name) for name in names} == {"", *ALLOWED}
    assert {name for name in names if not layer(name)} == {"setgame", "setgame.__main__"}


# --- the checks find what they look for -----------------------------------------------


def write(root: Path, files: Mapping[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


TREE = {
    "setgame/__init__.py": "from setgame.rules.cards import Card\n",
    "setgame/rules/__init__.py": "",
    "setgame/rules/cards.py": "Card = int\n",
    "setgame/rules/sets.py": "from setgame.rules.cards import Card\n",
    "setgame/words/__init__.py": "",
    "setgame/words/i18n.py": "from setgame.rules import sets\n",
}


def test_a_circle_is_found_even_through_a_function_level_import(tmp_path: Path) -> None:
    root = write(tmp_path, TREE)
    assert circle(graph(root)) == []
    write(root, {"setgame/rules/cards.py": "def f():\n    from setgame.rules.sets import x\n"})
    found = circle(graph(root))
    assert found[0] == found[-1]
    assert set(found) == {"setgame.rules.cards", "setgame.rules.sets"}


def test_a_circle_under_type_checking_is_found(tmp_path: Path) -> None:
    root = write(tmp_path, TREE)
    text = "import typing\nif typing.TYPE_CHECKING:\n    from setgame.words.i18n import t\n"
    write(root, {"setgame/rules/sets.py": text})
    assert set(circle(graph(root))) == {"setgame.rules.sets", "setgame.words.i18n"}


@pytest.mark.parametrize(
    ("importer", "text"),
    [
        ("setgame/rules/cards.py", "def f():\n    from setgame.words import i18n\n"),
        ("setgame/rules/cards.py", "from ..words import i18n\n"),
        ("setgame/words/catalog.py", "import setgame.cli.main\n"),
    ],
)
def test_an_import_of_a_layer_above_is_found(tmp_path: Path, importer: str, text: str) -> None:
    root = write(tmp_path, {**TREE, "setgame/cli/__init__.py": "", "setgame/cli/main.py": ""})
    assert upward(graph(root)) == []
    write(root, {importer: text})
    assert len(upward(graph(root))) == 1


@pytest.mark.parametrize(
    "text",
    ["import asyncio\n", "from time import monotonic\n", "import os.path\n",
     "import datetime\nx = datetime.date.today()\n", "def f(p):\n    return open(p)\n"],
)  # fmt: skip
def test_io_or_a_clock_in_the_rules_is_found(tmp_path: Path, text: str) -> None:
    root = write(tmp_path, TREE)
    assert impure(root) == []
    write(root, {"setgame/rules/sets.py": text})
    assert impure(root) != []
