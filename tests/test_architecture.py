"""The layers of the package and the direction of every import between them.

Read statically from the source, so an import inside a function counts as much as one at
the top of a file; imports only made for type checkers (under ``if TYPE_CHECKING:``) do
not. From the bottom up:

    errors, paths           shared by everyone, import nothing of the package (paths: errors)
    kernel                  the rules every edition shares: imports only itself and errors
    editions                one package per edition and the registry: imports the kernel
    service                 files, history, passwords, the game service: imports editions
    play, report            advisers and bots; reports: import the service and below
    mail                    the mail adapter: imports play, report and below
    cli                     the adapters: import everything but the kernel, whose values
                            they read through the service (docs/architecture.md)

Also: no import cycle anywhere in the package, and nothing outside ``pbem/editions``
names a wedge, a know-how or a personage of an edition.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "pbem"

ALLOWED: dict[str, set[str]] = {
    "errors": set(),
    "paths": {"errors"},
    "kernel": {"errors", "kernel"},
    "editions": {"errors", "kernel", "editions"},
    "service": {"errors", "paths", "kernel", "editions", "service"},
    "play": {"errors", "kernel", "editions", "service", "play"},
    "report": {"errors", "paths", "kernel", "editions", "service", "report"},
    "mail": {"errors", "paths", "kernel", "editions", "service", "play", "report", "mail"},
    "cli": {"errors", "paths", "editions", "service", "play", "report", "mail", "cli"},
    "__main__": {"cli"},
    "__init__": set(),
}
"""Layer -> the layers it may import."""


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def layer(module: str) -> str:
    parts = module.split(".")
    return "__init__" if len(parts) == 1 else parts[1]


def _resolve(name: str) -> str | None:
    """The package module ``name`` refers to: itself, or the package it is an attribute of."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _type_checking_only(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    while node in parents:
        node = parents[node]
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            return True
    return False


def imports_of(module: str) -> set[str]:
    """The package modules ``module`` imports anywhere in its code (not for type checkers)."""
    path = MODULES[module]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if not isinstance(node, (ast.Import, ast.ImportFrom)) or _type_checking_only(node, parents):
            continue
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        else:
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            names = [f"{base}.{a.name}" for a in node.names] + [base]
        for name in names:
            if name == "pbem" or name.startswith("pbem."):
                target = _resolve(name)
                if target and target != module:
                    found.add(target)
    return found


GRAPH = {m: imports_of(m) for m in MODULES}


def test_every_module_is_in_a_known_layer():
    assert {layer(m) for m in MODULES} <= set(ALLOWED)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_go_down_the_layers(module):
    here = layer(module)
    wrong = sorted(t for t in GRAPH[module] if layer(t) not in ALLOWED[here] and t != "pbem")
    assert not wrong, f"{module} ({here}) imports {wrong}"


def test_the_kernel_imports_nothing_above_it():
    """Explicitly: the kernel imports nothing from the service, store, reports, play or
    the command line, and no edition."""
    for module, targets in GRAPH.items():
        if layer(module) == "kernel":
            assert all(layer(t) in ("kernel", "errors") for t in targets), (module, targets)


def test_editions_import_the_core_never_the_reverse():
    for module, targets in GRAPH.items():
        if layer(module) in ("kernel", "errors", "paths"):
            assert not any(layer(t) == "editions" for t in targets), module


