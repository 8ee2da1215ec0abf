"""One order line as it is read: a cursor over its words (:class:`OrderLine`) that takes
the parts orders are made of (numbers, counts of units or chips, payments, names) and
records each problem with its line and column.

A problem that leaves the rest of the line unreadable ends the line (:class:`LineStop`);
one that does not (a count out of range, a name twice) is noted and reading goes on, so
that every problem of a text is reported at once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NoReturn

from pbem.kernel.vocab import PAYMENT_KEYS, RESOURCES, UNITS
from pbem.service.language.names import Names, Vocabulary
from pbem.service.language.tokens import FILLERS, Token, token_number


def _plurals(names: Sequence[str]) -> dict[str, str]:
    """Singular and plural word -> the name (``legions`` -> ``legion``)."""
    return {**{n: n for n in names}, **{n + "s": n for n in names}}


UNIT_WORDS = _plurals(UNITS)
"""A unit as written, singular or plural -> the unit."""
PAYMENT_WORDS = _plurals(PAYMENT_KEYS)
"""What pays, as written -> its key in a payment."""
CHIP_WORDS = _plurals(RESOURCES)
"""A resource chip as written -> the resource."""


class LineStop(Exception):
    """The rest of a line cannot be read; its problem has been recorded."""


class OrderLine:
    """A cursor over the words of one order line that records problems with their place.

    ``pos`` is the word read next; the first word (the order word) is read by whoever
    chose the order, so the cursor starts after it. ``problems``: the list of the whole
    text, ``(line number, column, message)``, shared by every line.
    """

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
        raise LineStop

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
        value = token_number(token)
        if value is None:
            self.expected(what)
        self.take()
        if value < low or (high is not None and value > high):
            span = f"from {low} to {high}" if high is not None else f"at least {low}"
            self.note(token, f"{what} must be {span}, not {value}")
        return value

    def count(self) -> int | None:
        """An optional count before a unit."""
        if token_number(self.at()) is None:
            return None
        return self.integer("a count", 1)

    def word_of(self, words: Mapping[str, str], what: str) -> str:
        token = self.at()
        if token is None or token.kind != "word" or token.text.lower() not in words:
            self.expected(what)
        return words[self.take().text.lower()]

    def unit(self) -> str:
        return self.word_of(UNIT_WORDS, f"a unit ({', '.join(UNITS)})")

    def amounts(self, words: Mapping[str, str], example: str, after: Token) -> dict[str, int]:
        """``2 gold 1 coin`` (``and`` between them allowed), or ``nothing``: the counts of ``words``."""
        if self.accept("nothing"):
            return {}
        out: dict[str, int] = {}
        names = ", ".join(dict.fromkeys(words.values()))
        while True:
            token = self.at()
            if token_number(token) is None:
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
        return self.amounts(PAYMENT_WORDS, f"2 {RESOURCES[-1]} 1 coin", after)

    def name(self, names: Names, what: str) -> str | None:
        """A name of ``names``: the longest run of words that names one exactly, else a
        unique prefix; an unknown or ambiguous name is noted and ``None`` returned."""
        token = self.at()
        if token is None or token.kind == "arrow" or (token.kind == "word" and (
                token.key in FILLERS or token_number(token) is not None)):
            self.expected(what)
        if token.kind == "quoted":
            return self._found(names, [self.take()])
        run = [token]
        while len(run) < names.max_words:
            nxt = self.at(len(run))
            if nxt is None or nxt.kind != "word" or nxt.key in FILLERS or token_number(nxt) is not None:
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
