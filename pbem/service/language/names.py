"""The names of an edition and a board as players write them: provinces, nations, wedges,
know-hows, personages, stances and event cards, each matched forgivingly but never guessed
(:class:`Names`), and every name one game's orders may use (:func:`vocabulary`).

Case and accents do not matter, a display name works as well as an id, and a unique prefix
of at least :data:`MIN_PREFIX` letters is enough; an ambiguous or unknown name is an error
that lists the candidates. The text-order reader (:mod:`pbem.service.language.textorders`) and the
order files' names (:mod:`pbem.service.language.aliases`) both read names here, so an order file
whose names are all ids needs nothing of the text syntax.

This is the one module of the order language that asks an edition for its order words: what
reading needs (:func:`vocabulary`), what writing needs (:func:`spelling`), and the words of
every registered edition that make a line an order line (:func:`line_words`).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from pbem.kernel.orders import ORDER_KEYS
from pbem.kernel.vocab import BattleStance, CoinSubstitute

if TYPE_CHECKING:
    from pbem.kernel.board import Board
    from pbem.kernel.edition import Edition

MIN_PREFIX = 3
"""The fewest letters a shortened name must have."""

ORDER_WORDS: tuple[str, ...] = (
    "game", "nation", "turn", "password", "trade", "rondel", "temple", "arm",
    "knowhow", "move", "battle", "conquer", "found", "standing",
)
"""The words an order line starts with, in the order they are written."""

WORD_ALIASES: dict[str, str] = {"temples": "temple"}
"""Other spellings of order words (after hyphens and underscores are dropped: ``know-how``
is ``knowhow``)."""

KEY_WORDS: dict[str, tuple[str, ...]] = {
    "game": ("game",), "nation": ("nation",), "turn": ("turn",), "password": ("password",),
    "trade": ("trade",), "rondel": ("rondel",), "temples": ("temple",), "arm": ("arm",),
    "knowhow": ("knowhow",), "maneuver": ("move", "battle", "conquer"), "found": ("found",),
    "standing": ("standing",),
}
"""The shared order keys -> the words whose lines write them. An edition's own order keys
have the words the edition's order language gives (:class:`~pbem.kernel.protocols.OrderLanguage`)."""


def own_words(edition: Edition) -> dict[str, tuple[str, Mapping[str, Any]]]:
    """The words of the edition's own order keys, each spelling (lowercase, hyphens and
    underscores dropped) -> (the word as the echo writes it, how its line is read)."""
    out: dict[str, tuple[str, Mapping[str, Any]]] = {}
    for word, spec in (edition.language.order_words if edition.language else {}).items():
        for spelling in (word, *spec.get("also", ())):
            out.setdefault(spelling.lower().replace("-", "").replace("_", ""), (word, spec))
    return out


def line_words() -> frozenset[str]:
    """The words that make a line an order line, in every edition (those the registry knows
    of each built-in one without importing it): a line starting with an order word of another
    edition is an order line too (and then an error), never prose."""
    from pbem import editions

    own = (w.lower().replace("-", "").replace("_", "") for w in editions.order_line_words())
    return frozenset({*ORDER_WORDS, *WORD_ALIASES, *own})


def fold(text: str) -> str:
    """How names are compared: lowercase, accents stripped (NFKD), ``_`` and ``-`` read as
    spaces, runs of spaces as one."""
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c))
    return " ".join(text.lower().replace("_", " ").replace("-", " ").split())


