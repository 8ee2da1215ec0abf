"""Antike Duellum's event cards as data: a small vocabulary of effects, and the referee for it.

Only FORTRESS is printed in the rulebook (001 L427-429); a GM who owns the game enters every
other card from the printed card (``new --data FILE``, ``event_cards``; ``gm-edit`` during a
game). A card is data, never code of its own: when it may be played, and a list of steps,
each one of :data:`STEPS` (docs/duellum.md, "Entering a card"). The four cards whose text is
known are written in this vocabulary too (``event-cards.json``).

A card::

    {"id": "academy", "name": "Academy", "text": "...",
     "when": ["after_move", "after"],         # when it may be played; default: any time of
                                              # one's own turn; or ["opponent_conquest"]
     "wedge": "scientia",                     # only in a turn whose rondel move goes there
     "effect": [{"kind": "gain", "chips": {"gold": 1},
                 "per": {"count": "knowhows", "of": "opponent"}}]}

``effect`` ``null`` is a card whose text nobody entered (it cannot be played). The effect
objects of the first kit (``{"kind": "gain", "chips": ...}``, ``fortress``, ``destroy_wall``,
``halve_coins``, ``gold_per_knowhow``, ``opponent_pays``) are still read: they are said in
this vocabulary (:func:`normalised`).

The order names what a card leaves open, in its ``events`` entry: ``city`` (the wall to
destroy, the city whose defence changes), ``at`` (where units are armed or removed),
``unit`` (which unit, where the card says ``any``), ``to`` (the wedge a stone goes to),
``cards`` (the cards of one's own hand to discard), and ``when`` (the moment of the turn).
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any

from pbem.kernel.vocab import MOMENTS, RESOURCES, UNITS

if TYPE_CHECKING:
    from pbem.kernel.turn import Turn

DURING_CONQUEST = "opponent_conquest"
"""The moment of a card played in the opponent's turn, when he conquers one of the
holder's cities (FORTRESS, 001 L429), by the holder's standing order ``fortress``."""

WHEN = (*MOMENTS, DURING_CONQUEST)

STEPS: dict[str, str] = {
    "gain": "the player takes chips from the supply and coins from the bank",
    "pay": "a nation pays chips and coins to the bank or to the player",
    "arm": "units of the player are set up in one of its cities, free",
    "remove": "units in a region, or a town wall, are removed",
    "move_stone": "a rondel stone moves on, without paying and without an action",
    "free_steps": "this turn's rondel move has more free steps",
    "defence": "a city's defence changes for one conquest",
    "draw": "a nation takes cards from the open display",
    "discard": "a nation discards cards from its hand",
}
"""The kinds of step a card's effect is made of, in words."""

COUNTS = {"knowhows": ("know-how", "owns"), "cities": ("city", "owns"), "temples": ("temple", "owns"),
          "walls": ("town wall", "has built"), "coins": ("coin", "holds"), "personages": ("personage", "holds"),
          "cards": ("event card", "holds")}
"""What a ``per`` may count, of either nation (its name and verb in words)."""

_KEYS: dict[str, set[str]] = {
    "gain": {"chips", "coins", "per"},
    "pay": {"who", "chips", "coins", "per", "to"},
    "arm": {"unit", "count", "from"},
    "remove": {"piece", "count", "whose"},
    "move_stone": {"whose", "steps"},
    "free_steps": {"steps"},
    "defence": {"change"},
    "draw": {"who", "count"},
    "discard": {"who", "count"},
}
_DURING_CONQUEST_STEPS = {"defence", "gain", "pay", "draw"}
"""Steps a card played during the opponent's conquest may have: the holder writes no
order then, so nothing it would have to name."""
ORDER_FIELDS = ("city", "at", "unit", "to", "cards")
"""The fields an ``events`` entry may give for what its card leaves open."""

LEGACY_KINDS = ("fortress", "destroy_wall", "halve_coins", "gold_per_knowhow", "gain", "opponent_pays")
"""The effect kinds of the first kit: one object per card (games of revision 1 play them as
they did; :func:`normalised` says each in this vocabulary)."""


# -- reading a card ----------------------------------------------------------------------


