"""The layers of the package and the direction of every import between them.

Read statically from the source, so an import inside a function counts as much as one at
the top of a file; imports only made for type checkers (under ``if TYPE_CHECKING:``) do
not count for the layers, but do for cycles. From the bottom up:

    errors, paths           shared by everyone, import nothing of the package (paths: errors)
    kernel                  the rules every edition shares: imports only itself and errors
    trust                   keys, signatures and fair draws of games without a game master:
                            imports only itself and errors (and the cryptography library)
    editions                one package per edition and the registry: imports the kernel
    service                 files, history, passwords, the game service: imports editions
    play, report            advisers and bots; reports: import the service and below
    mail                    the mail adapter: imports play, report and below, but not the
                            kernel: its values come through the service, as for the cli
    conformance             the edition conformance kit: drives play and report
    cli                     the adapters: import everything but the kernel, whose values
                            they read through the service (docs/architecture.md)

Also: no import cycle anywhere in the package, not even through imports for the type
checker (the kernel's modules name each other's classes through
:mod:`pbem.kernel.protocols`); nothing outside ``pbem/editions`` names a wedge, a know-how, a
personage, a key of the state an edition keeps or a kind of event of an edition's own; each
layer touches only the facets of an edition it is meant to (:data:`FACET_LAYERS`); and
nobody asks the registry which editions happen to be loaded.
"""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "pbem"