def _cycles() -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(GRAPH[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(GRAPH):
        if v not in index:
            visit(v)
    return out


def test_no_import_cycles():
    assert _cycles() == []


def test_the_checker_sees_a_wrong_import(tmp_path, monkeypatch):
    """The checks above can fail: a kernel module importing the service is caught."""
    bad = {**GRAPH, "pbem.kernel.turn": GRAPH["pbem.kernel.turn"] | {"pbem.service.store"}}
    here = "pbem.kernel.turn"
    assert any(layer(t) not in ALLOWED[layer(here)] for t in bad[here])
    monkeypatch.setitem(GRAPH, "pbem.kernel.edition", GRAPH["pbem.kernel.edition"] | {"pbem.kernel.turn"})
    monkeypatch.setitem(GRAPH, "pbem.kernel.turn", GRAPH["pbem.kernel.turn"] | {"pbem.kernel.edition"})
    assert _cycles()


def _classic_words() -> set[str]:
    from pbem import editions

    classic = editions.get("classic")
    from pbem.kernel.vocab import ACTION_KEYS, RESOURCES

    words = set(classic.rondel.names) | set(classic.knowhows) | set(classic.personages)
    # resources and temples are pieces of every edition, and the order keys of the actions
    # are named by what they do in every edition ("knowhow", "maneuver"), even where a wedge
    # shares the name
    return words - set(RESOURCES) - set(ACTION_KEYS) - {"temple"}


def test_only_editions_name_wedges_knowhows_and_personages():
    """No string literal outside ``pbem/editions`` is a classic wedge, know-how or personage
    (docstrings and comments may speak of them)."""
    words = _classic_words()
    found = []
    for module, path in MODULES.items():
        if layer(module) == "editions":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {id(n.body[0].value) for n in ast.walk(tree)
                      if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                      and n.body and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
                if node.value in words:
                    found.append(f"{module}:{node.lineno} {node.value!r}")
    assert found == []


def test_word_check_can_fail():
    assert {"arming", "wheel", "king"} <= _classic_words()
    assert re.fullmatch(r"[a-z_]+", "maneuver")


# -- the command line: kernel values through the service, no edition named -------------


def cli_kernel_imports(graph: dict[str, set[str]]) -> list[str]:
    """Every import of a kernel module by a command-line module, as ``cli -> kernel``."""
    return sorted(f"{m} -> {t}" for m, targets in graph.items() if layer(m) == "cli"
                  for t in targets if layer(t) == "kernel")


def test_the_command_line_reaches_kernel_values_only_through_the_service():
    """``pbem/cli`` imports no kernel module, at the top or inside a function: what it needs
    of the kernel (the set-up options, the resource and unit names, a refusal's JSON) the
    service offers (docs/architecture.md, the table of layers)."""
    assert cli_kernel_imports(GRAPH) == []


def test_the_command_line_kernel_check_can_fail():
    bad = {**GRAPH, "pbem.cli.game": GRAPH["pbem.cli.game"] | {"pbem.kernel.setup"}}
    assert cli_kernel_imports(bad) == ["pbem.cli.game -> pbem.kernel.setup"]
    assert "kernel" not in ALLOWED["cli"]


CARD_GAME_WORDS = {"deck", "hand", "draw", "display", "discards", "secret"}
"""Keys of an edition's extra state that are everyday words of any card game: the command
line may speak of a hand or a deck in general."""


def _other_edition_words() -> set[str]:
    """What names an edition other than classic Antike (the default the command line may
    name): its id, other names and printed name, and the wedges, know-hows, personages,
    variants, extra state keys (but :data:`CARD_GAME_WORDS`) and event cards classic does
    not have."""
    from pbem import editions

    classic = editions.get("classic")
    shared = set(classic.rondel.names) | set(classic.knowhows) | set(classic.personages) | set(classic.variants)
    words: set[str] = set()
    for edition in editions.registered():
        if edition is classic:
            continue
        words |= {edition.id, edition.name, *edition.aliases}
        own = set(edition.rondel.names) | set(edition.knowhows) | set(edition.personages) | set(edition.variants)
        extras = edition.extras
        own |= {*extras.nation, *extras.status, *extras.state, *extras.standing} - CARD_GAME_WORDS
        own |= {c for c in edition.event_cards("") if not re.fullmatch(r"(card|blank)_\d+", c)}
        words |= own - shared
    return {w.lower() for w in words}


def edition_words_in(text: str, words: set[str]) -> list[str]:
    """The ``words`` that ``text`` names as words of their own (any case)."""
    low = text.lower()
    return sorted(w for w in words if re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", low))


def test_the_command_line_names_no_edition_but_the_default():
    """No line of ``pbem/cli`` (code, help text, comment) names another edition or its
    pieces: the command line asks the edition (:class:`pbem.kernel.edition.Edition`, its
    hooks for the command line) or speaks of editions in general."""
    words = _other_edition_words()
    found = {module: hits for module, path in MODULES.items() if layer(module) == "cli"
             for hits in [edition_words_in(path.read_text(encoding="utf-8"), words)] if hits}
    assert found == {}


def test_the_edition_word_check_can_fail():
    words = _other_edition_words()
    assert {"duellum", "antike2", "antike ii", "bellona", "pliny", "militia"} <= words
    assert edition_words_in('help="antike2 (Antike II) or duellum"', words) == ["antike ii", "antike2", "duellum"]
    assert edition_words_in("antike-east, antike-duellum-like, antike-ref", words) == []