class Names:
    """One kind of name (provinces, nations, ...): ids with their display names, and
    aliases, matched as the module says."""

    def __init__(self, what: str, entries: Iterable[tuple[str, str]],
                 aliases: Mapping[str, str] | None = None, listed: bool = True):
        """``entries``: (id, display name) pairs; ``aliases``: other name -> id (an alias
        written in full is kept as written, since the orders accept it as it is);
        ``listed``: whether an unknown name's message lists every name (for short lists)."""
        self.what = what
        self.listed = listed
        self.labels: dict[str, str] = {}
        self._keys: dict[str, dict[str, tuple[int, str]]] = {}
        for ident, display in entries:
            self.labels[ident] = display
            self._add(ident, ident, 0, ident)
            self._add(display, ident, 1, ident)
        for alias, ident in (aliases or {}).items():
            self._add(alias, ident, 1, alias)
        self.max_words = max((len(k.split()) for k in self._keys), default=1)

    def _add(self, name: str, target: str, rank: int, value: str) -> None:
        key = fold(name)
        for variant in {key, key.replace(" ", "")}:
            hits = self._keys.setdefault(variant, {})
            if target not in hits or hits[target][0] > rank:
                hits[target] = (rank, value)

    def label(self, ident: str) -> str:
        """How a candidate is shown in a message: ``Leptis Magna (leptis_magna)``."""
        return f"{self.labels[ident]} ({ident})"

    def exact(self, phrase: str) -> tuple[str | None, list[str]]:
        """(the value written in full, or ``None``; the tied candidates if ambiguous)."""
        key = fold(phrase)
        hits = self._keys.get(key) or self._keys.get(key.replace(" ", ""))
        if not hits:
            return None, []
        best = min(rank for rank, _ in hits.values())
        found = [hits[t][1] for t in hits if hits[t][0] == best]
        return (found[0], []) if len(found) == 1 else (None, sorted(hits))

    def prefixed(self, phrase: str) -> list[str]:
        """The ids of every name that starts with ``phrase``, in the edition's order."""
        key = fold(phrase)
        compact = key.replace(" ", "")
        targets = {t for k, hits in self._keys.items() if key and (k.startswith(key) or k.startswith(compact))
                   for t in hits}
        return [t for t in self.labels if t in targets]

    def lookup(self, phrase: str) -> tuple[str | None, str | None]:
        """(the id or alias ``phrase`` names, or ``None``; the error message, or ``None``)."""
        value, tied = self.exact(phrase)
        if value is not None:
            return value, None
        if tied:
            return None, f"'{phrase}' is ambiguous: {', '.join(tied)}"
        candidates = self.prefixed(phrase)
        letters = len(fold(phrase).replace(" ", ""))
        if len(candidates) == 1 and letters >= MIN_PREFIX:
            return candidates[0], None
        if len(candidates) > 1:
            return None, f"'{phrase}' is ambiguous: {', '.join(candidates)}; write more of the {self.what}'s name"
        if candidates:
            return None, (f"'{phrase}' is too short for a {self.what}: write at least {MIN_PREFIX} letters "
                          f"(did you mean {self.label(candidates[0])}?)")
        return None, f"unknown {self.what} '{phrase}'" + self._hint(phrase)

    def _hint(self, phrase: str) -> str:
        """' (did you mean ...?)' with the closest names (those nearly as close as the
        closest), or the list of every name."""
        import difflib  # only for a name that is wrong: not every command's start

        key = fold(phrase)
        scores: dict[str, float] = {}
        for k in self._keys:
            for written in {key, key.replace(" ", "")}:
                ratio = difflib.SequenceMatcher(None, written, k).ratio()
                for target in self._keys[k]:
                    scores[target] = max(scores.get(target, 0.0), ratio)
        best = max(scores.values(), default=0.0)
        ranked = sorted(scores, key=lambda t: -scores[t])
        targets = [t for t in ranked if scores[t] >= max(0.6, best - 0.1)][:3]
        if targets:
            return f" (did you mean {' or '.join(self.label(t) for t in targets)}?)"
        if self.listed:
            return f"; expected one of: {', '.join(self.labels)}"
        return ""


@dataclass(frozen=True)
class Vocabulary:
    """Every kind of name the orders of one edition on one board can use."""

    provinces: Names
    nations: Names
    wedges: Names
    knowhows: Names
    personages: Names
    stances: Names
    coin_substitutes: Names
    rondel_size: int
    own_keys: tuple[str, ...]
    """Order keys of the edition's own that the text syntax has no words for."""
    own_standing: tuple[str, ...]
    """Standing orders of the edition's own, likewise."""
    free_units: bool = False
    """Whether an ``arm`` entry may be marked ``free`` (an edition's free unit of a wedge)."""
    city_types: bool = False
    """Whether ``found`` may name the new city's resource (an edition's sites of choice)."""
    edition_name: str = ""
    move_example: str = "pella -> athen"
    """A move's path on this board, for messages (``pella -> athen`` on the first boards)."""
    order_words: tuple[str, ...] = ORDER_WORDS
    """The words an order line may start with in this edition, in the order written."""
    own_words: Mapping[str, tuple[str, Mapping[str, Any]]] = field(default_factory=lambda: MappingProxyType({}))
    """The words of the edition's own order keys (:func:`own_words`)."""
    standing_words: Mapping[str, Mapping[str, Any]] = field(default_factory=lambda: MappingProxyType({}))
    """The standing orders of the edition's own that text orders can write, with their forms
    (:attr:`OrderLanguage.standing_words <pbem.kernel.protocols.OrderLanguage>`)."""
    cards: Names | None = None
    """The event cards, in an edition with cards (``play`` and ``standing draw``)."""
    card_fields: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: MappingProxyType({}))
    """Card id -> what an order playing it names besides the card (``city``, ``at``, ...)."""