ALLOWED: dict[str, set[str]] = {
    "errors": set(),
    "paths": {"errors"},
    "kernel": {"errors", "kernel"},
    "trust": {"errors", "trust"},
    "editions": {"errors", "kernel", "editions"},
    "service": {"errors", "paths", "kernel", "trust", "editions", "service"},
    "play": {"errors", "kernel", "editions", "service", "play"},
    "report": {"errors", "paths", "kernel", "editions", "service", "report"},
    "mail": {"errors", "paths", "trust", "editions", "service", "play", "report", "mail"},
    "conformance": {"errors", "paths", "kernel", "editions", "service", "play", "report", "conformance"},
    "cli": {"errors", "paths", "trust", "editions", "service", "play", "report", "mail", "cli"},
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


@functools.cache
def parsed(path: Path) -> tuple[ast.Module, dict[ast.AST, ast.AST]]:
    """The syntax tree of the module at ``path`` and each node's parent, read once."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return tree, {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}


def imports_of(module: str, typing: bool = False) -> set[str]:
    """The package modules ``module`` imports anywhere in its code; those it imports only
    for type checkers too if ``typing``."""
    path = MODULES[module]
    tree, parents = parsed(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if not isinstance(node, (ast.Import, ast.ImportFrom)) or (not typing and _type_checking_only(node, parents)):
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


@functools.cache
def graph() -> dict[str, set[str]]:
    """Module -> the package modules it imports. Read when a test first asks, not when the
    file is collected: every worker of the test run collects it, few run these tests."""
    return {m: imports_of(m) for m in MODULES}


@functools.cache
def typed_graph() -> dict[str, set[str]]:
    """:func:`graph` with the imports made only for type checkers."""
    return {m: imports_of(m, typing=True) for m in MODULES}


def test_every_module_is_in_a_known_layer():
    assert {layer(m) for m in MODULES} <= set(ALLOWED)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_go_down_the_layers(module):
    here = layer(module)
    wrong = sorted(t for t in graph()[module] if layer(t) not in ALLOWED[here] and t != "pbem")
    assert not wrong, f"{module} ({here}) imports {wrong}"


def test_the_kernel_imports_nothing_above_it():
    """Explicitly: the kernel imports nothing from the service, store, reports, play or
    the command line, and no edition."""
    for module, targets in graph().items():
        if layer(module) == "kernel":
            assert all(layer(t) in ("kernel", "errors") for t in targets), (module, targets)


def test_editions_import_the_core_never_the_reverse():
    for module, targets in graph().items():
        if layer(module) in ("kernel", "errors", "paths"):
            assert not any(layer(t) == "editions" for t in targets), module


def _cycles(edges: dict[str, set[str]] | None = None) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan), in ``edges``
    (by default :func:`graph`)."""
    if edges is None:
        edges = graph()
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
        for w in sorted(edges[v]):
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

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def test_no_import_cycles():
    assert _cycles() == []
    assert _cycles(typed_graph()) == [], "a cycle through imports for the type checker: name a protocol"


def test_the_checker_sees_a_wrong_import(tmp_path, monkeypatch):
    """The checks above can fail: a kernel module importing the service is caught."""
    bad = {**graph(), "pbem.kernel.turn": graph()["pbem.kernel.turn"] | {"pbem.service.store"}}
    here = "pbem.kernel.turn"
    assert any(layer(t) not in ALLOWED[layer(here)] for t in bad[here])
    monkeypatch.setitem(graph(), "pbem.kernel.edition", graph()["pbem.kernel.edition"] | {"pbem.kernel.turn"})
    monkeypatch.setitem(graph(), "pbem.kernel.turn", graph()["pbem.kernel.turn"] | {"pbem.kernel.edition"})
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


KERNEL_CODE = re.compile(r"[a-z]+/[a-z0-9]+(-[a-z0-9]+)*")


def codes_raised(source: str) -> set[str]:
    """The literal rejection codes ``source`` passes to the refusal helpers: the first
    argument of a call to ``reject`` (:func:`pbem.kernel.rejections.reject`) or of a method
    ``.reject`` (:meth:`pbem.kernel.turn.Turn.reject`)."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
        first = node.args[0]
        if name == "reject" and isinstance(first, ast.Constant) and isinstance(first.value, str):
            found.add(first.value)
    return found


def test_every_code_the_kernel_raises_is_in_its_catalogue():
    """The kernel's refusals are its own words: a code raised anywhere in ``pbem/kernel``
    is in :data:`pbem.kernel.rejections.CODES`, so an edition that defines no code of its
    own still gets a refusal, never a missing code (an internal error)."""
    from pbem.kernel.rejections import CODES

    raised = set().union(*(codes_raised(path.read_text(encoding="utf-8"))
                           for module, path in MODULES.items() if layer(module) == "kernel"))
    assert len(raised) > 60 and all(KERNEL_CODE.fullmatch(c) for c in raised)
    assert sorted(raised - set(CODES)) == []


def test_the_code_check_can_fail():
    """A code only an edition defines, raised by the kernel, is seen."""
    from pbem.kernel.rejections import CODES

    source = 't.reject("wall/already", path, city=city)\nout.append(reject("arm/limit", "$"))\nreject(code, "$")\n'
    assert codes_raised(source) == {"wall/already", "arm/limit"}
    assert codes_raised(source) - set(CODES) == {"wall/already"}


def test_an_edition_without_codes_gets_the_kernels_refusals():
    """Classic defines no code of its own and words none: a free unit it never grants and a
    resource its boards print are refused in the kernel's words (the schema keeps such
    orders out of a classic game; the kernel does not count on it)."""
    from conftest import make_game
    from pbem.kernel import actions
    from pbem.kernel.rejections import CODES
    from pbem.kernel.turn import Turn

    game = make_game()
    assert not game.edition.codes and not game.edition.wording
    nation = game.state.status.active
    t = Turn(game.state.copy(), nation, game.edition, game.board, start=game.state)
    city = sorted(game.state.cities(nation))[0]
    actions.Arm().apply(t, [{"at": city, "unit": "legion", "count": 1, "free": True}])
    free = next(p for p in sorted(game.board.provinces)
                if game.board.province(p).resource in ("marble", "iron", "gold")
                and getattr(game.state.provinces.get(p), "owner", None) is None)
    wrong = next(r for r in ("marble", "iron", "gold") if r != game.board.province(free).resource)
    actions.found(t, [{"city": free, "resource": wrong}])
    got = {r.code: r.message for r in t.rejections}
    assert {"arm/no-free-unit", "found/resource-fixed"} <= set(got)
    assert got["arm/no-free-unit"] == CODES["arm/no-free-unit"].format(nation=t.display(nation))


def test_the_cycle_check_sees_imports_for_the_type_checker(tmp_path, monkeypatch):
    """An import made only under ``if TYPE_CHECKING:`` is no edge for the layers but is one
    for the cycle check: two modules naming each other's classes that way are caught."""
    source = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pbem.kernel.turn import Turn\n"
    fake = tmp_path / "edition.py"
    fake.write_text(source, encoding="utf-8")
    monkeypatch.setitem(MODULES, "pbem.kernel.edition", fake)
    assert "pbem.kernel.turn" not in imports_of("pbem.kernel.edition")
    assert imports_of("pbem.kernel.edition", typing=True) == {"pbem.kernel.turn"}
    typed = {**typed_graph(), "pbem.kernel.edition": imports_of("pbem.kernel.edition", typing=True)}
    assert "pbem.kernel.edition" in typed_graph()["pbem.kernel.turn"]
    assert ["pbem.kernel.edition", "pbem.kernel.turn"] in _cycles(typed)
    assert _cycles({**graph(), "pbem.kernel.edition": imports_of("pbem.kernel.edition")}) == []