def normalised(card: dict[str, Any], after_wedge: bool = True) -> dict[str, Any]:
    """``card`` with ``when`` (the moments it may be played), ``wedge`` and ``steps`` (the
    effect as a list of steps; ``None`` for a card whose text is not entered); an effect of
    the first kit is said in this vocabulary.

    A card without ``when`` may be played at every moment of its holder's own turn (001
    L427), but one with a ``wedge`` only after the move to that wedge (``after_wedge``: a
    game of revision 3 of the rules; in one set up before, also before the move)."""
    effect = card.get("effect")
    wedge = card.get("wedge")
    when = list(card.get("when") or (MOMENTS[1:] if wedge and after_wedge else MOMENTS))
    if isinstance(effect, dict):
        kind = effect.get("kind")
        chips = dict(effect.get("chips", {}))
        if kind == "fortress":
            when, steps = [DURING_CONQUEST], [{"kind": "defence", "change": 1}]
        elif kind == "destroy_wall":
            steps = [{"kind": "remove", "piece": "wall", "whose": "any"}]
        elif kind == "halve_coins":
            steps = [{"kind": "pay", "who": "opponent", "coins": 1,
                      "per": {"count": "coins", "of": "opponent", "divided_by": 2}}]
        elif kind == "gold_per_knowhow":
            when, wedge = [MOMENTS[1], MOMENTS[2]], wedge or "scientia"
            steps = [{"kind": "gain", "chips": {"gold": 1}, "per": {"count": "knowhows", "of": "opponent"}}]
        elif kind == "gain":
            steps = [{"kind": "gain", "chips": chips, "coins": effect.get("coins", 0)}]
        else:  # opponent_pays
            steps = [{"kind": "pay", "who": "opponent", "chips": chips, "coins": effect.get("coins", 0)}]
    else:
        steps = [dict(s) for s in effect] if effect else None
    return {**card, "when": when, "wedge": wedge, "steps": steps}


def needs(steps: list[dict[str, Any]] | None, when: list[str] | tuple[str, ...] = MOMENTS) -> list[str]:
    """The fields an ``events`` entry must give for these steps of a card played at
    ``when``, in :data:`ORDER_FIELDS` order (none for a card played during the opponent's
    conquest: nobody writes an order then)."""
    if DURING_CONQUEST in when:
        return []
    out = set()
    for s in steps or ():
        kind = s["kind"]
        if kind == "remove":
            out.add("city" if s.get("piece") == "wall" else "at")
            if s.get("piece") == "unit":
                out.add("unit")
        elif kind == "arm":
            out.add("at")
            if s.get("unit", "any") == "any":
                out.add("unit")
        elif kind == "move_stone" and "steps" not in s:
            out.add("to")
        elif kind == "defence":
            out.add("city")
        elif kind == "discard" and s.get("who", "opponent") == "self":
            out.add("cards")
    return [f for f in ORDER_FIELDS if f in out]


def card_problems(card: dict[str, Any], wedges: tuple[str, ...] = ()) -> list[str]:
    """What is wrong with one card's ``when``, ``wedge`` and ``effect`` (the keys that make
    it playable), in words, each starting with the key at fault."""
    out = []
    when = card.get("when")
    if when is not None:
        if not (isinstance(when, list) and when and all(w in WHEN for w in when) and len(set(when)) == len(when)):
            out.append(f"when: a list of moments, each once: {', '.join(MOMENTS)}; or [\"{DURING_CONQUEST}\"]")
        elif DURING_CONQUEST in when and len(when) > 1:
            out.append(f"when: a card played during the opponent's conquest ({DURING_CONQUEST}) has no other moment")
    wedge = card.get("wedge")
    if wedge is not None and (not isinstance(wedge, str) or (wedges and wedge not in wedges)):
        out.append(f"wedge: one of {', '.join(wedges) or 'the wedges'}")
    effect = card.get("effect")
    if effect is None:
        return out
    if isinstance(effect, dict):
        return out + [f"effect: {p}" for p in _legacy_problems(effect)]
    if not isinstance(effect, list) or not 1 <= len(effect) <= 8:
        return out + ["effect: a list of 1 to 8 steps (or null: the text is not entered)"]
    moments = when if isinstance(when, list) and all(isinstance(w, str) for w in when) else list(MOMENTS)
    for i, step in enumerate(effect):
        out += [f"effect[{i}]: {p}" for p in step_problems(step, moments)]
    return out


