"""The words of an order line: where each starts and ends, names in quotes, arrows,
comments, and how a word is compared as a keyword.

Spaces, commas, semicolons and colons separate words; ``"..."`` (or other quotes) holds a
name with spaces; ``->`` separates like a space; a word starting with ``#`` starts a comment
that runs to the end of the line; a full stop ending the line is dropped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_WORD = 64
"""No order word, name or number is longer: a longer word is a problem of its own, named by
its length rather than quoted (a message stays readable, whatever was pasted)."""

FILLERS = frozenset({
    "to", "at", "in", "from", "against", "vs", "with", "give", "giveup", "pay", "steps",
    "count", "and", "for", "nothing", "as",
})
"""Words that are never the start of a name outside quotes: they separate the parts of
an order (``from pella to athen``, ``with 2 legions``). A name that is one of them must be
quoted."""

_QUOTES: dict[str, str] = {'"': '"\u201c\u201d', "\u201c": '\u201d"', "\u201e": '\u201c\u201d"',
                           "\u00ab": "\u00bb", "'": "'\u2019", "\u2018": "\u2019'"}
"""Opening quote -> the characters that close it."""
_ARROWS = ("->", "=>", "\u2192")
_SEPARATORS = ",;:"


def word_key(word: str) -> str:
    """How a keyword is compared: lowercase, hyphens and underscores dropped."""
    return word.lower().replace("-", "").replace("_", "")


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
            return word_key(self.text)
        return "->" if self.kind == "arrow" else ""


def tokenize(line: str) -> tuple[list[Token], tuple[int, str] | None]:
    """The words of ``line`` and the problem (column, message) that ended reading it early,
    if any (a quote that is not closed), as the module says."""
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


def token_number(token: Token | None) -> int | None:
    """The value of a word of digits only; ``None`` for any other token (or none)."""
    if token is not None and token.kind == "word" and re.fullmatch(r"[0-9]+", token.text):
        return int(token.text)
    return None


def first_word(line: str) -> str:
    """The order word a line starts with, as a keyword (``know how`` is one)."""
    words = [word_key(w) for w in line.replace(":", " ").split()[:2]]
    if words[:2] == ["know", "how"]:
        return "knowhow"
    return words[0] if words else ""


def line_rest(text: str, first: Token, key: str) -> str:
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
    return line_rest(line, tokens[0], key) or None