def _edition_names() -> re.Pattern[str]:
    """The ids, names and aliases of the built-in editions but classic (the base game, whose
    rules the kernel's comments cite as "classic"), as one pattern of whole words."""
    from pbem import editions

    words = {w.lower() for e in map(editions.get, editions.BUILT_IN) if e.id != "antike"
             for w in (e.id, e.name, *e.aliases)}
    return re.compile(r"\b(" + "|".join(sorted(map(re.escape, words), key=len, reverse=True)) + r")\b", re.IGNORECASE)


def test_the_kernel_names_no_edition():
    """The kernel asks the edition (its attributes and hooks) and never names one, not even
    in a comment: it says "an edition with walls", not which."""
    names = _edition_names()
    found = [f"{module}:{n} {m.group(0)!r}" for module, path in MODULES.items() if layer(module) == "kernel"
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) for m in names.finditer(line)]
    assert found == []


def test_the_edition_name_check_can_fail():
    names = _edition_names()
    assert names.search("Duellum's recruitment box") and names.search("(Antike II: ``bellona``)")
    assert names.search("if edition.id == 'antike2':")
    assert not names.search("classic Antike, 000 L653") and not names.search("a duel")


def _phrases(text: str) -> set[str]:
    """Every word and pair of neighbouring words of ``text``, lowercased and run together
    (``RES PUBLICA``, ``res_publica`` and ``res-publica`` all give ``respublica``); the
    program's own name (``antike-ref``) is no edition's."""
    text = re.sub(r"antike-ref", " ", text, flags=re.IGNORECASE)
    words = [w for w in re.split(r"[^0-9a-z]+", re.sub(r"([a-z])([A-Z])", r"\1_\2", text).lower()) if w]
    return set(words) | {a + b for a, b in zip(words, words[1:])}