def _legacy_problems(effect: dict[str, Any]) -> list[str]:
    if effect.get("kind") not in LEGACY_KINDS:
        return [f"a list of steps, each an object whose \"kind\" is one of {', '.join(STEPS)}"]
    allowed = {"kind"} | ({"chips", "coins"} if effect["kind"] in ("gain", "opponent_pays") else set())
    out = [f"{k!r} does not belong to a {effect['kind']} effect" for k in effect if k not in allowed]
    return out + _amount_problems(effect)


def step_problems(step: Any, moments: list[str]) -> list[str]:
    """What is wrong with one step of an effect, for a card played at ``moments``: its keys,
    its amounts and ``per``, then what its kind asks (:data:`_KIND_PROBLEMS`)."""
    if not isinstance(step, dict) or step.get("kind") not in STEPS:
        return [f"an object whose \"kind\" is one of {', '.join(STEPS)}"]
    kind = step["kind"]
    out = [f"{k!r} does not belong to a {kind} step (it takes {', '.join(sorted(_KEYS[kind])) or 'nothing'})"
           for k in step if k != "kind" and k not in _KEYS[kind]]
    if DURING_CONQUEST in moments and kind not in _DURING_CONQUEST_STEPS:
        out.append(f"a card played during the opponent's conquest has only {', '.join(sorted(_DURING_CONQUEST_STEPS))} "
                   "steps (its holder names nothing then)")
    out += _amount_problems(step)
    if "per" in step:
        per = step["per"]
        if not (isinstance(per, dict) and per.get("count") in COUNTS and per.get("of", "self") in ("self", "opponent")
                and set(per) <= {"count", "of", "divided_by"}
                and _whole(per.get("divided_by", 1), 1)):
            out.append(f"per: {{\"count\": one of {', '.join(COUNTS)}, \"of\": \"self\" or \"opponent\", "
                       "\"divided_by\": a whole number from 1 (rounded down)}")
    return out + _KIND_PROBLEMS[kind](step, moments)


def _gain_problems(step: dict[str, Any], moments: list[str]) -> list[str]:
    return [] if step.get("chips") or step.get("coins") else [f"a {step['kind']} step names chips or coins"]


def _pay_problems(step: dict[str, Any], moments: list[str]) -> list[str]:
    out = _gain_problems(step, moments)
    if step.get("who", "opponent") not in ("self", "opponent"):
        out.append("who: \"opponent\" (the default) or \"self\"")
    if step.get("to", "bank") not in ("bank", "player"):
        out.append("to: \"bank\" (the default) or \"player\" (the card's player)")
    if step.get("who", "opponent") == "self" and step.get("to", "bank") == "player":
        out.append("to: the player does not pay itself")
    return out


def _count_problems(step: dict[str, Any]) -> list[str]:
    return [] if _whole(step.get("count", 1), 1, 27) else ["count: a whole number from 1"]


def _arm_problems(step: dict[str, Any], moments: list[str]) -> list[str]:
    out = []
    if step.get("unit", "any") not in (*UNITS, "any"):
        out.append(f"unit: one of {', '.join(UNITS)}, or \"any\" (the order names it)")
    if step.get("from", "box") not in ("box", "supply"):
        out.append("from: \"box\" (the recruitment box, the default) or \"supply\"")
    return out + _count_problems(step)


def _remove_problems(step: dict[str, Any], moments: list[str]) -> list[str]:
    out = []
    if step.get("piece") not in (*UNITS, "unit", "wall"):
        out.append(f"piece: one of {', '.join(UNITS)}, \"unit\" (the order names it) or \"wall\"")
    whose = step.get("whose", "opponent")
    if whose not in ("opponent", "self", "any") or (whose == "any" and step.get("piece") != "wall"):
        out.append("whose: \"opponent\" (the default) or \"self\"; \"any\" for a wall")
    return out + _count_problems(step)


def _move_stone_problems(step: dict[str, Any], moments: list[str]) -> list[str]:
    out = []
    if step.get("whose", "self") not in ("self", "opponent"):
        out.append("whose: \"self\" (the default) or \"opponent\"")
    if "steps" in step and not _whole(step["steps"], 1, 7):
        out.append("steps: a whole number from 1 to 7 (left out: the order names the wedge, \"to\")")
    return out


