"""Order mails written by hand: the plain-text order syntax, its parser and its formatter.

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
read. :func:`parse_text_orders` gives the raw data alone. :func:`format_text_orders` writes
canonical orders back as text, one order per line, so an echo can be read, copied and sent
again. docs/text-orders.md is the players' description of the syntax.

Names (provinces, nations, wedges, know-hows, personages, stances) are matched
forgivingly but never guessed (:mod:`pbem.service.language.names`): case and accents do not matter,
a display name works as well as an id, and a unique prefix of at least
:data:`~pbem.service.language.names.MIN_PREFIX` letters is enough; an ambiguous or unknown name is
an error that lists the candidates. Every name comes from the edition and the board;
resources and units come from :mod:`pbem.kernel.vocab`.

Every problem found is reported at once, each with its line and column in the original
text (quoted replies and signatures, which :func:`strip_mail` drops, keep the numbering of
the lines around them). The text is only read here: whether the orders fit the game is
the turn's business, as for an order file.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NoReturn

from pbem.errors import InputError, Problem, clip
from pbem.kernel.orders import ORDER_KEYS
from pbem.kernel.vocab import MOMENTS, PAYMENT_KEYS, RESOURCES, UNITS
from pbem.service.language.names import ORDER_WORDS, Names, Vocabulary, vocabulary
from pbem.service.schemas import required_keys

if TYPE_CHECKING:
    from pbem.kernel.board import Board
    from pbem.kernel.edition import Edition

MAX_LINES = 1000
"""No text of orders holds more order lines (a turn of the longest game needs a few dozen);
a longer one is refused at the first line too many, unread, so a pasted novel costs little."""
MAX_TEXT_LINES = 5000
MAX_TEXT_CHARS = 500_000
"""A text of orders longer than this is not read at all (one problem says so): a mail
with a quoted history is long, a hostile one is longer."""
MAX_PROBLEMS = 50
"""Reading stops once this many problems are found: they are what the player corrects first."""

MAX_WORD = 64
"""No order word, name or number is longer: a longer word is a problem of its own, named by
its length rather than quoted (a message stays readable, whatever was pasted)."""

_WORD_ALIASES: dict[str, str] = {"temples": "temple"}
"""Other spellings of order words (after hyphens and underscores are dropped: ``know-how``
is ``knowhow``)."""

_SINGLE = ("game", "nation", "turn", "password", "rondel")
"""Order words that may appear on one line only."""



def line_words() -> frozenset[str]:
    """The words that make a line an order line, in every edition (those the registry knows
    of each built-in one without importing it): a line starting with an order word of another
    edition is an order line too (and then an error), never prose."""
    from pbem import editions

    own = (w.lower().replace("-", "").replace("_", "") for w in editions.order_line_words())
    return frozenset({*ORDER_WORDS, *_WORD_ALIASES, *own})


_CLOSE = 0.7
"""How alike (:func:`difflib.get_close_matches`) an unknown first word must be to an order
word of the edition for the reader to ask "did you mean ...?"; such a line is an order line."""

_FILLERS = frozenset({
    "to", "at", "in", "from", "against", "vs", "with", "give", "giveup", "pay", "steps",
    "count", "and", "for", "nothing", "as",
})
"""Words that are never the start of a name outside quotes: they separate the parts of
an order (``from pella to athen``, ``with 2 legions``). A name that is one of them must be
quoted."""

_STANDING_KINDS: dict[str, str] = {
    "battle": "battle", "bonus": "bonus_stack", "bonusstack": "bonus_stack",
    "coin": "coin_substitute", "coins": "coin_substitute", "coinsubstitute": "coin_substitute",
}
"""The word after ``standing`` -> the standing order it sets."""

_QUOTES: dict[str, str] = {'"': '"\u201c\u201d', "\u201c": '\u201d"', "\u201e": '\u201c\u201d"',
                           "\u00ab": "\u00bb", "'": "'\u2019", "\u2018": "\u2019'"}
"""Opening quote -> the characters that close it."""
_ARROWS = ("->", "=>", "\u2192")
_SEPARATORS = ",;:"
_INVISIBLE = "\u200b\u200c\u200d\u2060\ufeff"

_TRAILER = re.compile(
    r"(sent (from|with|via) |get outlook for |von meinem .*gesendet|gesendet von |"
    r"envoy[ée] de |enviado desde )", re.IGNORECASE)
"""A mail program's trailer line ('Sent from my phone'). Only at the end of the mail's own
text is it one: 'Sent from the wrong address before, sorry.' above the orders is prose."""
_FORWARD = re.compile(
    r"(-{2,} ?(original message|forwarded message|urspr(ü|ue)ngliche nachricht|"
    r"weitergeleitete nachricht|message d'origine) ?-{2,}|begin forwarded message:|_{10,})$",
    re.IGNORECASE)
"""The line above a message quoted without '>' (Outlook); it and everything after it go."""
_WROTE = re.compile(r"\b(wrote|schrieb|a (é|e)crit|escribi(ó|o)|ha scritto|schreef)\b.*:$", re.IGNORECASE)
"""The end of a reply header ('On Mon, 3 Nov 2026, Ann wrote:')."""
_HEADER_START = re.compile(r"(on|am|le|el|il|op) ", re.IGNORECASE)


# -- the lines of a mail ------------------------------------------------------------------


def _clean(line: str) -> str:
    """``line`` with every kind of space (tab, non-breaking, zero-width) a plain space; the
    length stays the same, so columns are those of the original line."""
    return "".join(" " if c.isspace() or c in _INVISIBLE else c for c in line)


def _is_signature(line: str) -> bool:
    return line.rstrip() == "--"


def _is_quoted(line: str) -> bool:
    return line.lstrip().startswith(">")


def strip_mail(text: str) -> list[tuple[int, str]]:
    """The lines of a mail body that can hold orders, each with its 1-based line number in
    the ORIGINAL text: :func:`mail_lines`' ``kept``."""
    return mail_lines(text).kept


