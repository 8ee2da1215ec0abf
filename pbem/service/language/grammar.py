"""The grammar of order lines: what the line of each order word says, read into the raw
order data (the JSON shape of an order file, docs/orders.md "Order file").

:class:`OrderReader` reads a text's order lines one at a time: the shared order words
(:data:`~pbem.service.language.names.ORDER_WORDS`), then an edition's own order keys and
standing orders by the form the edition gives them
(:attr:`~pbem.service.language.names.Vocabulary.own_words`,
:attr:`~pbem.service.language.names.Vocabulary.standing_words`). Which lines of a text are
order lines, and where each part of the orders came from, is
:func:`~pbem.service.language.textorders.read_text_orders`' business.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.kernel.orders import ORDER_KEYS
from pbem.kernel.vocab import MOMENTS, RESOURCES, UNITS
from pbem.service.language.names import ORDER_WORDS, WORD_ALIASES, Vocabulary, line_words
from pbem.service.language.orderline import CHIP_WORDS, UNIT_WORDS, LineStop, OrderLine
from pbem.service.language.tokens import MAX_WORD, Token, line_rest, token_number, tokenize, word_key

_CLOSE = 0.7
"""How alike (:func:`difflib.get_close_matches`) an unknown first word must be to an order
word of the edition for the reader to ask "did you mean ...?"; such a line is an order line."""

_STANDING_KINDS: dict[str, str] = {
    "battle": "battle", "bonus": "bonus_stack", "bonusstack": "bonus_stack",
    "coin": "coin_substitute", "coins": "coin_substitute", "coinsubstitute": "coin_substitute",
}
"""The word after ``standing`` -> the standing order it sets."""


class OrderReader:
    """The orders of a text as they are read, line by line (:meth:`read`).

    ``data``: the raw orders read so far; ``problems``: every problem found, as ``(line
    number, column, message)``; ``seen`` and ``stances``: the line of each order given
    once (``nation``, ``rondel``, a standing order, a nation's battle stance), so that a
    second one names the first.
    """

    def __init__(self, vocab: Vocabulary):
        self.vocab = vocab
        self._line_words: frozenset[str] | None = None
        self.data: dict[str, Any] = {}
        self.seen: dict[str, int] = {}
        self.stances: dict[str, int] = {}
        self.problems: list[tuple[int, int, str]] = []

    def once(self, line: OrderLine, key: str, what: str) -> None:
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
        line = OrderLine(number, text, tokens, self.problems, self.vocab)
        first = tokens[0]
        word = WORD_ALIASES.get(first.key, first.key)
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
            elif word in (word_key(k) for k in self.vocab.own_keys):
                line.fail(first, f"'{first.text}' orders belong to this edition only and cannot be "
                                 "written as text orders; send them in an order file (JSON)")
            else:
                line.fail(first, self._unknown_word(first))
        except LineStop:
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
        if first.key in ORDER_WORDS or first.key in WORD_ALIASES or first.key in self.vocab.own_words \
                or first.key in (word_key(k) for k in self.vocab.own_keys) or self._foreign(first.key):
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

    def raw(self, line: OrderLine, key: str) -> None:
        """``game`` and ``password``: the rest of the line (:func:`~pbem.service.language.tokens.line_rest`)."""
        rest = line_rest(line.text, line.tokens[0], key)
        if not rest:
            line.fail(None, f"the line ends too early: expected the {key} after '{line.tokens[0].text}'")
        self.once(line, key, f"'{key}'")
        self.data.setdefault(key, rest)

    def _nation(self, line: OrderLine) -> None:
        nation = line.name(self.vocab.nations, "a nation")
        line.end()
        self.once(line, "nation", "'nation'")
        self.data.setdefault("nation", nation)

    def _turn(self, line: OrderLine) -> None:
        turn = line.integer("the turn number", 1)
        line.end()
        self.once(line, "turn", "'turn'")
        self.data.setdefault("turn", turn)

    def _trade(self, line: OrderLine) -> None:
        """``trade 2 gold for iron``, ``trade after 4 gold 2 marble for 4 iron``: a trade with
        the bank, at the moment of the turn the word after ``trade`` names (``before``, the
        default; ``after move``; ``after``)."""
        entry: dict[str, Any] = {}
        when = self._moment(line)
        give = line.amounts(CHIP_WORDS, f"2 {RESOURCES[-1]}", line.tokens[0])
        if not any(give.values()):
            line.note(line.tokens[1], "a trade gives at least one chip")
        after = line.accept("for", "->")
        if not after:
            line.expected(f"'for' and the chip you get (for {RESOURCES[1]})")
        get: str | dict[str, int]
        if token_number(line.at()) is not None:
            # several chips: COMMERCIUM's 3 for 2 (003 L401-402, 001 L336), or a multiple of a rate
            got = line.amounts(CHIP_WORDS, f"1 {RESOURCES[1]} 1 {RESOURCES[0]}", after)
            if not any(got.values()):
                line.note(after, "a trade gets at least one chip")
            chips = [c for c, n in got.items() if n]
            get = chips[0] if len(chips) == 1 and got[chips[0]] == 1 else {c: n for c, n in got.items() if n}
        else:
            get = line.word_of(CHIP_WORDS, f"the chip you get ({', '.join(RESOURCES)})")
        line.end()
        entry.update(give=give, get=get)
        if when is not None:
            entry["when"] = when
        self.data.setdefault("trade", []).append(entry)

    def _moment(self, line: OrderLine) -> str | None:
        """The moment of the turn written right after the order word, if any: ``before``,
        ``after move`` (also ``after_move``, ``aftermove``) or ``after``."""
        token = line.accept("before", "after", "aftermove")
        if token is None:
            return None
        if token.key == "after" and line.accept("move"):
            return MOMENTS[1]
        return {"before": MOMENTS[0], "aftermove": MOMENTS[1], "after": MOMENTS[2]}[token.key]

    def _rondel(self, line: OrderLine) -> None:
        line.accept("to")
        move: dict[str, Any] = {"to": line.name(self.vocab.wedges, "a wedge")}
        while (token := line.at()) is not None:
            if token.key == "steps" and "steps" not in move:
                line.take()
                move["steps"] = line.integer("the number of steps", 1, self.vocab.rondel_size)
            elif token.key == "pay" and "pay" not in move:
                move["pay"] = line.payment(line.take())
            else:
                line.end("'steps', 'pay' or the end of the line")
        self.once(line, "rondel", "'rondel'")
        self.data.setdefault("rondel", move)

    def _with_pay(self, line: OrderLine, entry: dict[str, Any]) -> dict[str, Any]:
        pay = line.accept("pay")
        if pay:
            entry["pay"] = line.payment(pay)
        line.end("'pay' or the end of the line")
        return entry

    def _temple(self, line: OrderLine) -> None:
        entry = {"city": line.province()}
        if (nxt := line.at()) is not None and nxt.key != "pay":
            line.end("'pay' or the end of the line (one temple per line)")
        self.data.setdefault("temples", []).append(self._with_pay(line, entry))

    def _found(self, line: OrderLine) -> None:
        entry: dict[str, Any] = {"city": line.province()}
        if self.vocab.city_types:
            # the resource of a city whose founder chooses it: 'found paphos as gold'
            token = line.at()
            if line.accept("as") or (token is not None and token.kind == "word"
                                     and token.text.lower() in CHIP_WORDS):
                entry["resource"] = line.word_of(CHIP_WORDS, f"the city's resource ({', '.join(RESOURCES)})")
            if (nxt := line.at()) is not None and nxt.key != "pay":
                line.end("'as' and the city's resource, 'pay' or the end of the line (one city per line)")
        elif (nxt := line.at()) is not None and nxt.key != "pay":
            line.end("'pay' or the end of the line (one city per line)")
        self.data.setdefault("found", []).append(self._with_pay(line, entry))

    def _arm(self, line: OrderLine) -> None:
        count = line.count()
        unit = line.unit()
        line.accept("at", "in")
        entry: dict[str, Any] = {"unit": unit, "at": line.province(), "count": 1 if count is None else count}
        if self.vocab.free_units:
            # a unit an edition gives for free: 'arm 2 legions at roma free'
            if line.accept("free"):
                entry["free"] = True
            if (nxt := line.at()) is not None and nxt.key != "pay":
                line.end("'free', 'pay' or the end of the line")
        self.data.setdefault("arm", []).append(self._with_pay(line, entry))

    def _knowhow(self, line: OrderLine) -> None:
        entry = {"name": line.name(self.vocab.knowhows, "a know-how")}
        self.data.setdefault("knowhow", []).append(self._with_pay(line, entry))

    def _move(self, line: OrderLine) -> None:
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

    def _battle(self, line: OrderLine) -> None:
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

    def _conquer(self, line: OrderLine) -> None:
        step: dict[str, Any] = {"conquer": line.province()}
        while (token := line.at()) is not None:
            if token.key == "with" and "with" not in step:
                step["with"] = line.amounts(UNIT_WORDS, f"2 {UNITS[0]}s", line.take())
            elif token.key in ("give", "giveup") and "give_up" not in step:
                line.take()
                if token.key == "give" and not line.accept("up"):
                    line.expected("'up' (give up CITY)")
                step["give_up"] = line.province()
            else:
                line.end("'with', 'give up' or the end of the line")
        self.data.setdefault("maneuver", []).append(step)

    # -- the orders of an edition's own keys, by the form the edition gives them --------

    def _own(self, line: OrderLine, word: str, spec: Mapping[str, Any]) -> None:
        """A line of an order key of the edition's own (:meth:`Edition.order_words
        <pbem.kernel.edition.Edition.order_words>`), read by its form."""
        getattr(self, f"_form_{spec['form']}")(line, word, spec)

    def _card(self, line: OrderLine) -> str | None:
        cards = self.vocab.cards
        assert cards is not None  # a card is read only in an edition with event cards
        return line.name(cards, "an event card")

    def _form_card(self, line: OrderLine, word: str, spec: Mapping[str, Any]) -> None:
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
        while (token := line.at()) is not None:
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
            elif token.kind == "word" and token.text.lower() in UNIT_WORDS and "unit" not in entry:
                entry["unit"] = line.unit()
            elif place not in entry:
                line.accept("at", "in")
                entry[place] = line.province()
            else:
                line.end("the end of the line (one card per line)")
        self.data.setdefault(spec["key"], []).append(entry)

    def _form_cities(self, line: OrderLine, word: str, spec: Mapping[str, Any]) -> None:
        """``wall roma``, ``walls roma, neapolis``, ``wall roma pay 1 marble``: one entry a
        city; a payment only after a single city."""
        cities = [line.province()]
        while (nxt := line.at()) is not None and nxt.key != "pay":
            line.accept("and")
            cities.append(line.province())
        if len(cities) > 1:
            if (nxt := line.at()) is not None and nxt.key == "pay":
                line.fail(nxt, f"a payment belongs to one {spec['one']}: write the {spec['many']} you "
                                     f"pay for one per line ('{spec['example']}')")
            line.end()
            self.data.setdefault(spec["key"], []).extend({"city": c} for c in cities)
            return
        self.data.setdefault(spec["key"], []).append(self._with_pay(line, {"city": cities[0]}))

    def _form_units(self, line: OrderLine, word: str, spec: Mapping[str, Any]) -> None:
        """``recruit 2 legions 1 galley pay 4 gold``: unit counts, given once."""
        units = line.amounts(UNIT_WORDS, f"2 {UNITS[0]}s 1 {UNITS[1]}", line.tokens[0])
        if not any(units.values()):
            line.note(line.tokens[1] if len(line.tokens) > 1 else None, f"{word} at least one unit")
        entry: dict[str, Any] = dict(units)
        self.once(line, spec["key"], f"'{word}'")
        self.data.setdefault(spec["key"], self._with_pay(line, entry))

    def _standing_own(self, line: OrderLine, key: str, token: Token) -> None:
        """``standing KEY CHOICE`` (a choice may be several words: ``when it saves the
        city``) or ``standing KEY CARD ...`` (or ``nothing``): a standing order of the
        edition's own (:meth:`Edition.standing_order_words
        <pbem.kernel.edition.Edition.standing_order_words>`)."""
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

    def _standing(self, line: OrderLine) -> None:
        token = line.at()
        kind = _STANDING_KINDS.get(token.key) if token is not None else None
        own = next((k for k in self.vocab.standing_words if token is not None and token.key == word_key(k)), None)
        if own is not None:
            assert token is not None  # own is the token's word
            line.take()
            self._standing_own(line, own, token)
            return
        if kind is None:
            own_only = [k for k in self.vocab.own_standing if token is not None and word_key(k) == token.key]
            if own_only and token is not None:
                line.fail(token, f"the standing order '{token.text}' belongs to this edition only and "
                                 "cannot be written as text orders; send it in an order file (JSON)")
            *kinds, last = ("battle", "bonus", "coin", *self.vocab.standing_words)
            line.expected(f"{', '.join(kinds)} or {last} after 'standing'")
        assert token is not None  # a kind of standing order is a word's
        line.take()
        if kind == "bonus_stack":
            line.accept("stack")
        elif kind == "coin_substitute":
            line.accept("substitute")
        standing = self.data.setdefault("standing", {})
        if kind == "battle":
            self._battle_stances(line, standing.setdefault("battle", {}))
            return
        value: str | list[str | None] | None
        if kind == "coin_substitute":
            value = line.name(self.vocab.coin_substitutes, "a coin substitute")
            line.end()
        else:
            value = self._bonus_stack(line, token)
        self.once(line, kind, f"'standing {token.text}'")
        standing.setdefault(kind, value)

    def _bonus_stack(self, line: OrderLine, after: Token) -> list[str | None]:
        names = self.vocab.personages
        stack: list[str | None] = []
        while line.at() is not None:
            stack.append(line.name(names, "a personage"))
        if None not in stack:
            missing = [p for p in names.labels if p not in stack]
            twice = sorted({p for p in stack if p is not None and stack.count(p) > 1})
            if missing or twice:
                why = "; ".join(filter(None, [f"missing {', '.join(missing)}" if missing else "",
                                              f"twice {', '.join(twice)}" if twice else ""]))
                line.note(after, f"the bonus stack names every personage once, in the order wanted ({why})")
        return stack

    def _battle_stances(self, line: OrderLine, battle: dict[str | None, Any]) -> None:
        """``always`` (the default), or pairs ``default home`` / ``romans always``."""
        first = line.at()
        if first is None:
            line.expected("a battle stance (always, never, home), or a nation and its stance")
        if line.at(1) is None:
            self._stance(line, battle, "default", first)
            battle.setdefault("default", line.name(self.vocab.stances, "a battle stance"))
            return
        while (token := line.at()) is not None:
            key: str | None
            if line.accept("default"):
                key = "default"
            else:
                key = line.name(self.vocab.nations, "'default' or a nation")
            self._stance(line, battle, key, token)
            if line.at() is None:
                line.expected(f"the battle stance for {token.text} (always, never, home)")
            battle.setdefault(key, line.name(self.vocab.stances, "a battle stance"))

    def _stance(self, line: OrderLine, battle: dict[str | None, Any], key: str | None, token: Token) -> None:
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