def _free_steps_problems(step: dict[str, Any], moments: list[str]) -> list[str]:
    out = []
    if not _whole(step.get("steps"), 1, 7):
        out.append("steps: a whole number from 1 to 7")
    if any(m != MOMENTS[0] for m in moments):
        out.append(f"free steps help only a card played before the rondel move: give the card \"when\": "
                   f"[\"{MOMENTS[0]}\"]")
    return out


def _defence_problems(step: dict[str, Any], moments: list[str]) -> list[str]:
    out = []
    if not (_whole(step.get("change"), -5, 5) and step.get("change")):
        out.append("change: a whole number from -5 to 5, not 0")
    if MOMENTS[2] in moments:
        out.append(f"a defence changed in one's own turn helps only before the action: give the card \"when\": "
                   f"[\"{MOMENTS[0]}\", \"{MOMENTS[1]}\"] (or [\"{DURING_CONQUEST}\"])")
    if DURING_CONQUEST in moments and _whole(step.get("change"), -5, 5) and step["change"] < 0:
        out.append("change: a card played during the opponent's conquest raises the defence (a positive change)")
    return out


def _draw_problems(step: dict[str, Any], moments: list[str]) -> list[str]:
    who = step.get("who", "self" if step["kind"] == "draw" else "opponent")
    return _count_problems(step) + ([] if who in ("self", "opponent") else ["who: \"self\" or \"opponent\""])


_KIND_PROBLEMS = {"gain": _gain_problems, "pay": _pay_problems, "arm": _arm_problems, "remove": _remove_problems,
                  "move_stone": _move_stone_problems, "free_steps": _free_steps_problems,
                  "defence": _defence_problems, "draw": _draw_problems, "discard": _draw_problems}
"""Each kind of step -> what else is wrong with a step of that kind."""


def _amount_problems(step: dict[str, Any]) -> list[str]:
    out = []
    chips = step.get("chips", {})
    if not isinstance(chips, dict) or any(k not in RESOURCES or not _whole(v, 0) for k, v in chips.items()):
        out.append("chips: an object of marble, iron, gold -> a whole number from 0")
    if "coins" in step and not _whole(step["coins"], 0):
        out.append("coins: a whole number from 0")
    return out


def _whole(value: Any, low: int, high: int = 99) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


# -- in words ------------------------------------------------------------------------------

_MOMENT_WORDS = {MOMENTS[0]: "before the rondel move", MOMENTS[1]: "after the rondel move",
                 MOMENTS[2]: "after the action", DURING_CONQUEST: "in the opponent's turn, when he conquers one "
                                                                  "of your cities (by the standing order fortress)"}


def moments_words(when: list[str]) -> str:
    """``before the rondel move, after the rondel move or after the action``."""
    words = [_MOMENT_WORDS[w] for w in when]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _amount_words(step: dict[str, Any]) -> str:
    parts = [f"{n} {r}" for r, n in step.get("chips", {}).items() if n]
    if step.get("coins"):
        parts.append(f"{step['coins']} coin{'' if step['coins'] == 1 else 's'}")
    amount = " and ".join(parts) or "nothing"
    per = step.get("per")
    if per:
        who = "the opponent" if per.get("of") == "opponent" else "you"
        noun, verb = COUNTS[per["count"]]
        verb = {"owns": "own", "holds": "hold", "has built": "have built"}[verb] if who == "you" else verb
        by = per.get("divided_by", 1)
        plural = "cities" if noun == "city" else noun + "s"
        amount += (f" for each {by} {plural} {who} {verb} (rounded down)" if by > 1
                   else f" for each {noun} {who} {verb}")
    return amount