@dataclass(frozen=True)
class MailLines:
    """A mail body split into the lines that can hold orders and what was cut from it.

    ``kept``: ``(line number, text)`` of every line that can hold orders, in order.
    ``cut``: ``(line number, text, why)`` of each place where the mail was cut: the line
    where a signature or a message quoted without '>' begins (it and everything after it
    were dropped), and a mail program's trailer at the end of the mail's own text. Quoted
    reply lines, blank lines and reply headers are dropped without a word.
    """

    kept: list[tuple[int, str]]
    cut: tuple[tuple[int, str, str], ...] = ()


def mail_lines(text: str) -> MailLines:
    """The lines of a mail body that can hold orders, and what was cut (:class:`MailLines`).

    Dropped: blank lines; quoted reply lines (starting with '>' after optional spaces); the
    signature (a line that is exactly '-- ' or '--', and everything after it); the marker
    of a message quoted without '>' ('-----Original Message-----') and everything after it;
    a reply header ('On Mon, 3 Nov 2026, Ann wrote:', also when wrapped over two lines)
    directly before quoted lines or at the end; and a mail program's trailer ('Sent from my
    phone', 'Get Outlook for ...') where it ends the mail's own text: the last lines that
    are left, when they are trailers. A trailer-like line with text after it is the mail's
    own text ('Sent from the wrong address before, sorry.' above the orders). ``\\r\\n``
    and ``\\r`` end lines as ``\\n`` does, a UTF-8 byte order mark at the start is dropped,
    and tabs, non-breaking and zero-width spaces become plain spaces (one for one, so the
    columns of the kept lines are those of the original). Trailing spaces are removed.
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = [_clean(line) for line in re.split(r"\r\n|\r|\n", text)]
    end = len(lines)
    cut: list[tuple[int, str, str]] = []
    for i, line in enumerate(lines):
        stripped = line.strip()
        if _is_signature(line) or _FORWARD.match(stripped):
            end = i
            cut.append((i + 1, stripped, "a signature: it and every line after it are not read"
                        if _is_signature(line) else "a message quoted below: it and every line after it "
                                                    "are not read"))
            break
    kept: list[tuple[int, str]] = []
    for i in range(end):
        line = lines[i].rstrip()
        if not line.strip() or _is_quoted(line):
            continue
        if _WROTE.search(line) and _before_quote(lines, i, end):
            if not _HEADER_START.match(line.lstrip()) and kept and kept[-1][0] == i \
                    and _HEADER_START.match(kept[-1][1].lstrip()):
                kept.pop()  # the header's first line, wrapped before 'wrote:'
            continue
        kept.append((i + 1, line))
    trailers: list[tuple[int, str, str]] = []
    while kept and _TRAILER.match(kept[-1][1].strip()):
        number, line = kept.pop()
        trailers.insert(0, (number, line.strip(), "a mail program's trailer at the end of the mail"))
    return MailLines(kept, tuple(sorted(trailers + cut)))


def _before_quote(lines: list[str], i: int, end: int) -> bool:
    """Whether the next non-blank line after ``i`` is quoted, or there is none before ``end``."""
    for line in lines[i + 1:end]:
        if line.strip():
            return _is_quoted(line)
    return True


def _first_word(line: str) -> str:
    """The order word a line starts with, as a keyword (``know how`` is one)."""
    words = [_word_key(w) for w in line.replace(":", " ").split()[:2]]
    if words[:2] == ["know", "how"]:
        return "knowhow"
    return words[0] if words else ""


def _word_key(word: str) -> str:
    """How a keyword is compared: lowercase, hyphens and underscores dropped."""
    return word.lower().replace("-", "").replace("_", "")


def _rest(text: str, first: Token, key: str) -> str:
    """The value of a ``game`` or ``password`` line whose first word is ``first``: the rest
    of the line as written, trimmed (one colon right after the word is dropped); a game id
    ends where a comment starts, a password takes everything."""
    rest = text[first.end:].strip()
    if rest.startswith(":"):
        rest = rest[1:].strip()
    if key == "game":
        rest = re.split(r"\s#", rest, maxsplit=1)[0].strip()
    return rest


def line_value(line: str, key: str) -> str | None:
    """What a ``game`` (or ``password``) line says, read as the order reader reads it
    (``game: demo  # ours`` is ``demo``); ``None`` for another line or one that says
    nothing. The one grammar of the line, for whoever must know the game of a text before
    reading it (the mail, to find the game a mail is for)."""
    tokens, _ = tokenize(line)
    if not tokens or tokens[0].kind != "word" or tokens[0].key != key:
        return None
    return _rest(line, tokens[0], key) or None


def looks_like_text_orders(text: str, kept: Sequence[tuple[int, str]] | None = None) -> bool:
    """True if at least two of the lines :func:`strip_mail` keeps begin with two different
    order words (``game``, ``nation``, ``turn``, ``password``, ``rondel``, ...): an order
    mail (which needs several such lines), as opposed to a mail that is not for the referee
    and happens to have one line beginning with "Game" or "Turn". Only the start of a very
    long text is looked at (:data:`MAX_TEXT_CHARS`): orders are at the top of a mail.
    ``kept``: those lines, where the caller has them already."""
    words = set(ORDER_WORDS) | set(_WORD_ALIASES)
    if kept is None:
        kept = strip_mail(text[:MAX_TEXT_CHARS])
    seen = {_WORD_ALIASES.get(w, w) for w in (_first_word(line) for _, line in kept) if w in words}
    return len(seen) >= 2


# -- words of a line ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Token:
    """One word of an order line: as written (quotes taken off), where it starts (1-based
    column of its first character, the quote for a quoted name) and ends (0-based index
    just after it)."""

    text: str
    column: int
    end: int
    kind: str = "word"
    """``word``, ``quoted`` (a name in quotes) or ``arrow`` (``->``)."""

    @property
    def key(self) -> str:
        """The word as a keyword: lowercase, hyphens and underscores dropped; an arrow is
        ``->`` and a quoted name is never a keyword."""
        if self.kind == "word":
            return _word_key(self.text)
        return "->" if self.kind == "arrow" else ""


class _Stop(Exception):
    """The rest of a line cannot be read; its problem has been recorded."""


def tokenize(line: str) -> tuple[list[Token], tuple[int, str] | None]:
    """The words of ``line`` and the problem (column, message) that ended reading it early,
    if any. Spaces, commas, semicolons and colons separate words; ``"..."`` (or other
    quotes) holds a name with spaces; ``->`` separates like a space; a word starting with
    ``#`` starts a comment that runs to the end of the line; a full stop ending the line is
    dropped."""
    out: list[Token] = []
    i, n = 0, len(line)
    while i < n:
        c = line[i]
        if c.isspace() or c in _SEPARATORS:
            i += 1
            continue
        if c == "#":
            break
        if c in _QUOTES:
            close = next((j for j in range(i + 1, n) if line[j] in _QUOTES[c]), None)
            if close is None:
                return out, (i + 1, f"the quote opened here is not closed (a name in quotes ends "
                                    f"with a {_QUOTES[c][0]} on the same line)")
            out.append(Token(" ".join(line[i + 1:close].split()), i + 1, close + 1, "quoted"))
            i = close + 1
            continue
        arrow = next((a for a in _ARROWS if line.startswith(a, i)), None)
        if arrow:
            out.append(Token("->", i + 1, i + len(arrow), "arrow"))
            i += len(arrow)
            continue
        j = i + 1
        while j < n and not (line[j].isspace() or line[j] in _SEPARATORS
                             or any(line.startswith(a, j) for a in _ARROWS)):
            j += 1
        out.append(Token(line[i:j], i + 1, j))
        i = j
    if out and out[-1].kind == "word" and out[-1].text.endswith(".") and len(out[-1].text) > 1:
        last = out[-1]
        out[-1] = Token(last.text[:-1], last.column, last.end - 1)
    return out, None


def _number(token: Token | None) -> int | None:
    if token is not None and token.kind == "word" and re.fullmatch(r"[0-9]+", token.text):
        return int(token.text)
    return None


def _plurals(names: Sequence[str]) -> dict[str, str]:
    """Singular and plural word -> the name (``legions`` -> ``legion``)."""
    return {**{n: n for n in names}, **{n + "s": n for n in names}}


_UNIT_WORDS = _plurals(UNITS)
_PAYMENT_WORDS = _plurals(PAYMENT_KEYS)
_CHIP_WORDS = _plurals(RESOURCES)


class _Line:
    """A cursor over the words of one order line that records problems with their place."""

    def __init__(self, number: int, text: str, tokens: list[Token], problems: list[tuple[int, int, str]],
                 vocab: Vocabulary):
        self.number = number
        self.text = text
        self.tokens = tokens
        self.pos = 1
        self.problems = problems
        self.vocab = vocab

    # the cursor
    def at(self, offset: int = 0) -> Token | None:
        i = self.pos + offset
        return self.tokens[i] if i < len(self.tokens) else None

    def take(self) -> Token:
        token = self.tokens[self.pos]
        self.pos += 1
        return token

    def accept(self, *keys: str) -> Token | None:
        """Take the next word if it is one of ``keys``."""
        token = self.at()
        if token is not None and token.key in keys:
            return self.take()
        return None

    def column(self, token: Token | None) -> int:
        """Where ``token`` starts; for a missing word, the column just after the line's last word."""
        if token is not None:
            return token.column
        return self.tokens[-1].end + 1 if self.tokens else 1

    def note(self, token: Token | None, message: str) -> None:
        self.problems.append((self.number, self.column(token), message))

    def fail(self, token: Token | None, message: str) -> NoReturn:
        self.note(token, message)
        raise _Stop

    def expected(self, what: str) -> NoReturn:
        """Fail at the next word (or the end of the line), saying what should be there."""
        token = self.at()
        if token is None:
            self.fail(None, f"the line ends too early: expected {what}")
        self.fail(token, f"expected {what}, not '{token.text}'")

    def end(self, what: str = "the end of the line") -> None:
        token = self.at()
        if token is not None:
            self.fail(token, f"unexpected '{token.text}'; expected {what}")

    # the parts of an order
    def integer(self, what: str, low: int, high: int | None = None) -> int:
        token = self.at()
        value = _number(token)
        if value is None:
            self.expected(what)
        self.take()
        if value < low or (high is not None and value > high):
            span = f"from {low} to {high}" if high is not None else f"at least {low}"
            self.note(token, f"{what} must be {span}, not {value}")
        return value

    def count(self) -> int | None:
        """An optional count before a unit."""
        if _number(self.at()) is None:
            return None
        return self.integer("a count", 1)

    def word_of(self, words: Mapping[str, str], what: str) -> str:
        token = self.at()
        if token is None or token.kind != "word" or token.text.lower() not in words:
            self.expected(what)
        return words[self.take().text.lower()]

    def unit(self) -> str:
        return self.word_of(_UNIT_WORDS, f"a unit ({', '.join(UNITS)})")

    def amounts(self, words: Mapping[str, str], example: str, after: Token) -> dict[str, int]:
        """``2 gold 1 coin`` (``and`` between them allowed), or ``nothing``: the counts of ``words``."""
        if self.accept("nothing"):
            return {}
        out: dict[str, int] = {}
        names = ", ".join(dict.fromkeys(words.values()))
        while True:
            token = self.at()
            if _number(token) is None:
                if out:
                    return out
                self.expected(f"an amount after '{after.text}' such as '{example}' ({names}), or 'nothing'")
            count = self.integer("an amount", 0)
            word = self.at()
            name = self.word_of(words, f"what the {count} counts ({names})")
            if name in out:
                self.note(word, f"{name} is named twice after '{after.text}'")
            out[name] = count
            self.accept("and")

    def payment(self, after: Token) -> dict[str, int]:
        return self.amounts(_PAYMENT_WORDS, f"2 {RESOURCES[-1]} 1 coin", after)

    def name(self, names: Names, what: str) -> str | None:
        """A name of ``names``: the longest run of words that names one exactly, else a
        unique prefix; an unknown or ambiguous name is noted and ``None`` returned."""
        token = self.at()
        if token is None or token.kind == "arrow" or (token.kind == "word" and (
                token.key in _FILLERS or _number(token) is not None)):
            self.expected(what)
        if token.kind == "quoted":
            return self._found(names, [self.take()])
        run = [token]
        while len(run) < names.max_words:
            nxt = self.at(len(run))
            if nxt is None or nxt.kind != "word" or nxt.key in _FILLERS or _number(nxt) is not None:
                break
            run.append(nxt)
        phrases = [(n, " ".join(t.text for t in run[:n])) for n in range(len(run), 0, -1)]
        for n, phrase in phrases:  # a name written in full, the longest first
            value, _ = names.exact(phrase)
            if value is not None:
                self.pos += n
                return value
        for n, phrase in phrases[:-1]:  # a unique prefix of several words
            found = names.prefixed(phrase)
            if len(found) == 1:
                self.pos += n
                return found[0]
        return self._found(names, [self.take()])

    def _found(self, names: Names, tokens: list[Token]) -> str | None:
        value, problem = names.lookup(" ".join(t.text for t in tokens))
        if problem:
            self.note(tokens[0], problem)
        return value

    def province(self) -> str | None:
        return self.name(self.vocab.provinces, "a province")


# -- the orders -----------------------------------------------------------------------------


class _Orders:
    """The orders of a text as they are read, line by line."""

    def __init__(self, vocab: Vocabulary):
        self.vocab = vocab
        self._line_words: frozenset[str] | None = None
        self.data: dict[str, Any] = {}
        self.seen: dict[str, int] = {}
        self.stances: dict[str, int] = {}
        self.problems: list[tuple[int, int, str]] = []

    def once(self, line: _Line, key: str, what: str) -> None:
        """Note a second line of an order that may be given once."""
        if key in self.seen:
            line.note(line.tokens[0], f"a second {what} line (the first is line {self.seen[key]}); "
                                      f"give it once")
        else:
            self.seen[key] = line.number

    def read(self, number: int, text: str) -> None:
        """Read one order line."""
        tokens, broken = tokenize(text)
        if not tokens:
            if broken:
                self.problems.append((number, *broken))
            return
        line = _Line(number, text, tokens, self.problems, self.vocab)
        first = tokens[0]
        word = _WORD_ALIASES.get(first.key, first.key)
        long = next((t for t in tokens if len(t.text) > MAX_WORD), None)
        if long is not None and word not in ("game", "password"):
            self.problems.append((number, long.column, f"a word of {len(long.text)} characters; no order word, "
                                                       f"name or number is longer than {MAX_WORD}"))
            return
        if word == "know" and line.accept("how"):
            word = "knowhow"
        try:
            if first.kind != "word":
                line.fail(first, self._unknown_word(first))
            if word in ("game", "password"):
                self.raw(line, word)
            elif broken:
                self.problems.append((number, *broken))
            elif word in ORDER_WORDS:
                getattr(self, f"_{word}")(line)
            elif word in self.vocab.own_words:
                self._own(line, *self.vocab.own_words[word])
            elif word in (_word_key(k) for k in self.vocab.own_keys):
                line.fail(first, f"'{first.text}' orders belong to this edition only and cannot be "
                                 "written as text orders; send them in an order file (JSON)")
            else:
                line.fail(first, self._unknown_word(first))
        except _Stop:
            pass

    def starts_order(self, text: str) -> bool:
        """Whether ``text`` is an order line: its first word is an order word of any edition
        (:func:`line_words`, ``know how``, an order key of this edition's own), or so like
        an order word of this edition that the reader asks "did you mean ...?" (``rondle``).
        A misspelt or misplaced order is so reported, never taken for a greeting."""
        tokens, _ = tokenize(text)
        if not tokens or tokens[0].kind != "word":
            return False
        first = tokens[0]
        if first.key == "know" and len(tokens) > 1 and tokens[1].key == "how":
            return True
        if first.key in ORDER_WORDS or first.key in _WORD_ALIASES or first.key in self.vocab.own_words \
                or first.key in (_word_key(k) for k in self.vocab.own_keys) or self._foreign(first.key):
            return True
        return len(first.text) <= MAX_WORD and self._close_word(first) is not None

    def _foreign(self, key: str) -> bool:
        """Whether ``key`` is an order word of any edition (:func:`line_words`; every
        edition is loaded for it, so only asked of a line this edition's words do not start)."""
        if self._line_words is None:
            self._line_words = line_words()
        return key in self._line_words

    def _close_word(self, token: Token) -> str | None:
        """The order word of this edition ``token`` is a misspelling of, if it looks like one."""
        import difflib

        close = difflib.get_close_matches(token.text.lower(), self.vocab.order_words, n=1, cutoff=_CLOSE)
        return close[0] if close else None

    def _unknown_word(self, token: Token) -> str:
        words = self.vocab.order_words
        close = self._close_word(token)
        hint = f" (did you mean '{close}'?)" if close else ""
        return (f"unknown order word '{token.text}'{hint}; an order line starts with one of: "
                f"{', '.join(words)}")

    def raw(self, line: _Line, key: str) -> None:
        """``game`` and ``password``: the rest of the line (:func:`_rest`)."""
        rest = _rest(line.text, line.tokens[0], key)
        if not rest:
            line.fail(None, f"the line ends too early: expected the {key} after '{line.tokens[0].text}'")
        self.once(line, key, f"'{key}'")
        self.data.setdefault(key, rest)

    def _nation(self, line: _Line) -> None:
        nation = line.name(self.vocab.nations, "a nation")
        line.end()
        self.once(line, "nation", "'nation'")
        self.data.setdefault("nation", nation)

    def _turn(self, line: _Line) -> None:
        turn = line.integer("the turn number", 1)
        line.end()
        self.once(line, "turn", "'turn'")
        self.data.setdefault("turn", turn)

    def _trade(self, line: _Line) -> None:
        """``trade 2 gold for iron``, ``trade after 4 gold 2 marble for 4 iron``: a trade with
        the bank, at the moment of the turn the word after ``trade`` names (``before``, the
        default; ``after move``; ``after``)."""
        entry: dict[str, Any] = {}
        when = self._moment(line)
        give = line.amounts(_CHIP_WORDS, f"2 {RESOURCES[-1]}", line.tokens[0])
        if not any(give.values()):
            line.note(line.tokens[1], "a trade gives at least one chip")
        after = line.accept("for", "->")
        if not after:
            line.expected(f"'for' and the chip you get (for {RESOURCES[1]})")
        get: str | dict[str, int]
        if _number(line.at()) is not None:
            # several chips: COMMERCIUM's 3 for 2 (003 L401-402, 001 L336), or a multiple of a rate
            got = line.amounts(_CHIP_WORDS, f"1 {RESOURCES[1]} 1 {RESOURCES[0]}", after)
            if not any(got.values()):
                line.note(after, "a trade gets at least one chip")
            chips = [c for c, n in got.items() if n]
            get = chips[0] if len(chips) == 1 and got[chips[0]] == 1 else {c: n for c, n in got.items() if n}
        else:
            get = line.word_of(_CHIP_WORDS, f"the chip you get ({', '.join(RESOURCES)})")
        line.end()
        entry.update(give=give, get=get)
        if when is not None:
            entry["when"] = when
        self.data.setdefault("trade", []).append(entry)

    def _moment(self, line: _Line) -> str | None:
        """The moment of the turn written right after the order word, if any: ``before``,
        ``after move`` (also ``after_move``, ``aftermove``) or ``after``."""
        token = line.accept("before", "after", "aftermove")
        if token is None:
            return None
        if token.key == "after" and line.accept("move"):
            return MOMENTS[1]
        return {"before": MOMENTS[0], "aftermove": MOMENTS[1], "after": MOMENTS[2]}[token.key]

    def _rondel(self, line: _Line) -> None:
        line.accept("to")
        move: dict[str, Any] = {"to": line.name(self.vocab.wedges, "a wedge")}
        while line.at() is not None:
            token = line.at()
            if token.key == "steps" and "steps" not in move:
                line.take()
                move["steps"] = line.integer("the number of steps", 1, self.vocab.rondel_size)
            elif token.key == "pay" and "pay" not in move:
                move["pay"] = line.payment(line.take())
            else:
                line.end("'steps', 'pay' or the end of the line")
        self.once(line, "rondel", "'rondel'")
        self.data.setdefault("rondel", move)

    def _with_pay(self, line: _Line, entry: dict[str, Any]) -> dict[str, Any]:
        pay = line.accept("pay")
        if pay:
            entry["pay"] = line.payment(pay)
        line.end("'pay' or the end of the line")
        return entry

    def _temple(self, line: _Line) -> None:
        entry = {"city": line.province()}
        if line.at() is not None and line.at().key != "pay":
            line.end("'pay' or the end of the line (one temple per line)")
        self.data.setdefault("temples", []).append(self._with_pay(line, entry))

    def _found(self, line: _Line) -> None:
        entry: dict[str, Any] = {"city": line.province()}
        if self.vocab.city_types:
            # the resource of a city whose founder chooses it: 'found paphos as gold'
            token = line.at()
            if line.accept("as") or (token is not None and token.kind == "word"
                                     and token.text.lower() in _CHIP_WORDS):
                entry["resource"] = line.word_of(_CHIP_WORDS, f"the city's resource ({', '.join(RESOURCES)})")
            if line.at() is not None and line.at().key != "pay":
                line.end("'as' and the city's resource, 'pay' or the end of the line (one city per line)")
        elif line.at() is not None and line.at().key != "pay":
            line.end("'pay' or the end of the line (one city per line)")
        self.data.setdefault("found", []).append(self._with_pay(line, entry))

    def _arm(self, line: _Line) -> None:
        count = line.count()
        unit = line.unit()
        line.accept("at", "in")
        entry: dict[str, Any] = {"unit": unit, "at": line.province(), "count": 1 if count is None else count}
        if self.vocab.free_units:
            # a unit an edition gives for free: 'arm 2 legions at roma free'
            if line.accept("free"):
                entry["free"] = True
            if line.at() is not None and line.at().key != "pay":
                line.end("'free', 'pay' or the end of the line")
        self.data.setdefault("arm", []).append(self._with_pay(line, entry))

    def _knowhow(self, line: _Line) -> None:
        entry = {"name": line.name(self.vocab.knowhows, "a know-how")}
        self.data.setdefault("knowhow", []).append(self._with_pay(line, entry))

    def _move(self, line: _Line) -> None:
        count = line.count()
        unit = line.unit()
        line.accept("from")
        start = line.province()
        path = []
        while line.at() is not None:
            line.accept("to", "->")
            path.append(line.province())
        if not path:
            line.fail(None, "the line ends too early: expected the provinces to move to "
                            f"({self.vocab.move_example})")
        step = {"move": unit, "count": 1 if count is None else count, "from": start, "path": path}
        self.data.setdefault("maneuver", []).append(step)

    def _battle(self, line: _Line) -> None:
        count = line.count()
        unit = line.unit()
        line.accept("at", "in")
        at = line.province()
        line.accept("against", "vs")
        step: dict[str, Any] = {"battle": unit, "at": at, "against": line.name(self.vocab.nations, "a nation")}
        word = line.accept("count")
        if word is not None:
            if count is not None:
                line.note(word, "the count is given twice (before the unit and after 'count')")
            count = line.integer("the count", 1)
        line.end("'count' or the end of the line")
        if count is not None:
            step["count"] = count
        self.data.setdefault("maneuver", []).append(step)

    def _conquer(self, line: _Line) -> None:
        step: dict[str, Any] = {"conquer": line.province()}
        while line.at() is not None:
            token = line.at()
            if token.key == "with" and "with" not in step:
                step["with"] = line.amounts(_UNIT_WORDS, f"2 {UNITS[0]}s", line.take())
            elif token.key in ("give", "giveup") and "give_up" not in step:
                line.take()
                if token.key == "give" and not line.accept("up"):
                    line.expected("'up' (give up CITY)")
                step["give_up"] = line.province()
            else:
                line.end("'with', 'give up' or the end of the line")
        self.data.setdefault("maneuver", []).append(step)

    # -- the orders of an edition's own keys, by the form the edition gives them --------

    def _own(self, line: _Line, word: str, spec: Mapping[str, Any]) -> None:
        """A line of an order key of the edition's own (:attr:`OrderLanguage.order_words
        <pbem.kernel.protocols.OrderLanguage>`), read by its form."""
        getattr(self, f"_form_{spec['form']}")(line, word, spec)

    def _card(self, line: _Line) -> str | None:
        return line.name(self.vocab.cards, "an event card")

    def _form_card(self, line: _Line, word: str, spec: Mapping[str, Any]) -> None:
        """``play earthquake at roma``, ``play burglary``, ``play after move academy``,
        ``play levy at carthago legion``, ``play messenger to scientia``, ``play sacrifice
        cards burglary``: an event card, at the moment of the turn written right after
        the word (before the rondel move by default), with what the card leaves open: the
        place (``at`` or ``in`` may be left out; the card says whether it is a city or the
        region of units), a unit, a wedge (``to``) or cards of one's hand (``cards``)."""
        entry: dict[str, Any] = {}
        when = self._moment(line)
        cid = self._card(line)
        entry["play"] = cid
        if when is not None:
            entry["when"] = when
        fields = self.vocab.card_fields.get(cid, ()) if cid else ()
        place = "at" if "at" in fields else "city"
        while line.at() is not None:
            token = line.at()
            if token.key == "to" and "to" not in entry:
                line.take()
                entry["to"] = line.name(self.vocab.wedges, "a wedge")
            elif token.key == "cards" and "cards" not in entry:
                line.take()
                entry["cards"] = []
                while line.at() is not None:
                    entry["cards"].append(self._card(line))
                if not entry["cards"]:
                    line.expected("the cards of your hand to discard")
            elif token.kind == "word" and token.text.lower() in _UNIT_WORDS and "unit" not in entry:
                entry["unit"] = line.unit()
            elif place not in entry:
                line.accept("at", "in")
                entry[place] = line.province()
            else:
                line.end("the end of the line (one card per line)")
        self.data.setdefault(spec["key"], []).append(entry)

    def _form_cities(self, line: _Line, word: str, spec: Mapping[str, Any]) -> None:
        """``wall roma``, ``walls roma, neapolis``, ``wall roma pay 1 marble``: one entry a
        city; a payment only after a single city."""
        cities = [line.province()]
        while line.at() is not None and line.at().key != "pay":
            line.accept("and")
            cities.append(line.province())
        if len(cities) > 1:
            if line.at() is not None and line.at().key == "pay":
                line.fail(line.at(), f"a payment belongs to one {spec['one']}: write the {spec['many']} you "
                                     f"pay for one per line ('{spec['example']}')")
            line.end()
            self.data.setdefault(spec["key"], []).extend({"city": c} for c in cities)
            return
        self.data.setdefault(spec["key"], []).append(self._with_pay(line, {"city": cities[0]}))

    def _form_units(self, line: _Line, word: str, spec: Mapping[str, Any]) -> None:
        """``recruit 2 legions 1 galley pay 4 gold``: unit counts, given once."""
        units = line.amounts(_UNIT_WORDS, f"2 {UNITS[0]}s 1 {UNITS[1]}", line.tokens[0])
        if not any(units.values()):
            line.note(line.tokens[1] if len(line.tokens) > 1 else None, f"{word} at least one unit")
        entry: dict[str, Any] = dict(units)
        self.once(line, spec["key"], f"'{word}'")
        self.data.setdefault(spec["key"], self._with_pay(line, entry))

    def _standing_own(self, line: _Line, key: str, token: Token) -> None:
        """``standing KEY CHOICE`` (a choice may be several words: ``when it saves the
        city``) or ``standing KEY CARD ...`` (or ``nothing``): a standing order of the
        edition's own (:attr:`OrderLanguage.standing_words
        <pbem.kernel.protocols.OrderLanguage>`)."""
        standing = self.data.setdefault("standing", {})
        spec = self.vocab.standing_words[key]
        if spec["form"] == "choice":
            rest = " ".join(t.key for t in line.tokens[line.pos:])
            value: Any = next((c for c in spec["choices"] if rest == c), None)
            if value is None:
                line.expected(f"{spec['what']} ({', '.join(spec['choices'])})")
            line.pos = len(line.tokens)
        else:
            value = []
            if not line.accept("nothing"):
                if line.at() is None:
                    line.expected(f"{spec['what']}, or 'nothing'")
                while line.at() is not None:
                    value.append(self._card(line))
        line.end()
        self.once(line, key, f"'standing {token.text}'")
        standing.setdefault(key, value)

    def _standing(self, line: _Line) -> None:
        token = line.at()
        kind = _STANDING_KINDS.get(token.key) if token is not None else None
        own = next((k for k in self.vocab.standing_words if token is not None and token.key == _word_key(k)), None)
        if own is not None:
            line.take()
            self._standing_own(line, own, token)
            return
        if kind is None:
            own = [k for k in self.vocab.own_standing if token is not None and _word_key(k) == token.key]
            if own:
                line.fail(token, f"the standing order '{token.text}' belongs to this edition only and "
                                 "cannot be written as text orders; send it in an order file (JSON)")
            *kinds, last = ("battle", "bonus", "coin", *self.vocab.standing_words)
            line.expected(f"{', '.join(kinds)} or {last} after 'standing'")
        line.take()
        if kind == "bonus_stack":
            line.accept("stack")
        elif kind == "coin_substitute":
            line.accept("substitute")
        standing = self.data.setdefault("standing", {})
        if kind == "battle":
            self._battle_stances(line, standing.setdefault("battle", {}))
            return
        if kind == "coin_substitute":
            value = line.name(self.vocab.coin_substitutes, "a coin substitute")
            line.end()
        else:
            value = self._bonus_stack(line, token)
        self.once(line, kind, f"'standing {token.text}'")
        standing.setdefault(kind, value)

    def _bonus_stack(self, line: _Line, after: Token) -> list[str | None]:
        names = self.vocab.personages
        stack: list[str | None] = []
        while line.at() is not None:
            stack.append(line.name(names, "a personage"))
        if None not in stack:
            missing = [p for p in names.labels if p not in stack]
            twice = sorted({p for p in stack if stack.count(p) > 1})
            if missing or twice:
                why = "; ".join(filter(None, [f"missing {', '.join(missing)}" if missing else "",
                                              f"twice {', '.join(twice)}" if twice else ""]))
                line.note(after, f"the bonus stack names every personage once, in the order wanted ({why})")
        return stack

    def _battle_stances(self, line: _Line, battle: dict[str, Any]) -> None:
        """``always`` (the default), or pairs ``default home`` / ``romans always``."""
        if line.at() is None:
            line.expected("a battle stance (always, never, home), or a nation and its stance")
        if line.at(1) is None:
            self._stance(line, battle, "default", line.at())
            battle.setdefault("default", line.name(self.vocab.stances, "a battle stance"))
            return
        while line.at() is not None:
            token = line.at()
            if line.accept("default"):
                key = "default"
            else:
                key = line.name(self.vocab.nations, "'default' or a nation")
            self._stance(line, battle, key, token)
            if line.at() is None:
                line.expected(f"the battle stance for {token.text} (always, never, home)")
            battle.setdefault(key, line.name(self.vocab.stances, "a battle stance"))

    def _stance(self, line: _Line, battle: dict[str, Any], key: str | None, token: Token) -> None:
        if key is None:
            return
        seen = self.stances
        if key in seen:
            line.note(token, f"a second battle stance for {key} (the first is on line {seen[key]}); give it once")
        else:
            seen[key] = line.number

    def result(self) -> dict[str, Any]:
        keys = [*ORDER_KEYS, *(spec["key"] for _, spec in self.vocab.own_words.values())]
        return {key: self.data[key] for key in dict.fromkeys(keys) if key in self.data}


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
    """Where the text was cut, and why (:attr:`MailLines.cut`), when the reader stripped
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

    The lines :func:`strip_mail` drops are not read, nor lines starting with ``#``. Of the
    others, an *order line* starts with an order word (:meth:`_Orders.starts_order`); the
    lines before the first order line and after the last one are not orders (a greeting,
    a "thanks"): they are not read, and :attr:`TextReading.ignored` lists them. Every line
    from the first order line to the last one is read as an order, and one that is not is
    an error: a line between orders is never guessed to be prose.

    Whether the orders are complete (``game``, ``nation``, ``password``) is the schema's
    business, as for an order file. Raises :class:`~pbem.errors.InputError` naming
    ``source`` and EVERY problem found, each as ``Problem("line L, column C", message)``
    with the 1-based line in the original text and the column of the offending word; a
    text without an order line is the one problem "no orders found". ``data``: the game's
    ``rules.data`` (in an edition with cards, the event cards a GM entered, so that a card
    is known by name). ``kept``: the lines :func:`strip_mail` keeps of ``text``, where the
    caller has them already (the mail, which strips a mail once).
    """
    if text.count("\n", 0, MAX_TEXT_CHARS) >= MAX_TEXT_LINES or len(text) > MAX_TEXT_CHARS:
        raise InputError(source, [Problem(f"line {MAX_TEXT_LINES + 1}, column 1" if len(text) <= MAX_TEXT_CHARS
                                          else "line 1, column 1",
                                          f"a text of orders has at most {MAX_TEXT_LINES} lines and "
                                          f"{MAX_TEXT_CHARS} characters; this one has more (nothing was read)")])
    reader = _Orders(vocabulary(edition, board, data))
    cut: tuple[tuple[int, str, str], ...] = ()
    if kept is None:
        stripped = mail_lines(text)
        kept, cut = stripped.kept, stripped.cut
    candidates = [(n, line) for n, line in kept if not line.lstrip().startswith("#")]
    at = [i for i, (_, line) in enumerate(candidates) if reader.starts_order(line)]
    body = candidates[at[0]:at[-1] + 1] if at else []
    prose = candidates[:at[0]] + candidates[at[-1] + 1:] if at else []
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
    if not reader.problems and not reader.data:
        where = kept[0][0] if kept else 1
        reader.problems.append((where, 1, "no orders found: an order mail has one order per line "
                                          f"(starting with one of: {', '.join(reader.vocab.order_words)})"
                                + "".join(f"; line {n} was cut ({clip(line, 40)}: {why})" for n, line, why in cut
                                          if not kept)))
    if reader.problems:
        found = sorted(dict.fromkeys(reader.problems), key=lambda p: (p[0], p[1]))
        raise InputError(source, [Problem(f"line {n}, column {c}", m) for n, c, m in found])
    written = re.split(r"\r\n|\r|\n", text.removeprefix("\ufeff"))
    lines = {n: written[n - 1].rstrip() for n in sorted(set(paths.values()))}
    secret = paths.get("$.password")
    if secret is not None:
        lines[secret] = f"{tokenize(dict(body)[secret])[0][0].text} {_PASSWORD_SHOWN}"
    ignored = tuple((n, written[n - 1].rstrip()) for n, _ in prose)
    return TextReading(reader.result(), ignored, MappingProxyType(paths), MappingProxyType(lines),
                       required_keys("orders", edition), cut)


def parse_text_orders(text: str, edition: Edition, board: Board, source: str = "<text>",
                      data: str = "") -> dict[str, Any]:
    """Raw order data read from ``text`` (an order mail's body or a text order file): the same
    JSON shape an order file has, ready for the orders schema and
    :func:`~pbem.kernel.orders.canonical_orders`. :func:`read_text_orders` reads it (and
    says which line each order came from, and which lines of prose it did not read), and
    raises :class:`~pbem.errors.InputError` as it does.
    """
    return read_text_orders(text, edition, board, source, data).orders


# -- writing orders as text -----------------------------------------------------------------


_ID = re.compile(r"[a-z][a-z0-9_]*")


def _name(value: str) -> str:
    """An id as written: bare, or in quotes if it could be read as something else."""
    if _ID.fullmatch(value) and _word_key(value) not in _FILLERS:
        return value
    if '"' in value or "\n" in value:
        raise ValueError(f"the name {value!r} cannot be written in the text syntax")
    return f'"{value}"'


def _amount_text(counts: Mapping[str, int]) -> str:
    """``2 gold 1 coin``; units and coins in the plural unless one; ``nothing`` for none."""
    words = []
    for key, count in counts.items():
        word = key if key in RESOURCES or count == 1 else key + "s"
        words.append(f"{count} {word}")
    return " ".join(words) or "nothing"


_MOMENT_WORDS = {MOMENTS[0]: "before ", MOMENTS[1]: "after move ", MOMENTS[2]: "after "}
"""How the echo writes a trade's or a card's ``when``, right after the order word."""


def _pay(entry: Mapping[str, Any]) -> str:
    return f" pay {_amount_text(entry['pay'])}" if "pay" in entry else ""


def _units(unit: str, count: int | None) -> str:
    return f"{count} {unit}" if count == 1 else f"{'' if count is None else f'{count} '}{unit}s"


def _step_text(step: Mapping[str, Any]) -> str:
    if "move" in step:
        path = " -> ".join(_name(p) for p in step["path"])
        return f"move {_units(step['move'], step['count'])} {_name(step['from'])} -> {path}"
    if "battle" in step:
        return (f"battle {_units(step['battle'], step.get('count'))} at {_name(step['at'])} "
                f"against {_name(step['against'])}")
    text = f"conquer {_name(step['conquer'])}"
    if "with" in step:
        text += f" with {_amount_text(step['with'])}"
    if "give_up" in step:
        text += f" give up {_name(step['give_up'])}"
    return text


def _card_text(word: str, entry: Mapping[str, Any]) -> str:
    """``play after move academy``, ``play levy at carthago legion``: an event card."""
    text = f"{word} {_MOMENT_WORDS[entry['when']] if 'when' in entry else ''}{_name(entry['play'])}"
    for key in ("city", "at"):
        if key in entry:
            text += f" at {_name(entry[key])}"
    if "unit" in entry:
        text += f" {entry['unit']}"
    if "to" in entry:
        text += f" to {_name(entry['to'])}"
    if "cards" in entry:
        text += " cards " + " ".join(_name(c) for c in entry["cards"])
    return text


def _raw(key: str, value: str) -> str:
    """The ``game`` or ``password`` line (the rest of the line is the value)."""
    if value != value.strip() or not value or _clean(value) != value or (
            key == "game" and re.search(r"\s#", value)):
        raise ValueError(f"the {key} {value!r} cannot be written in the text syntax (it starts or "
                         "ends with a space, holds a line break, a tab or another kind of space, "
                         "or a comment)")
    return f"{key}: {value}" if value.startswith(":") else f"{key} {value}"


def _standing_lines(standing: Mapping[str, Any], edition: Edition | None = None) -> list[str]:
    own = dict(edition.language.standing_words) if edition is not None and edition.language else {}
    extra = [k for k in standing if k not in ("battle", "bonus_stack", "coin_substitute", *own)]
    if extra:
        raise ValueError(f"the standing order(s) {', '.join(extra)} cannot be written in the text syntax")
    lines = [f"standing battle {_name(key)} {stance}" for key, stance in standing.get("battle", {}).items()]
    if "bonus_stack" in standing:
        lines.append("standing bonus " + " ".join(_name(p) for p in standing["bonus_stack"]))
    if "coin_substitute" in standing:
        lines.append(f"standing coin {standing['coin_substitute']}")
    for key, spec in own.items():  # an edition's own, in the order it gives them
        if key not in standing:
            continue
        if spec["form"] == "choice":
            lines.append(f"standing {key} {standing[key]}")
        else:
            lines.append(f"standing {key} " + (" ".join(_name(c) for c in standing[key]) or "nothing"))
    return lines


def _own_lines(word: str, spec: Mapping[str, Any], value: Any) -> list[str]:
    """The lines of an order key of the edition's own, written by its form."""
    if spec["form"] == "card":
        return [_card_text(word, e) for e in value]
    if spec["form"] == "cities":
        return [f"{word} {_name(e['city'])}{_pay(e)}" for e in value]
    units = {u: value[u] for u in UNITS if u in value}
    return [f"{word} {_amount_text(units)}{_pay(value)}"]


def format_text_orders(orders: Mapping[str, Any], edition: Edition, board: Board) -> str:
    """The canonical text of CANONICAL ``orders`` (the output of
    :func:`~pbem.kernel.orders.canonical_orders`): ids for every name, one order per line,
    in the canonical key order, with a newline at the end; the password line only if the
    orders have a password.

    ``canonical_orders(parse_text_orders(format_text_orders(o))) == o`` for every canonical
    ``o`` the syntax can write, and formatting is stable under a round trip; a wedge named
    by another name the edition accepts (a wedge of the first edition's name) is written
    by the edition's own, and a trade getting ``{"iron": 1}`` as ``for iron``. Raises
    ``ValueError`` for orders it cannot write: an edition's own order keys or standing
    orders, a game id or password that starts or ends with a space or spans lines.
    """
    lines: list[str] = []
    words = edition.language.order_words if edition.language else {}
    own = {spec["key"]: (word, spec) for word, spec in words.items()}
    keys = [k for k in edition.order_keys if k in orders] + [k for k in orders if k not in edition.order_keys]
    for key in keys:
        value = orders[key]
        if key in ("game", "password"):
            lines.append(_raw(key, value))
        elif key == "nation":
            lines.append(f"nation {_name(value)}")
        elif key == "turn":
            lines.append(f"turn {value}")
        elif key == "trade":
            lines += [f"trade {_MOMENT_WORDS[t['when']] if 'when' in t else ''}{_amount_text(t['give'])} for "
                      + (t["get"] if isinstance(t["get"], str) else _amount_text(t["get"])) for t in value]
        elif key == "rondel":
            steps = f" steps {value['steps']}" if "steps" in value else ""
            # the edition's own wedge name for a name it accepts as another (an older edition's)
            wedge = edition.rondel.aliases.get(value["to"], value["to"])
            lines.append(f"rondel {_name(wedge)}{steps}{_pay(value)}")
        elif key == "temples":
            lines += [f"temple {_name(t['city'])}{_pay(t)}" for t in value]
        elif key == "arm":
            lines += [f"arm {_units(a['unit'], a['count'])} at {_name(a['at'])}{' free' if a.get('free') else ''}"
                      f"{_pay(a)}" for a in value]
        elif key == "knowhow":
            lines += [f"knowhow {_name(k['name'])}{_pay(k)}" for k in value]
        elif key == "maneuver":
            lines += [_step_text(step) for step in value]
        elif key == "found":
            lines += [f"found {_name(f['city'])}{' as ' + f['resource'] if f.get('resource') else ''}{_pay(f)}"
                      for f in value]
        elif key == "standing":
            lines += _standing_lines(value, edition)
        elif key in own:
            lines += _own_lines(*own[key], value)
        else:
            raise ValueError(f"'{key}' orders belong to the edition {edition.id} and cannot be written "
                             "in the text syntax")
    return "\n".join(lines) + "\n"