def _schema_strings(value) -> set[str]:
    if isinstance(value, dict):
        return set().union(*(_schema_strings(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(_schema_strings(v) for v in value)) if value else set()
    return {value} if isinstance(value, str) else set()


GENERIC_WORDS = {"deck", "hand", "draw", "display", "discards", "secret", "card", "cards", "shuffle", "wall"}
"""Keys of an edition's extra state and kinds of its events that are everyday words of any
card game (a deck, a hand, a card shown on a display) or of English (a wall clock): shared
code may speak of them in general."""


def own_state_and_events(edition) -> set[str]:
    """The keys of the state ``edition`` keeps beside the shared fields (each part of its
    :class:`~pbem.kernel.protocols.Extras`) and the kinds of event of its own
    (:attr:`Edition.event_kinds <pbem.kernel.edition.Edition.event_kinds>`), less
    :data:`GENERIC_WORDS`."""
    extras = edition.extras
    keys = {*extras.nation, *extras.status, *extras.state, *extras.standing} | set(edition.event_kinds)
    return keys - GENERIC_WORDS


def _edition_words() -> dict[str, str]:
    """Every edition-specific word, run together as :func:`_phrases` does -> the edition
    it belongs to: the id, aliases and name of every registered edition, its wedges,
    know-hows, personages and cards (ids and names), the unit kinds its orders name, the
    keys of its extra state and its own kinds of event (:func:`own_state_and_events`),
    less the words every edition shares and the kernel's shared vocabulary."""
    from pbem import editions
    from pbem.kernel.vocab import ACTION_KEYS, RESOURCES, TERRAIN, UNITS
    from pbem.service.schemas import compose

    def squash(word: str) -> str:
        return re.sub(r"[^0-9a-z]+", "", word.lower())

    per: dict[str, set[str]] = {}
    # the editions the product ships (a test edition registered by another test must not
    # change what this check looks for)
    for edition in (editions.get(e) for e in editions.BUILT_IN):
        words = {edition.id, edition.name, *edition.aliases}
        words |= {w for f in edition.rondel.fields for w in (f.name, f.label)}
        words |= set(edition.knowhows) | set(edition.knowhows.values())
        words |= set(edition.personages) | set(edition.personages.values())
        cards = edition.cards
        words |= {w for cid in (cards.catalogue("") if cards else ())
                  for w in (cid, cards.name(cid, ""), *cards.spellings(cid, ""))}
        words |= _schema_strings(compose("orders", edition)) & set(TERRAIN) | set(edition.special_units)
        words |= own_state_and_events(edition)
        per[edition.id] = {squash(w) for w in words if squash(w)}
    shared = set.intersection(*per.values()) | {squash(w) for w in (*RESOURCES, *UNITS, *ACTION_KEYS, "temple")}
    # classic is the game itself: its id is every command's default edition, and its
    # wedges, know-hows and personages are fine in names such as ``arming_iron`` (their
    # string literals are the business of the check above)
    shared |= {squash(w) for w in _classic_words()} | per["antike"]
    return {w: e for e, words in sorted(per.items()) for w in words - shared}


def _edition_words_in(source: str, words: dict[str, str]) -> list[str]:
    """Where ``source`` names an edition-specific word in a string literal (docstrings
    aside) or an identifier (a name, attribute, function, class or argument)."""
    tree = ast.parse(source)
    # a string standing alone as a statement documents what is around it (a module, a
    # function, or the constant above it)
    docstrings = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            text = node.value
        elif isinstance(node, ast.Name):
            text = node.id
        elif isinstance(node, ast.Attribute):
            text = node.attr
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            text = node.name
        elif isinstance(node, ast.arg):
            text = node.arg
        elif isinstance(node, ast.keyword) and node.arg:
            text = node.arg
        elif isinstance(node, ast.alias):
            text = node.asname or node.name
        elif isinstance(node, ast.ImportFrom) and node.module:
            text = node.module
        else:
            continue
        hits = sorted(_phrases(text) & set(words))
        found += [f"{node.lineno}: {w!r} ({words[w]}) in {text!r}" for w in hits]
    return found


@pytest.mark.parametrize("area", sorted(set(ALLOWED) - {"editions"}))
def test_no_edition_words_outside_the_editions(area):
    """Outside ``pbem/editions`` the code says what every edition shares and asks the
    edition for the rest (the hooks of :class:`pbem.kernel.edition.Edition` for reports,
    bots and self-play checks, the command line, the order language and mail): no string
    literal or identifier there names an edition, or a wedge, know-how, personage, card or
    unit kind of only some editions (docstrings and comments may speak of them)."""
    words = _edition_words()
    found = [f"{module}:{hit}" for module, path in MODULES.items() if layer(module) == area
             for hit in _edition_words_in(path.read_text(encoding="utf-8"), words)]
    assert found == []


def test_report_edition_check_can_fail():
    words = _edition_words()
    assert {"duellum", "antike2", "militia", "fortress", "respublica", "admiral"} <= set(words)
    assert not {"king", "legion", "marble", "temple", "knowhow", "wheel", "arming"} & set(words)
    source = ('"""Docstrings may speak of Antike Duellum."""\n'
              'WALLS = "duellum"\n'
              'def duellum_line(ev):\n'
              '    return f"{ev} play FORTRESS" if ev.militia else "RES PUBLICA"\n')
    hits = _edition_words_in(source, words)
    assert sorted(h.split(":")[0] for h in hits) == ["2", "2", "3", "4", "4", "4"], hits
    assert any("'duellum'" in h for h in hits) and any("'fortress'" in h for h in hits)
    assert any("'respublica'" in h for h in hits) and any("'militia'" in h for h in hits)
    assert any("'walls'" in h and "WALLS" in h for h in hits)  # an event kind of Duellum's own
    assert _edition_words_in('"""Antike Duellum."""\nx = "a legion"\ny = "antike-ref site"\n', words) == []


def test_the_word_check_covers_extra_state_keys_and_own_event_kinds():
    """A key of the state an edition keeps (BELLONA's holder, a recruitment box, Pliny) and
    a kind of event of its own (a draw that missed, a refill) are edition words: shared code
    that reads them names an edition (issue 37: ``kernel/events.py`` knew ``bellona``)."""
    words = _edition_words()
    assert {"bellona", "pliny", "recruitment", "wallssupply", "drawmissed", "refill", "walls"} <= set(words)
    assert not GENERIC_WORDS & set(words)
    source = ('EVENTS = {"bellona": {}}\n'
              'def box(state, nation):\n'
              '    return state.nations[nation].extra["recruitment"], {"type": "draw-missed"}\n')
    hits = _edition_words_in(source, words)
    assert sorted(h.split(":")[0] for h in hits) == ["1", "3", "3"], hits


def test_edition_word_check_can_fail():
    words = _edition_words()
    assert {"duellum", "antike2", "a2", "militia", "scientia", "mercatura", "fortress", "admiral"} <= set(words)
    bad = '''
def duellum_problems(game):
    """Docstrings may speak of Antike Duellum and MILITIA."""
    if game.edition.id == "antike2":
        return f"{game} (SCIENTIA recruits)"
    from pbem.editions.duellum import cards
    return LINEUPS_DUELLUM
'''
    found = _edition_words_in(bad, words)
    assert any("duellum_problems" in f for f in found)
    assert any("'antike2'" in f for f in found)
    assert any("'scientia'" in f for f in found)
    assert any("LINEUPS_DUELLUM" in f for f in found)
    assert any("pbem.editions.duellum" in f for f in found)
    assert not any("militia" in f for f in found)


# -- the command line: kernel values through the service, no edition named -------------


def cli_kernel_imports(graph: dict[str, set[str]]) -> list[str]:
    """Every import of a kernel module by a command-line module, as ``cli -> kernel``."""
    return sorted(f"{m} -> {t}" for m, targets in graph.items() if layer(m) == "cli"
                  for t in targets if layer(t) == "kernel")


def test_the_command_line_reaches_kernel_values_only_through_the_service():
    """``pbem/cli`` imports no kernel module, at the top or inside a function: what it needs
    of the kernel (the set-up options, the resource and unit names, a refusal's JSON) the
    service offers (docs/architecture.md, the table of layers)."""
    assert cli_kernel_imports(graph()) == []


def test_the_command_line_kernel_check_can_fail():
    bad = {**graph(), "pbem.cli.game": graph()["pbem.cli.game"] | {"pbem.kernel.setup"}}
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
    for edition in map(editions.get, editions.BUILT_IN):
        if edition is classic:
            continue
        words |= {edition.id, edition.name, *edition.aliases}
        own = set(edition.rondel.names) | set(edition.knowhows) | set(edition.personages) | set(edition.variants)
        extras = edition.extras
        own |= {*extras.nation, *extras.status, *extras.state, *extras.standing} - CARD_GAME_WORDS
        own |= {c for c in (edition.cards.catalogue("") if edition.cards else ())
                if not re.fullmatch(r"(card|blank)_\d+", c)}
        own |= set(edition.event_kinds) - GENERIC_WORDS
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


def edition_imports(graph: dict[str, set[str]]) -> list[str]:
    """Every import, from outside ``pbem/editions``, of an edition module other than the
    registry (``pbem.editions`` itself), as ``importer -> imported``."""
    return sorted(f"{m} -> {t}" for m, targets in graph.items() if layer(m) != "editions"
                  for t in targets if layer(t) == "editions" and t != "pbem.editions")


def test_only_the_registry_is_imported_from_outside_the_editions():
    """Outside ``pbem/editions`` an edition is reached through the registry
    (:func:`pbem.editions.get`), never by importing its package: a fourth edition, a
    plug-in among them, is found and used exactly like the shipped ones (type-checking
    imports included)."""
    assert edition_imports(typed_graph()) == []


def test_the_registry_check_can_fail():
    bad = {**typed_graph(), "pbem.report.text": typed_graph()["pbem.report.text"] | {"pbem.editions.duellum.cards"}}
    assert edition_imports(bad) == ["pbem.report.text -> pbem.editions.duellum.cards"]


# -- the facets of an edition, each touched by the layers it is for -----------------------

FACET_LAYERS: dict[str, set[str]] = {
    "setup": {"kernel", "service", "cli"},
    "turn": {"kernel", "service", "play", "report"},
    "forces": {"kernel", "play", "report", "mail"},
    "phrases": {"report", "cli"},
    "schema": {"service"},
    "pieces": {"kernel", "service", "play"},
    "secrets": {"service", "play", "report", "cli", "conformance"},
    "cards": {"service", "report", "mail", "cli"},
    "edits": {"kernel", "cli"},
    "lines": {"play", "cli"},
    "language": {"service"},
    "strategy": {"play"},
}
"""Facet of an edition (:attr:`Edition.FACETS <pbem.kernel.edition.Edition.FACETS>`) -> the
layers that may touch it (docs/architecture.md, "Adding an edition"): the kernel asks the
rules of the set-up, the turn, units, pieces and GM edits; the service the set-up, the
score, pieces, secrets, cards, schema parts and the order language; the bots the turn, units,
pieces, secrets, the command-line lines and the strategy; the reports the turn, units,
phrases, secrets and cards. The editions themselves (their facets ask each other) and the
edition's own core (:func:`pbem.kernel.edition.facet_problems`) may touch any."""


def facets_touched(source: str) -> set[str]:
    """The facets ``source`` reads of an edition: ``edition.FACET`` or ``X.edition.FACET``."""
    out = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr in FACET_LAYERS:
            value = node.value
            name = value.id if isinstance(value, ast.Name) else getattr(value, "attr", None)
            if name == "edition":
                out.add(node.attr)
    return out


def test_the_facets_are_those_of_the_edition():
    from pbem.kernel.edition import Edition

    assert set(Edition.FACETS) == set(FACET_LAYERS)


def test_each_layer_touches_only_its_facets():
    wrong = sorted(f"{module} ({layer(module)}) touches edition.{facet}" for module, path in MODULES.items()
                   if layer(module) != "editions" and module != "pbem.kernel.edition"
                   for facet in facets_touched(path.read_text(encoding="utf-8"))
                   if layer(module) not in FACET_LAYERS[facet])
    assert wrong == []


def test_the_facet_check_can_fail():
    source = "def f(game, edition):\n    return game.edition.strategy, edition.cards, edition.name, t.cards\n"
    assert facets_touched(source) == {"strategy", "cards"}
    assert "kernel" not in FACET_LAYERS["strategy"] and "kernel" not in FACET_LAYERS["cards"]


LOADED_LOOKUPS = ("loaded", "registered", "_registry")
"""What the registry says of the editions known so far: nothing outside it may ask (a report
or the order language is handed the game's edition; issue 37, item 4)."""


def registry_lookups(source: str) -> list[str]:
    """Every ``editions.loaded``, ``editions.registered`` or ``editions._registry`` in ``source``."""
    return sorted(f"{node.lineno}: editions.{node.attr}" for node in ast.walk(ast.parse(source))
                  if isinstance(node, ast.Attribute) and node.attr in LOADED_LOOKUPS
                  and isinstance(node.value, ast.Name) and node.value.id == "editions")


def test_no_registry_lookup_of_the_loaded_editions():
    """No module outside ``pbem/editions`` asks which editions are loaded (the registry has
    no ``loaded`` any more), and the reports do not even import the registry: the game's
    edition is handed down."""
    from pbem import editions

    found = {module: hits for module, path in MODULES.items() if layer(module) != "editions"
             for hits in [registry_lookups(path.read_text(encoding="utf-8"))] if hits}
    assert found == {}
    assert not hasattr(editions, "loaded")
    reports = sorted(m for m, targets in graph().items() if layer(m) == "report" and "pbem.editions" in targets)
    assert reports == []


def test_the_registry_lookup_check_can_fail():
    assert registry_lookups("from pbem import editions\nx = editions.loaded()\ny = editions.get('a')\n") == \
        ["2: editions.loaded"]


def test_registering_an_edition_mutates_no_other_module():
    """Defining and registering an edition writes into nothing but the registry (an edition
    class once wrote its special units into ``pbem.kernel.vocab.MOVES_AS``), and the registry
    can forget it again."""
    from types import MappingProxyType

    from pbem import editions
    from pbem.kernel import vocab

    classic = editions.get("classic")
    before = {name: repr(value) for name, value in vars(vocab).items() if not name.startswith("__")}
    Mounted = type("Mounted", (type(classic),), {"id": "mounted", "name": "Mounted (test)", "aliases": (),
                                                 "special_units": MappingProxyType({"elephant": "legion"})})
    edition = editions.register(Mounted())
    try:
        assert editions.get("mounted") is edition and edition.moves_as("elephant") == "legion"
        assert classic.moves_as("elephant") == "elephant"
        assert {name: repr(value) for name, value in vars(vocab).items() if not name.startswith("__")} == before
    finally:
        editions.forget("mounted")
    with pytest.raises(editions.UnknownEdition):
        editions.get("mounted")


# -- the mail adapter: collaborators, not a chain of subclasses; rooms of a livable size ----


def mail_kernel_imports(graph: dict[str, set[str]]) -> list[str]:
    """Every import of a kernel module by a mail module, as ``mail -> kernel``."""
    return sorted(f"{m} -> {t}" for m, targets in graph.items() if layer(m) == "mail"
                  for t in targets if layer(t) == "kernel")


def test_the_mail_adapter_reaches_the_kernel_only_through_the_service():
    """``pbem/mail`` imports no kernel module, not even for the type checker: what it needs
    of the kernel (a game id's form, the orders as the history echoes them, a player's copy
    refused) the service offers, as it does for the command line."""
    assert mail_kernel_imports(typed_graph()) == []


def test_the_mail_kernel_check_can_fail():
    bad = {**typed_graph(), "pbem.mail.router": typed_graph()["pbem.mail.router"] | {"pbem.kernel.setup"}}
    assert mail_kernel_imports(bad) == ["pbem.mail.router -> pbem.kernel.setup"]


def inheritance(classes: list[type]) -> list[str]:
    """The classes among ``classes`` that inherit from anything but an exception, a
    ``Protocol`` or a data class, as ``Class(Base)``."""
    import dataclasses
    from typing import Generic, Protocol

    def allowed(base: type) -> bool:
        return (base is object or issubclass(base, BaseException) or base in (Protocol, Generic)
                or getattr(base, "_is_protocol", False) or dataclasses.is_dataclass(base))

    return sorted(f"{c.__qualname__}({b.__qualname__})" for c in classes for b in c.__bases__ if not allowed(b))


def _mail_classes() -> list[type]:
    import importlib
    import inspect

    found = []
    for module in MODULES:
        if layer(module) == "mail":
            loaded = importlib.import_module(module)
            found += [c for _, c in inspect.getmembers(loaded, inspect.isclass) if c.__module__ == module]
    return found


def test_no_class_inheritance_inside_the_mail_adapter():
    """The mail cycle is made of collaborators (a reader of mailboxes, a router, the desks,
    the reporter, the timekeeper, the postman, the watermarks handed in as a strategy),
    never a chain of subclasses: a class in ``pbem/mail`` inherits only from an exception,
    a ``Protocol`` or a data class."""
    classes = _mail_classes()
    assert len(classes) > 20
    assert inheritance(classes) == []


def test_the_inheritance_check_can_fail():
    from dataclasses import dataclass
    from typing import Protocol

    class Desk:
        pass

    class Cycle(Desk):
        pass

    class Tripped(Exception):
        pass

    class Source(Protocol):
        pass

    class Local(Source):
        pass

    @dataclass
    class Run:
        pass

    class Lazy(Run):
        pass

    assert inheritance([Desk, Cycle, Tripped, Source, Local, Lazy]) == ["test_the_inheritance_check_can_fail.<locals>"
                                                                        ".Cycle(test_the_inheritance_check_can_fail"
                                                                        ".<locals>.Desk)"]


MAX_MODULE = 650
MAX_FUNCTION = 60


def oversized(sources: dict[str, str]) -> list[str]:
    """The modules of more than :data:`MAX_MODULE` lines and the functions of more than
    :data:`MAX_FUNCTION`, as ``module (N lines)`` and ``module.function (N lines)``."""
    found = []
    for module, text in sorted(sources.items()):
        count = len(text.splitlines())
        if count > MAX_MODULE:
            found.append(f"{module} ({count} lines)")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > MAX_FUNCTION:
                    found.append(f"{module}.{node.name} ({length} lines)")
    return found


def test_every_module_and_function_is_of_a_livable_size():
    """No module of ``pbem`` over 650 lines, no function over 60 (issue 37: the mail and
    the clock first, then every room)."""
    sources = {m: p.read_text(encoding="utf-8") for m, p in MODULES.items()}
    assert len(sources) > 150
    assert oversized(sources) == []


def test_the_size_check_can_fail():
    body = "\n".join(f"    x = {k}" for k in range(61))
    assert oversized({"m": f"def f():\n{body}\n", "n": "x = 1\n" * 651}) == ["m.f (62 lines)", "n (651 lines)"]


def _private(name: str) -> bool:
    return any(part.startswith("_") and not part.startswith("__") for part in name.split("."))


def private_imports(sources: dict[str, str]) -> list[str]:
    """Every private name (``_name``) a module imports from another module, of the package
    or of a library (a module of a private path too: ``typer._click.utils``), as
    ``importer: module._name``."""
    found = []
    for module, text in sorted(sources.items()):
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ImportFrom) and node.level == 0:
                found += [f"{module}: {node.module}.{a.name}" for a in node.names
                          if _private(a.name) or _private(node.module or "")]
            elif isinstance(node, ast.Import):
                found += [f"{module}: {a.name}" for a in node.names if _private(a.name)]
    return found


def test_private_names_stay_in_their_module():
    """No module of ``pbem`` imports a ``_name`` of another module (or of a library): a
    helper two modules share is public in its package."""
    everyone = {m: p.read_text(encoding="utf-8") for m, p in MODULES.items()}
    assert private_imports(everyone) == []


def test_the_private_import_check_can_fail():
    source = "from pbem.mail.inbox import _plain_id, read_message\nfrom pbem.mail import _x as y\nimport pbem._z\n"
    assert private_imports({"m": source}) == ["m: pbem.mail.inbox._plain_id", "m: pbem.mail._x", "m: pbem._z"]
    assert private_imports({"m": "from __future__ import annotations\nfrom pbem.errors import clip\n"}) == []
    assert private_imports({"m": "from typer._click.utils import detect\n"}) == ["m: typer._click.utils.detect"]


def test_the_tests_mirror_the_package():
    """A module's tests are found by its path (issue 37): a test file in a folder of
    ``tests/`` tests the package of ``pbem`` of that folder's name (``tests/mail/`` the
    mail adapter; ``tests/mail/servers/`` its tests against real mail servers); the test
    files at the top of ``tests/`` are those of the whole program (architecture, docs,
    packaging, the rule cases, the fuzzer, the legacy games)."""
    tests = Path(__file__).resolve().parent
    package = tests.parent / "pbem"
    folders = {path.parent.relative_to(tests).parts for path in tests.rglob("test_*.py")} - {()}
    assert folders and all((package / parts[0]).is_dir() for parts in folders), sorted(folders)