def step_words(step: dict[str, Any], during: bool = False) -> str:
    """One step, as a sentence part a player reads (``take 1 gold for each know-how the
    opponent owns``); ``during``: of a card played during the opponent's conquest."""
    kind = step["kind"]
    if kind == "gain":
        return f"take {_amount_words(step)}"
    if kind == "pay":
        who = "you pay" if step.get("who") == "self" else "the opponent pays"
        held = "" if step.get("who") == "self" else " (as far as he holds it)"
        return f"{who} {_amount_words(step)} to {'you' if step.get('to') == 'player' else 'the bank'}{held}"
    if kind == "arm":
        n, unit = step.get("count", 1), step.get("unit", "any")
        what = f"{n} {'unit' if unit == 'any' else unit}{'' if n == 1 else 's'}"
        where = "your recruitment box" if step.get("from", "box") == "box" else "your supply"
        names = "the city: \"at\", and the unit: \"unit\"" if unit == "any" else "it: \"at\""
        return f"arm {what} from {where} free in one of your cities (the order names {names})"
    if kind == "remove":
        whose = {"opponent": "the opponent's", "self": "your own", "any": "any"}[step.get("whose", "opponent")]
        if step.get("piece") == "wall":
            return f"destroy {whose} town wall (the order names the city: \"city\"); it goes back to its owner's supply"
        n, piece = step.get("count", 1), step.get("piece")
        names = "the region: \"at\", and the unit: \"unit\"" if piece == "unit" else "it: \"at\""
        return (f"remove {n} of {whose} {'unit' if piece == 'unit' else piece}s in one region (the order names "
                f"{names}); they go to their recruitment box")
    if kind == "move_stone":
        whose = "the opponent's" if step.get("whose") == "opponent" else "your"
        far = f"{step['steps']} step{'' if step['steps'] == 1 else 's'} on" if "steps" in step else \
            "on to the wedge the order names (\"to\")"
        return f"{whose} rondel stone moves {far}, free and without an action"
    if kind == "free_steps":
        return f"this turn's rondel move has {step['steps']} more free step{'' if step['steps'] == 1 else 's'}"
    if kind == "defence":
        change = step["change"]
        more = f"{abs(change)} {'higher' if change > 0 else 'lower'}"
        if during:
            return (f"the city's defence is {more} for that conquest: the city holds if he lacks the "
                    f"unit{'' if change == 1 else 's'} for it, otherwise he loses {change} unit{'' if change == 1 else 's'} more")
        return f"the defence of the city the order names (\"city\") is {more} for this turn's conquest of it"
    if kind == "draw":
        n = step.get("count", 1)
        who = "the opponent takes" if step.get("who") == "opponent" else "take"
        return f"{who} {n} card{'' if n == 1 else 's'} from the open display"
    n = step.get("count", 1)
    if step.get("who") == "self":
        return f"discard {n} card{'' if n == 1 else 's'} of your hand (the order names them: \"cards\")"
    return f"the opponent discards {n} card{'' if n == 1 else 's'} of his hand, drawn at random"


def when_words(card: dict[str, Any], after_wedge: bool = True) -> str:
    """When a card is played, in words: ``played after the rondel move or after the action,
    in a turn whose rondel move goes to SCIENTIA``."""
    card = normalised(card, after_wedge)
    when = moments_words(card["when"])
    if card.get("wedge"):
        when += f", in a turn whose rondel move goes to {card['wedge'].upper()}"
    return f"played {when}"


def words(card: dict[str, Any], after_wedge: bool = True) -> str:
    """What a card does and when it is played, in words (``check``, ``options``, the docs)."""
    said = normalised(card, after_wedge)
    if said["steps"] is None:
        return ""
    during = DURING_CONQUEST in said["when"]
    return f"{when_words(card, after_wedge)}: " + "; ".join(step_words(s, during) for s in said["steps"])


# -- playing a card ------------------------------------------------------------------------


def amount_per(t: Turn, holder: str, step: dict[str, Any]) -> int:
    """How many times a step's amounts count: 1, or its ``per`` counted now."""
    per = step.get("per")
    if not per:
        return 1
    from pbem.editions.duellum.pieces import opponent, walls_of

    nation = opponent(t.state, holder) if per.get("of") == "opponent" else holder
    st = t.state
    ns = st.nations[nation]
    count = {"knowhows": lambda: len(ns.knowhow), "cities": lambda: len(st.cities(nation)),
             "temples": lambda: len(st.temples(nation)), "walls": lambda: len(walls_of(st, nation)),
             "coins": lambda: ns.coins, "personages": lambda: ns.personage_count(),
             "cards": lambda: len(ns.extra["hand"])}[per["count"]]()
    return count // per.get("divided_by", 1)


def random_index(secret: str, turn: int, nation: str, k: int, size: int) -> int:
    """A card of a hand drawn at random, from the game's secret (never from what a player's
    copy holds): the same in every replay."""
    digest = hashlib.sha256(f"{secret}:discard {turn}:{nation}:{k}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % size