def order_field(edition: Edition, definition: str, key: str) -> bool:
    """Whether the edition's order schema adds ``key`` to the ``definition`` (what the text
    syntax may write follows what an order file of the edition may say)."""
    added = (edition.schema.parts("orders") if edition.schema else {}).get(definition, {})
    return key in added.get("properties", {})


def card_names(edition: Edition, data: str) -> Names | None:
    """The event cards of a game, in an edition with cards (the edition's catalogue with
    what a GM entered in the game's ``rules.data``), by id and every name the edition
    gives them; ``None`` in an edition without."""
    cards = edition.cards
    catalogue = cards.catalogue(data) if cards else {}
    if not cards or not catalogue:
        return None
    entries = [(cid, name) for cid in catalogue for name in (cards.spellings(cid, data) or (cid,))]
    return Names("event card", entries, listed=False)


def order_words(edition: Edition) -> tuple[str, ...]:
    """The words an order line may start with in ``edition``, in the order its order keys
    are written (an edition's own words where its order key comes)."""
    own: dict[str, list[str]] = {}
    for word, spec in (edition.language.order_words if edition.language else {}).items():
        own.setdefault(spec["key"], []).append(word)
    return tuple(w for key in edition.order_keys for w in (*KEY_WORDS.get(key, ()), *own.get(key, ())))


def vocabulary(edition: Edition, board: Board, data: str = "") -> Vocabulary:
    """The names of ``edition`` on ``board``, ready for matching; ``data``: the game's
    ``rules.data`` (the event cards a GM entered, in an edition with cards)."""
    language = edition.language
    spoken = {spec["key"] for spec in language.order_words.values()} if language else set()
    wedges = {f.name: f.label for f in edition.rondel.fields}
    return Vocabulary(
        provinces=Names("province", ((p.id, p.name) for p in board.provinces.values()), listed=False),
        nations=Names("nation", ((n, info.name) for n, info in edition.nations.items())),
        wedges=Names("wedge", wedges.items(), edition.rondel.aliases),
        knowhows=Names("know-how", edition.knowhows.items()),
        personages=Names("personage", edition.personages.items()),
        stances=Names("battle stance", ((s.value, s.value) for s in BattleStance)),
        coin_substitutes=Names("coin substitute", ((c.value, c.value) for c in CoinSubstitute)),
        rondel_size=len(edition.rondel),
        own_keys=tuple(k for k in edition.order_keys if k not in ORDER_KEYS and k not in spoken),
        own_standing=tuple(edition.extras.standing),
        free_units=order_field(edition, "arm_order", "free"),
        city_types=order_field(edition, "city_order", "resource"),
        edition_name=edition.name,
        move_example=move_example(board),
        order_words=order_words(edition),
        own_words=MappingProxyType(own_words(edition)),
        standing_words=MappingProxyType(dict(language.standing_words) if language else {}),
        cards=card_names(edition, data),
        card_fields=MappingProxyType({cid: edition.cards.fields(cid, data) for cid in edition.cards.catalogue(data)}
                                     if edition.cards else {}),
    )


def move_example(board: Board) -> str:
    """Two neighbouring provinces of ``board`` (``pella -> athen`` where the board has them)."""
    if {"pella", "athen"} <= set(board.provinces):
        return "pella -> athen"
    for pid in sorted(board.provinces):
        land = sorted(board.province(pid).land)
        if land:
            return f"{pid} -> {land[0]}"
    return "pella -> athen"


@dataclass(frozen=True)
class Spelling:
    """What writing orders as text needs of an edition (:func:`spelling`)."""

    edition_id: str
    order_keys: tuple[str, ...]
    """The edition's order keys, in the order they are written."""
    own: Mapping[str, tuple[str, Mapping[str, Any]]]
    """An order key of the edition's own -> the word its lines start with and their form
    (:attr:`OrderLanguage.order_words <pbem.kernel.protocols.OrderLanguage>`)."""
    standing: Mapping[str, Mapping[str, Any]]
    """The standing orders of the edition's own that text orders can write, with their
    forms, in the edition's order (:attr:`OrderLanguage.standing_words <pbem.kernel.protocols.OrderLanguage>`)."""
    wedges: Mapping[str, str]
    """Another name the edition accepts for a wedge (an older edition's) -> the wedge."""


def spelling(edition: Edition) -> Spelling:
    """How orders of ``edition`` are written as text, beyond the shared order words."""
    return Spelling(
        edition_id=edition.id,
        order_keys=tuple(edition.order_keys),
        own=MappingProxyType({spec["key"]: (word, spec) for word, spec in
                              (edition.language.order_words if edition.language else {}).items()}),
        standing=MappingProxyType(dict(edition.language.standing_words if edition.language else {})),
        wedges=MappingProxyType(dict(edition.rondel.aliases)),
    )
