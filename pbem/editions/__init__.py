"""The edition registry: find an edition by its id or any alias.

Built-in editions are imported only when asked for: a classic game's commands never import
another edition's modules. Another package can add an edition in two ways: call
:func:`register` with an :class:`~pbem.kernel.edition.Edition` (tests do, and
:func:`forget` it again), or declare an entry point in the group ``antike_ref.editions``
whose object is the edition (an installed plug-in; looked up only when a name is not found
among the known ones, so start-up stays fast). Registering changes nothing but the registry.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from types import MappingProxyType

from pbem.errors import UsageError
from pbem.kernel.edition import Edition

BUILT_IN: dict[str, str] = {"antike": "pbem.editions.classic", "antike2": "pbem.editions.antike2",
                             "duellum": "pbem.editions.duellum"}
"""Edition id -> the module whose ``EDITION`` it is."""
BUILT_IN_ORDER_WORDS: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "antike": (), "antike2": (), "duellum": ("play", "event", "events", "wall", "walls", "recruit"),
})
"""Edition id -> every spelling of the words its own order lines start with (its order
language, :attr:`OrderLanguage.order_words <pbem.kernel.protocols.OrderLanguage>`), known
without importing the edition: a line of another edition's order in a mail is an order line
(and refused as such), never prose. A test keeps it what the editions say."""
ENTRY_POINTS = "antike_ref.editions"

_registry: dict[str, Edition] = {}


class UnknownEdition(UsageError):
    """No edition has that name; the message lists the known ones."""


def register(edition: Edition) -> Edition:
    """Make ``edition`` findable by its id and aliases; return it. Registering another
    edition under a taken name, or one whose description does not fit together
    (:meth:`Edition.problems`), is an error."""
    problems = edition.problems()
    if problems:
        raise ValueError(f"edition {edition.id!r}: " + "; ".join(problems))
    for name in (edition.id, *edition.aliases):
        current = _lookup(name.lower())
        if current is not None and current is not edition:
            raise ValueError(f"edition name {name!r} is taken by {current!r}")
    _registry[edition.id] = edition
    return edition


def forget(edition_id: str) -> None:
    """Make the edition ``edition_id`` unknown again (a test's edition, once its tests are
    done); a built-in one is loaded again when next asked for."""
    _registry.pop(edition_id, None)


def _lookup(name: str) -> Edition | None:
    for edition in _registry.values():
        if name == edition.id.lower() or name in (a.lower() for a in edition.aliases):
            return edition
    return None


def _load_built_in(edition_id: str) -> Edition:
    module = importlib.import_module(BUILT_IN[edition_id])
    edition = module.EDITION
    if edition.id not in _registry:
        register(edition)
    return _registry[edition.id]


def _load_entry_points() -> None:
    from importlib.metadata import entry_points

    for ep in entry_points(group=ENTRY_POINTS):
        edition = ep.load()
        if _lookup(edition.id.lower()) is None:
            register(edition)


def get(name: str) -> Edition:
    """The edition called ``name`` (its id or an alias, any case), or
    :class:`UnknownEdition` listing the ones there are."""
    key = name.strip().lower()
    found = _lookup(key)
    if found is not None:
        return found
    if key in BUILT_IN:
        return _load_built_in(key)
    for edition_id in BUILT_IN:
        if edition_id not in _registry:
            edition = _load_built_in(edition_id)
            if key in (edition.id.lower(), *(a.lower() for a in edition.aliases)):
                return edition
    _load_entry_points()
    found = _lookup(key)
    if found is not None:
        return found
    raise UnknownEdition(f"unknown edition {name!r}: one of {', '.join(names())}")


def names() -> list[str]:
    """Every edition's id and aliases, as ``new --edition`` accepts them."""
    for edition_id in BUILT_IN:
        if edition_id not in _registry:
            _load_built_in(edition_id)
    out: list[str] = []
    for edition in _registry.values():
        out += [edition.id, *edition.aliases]
    return out


def registered() -> list[Edition]:
    """The editions known so far (built-ins loaded), in registration order."""
    names()
    return list(_registry.values())


def order_line_words() -> frozenset[str]:
    """Every spelling of the words the built-in editions' own order lines start with
    (:data:`BUILT_IN_ORDER_WORDS`), none of them imported for it."""
    return frozenset(w for words in BUILT_IN_ORDER_WORDS.values() for w in words)
