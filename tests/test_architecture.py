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
    cli                     the adapters: may import everything

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
    "cli": {"errors", "paths", "kernel", "editions", "service", "play", "report", "mail", "cli"},
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


def _edition_words() -> set[str]:
    """Every edition's own words, folded (lowercase, no ``-``, ``_`` or space): its id,
    aliases and name, wedges, know-hows, personages, event cards and unit kinds, less the
    words every edition has and the shared vocabulary the kernel names (resources, units,
    order and action keys, temples). The editions the package registers, that is: not
    one a test or a plug-in registered in this process (its words are not the package's)."""
    from pbem import editions
    from pbem.kernel.orders import ORDER_KEYS
    from pbem.kernel.vocab import ACTION_KEYS, RESOURCES, UNITS

    def fold(word: str) -> str:
        return re.sub(r"[-_\s]", "", word.lower())

    def own(edition) -> set[str]:
        words = {edition.id, *edition.aliases, *edition.name.split(), *edition.rondel.names}
        words |= {f.label for f in edition.rondel.fields}
        words |= {*edition.knowhows, *edition.knowhows.values(), *edition.personages, *edition.personages.values()}
        for cid in edition.event_cards(""):
            words |= {cid, edition.card_name(cid, ""), *edition.card_spellings(cid, "")}
        words |= set(edition.schema_extensions("orders").get("unit", {}).get("enum", ()))
        return {fold(w) for w in words}

    each = [own(editions.get(edition_id)) for edition_id in editions.BUILT_IN]
    shared = {fold(w) for w in (*RESOURCES, *UNITS, *ORDER_KEYS, *ACTION_KEYS, "temple")}
    return set().union(*each) - set.intersection(*each) - shared


def _edition_words_in(source: str, words: set[str]) -> list[str]:
    """Where ``source`` names one of ``words``: in a string literal (docstrings aside) or an
    identifier, whole or as one of its ``_``/``-`` parts."""
    tree = ast.parse(source)
    docs = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)}
    found = []

    def check(text: str, lineno: int, what: str) -> None:
        hits = {re.sub(r"[-_\s]", "", text.lower())} & words
        for word in re.findall(r"[a-z0-9]+(?:[-_][a-z0-9]+)*", text.lower()):
            hits |= {re.sub(r"[-_]", "", w) for w in (word, *re.split(r"[-_]", word))} & words
        if hits:
            found.append(f"{lineno} {what} {text[:60]!r}: {sorted(hits)}")

    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            check(node.value, node.lineno, "string")
        name = (node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute)
                else node.name if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                else node.arg if isinstance(node, (ast.arg, ast.keyword)) and node.arg
                else node.asname or node.name if isinstance(node, ast.alias) else None)
        if name:
            check(name, getattr(node, "lineno", 0), "name")
    return found


def test_service_and_mail_name_no_edition():
    """The service and the mail adapter ask the edition for its words (order words, card
    names, ...): no string literal or identifier there is an edition's id or a word of one
    edition only (docstrings and comments may speak of them)."""
    words = _edition_words()
    found = [f"{module}:{hit}" for module, path in MODULES.items() if layer(module) in ("service", "mail")
             for hit in _edition_words_in(path.read_text(encoding="utf-8"), words)]
    assert found == []


def test_edition_word_check_can_fail():
    words = _edition_words()
    assert {"duellum", "antike2", "fortress", "festung", "admiral", "militia", "regnum", "arming"} <= words
    assert not {"legion", "galley", "king", "gold", "temple", "knowhow", "maneuver"} & words
    planted = ('"""Antike Duellum\'s FORTRESS is fine in a docstring."""\n'
               'FORTRESS_CHOICES = ("always", "never")\n'
               'def f(duellum_rules):\n    return "when to play Fortress", "antike2", "Res Publica"\n')
    hits = _edition_words_in(planted, words)
    assert [h.split()[0] for h in hits] == ["2", "3", "4", "4", "4"], hits
