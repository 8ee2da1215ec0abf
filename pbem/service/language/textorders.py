"""Order mails written by hand: a text of orders read into the raw data of an order file,
keeping what the text says where.

A player who writes orders in the body of a mail writes one order per line::

    game demo
    nation greeks
    turn 12
    password correct-horse
    rondel maneuver pay 1 gold
    move 2 legions pella -> athen
    conquer athen with 2 legions

:func:`read_text_orders` turns such text into the raw data of an order file (the JSON
shape of docs/orders.md, "Order file"), ready for the orders schema and
:func:`~pbem.kernel.orders.canonical_orders`, and keeps what the text says where
(:class:`TextReading`): the line each order came from, so that a refusal of the orders can
name the line instead of a JSON path (:meth:`TextReading.describe`), and the lines of
prose before the first and after the last order (a greeting, a "thanks"), which are not
read. :func:`parse_text_orders` gives the raw data alone. docs/text-orders.md is the
players' description of the syntax.

The order language is read in steps, one module each: the lines of a mail that can hold
orders (:mod:`~pbem.service.language.mailtext`), the words of a line
(:mod:`~pbem.service.language.tokens`), the parts of one order line
(:mod:`~pbem.service.language.orderline`) and what the line of each order word says
(:mod:`~pbem.service.language.grammar`); this module reads a whole text with them. Orders
are written back as text by :mod:`~pbem.service.language.writer`.

Names (provinces, nations, wedges, know-hows, personages, stances) are matched
forgivingly but never guessed (:mod:`pbem.service.language.names`): case and accents do not matter,
a display name works as well as an id, and a unique prefix of at least
:data:`~pbem.service.language.names.MIN_PREFIX` letters is enough; an ambiguous or unknown name is
an error that lists the candidates. Every name comes from the edition and the board;
resources and units come from :mod:`pbem.kernel.vocab`.

Every problem found is reported at once, each with its line and column in the original
text (quoted replies and signatures, which :func:`~pbem.service.language.mailtext.strip_mail`
drops, keep the numbering of the lines around them). The text is only read here: whether
the orders fit the game is the turn's business, as for an order file.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from pbem.errors import InputError, Problem, clip
from pbem.service.language.grammar import OrderReader
from pbem.service.language.mailtext import MAX_TEXT_CHARS, MAX_TEXT_LINES, mail_lines, split_lines, strip_mail
from pbem.service.language.names import ORDER_WORDS, WORD_ALIASES, Vocabulary, vocabulary
from pbem.service.language.tokens import first_word, tokenize
from pbem.service.schemas import required_keys

if TYPE_CHECKING:
    from pbem.kernel.board import Board
    from pbem.kernel.edition import Edition

__all__ = [
    "MAX_LINES", "MAX_PROBLEMS", "TextReading", "looks_like_text_orders", "parse_text_orders",
    "read_text_orders",
]

MAX_LINES = 1000
"""No text of orders holds more order lines (a turn of the longest game needs a few dozen);
a longer one is refused at the first line too many, unread, so a pasted novel costs little."""
MAX_PROBLEMS = 50
"""Reading stops once this many problems are found: they are what the player corrects first."""

Lines = list[tuple[int, str]]
"""``(line number, text)`` of lines of a text, in order."""


def looks_like_text_orders(text: str, kept: Sequence[tuple[int, str]] | None = None) -> bool:
    """True if at least two of the lines :func:`~pbem.service.language.mailtext.strip_mail`
    keeps begin with two different order words (``game``, ``nation``, ``turn``,
    ``password``, ``rondel``, ...): an order mail (which needs several such lines), as
    opposed to a mail that is not for the referee and happens to have one line beginning
    with "Game" or "Turn". Only the start of a very long text is looked at
    (:data:`~pbem.service.language.mailtext.MAX_TEXT_CHARS`): orders are at the top of a
    mail. ``kept``: those lines, where the caller has them already."""
    words = set(ORDER_WORDS) | set(WORD_ALIASES)
    if kept is None:
        kept = strip_mail(text[:MAX_TEXT_CHARS])
    seen = {WORD_ALIASES.get(w, w) for w in (first_word(line) for _, line in kept) if w in words}
    return len(seen) >= 2


_PASSWORD_SHOWN = "\u2026"
"""What stands for the password where the password line is quoted: it is never repeated."""


@dataclass(frozen=True)
class TextReading:
    """What a text of orders says and where it says it: the result of :func:`read_text_orders`.

    ``orders``: the raw order data (the JSON shape of an order file, docs/orders.md), ready
    for the orders schema and :func:`~pbem.kernel.orders.canonical_orders`; the indices of
    its lists are those of the canonical orders, so a refusal's path points into both.
    ``ignored``: the lines before the first and after the last order line (a greeting, a
    "thanks"), as ``(line number, text as written, trailing spaces stripped)``, in the
    order of the text; they are not orders. Comments, quoted replies and the signature,
    which are never read, are not listed.
    ``paths``: the JSON path of each part of the orders -> the 1-based line it was read
    from (``$.rondel``, ``$.temples[0]``, ``$.standing.battle.persians``, ...).
    ``lines``: line number -> the line as written (trailing spaces stripped), for every line
    in ``paths``; the password line is its first word and an ellipsis (``password …``):
    the password is never repeated.
    ``required``: the order keys every order file must have (the orders schema's), for
    :meth:`describe` to name a missing line.
    """

    orders: dict[str, Any]
    ignored: tuple[tuple[int, str], ...]
    paths: Mapping[str, int]
    lines: Mapping[int, str]
    required: tuple[str, ...]
    cut: tuple[tuple[int, str, str], ...] = ()
    """Where the text was cut, and why (:attr:`~pbem.service.language.mailtext.MailLines.cut`), when the reader stripped
    the text itself; empty when the caller handed in the kept lines."""

    def line_of(self, path: str) -> tuple[int, str] | None:
        """``(line number, text)`` of the line the part of the orders at the JSON ``path``
        came from: the line of the longest part of ``path`` that a line wrote
        (``$.maneuver[1].path[0]`` is the line of ``$.maneuver[1]``, ``$.temples[0].city``
        that of ``$.temples[0]``); ``None`` where no line did (``$``, or a part the text
        does not have). The text is as :attr:`lines` gives it."""
        for prefix in _prefixes(path):
            number = self.paths.get(prefix)
            if number is not None:
                return number, self.lines[number]
        return None

    def describe(self, path: str, message: str, code: str | None = None) -> str:
        """A problem of these orders as the player who wrote them reads it: the line and
        the line itself instead of the JSON path, as in
        ``line 7 ("temple athen"): Athen is not a city of Phoenicians [temple/not-own-city]``
        (a long line is clipped with :func:`~pbem.errors.clip`).

        ``path`` and ``message``: a refusal's (:class:`~pbem.kernel.rejections.Rejection`)
        with its ``code``, shown in brackets at the end; or, with ``code`` ``None``, a
        problem the orders schema found (:class:`~pbem.errors.Problem`), where a problem of
        the whole orders (``$``) is a missing line: ``no 'password' line (...)``. A path no
        line wrote keeps the plain message (and code)."""
        tail = f" [{code}]" if code else ""
        if path == "$" and code is None:
            missing = [key for key in self.required if key not in self.orders]
            if missing:
                return _missing_lines(missing, self.required)
        found = self.line_of(path)
        if found is None:
            return message + tail
        number, text = found
        return f'line {number} ("{clip(text.strip())}"): {message}{tail}'


def _prefixes(path: str) -> list[str]:
    """The parts of a JSON path that name a part of the orders, the longest first:
    ``$.a[1].b`` -> ``$.a[1].b``, ``$.a[1]``, ``$.a`` (never ``$`` itself)."""
    steps = re.findall(r"\.[^.\[]+|\[[0-9]+\]", path[1:]) if path.startswith("$") else []
    if "$" + "".join(steps) != path:
        return []
    return ["$" + "".join(steps[:n]) for n in range(len(steps), 0, -1)]


def _missing_lines(missing: Sequence[str], required: Sequence[str]) -> str:
    names = " and no ".join(f"'{key}'" for key in missing)
    *first, last = required
    need = f"{', '.join(first)} and {last}" if first else last
    return f"no {names} line (orders need a line for each of {need})"


def _shape(data: Mapping[str, Any]) -> dict[str, int]:
    """The JSON paths of the parts of raw orders -> the length of each list (0 for a part
    that is no list): what reading one more line may add to."""
    out: dict[str, int] = {}
    for key, value in data.items():
        out[f"$.{key}"] = len(value) if isinstance(value, list) else 0
        if key == "standing":
            for kind, stance in value.items():
                out[f"$.standing.{kind}"] = 0
                if kind == "battle":
                    out.update((f"$.standing.battle.{rival}", 0) for rival in stance)
    return out


def _added(before: dict[str, int], after: dict[str, int]) -> list[str]:
    """The paths ``after`` has and ``before`` has not: new parts, new list entries."""
    added = [path for path in after if path not in before]
    for path, size in after.items():
        added += [f"{path}[{i}]" for i in range(before.get(path, 0), size)]
    return added


def read_text_orders(text: str, edition: Edition, board: Board, source: str = "<text>",
                     data: str = "", kept: Sequence[tuple[int, str]] | None = None) -> TextReading:
    """Read ``text`` (an order mail's body or a text order file) as orders, keeping track of
    where each order came from (:class:`TextReading`).

    The lines :func:`~pbem.service.language.mailtext.strip_mail` drops are not read, nor
    lines starting with ``#``. Of the others, an *order line* starts with an order word
    (:meth:`OrderReader.starts_order <pbem.service.language.grammar.OrderReader.starts_order>`);
    the lines before the first order line and after the last one are not orders (a
    greeting, a "thanks"): they are not read, and :attr:`TextReading.ignored` lists them.
    Every line from the first order line to the last one is read as an order, and one that
    is not is an error: a line between orders is never guessed to be prose.

    Whether the orders are complete (``game``, ``nation``, ``password``) is the schema's
    business, as for an order file. Raises :class:`~pbem.errors.InputError` naming
    ``source`` and EVERY problem found, each as ``Problem("line L, column C", message)``
    with the 1-based line in the original text and the column of the offending word; a
    text without an order line is the one problem "no orders found". ``data``: the game's
    ``rules.data`` (in an edition with cards, the event cards a GM entered, so that a card
    is known by name). ``kept``: the lines ``strip_mail`` keeps of ``text``, where the
    caller has them already (the mail, which strips a mail once).
    """
    _check_size(text, source)
    reader = OrderReader(vocabulary(edition, board, data))
    cut: tuple[tuple[int, str, str], ...] = ()
    if kept is None:
        stripped = mail_lines(text)
        kept, cut = stripped.kept, stripped.cut
    body, prose = _order_lines(reader, kept)
    paths = _read_body(reader, body)
    if not reader.problems and not reader.data:
        reader.problems.append(_no_orders(reader.vocab, kept, cut))
    if reader.problems:
        found = sorted(dict.fromkeys(reader.problems), key=lambda p: (p[0], p[1]))
        raise InputError(source, [Problem(f"line {n}, column {c}", m) for n, c, m in found])
    written = split_lines(text)
    lines = _quoted_lines(written, paths, dict(body))
    ignored = tuple((n, written[n - 1].rstrip()) for n, _ in prose)
    return TextReading(reader.result(), ignored, MappingProxyType(paths), MappingProxyType(lines),
                       required_keys("orders", edition), cut)


def _check_size(text: str, source: str) -> None:
    """Refuse, unread, a text of more than :data:`MAX_TEXT_LINES` lines or
    :data:`MAX_TEXT_CHARS` characters."""
    if text.count("\n", 0, MAX_TEXT_CHARS) >= MAX_TEXT_LINES or len(text) > MAX_TEXT_CHARS:
        raise InputError(source, [Problem(f"line {MAX_TEXT_LINES + 1}, column 1" if len(text) <= MAX_TEXT_CHARS
                                          else "line 1, column 1",
                                          f"a text of orders has at most {MAX_TEXT_LINES} lines and "
                                          f"{MAX_TEXT_CHARS} characters; this one has more (nothing was read)")])

def _order_lines(reader: OrderReader, kept: Sequence[tuple[int, str]]) -> tuple[Lines, Lines]:
    """The lines from the first order line to the last (every one of them is read as an
    order), and the lines of prose before and after them; comment lines are in neither."""
    candidates = [(n, line) for n, line in kept if not line.lstrip().startswith("#")]
    at = [i for i, (_, line) in enumerate(candidates) if reader.starts_order(line)]
    if not at:
        return [], []
    return candidates[at[0]:at[-1] + 1], candidates[:at[0]] + candidates[at[-1] + 1:]


def _read_body(reader: OrderReader, body: Lines) -> dict[str, int]:
    """Read the order lines, at most :data:`MAX_LINES` of them and until
    :data:`MAX_PROBLEMS` problems are found; the JSON path of each part of the orders ->
    the line it was read from (:attr:`TextReading.paths`)."""
    paths: dict[str, int] = {}
    if len(body) > MAX_LINES:
        reader.problems.append((body[MAX_LINES][0], 1, f"more than {MAX_LINES} order lines; a turn needs far "
                                                        "fewer (nothing after this line was read)"))
        body = body[:MAX_LINES]
    for number, line in body:
        if len(reader.problems) >= MAX_PROBLEMS:
            reader.problems.append((number, 1, f"reading stopped here: {MAX_PROBLEMS} problems are listed, "
                                               "correct those first"))
            break
        before = _shape(reader.data)
        reader.read(number, line)
        for path in _added(before, _shape(reader.data)):
            paths.setdefault(path, number)
    return paths


def _no_orders(vocab: Vocabulary, kept: Sequence[tuple[int, str]],
               cut: tuple[tuple[int, str, str], ...]) -> tuple[int, int, str]:
    """The one problem of a text without an order line: what an order line starts with,
    and, when nothing at all was kept, where the text was cut and why."""
    where = kept[0][0] if kept else 1
    return (where, 1, "no orders found: an order mail has one order per line "
                      f"(starting with one of: {', '.join(vocab.order_words)})"
            + "".join(f"; line {n} was cut ({clip(line, 40)}: {why})" for n, line, why in cut
                      if not kept))


def _quoted_lines(written: list[str], paths: Mapping[str, int], body: Mapping[int, str]) -> dict[int, str]:
    """:attr:`TextReading.lines`: each line an order was read from, as ``written``
    (trailing spaces stripped); the password line is its first word and an ellipsis."""
    lines = {n: written[n - 1].rstrip() for n in sorted(set(paths.values()))}
    secret = paths.get("$.password")
    if secret is not None:
        lines[secret] = f"{tokenize(body[secret])[0][0].text} {_PASSWORD_SHOWN}"
    return lines


def parse_text_orders(text: str, edition: Edition, board: Board, source: str = "<text>",
                      data: str = "") -> dict[str, Any]:
    """Raw order data read from ``text`` (an order mail's body or a text order file): the same
    JSON shape an order file has, ready for the orders schema and
    :func:`~pbem.kernel.orders.canonical_orders`. :func:`read_text_orders` reads it (and
    says which line each order came from, and which lines of prose it did not read), and
    raises :class:`~pbem.errors.InputError` as it does.
    """
    return read_text_orders(text, edition, board, source, data).orders
