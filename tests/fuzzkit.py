"""The fuzzing kit behind tests/test_fuzz.py and bench/soak_fuzz.py: valid inputs, ways to
break them, and the judge that says whether a broken input hurt anything.

Every input kind starts from real, valid files (:func:`build_base`: games played by the
bots, an order file the bot wrote for each, a GM edit, boards, order mails) and is broken
in one of many ways: its bytes (:func:`mutate_bytes`: garbage, cut-off JSON, invalid UTF-8,
byte-order marks, ``NaN`` and ``1e999``, deep nesting, very long lines), its JSON
(:func:`mutate_json`: wrong types, missing, extra and renamed keys, huge, negative and
fractional numbers, very long strings, names with markup characters, unknown nations and
provinces, an entry duplicated or dropped, or one value changed to another plausible one),
its lines (:func:`mutate_text_lines`, text orders), its mail structure
(:func:`mutate_mail`). Game files also have their history tampered with
(:func:`tamper_history`: a value inside an entry changed, an entry removed, swapped or
duplicated, a hash, ``prev`` or ``seq`` changed).

A case is run through the real command line (in-process by default, or as a subprocess of
the console script) and judged (:func:`judge`): the exit code is a documented one and never
1 (internal error), nothing on stderr looks like a crash, a failure says what is wrong in
one message starting with ``antike-ref:``, the game file is byte for byte what it was after
any failing command (and after every command that only reads it), no lock or temporary
file is left behind, and ``verify`` names the first tampered history entry (exit 6) or
calls the file bad input (exit 3). Mails are read in-process, as the mail cycle reads
them (:func:`mail_problems`).

Antike II (``antike2``) is among the valid material: a game on Mare Nostrum (nine
scholars) and one on the Orient excerpt, a board from a file (free city types), each a
sample of its own for the game and history kinds; order files with a trade whose ``get``
is several chips, BELLONA's ``"free": true`` and a ``found`` with ``"resource"``; a GM edit
with ``neutral_temple``, ``resource`` and ``bellona`` items. A recipe of the corpus may
name the sample it changes (``"sample": "antike2"``: its game, or its GM edit for an
``edit`` recipe) and the position of an order file by name (``"position": "a2-trade"``).

Randomness comes only from :class:`random.Random` with the seeds given, so the same seed
gives the same inputs.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC
from pathlib import Path
from typing import Any

from conftest import FOUR, PASSWORDS, cli_run

ROOT = Path(__file__).resolve().parent.parent
EXE = str(Path(sys.executable).with_name("antike-ref"))

KINDS = ("orders", "textorders", "edit", "game", "history", "map", "mail")
"""Every kind of input the fuzzer breaks."""

EXIT_CODES = {0, 2, 3, 4, 5, 6, 7}
"""The documented exit codes other than 1 (internal error)."""

STRANGE_NAMES = [
    "<script>alert(1)</script>", "a&b", "Tom & Jerry <tom@x.example>", '"quoted"', "it's", "{{ x }}",
    "[b]bold[/b]", "**bold**", "\u202eevil", "na\u0000me", "line\nbreak", "tab\there", "\udcff", "é",
    "Ελλάδα", "🏛️", "klingons", "atlantis", "ATHEN", "Leptis Magna", "", " ", "-1", "null", "%s%n",
    "../../../outside", "x" * 300,
]
"""Strings that have broken (or could break) a parser, a report or a message."""


# -- JSON values: walking and changing ---------------------------------------------------------------


def json_paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    """The path of every node in ``value`` (the root is ``()``)."""
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out += json_paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += json_paths(v, prefix + (i,))
    return out


def get_at(value: Any, path: tuple) -> Any:
    for step in path:
        value = value[step]
    return value


def set_at(value: Any, path: tuple, new: Any) -> Any:
    """``value`` with the node at ``path`` replaced (the root itself when ``path`` is empty)."""
    if not path:
        return new
    get_at(value, path[:-1])[path[-1]] = new
    return value


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def _strange_value(rng: random.Random, old: Any) -> Any:
    """A value of another kind than ``old``, or an extreme one of its kind."""
    choices: list[Callable[[], Any]] = [
        lambda: None, lambda: True, lambda: False, lambda: 0, lambda: -1, lambda: -(10 ** rng.randint(3, 30)),
        lambda: 10 ** rng.randint(3, 400), lambda: rng.uniform(-1e6, 1e6), lambda: 0.5, lambda: 1e308,
        lambda: "", lambda: rng.choice(STRANGE_NAMES), lambda: "x" * rng.choice([1000, 100_000]),
        lambda: [], lambda: {}, lambda: [old], lambda: {"x": old}, lambda: [[[[[[[[[[]]]]]]]]]],
        lambda: {"<k>": "&v"}, lambda: [None] * rng.randint(2, 50),
    ]
    if isinstance(old, bool):
        choices.append(lambda: not old)
    elif isinstance(old, (int, float)):
        choices += [lambda: old + 1, lambda: old - 1, lambda: -old - 1, lambda: old * 1000 + 7,
                    lambda: float(old) + 0.5, lambda: str(old), lambda: 2 ** 63, lambda: -(2 ** 63)]
    elif isinstance(old, str):
        choices += [lambda: old.upper(), lambda: old + "x", lambda: old[:-1], lambda: " " + old,
                    lambda: old * 50, lambda: old + "<&\">", lambda: old.replace("_", " ")]
    return rng.choice(choices)()


def _plausible_value(rng: random.Random, old: Any, vocabulary: list[str]) -> Any:
    """Another value of the kind ``old`` is: a small number, another known name, ..."""
    if isinstance(old, bool):
        return not old
    if isinstance(old, int):
        return rng.choice([old + 1, old - 1, 0, 1, 2, rng.randint(0, 20), old * 2, 99])
    if isinstance(old, str):
        return rng.choice(vocabulary) if vocabulary and rng.random() < 0.8 else old.capitalize()
    if isinstance(old, list) and old:
        out = list(old)
        if rng.random() < 0.5:
            del out[rng.randrange(len(out))]
        else:
            out.append(copy.deepcopy(rng.choice(out)))
        return out
    if isinstance(old, dict) and old:
        out = dict(old)
        del out[rng.choice(list(out))]
        return out
    return old


def _differs(a: Any, b: Any) -> bool:
    return canonical(a) != canonical(b)


def mutate_json(rng: random.Random, data: Any, vocabulary: list[str] = ()) -> tuple[Any, str]:
    """One near-valid change of a copy of ``data``: returns the changed value and what was done.

    ``vocabulary`` holds valid names (nations, provinces, wedges) to swap in for others.
    """
    for _ in range(50):
        out = copy.deepcopy(data)
        paths = json_paths(out)
        path = rng.choice(paths)
        node = get_at(out, path)
        how = rng.choice(["value", "value", "value", "name", "delete", "extra", "dup", "drop", "swap",
                          "rename", "wrap", "same", "same", "same", "same"])
        where = "$" + "".join(f"[{p!r}]" for p in path)
        if how == "same":  # a value of the same kind, as a player or a GM could write it
            out = set_at(out, path, _plausible_value(rng, node, vocabulary))
        elif how == "value":
            out = set_at(out, path, _strange_value(rng, node))
        elif how == "name" and isinstance(node, str):
            pool = list(vocabulary) + STRANGE_NAMES
            out = set_at(out, path, rng.choice(pool))
        elif how == "delete" and path:
            parent = get_at(out, path[:-1])
            del parent[path[-1]]
        elif how == "extra" and isinstance(node, dict):
            node[rng.choice(["extra", "comment", "<x>", "", "nation", "rondel", "maneuver", "$schema",
                             "found", "turn", "password"]) + rng.choice(["", "", "_"])] = _strange_value(rng, None)
        elif how == "dup" and isinstance(node, list) and node:
            i = rng.randrange(len(node))
            node.insert(i, copy.deepcopy(node[i]))
        elif how == "drop" and isinstance(node, list) and node:
            del node[rng.randrange(len(node))]
        elif how == "swap" and isinstance(node, list) and len(node) > 1:
            i, j = rng.sample(range(len(node)), 2)
            node[i], node[j] = node[j], node[i]
        elif how == "rename" and isinstance(node, dict) and node:
            key = rng.choice(list(node))
            new = rng.choice([key.upper(), key + "s", key[:-1], key.replace("_", "-"), "x" + key])
            if new not in node:
                node[new] = node.pop(key)
        elif how == "wrap" and path:
            out = set_at(out, path, rng.choice([[node], {"value": node}]))
        else:
            continue
        if _differs(out, data):
            return out, f"{how} at {where}"
    return {"broken": True}, "replaced whole"


A2_ODD_VALUES: list[Any] = ["marble", "iron", "gold", "coin", "choice", "none", "Gold", "", None, True, False, 0, 1,
                             -1, 2, 3, 99, {"marble": 1, "iron": 1}, {"gold": 2}, {"coin": 2}, {"marble": 0},
                             {"iron": -1}, {}, ["gold"], "romans", "greeks", "ancona", "atlantis"]
"""Values that are near what Antike II's own order and edit fields take."""


def mutate_antike2(rng: random.Random, data: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """One change of an Antike II order file or GM edit in what only Antike II has: the
    ``free`` mark on arm entries (twice, on every entry, not a boolean), a found's
    ``resource`` (where none is chosen, a coin, a site kind), a trade's ``give`` and ``get``
    (coins, too many or too few chips, several chips for a 2:1 trade), and the edit items
    ``neutral_temple``, ``resource`` and ``bellona``."""
    out = copy.deepcopy(data)
    how = "edit" if "edits" in out else rng.choice(["free", "resource", "trade"])
    if how == "free":
        entries = out.setdefault("arm", [{"unit": "legion", "at": "roma", "count": 1}])
        for entry in (entries if rng.random() < 0.4 else [rng.choice(entries)]):
            entry["free"] = rng.choice([True, True, False, 1, "yes", None])
        if rng.random() < 0.3:
            entries.append({**rng.choice(entries), "free": True})
        if rng.random() < 0.2:
            out["rondel"] = {"to": rng.choice(["militia", "arming", "movere", "ferrum"])}
    elif how == "resource":
        found = out.setdefault("found", [{"city": "paphos"}])
        entry = rng.choice(found)
        entry["resource"] = rng.choice(A2_ODD_VALUES)
        if rng.random() < 0.3:
            entry["city"] = rng.choice(["ancona", "hierapolis", "paphos", "roma", "carales", "attalia"])
    elif how == "trade":
        trades = out.setdefault("trade", [{"give": {"gold": 2}, "get": "marble"}])
        deal = rng.choice(trades)
        which = rng.choice(["give", "get", "both", "more"])
        if which in ("give", "both"):
            deal["give"] = rng.choice([{"gold": 3}, {"gold": 1}, {"coin": 2}, {"marble": 1, "iron": 1},
                                       {"gold": 2, "coin": 1}, {"iron": 4}, {"gold": -2}, {}])
        if which in ("get", "both"):
            deal["get"] = rng.choice(A2_ODD_VALUES)
        if which == "more":
            trades.extend(copy.deepcopy(trades) * rng.randint(1, 3))
    else:
        edits = out["edits"]
        item = rng.choice([{"province": rng.choice(["ancona", "roma", "carales", "dodona", "atlantis", "eryx"]),
                            "neutral_temple": rng.choice(A2_ODD_VALUES)},
                           {"province": rng.choice(["roma", "ancona", "pisae", "paphos", "carales"]),
                            "resource": rng.choice(A2_ODD_VALUES)},
                           {"bellona": rng.choice(A2_ODD_VALUES)},
                           {"province": "ancona", "neutral_temple": True, "owner": "romans"},
                           {"province": "roma", "owner": None, "neutral_temple": True}])
        edits.insert(rng.randrange(len(edits) + 1), item)
    return out, f"antike2 {how}"


# -- bytes: breaking a file's text -------------------------------------------------------------------


def nest(depth: int, opener: str = "[") -> bytes:
    closer = {"[": "]", "{": "}"}[opener]
    if opener == "{":
        return ('{"a":' * depth + "1" + "}" * depth).encode()
    return (opener * depth + closer * depth).encode()


def mutate_bytes(rng: random.Random, data: bytes) -> tuple[bytes, str]:
    """One change of a file's bytes that a text editor, a mail program or a disk could make."""
    how = rng.choice(["garbage", "truncate", "truncate", "bad-utf8", "bom", "flip", "empty", "scalar",
                      "nan", "dupkey", "trailing", "nest", "nest-inside", "nul", "crlf", "latin1", "utf16",
                      "long-line"])
    n = len(data)
    if how == "garbage":
        return bytes(rng.randrange(256) for _ in range(rng.randint(1, 400))), how
    if how == "truncate":
        return data[:rng.randrange(max(1, n))], how
    if how == "bad-utf8":
        i = rng.randrange(max(1, n))
        return data[:i] + rng.choice([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\x80"]) + data[i:], how
    if how == "bom":
        return rng.choice([b"\xef\xbb\xbf", b"\xef\xbb\xbf\xef\xbb\xbf", b"\xff\xfe"]) + data, how
    if how == "flip":
        out = bytearray(data)
        for _ in range(rng.randint(1, 5)):
            if out:
                out[rng.randrange(len(out))] = rng.randrange(256)
        return bytes(out), how
    if how == "empty":
        return rng.choice([b"", b" ", b"\n\n", b"\xef\xbb\xbf"]), how
    if how == "scalar":
        return rng.choice([b"null", b"0", b"[]", b"\"text\"", b"true", b"-1e999", b"[{}]", b"{}"]), how
    if how == "nan":
        digits = [k for k, b in enumerate(data) if 0x30 <= b <= 0x39]
        k = rng.choice(digits) if digits else 0
        word = rng.choice([b"NaN", b"Infinity", b"-Infinity", b"1e999", b"-1e999", b"1" * 5000, b"1.5e300"])
        return data[:k] + word + data[k + 1:], f"{how} {word[:8].decode()}"
    if how == "dupkey":
        i = data.find(b"{")
        if i >= 0:
            return data[:i + 1] + b'"game": 5, "nation": [], ' + data[i + 1:], how
        return data + b"{", how
    if how == "trailing":
        return data + rng.choice([b"}", b"]", b",", b"{}", b"\x00", b"garbage"]), how
    if how == "nest":
        return nest(rng.choice([65, 100, 1000, 5000]), rng.choice("[{")), how
    if how == "nest-inside":  # a key of its own, nested deep, in an otherwise valid file
        i = data.find(b"{")
        depth = rng.choice([30, 62, 63, 64, 70, 500])
        if i >= 0:
            return data[:i + 1] + b'"deep": ' + b"[" * depth + b"1" + b"]" * depth + b", " + data[i + 1:], \
                f"{how} {depth}"
        return data + b"[", how
    if how == "nul":
        i = rng.randrange(max(1, n))
        return data[:i] + b"\x00" + data[i:], how
    if how == "crlf":
        return data.replace(b"\n", b"\r\n"), how
    if how == "latin1":
        return data.decode("utf-8", "replace").replace("e", "é").encode("latin-1", "replace"), how
    if how == "utf16":
        return data.decode("utf-8", "replace").encode("utf-16"), how
    i = rng.randrange(max(1, n))
    return data[:i] + b"x" * rng.choice([10_000, 200_000]) + data[i:], "long-line"


def mutate_text_lines(rng: random.Random, text: str, vocabulary: list[str]) -> tuple[str, str]:
    """One change of text orders: a line dropped, doubled or swapped, a word replaced or cut."""
    lines = text.splitlines()
    how = rng.choice(["drop", "dup", "swap", "word", "word", "cut", "insert", "long"])
    if how == "drop" and lines:
        del lines[rng.randrange(len(lines))]
    elif how == "dup" and lines:
        i = rng.randrange(len(lines))
        lines.insert(i, lines[i])
    elif how == "swap" and len(lines) > 1:
        i, j = rng.sample(range(len(lines)), 2)
        lines[i], lines[j] = lines[j], lines[i]
    elif how in ("word", "cut") and lines:
        i = rng.randrange(len(lines))
        words = lines[i].split(" ")
        k = rng.randrange(len(words))
        if how == "word":
            words[k] = rng.choice([*vocabulary, *STRANGE_NAMES, "-5", "99999999999999999999", "0", "1.5",
                                   "->", "with", "pay", "at", "#", '"', "'"])
        else:
            words = words[:k]
        lines[i] = " ".join(words)
    elif how == "insert":
        lines.insert(rng.randrange(len(lines) + 1), rng.choice([
            "move 99 legions athen -> x", "conquer", "rondel", "found \"", "battle 1 galley at at against",
            "standing battle default sometimes", "trade 2 gold for gold", "arm -1 legion at athen",
            "knowhow", "temple athen pay 9999999999999999999999 gold", "> quoted", "-- ", "nation nation"]))
    else:
        lines.append("x" * rng.choice([5000, 100_000]))
    return "\n".join(lines) + "\n", f"text {how}"


# -- the valid material the fuzzer starts from ------------------------------------------------------


@dataclass
class Position:
    """A game file and a legal order file for its active nation."""

    name: str
    game: bytes
    orders: dict[str, Any]
    text_orders: str


@dataclass
class Sample:
    """A game file to break, with a legal order file and a GM edit for it."""

    name: str
    game: bytes
    orders: dict[str, Any]
    edit: dict[str, Any]

    @property
    def json(self) -> dict[str, Any]:
        return json.loads(self.game)


@dataclass
class Base:
    """Valid inputs of every kind, built once into ``folder``."""

    folder: Path
    positions: list[Position] = field(default_factory=list)
    game: bytes = b""
    """The game most game and history cases start from: turns, a GM edit, standing orders."""
    game_json: dict[str, Any] = field(default_factory=dict)
    edit: dict[str, Any] = field(default_factory=dict)
    orders: dict[str, Any] = field(default_factory=dict)
    """A legal order file for :attr:`game`."""
    samples: list[Sample] = field(default_factory=list)
    """:attr:`game` and others: a variant's game, a game on a board from a file, Antike II."""
    edits: list[tuple[bytes, dict[str, Any]]] = field(default_factory=list)
    """More GM edits, each with the game it is for (Antike II's own items)."""
    maps: dict[str, tuple[bytes, dict[str, bytes]]] = field(default_factory=dict)
    """name -> (map file, {file beside it: content}) (the provinces table)."""
    mails: list[bytes] = field(default_factory=list)
    mail_game: Any = None
    mail_config: Any = None
    vocabulary: list[str] = field(default_factory=list)


def _orders_text(game, orders: dict[str, Any]) -> str:
    from pbem.kernel.orders import canonical_orders
    from pbem.service.language.writer import format_text_orders

    return format_text_orders(canonical_orders(orders, game.edition), game.edition, game.board)


def build_base(folder: Path) -> Base:
    """Play a game with the bots and collect valid inputs of every kind (a few seconds)."""
    from pbem.kernel.orders import canonical_edit, canonical_orders
    from pbem.play.bot import play_turn
    from pbem.play.selfplay import start_game
    from pbem.service import passwords, turns
    from pbem.service.store import game_text

    folder.mkdir(parents=True, exist_ok=True)
    base = Base(folder)
    game, plain = start_game("fuzz", FOUR, "fuzz-seed", iterations=1000)
    assert plain == {n: PASSWORDS[n] for n in FOUR}
    seen: set[tuple] = set()
    for turn in range(1, 49):
        mode = "random" if turn % 3 else "greedy"
        orders = {**play_turn(game, mode), "password": PASSWORDS[game.state.status.active]}
        shape = (orders["rondel"]["to"] if isinstance(orders.get("rondel"), dict) else orders.get("rondel"),
                 tuple(sorted(k for k in orders if isinstance(orders[k], list))))
        if shape not in seen and turn > 3:
            seen.add(shape)
            base.positions.append(Position(f"turn-{turn}", game_text(game).encode(), orders,
                                           _orders_text(game, orders)))
        game, _ = turns.play(game, canonical_orders(orders, game.edition))
        if turn == 20:
            nation = game.state.status.active
            rival = "greeks" if nation != "greeks" else "arabs"
            standing = {"game": "fuzz", "nation": nation, "password": PASSWORDS[nation],
                        "standing": {"battle": {"default": "always", rival: "never"}, "coin_substitute": "gold"}}
            base.positions.append(Position("standing", game_text(game).encode(), standing,
                                           _orders_text(game, standing)))
            game, _ = turns.play(game, canonical_orders(standing, game.edition))
        if turn == 30:
            game = turns.edit(game, canonical_edit(_edit(game), game.edition))
    # a new player for a nation not on turn, with the same password (antike-ref player)
    other = next(n for n in game.seats if n != game.state.status.active)
    hashed = passwords.hash_password(PASSWORDS[other], passwords.salt_for(f"{game.seed}:{len(game.history)}", other),
                                     passwords.MIN_ITERATIONS)
    game = turns.replace_player(game, other, "Bea <the & new>", "bea@players.example", hashed, "moved away")
    base.game = game_text(game).encode()
    base.game_json = json.loads(base.game)
    base.orders = {**play_turn(game, "greedy"), "password": PASSWORDS[game.state.status.active]}
    base.edit = _edit(game)
    board = game.board
    base.vocabulary = sorted({*game.edition.nations, *board.provinces, *game.edition.rondel.names,
                              *game.edition.knowhows, *game.edition.personages, "legion", "galley",
                              "marble", "iron", "gold", "coin"})
    for name in ("antike-west",):
        base.maps[name] = ((ROOT / "maps" / f"{name}.json").read_bytes(), {})
    made = folder / "kit"
    made.mkdir(exist_ok=True)
    result = cli_run("map", "new", made / "small.json", "--template", "east", "--force")
    assert result.exit_code == 0, result.stderr
    base.maps["kit"] = ((made / "small.json").read_bytes(),
                        {"small.provinces.csv": (made / "small.provinces.csv").read_bytes()})
    base.samples = [Sample("main", base.game, base.orders, base.edit),
                    _sample("military", start_game("fuzzmil", ["greeks", "persians", "arabs"], "fuzz-mil",
                                                   variants=("military",))[0], 30),
                    _sample("kit-board", start_game("fuzzkit", ["greeks", "persians", "arabs"], "fuzz-kit",
                                                    board=_kit_board(made / "small.json"))[0], 12)]
    base.mails, base.mail_game = _mails(base, game)
    from mailkit import config
    from pbem.mail.config import load_config

    base.mail_config = load_config(config(folder, folder / "mail-game.json"))
    _antike2(base)
    return base


A2_THREE = ["romans", "carthaginians", "greeks"]
A2_PASSWORDS = {n: f"pw-{n}" for n in ("romans", "carthaginians", "greeks", "persians", "phoenicians")}
ORIENT = ROOT / "tests" / "data" / "boards" / "antike2-orient-excerpt.json"


def _antike2(base: Base) -> None:
    """Antike II's valid material: two bot games (samples), three positions whose order
    files use what only Antike II has, and a GM edit of its own items."""
    from pbem import editions
    from pbem.kernel.orders import canonical_edit
    from pbem.kernel.turn import resolve
    from pbem.play.bot import build_turn
    from pbem.play.selfplay import bot_turn, start_game
    from pbem.service import turns
    from pbem.service.store import game_text

    a2 = editions.get("antike2")

    def edited(game, *items):
        change = {"game": game.game_id, "reason": "fuzz position", "edits": list(items)}
        return turns.edit(game, canonical_edit(change, a2))

    def position(name: str, game, orders: dict[str, Any]) -> None:
        resolve(game.state, orders, game.edition, game.board)  # legal, or the kit is wrong
        orders = {**orders, "password": A2_PASSWORDS[orders["nation"]]}
        base.positions.append(Position(name, game_text(game).encode(), orders, _orders_text(game, orders)))

    game, _ = start_game("fuzz2", A2_THREE, "fuzz-a2", "antike2", "antike2-mare-nostrum", ("nine_scholars",),
                         iterations=1000)
    for k in range(30):
        game, _ = bot_turn(game, A2_PASSWORDS, "random" if k % 2 else "greedy")
    nation = game.state.status.active
    rng = random.Random(1)
    trade = edited(game, {"nation": nation, "knowhow": sorted({*game.state.nations[nation].knowhow, "mercatura",
                                                              "commercium"}),
                          "resources": {"marble": 3, "iron": 0, "gold": 4}, "coins": 0, "rondel": 0})
    orders = build_turn(trade, {"to": "templum"}, rng, eager=1.0)
    assert isinstance(orders.get("trade", [{}])[0].get("get"), dict), orders
    position("a2-trade", trade, orders)
    bellona = edited(game, {"bellona": nation}, {"nation": nation, "resources": {"iron": 2}, "coins": 0,
                                                 "rondel": 2})
    orders = build_turn(bellona, {"to": "militia"}, rng, eager=1.0)
    assert orders["arm"][0].get("free") is True, orders
    position("a2-bellona", bellona, orders)
    base.samples.append(_sample("antike2", game, 0, A2_PASSWORDS))
    city = game.state.cities(nation)[0]
    empty = next(p for p in sorted(game.board.provinces)
                 if p not in game.state.provinces and game.board.province(p).site != "none")
    base.edits.append((base.samples[-1].game, {"game": game.game_id, "reason": "Antike II: <temple> & type", "edits": [
        {"province": empty, "neutral_temple": True},
        {"province": "ancona", "neutral_temple": False},
        {"province": city, "resource": "gold"},
        {"bellona": nation},
        {"nation": nation, "knowhow": ["mercatura"]},
    ]}))

    from pbem.service.boards import load_map_file

    orient, _ = start_game("fuzz3", ["greeks", "persians", "phoenicians"], "fuzz-orient", "antike2",
                           load_map_file(ORIENT), ("free_city_types",), iterations=1000)
    for k in range(16):
        orient, _ = bot_turn(orient, A2_PASSWORDS, "greedy" if k % 2 else "random")
    nation = orient.state.status.active
    founding = edited(orient, {"province": "paphos", "owner": None},
                      {"province": "paphos", "units": {nation: {"legion": 0, "galley": 1}}},
                      {"province": "attalia", "owner": None},
                      {"province": "attalia", "units": {nation: {"legion": 1, "galley": 0}}},
                      {"nation": nation, "resources": {"marble": 4, "iron": 4, "gold": 2}, "coins": 0})
    orders = {"game": orient.game_id, "nation": nation, "turn": orient.state.status.turn,
              "rondel": orders_rondel(founding, nation), "found": [{"city": "paphos", "resource": "gold"},
                                                                   {"city": "attalia", "resource": "iron"}]}
    position("a2-found", founding, orders)
    base.samples.append(_sample("antike2-orient", orient, 0, A2_PASSWORDS))
    base.vocabulary = sorted({*base.vocabulary, *a2.nations, *game.board.provinces, *orient.board.provinces,
                              *a2.rondel.names, *a2.knowhows, *a2.personages, *a2.variants, "bellona",
                              "neutral_temple", "resource", "free", "choice", "give", "get", "trade"})


def antike2_base(base: Base) -> Base:
    """``base`` narrowed to its Antike II material: its positions, samples and GM edit (for
    inputs that are all Antike II's)."""
    import dataclasses

    samples = [s for s in base.samples if s.name.startswith("antike2")]
    game, edit = base.edits[0]
    return dataclasses.replace(base, positions=[p for p in base.positions if p.name.startswith("a2-")],
                               samples=samples, game=game, game_json=json.loads(game), edit=edit,
                               orders=samples[0].orders, edits=[(game, edit)])


def orders_rondel(game, nation: str) -> dict[str, Any]:
    """A free rondel move for ``nation`` to a production wedge (the GM's default turn's)."""
    from pbem.kernel import queries

    return queries.default_orders(game.state, game.edition, game.board, nation)["rondel"]


def _kit_board(path: Path):
    from pbem.service.boards import load_map_file

    return load_map_file(path)


def _sample(name: str, game, turns_: int, passwords: dict[str, str] = PASSWORDS) -> Sample:
    """``game`` after ``turns_`` bot turns, as a :class:`Sample`."""
    from pbem.play.bot import play_turn
    from pbem.play.selfplay import bot_turn
    from pbem.service.store import game_text

    for k in range(turns_):
        game, _ = bot_turn(game, passwords, "random" if k % 2 else "greedy")
    orders = {**play_turn(game, "greedy"), "password": passwords[game.state.status.active]}
    return Sample(name, game_text(game).encode(), orders, _edit(game))


def _edit(game) -> dict[str, Any]:
    """A GM edit of every kind docs/orders.md shows, fitting ``game``."""
    st = game.state
    nation = st.status.active
    other = next(n for n in game.seats if n != nation)
    city = st.cities(other)[0]
    empty = next(p for p in game.board.provinces if p not in st.provinces and game.board.provinces[p].land)
    return {"game": game.game_id, "reason": "Ruling: <b>dispute</b> & \"correction\"", "edits": [
        {"nation": nation, "resources": {"marble": 1, "iron": 2, "gold": 3}, "coins": 1},
        {"nation": other, "knowhow": [next(iter(game.edition.knowhows))],
         "personages": {next(iter(game.edition.personages)): 1}},
        {"nation": other, "rondel": 2},
        {"province": city, "temple": True},
        {"province": empty, "units": {other: {"legion": 1, "galley": 0}}},
        {"bank": {"coins": 5}},
        {"active": other},
    ]}


def _mails(base: Base, game) -> tuple[list[bytes], Any]:
    from mailkit import ADDRESSES, mail

    pos = base.positions[0]
    orders = pos.orders
    nation = orders["nation"]
    sender = ADDRESSES.get(nation, "someone@players.example")
    mails = [
        mail(sender, orders=orders),
        mail(sender, body=pos.text_orders + "\n-- \nsent from my phone\n", subject="Re: [fuzz] your turn"),
        mail(sender, body=json.dumps(orders)),
        mail(sender, body="hello", orders=orders, attach_name="turn.txt"),
        mail(sender, html="<p>" + pos.text_orders.replace("\n", "<br>") + "</p>"),
        mail(sender, body="> " + pos.text_orders.replace("\n", "\n> ") + "\nthanks"),
    ]
    from pbem.service.store import game_from_data

    return mails, game_from_data(json.loads(pos.game), "fuzz game")


# -- cases ------------------------------------------------------------------------------------------


@dataclass
class Case:
    """One input and what to do with it."""

    kind: str
    how: str
    data: bytes
    """The broken input: an order, edit, map or mail file, or the whole game file (game,
    history)."""
    command: str = ""
    """The command run on it (see :func:`run_case`)."""
    game: bytes = b""
    """The game file the command runs on (orders, edit), as it is before the command."""
    first_bad: int | None = None
    also_bad: tuple[int, ...] = ()
    """history: entries that may be named instead of :attr:`first_bad`."""
    """history: the first entry tampered with, which ``verify`` must name."""
    extra: dict[str, bytes] = field(default_factory=dict)
    """Files beside the input (a map's provinces table)."""
    position: str = ""
    original: str = ""
    """game: the canonical JSON of the file before it was broken."""

    def label(self) -> str:
        return f"{self.kind}/{self.command}/{self.how}" + (f"/{self.position}" if self.position else "")


ORDER_COMMANDS = ("check", "check", "process", "check --json", "process --json")
GAME_COMMANDS = ("verify", "verify", "show", "show --json", "show --as greeks", "render", "check", "process",
                 "process --report-dir",
                 "history", "history --json", "gm-edit", "undo --dry-run", "options", "post", "bot --mode random",
                 "default-turn")
HISTORY_COMMANDS = ("render", "render", "render --turn 3", "render --entry 21", "show --json", "history",
                    "history", "process", "process", "undo --turns 2", "site", "history --turn 5", "post --turn 2",
                    "default-turn", "gm-edit", "options")


def _dumps(data: Any, rng: random.Random | None = None) -> bytes:
    """JSON text of ``data`` (lone surrogates written as ``\\udcff`` escapes)."""
    ascii_only = rng is not None and rng.random() < 0.3
    indent = rng.choice([None, 1]) if rng is not None else 1
    try:
        return json.dumps(data, ensure_ascii=ascii_only, indent=indent).encode()
    except UnicodeEncodeError:
        return json.dumps(data, ensure_ascii=True, indent=indent).encode()


def _mutated(rng, data, vocabulary, json_share: float) -> tuple[bytes, str]:
    """``data`` mutated as JSON (once, sometimes twice) with chance ``json_share``, else as
    bytes of its text; and how."""
    if rng.random() < json_share:
        changed, how = mutate_json(rng, data, vocabulary)
        if rng.random() < 0.3:
            changed, more = mutate_json(rng, changed, vocabulary)
            how += f", {more}"
        return _dumps(changed, rng), how
    return mutate_bytes(rng, _dumps(data, rng))


def make_case(kind: str, rng: random.Random, base: Base) -> Case:
    """A random broken input of ``kind``."""
    if kind in ("orders", "textorders"):
        pos = rng.choice(base.positions)
        command = rng.choice(ORDER_COMMANDS)
        if kind == "textorders":
            if rng.random() < 0.7:
                text, how = mutate_text_lines(rng, pos.text_orders, base.vocabulary)
                data = text.encode("utf-8", "surrogatepass")
            else:
                data, how = mutate_bytes(rng, pos.text_orders.encode())
        elif pos.name.startswith("a2-") and rng.random() < 0.4:
            changed, how = mutate_antike2(rng, pos.orders)
            data = _dumps(changed, rng)
        else:
            data, how = _mutated(rng, pos.orders, base.vocabulary, 0.65)
        return Case(kind, how, data, command, pos.game, position=pos.name)
    if kind == "edit":
        game, edit = (base.game, base.edit) if not base.edits or rng.random() < 0.7 else rng.choice(base.edits)
        if any(edit is own for _, own in base.edits) and rng.random() < 0.4:
            changed, how = mutate_antike2(rng, edit)
            return Case(kind, how, _dumps(changed, rng), "gm-edit", game)
        data, how = _mutated(rng, edit, base.vocabulary, 0.7)
        return Case(kind, how, data, "gm-edit", game)
    if kind in ("game", "history"):
        sample = base.samples[0] if rng.random() < 0.6 else rng.choice(base.samples)
        extra = {"orders.json": _dumps(sample.orders), "edit.json": _dumps(sample.edit)}
        original = sample.json
        if kind == "history":
            changed, how, first, also = tamper_history(rng, original)
            command = "verify" if rng.random() < 0.6 else rng.choice(HISTORY_COMMANDS)
            return Case(kind, how, _dumps(changed), command, first_bad=first, also_bad=also, extra=extra,
                        position=sample.name)
        command = rng.choice(GAME_COMMANDS)
        if rng.random() < 0.7:
            changed, how = mutate_json(rng, original, base.vocabulary)
            if rng.random() < 0.25:
                changed, more = mutate_json(rng, changed, base.vocabulary)
                how += f", {more}"
            data = _dumps(changed)
        else:
            data, how = mutate_bytes(rng, sample.game)
        return Case(kind, how, data, command, extra=extra, position=sample.name, original=canonical(original))
    if kind == "map":
        name = rng.choice(sorted(base.maps))
        text, beside = base.maps[name]
        command = "map check" if rng.random() < 0.15 else "new --board"
        extra = dict(beside)
        if beside and rng.random() < 0.4:
            (table, content), = beside.items()
            extra[table], how = _mutate_csv(rng, content, base.vocabulary)
            return Case(kind, how, text, command, extra=extra, position=name)
        if rng.random() < 0.7:
            changed, how = mutate_json(rng, json.loads(text), base.vocabulary)
            data = _dumps(changed)
        else:
            data, how = mutate_bytes(rng, text)
        return Case(kind, how, data, command, extra=extra, position=name)
    if kind == "mail":
        raw = rng.choice(base.mails)
        data, how = mutate_mail(rng, raw, base)
        return Case(kind, how, data, "read")
    raise ValueError(f"unknown kind {kind!r}")


def _mutate_csv(rng: random.Random, content: bytes, vocabulary: list[str]) -> tuple[bytes, str]:
    if rng.random() < 0.3:
        return mutate_bytes(rng, content)
    rows = content.decode().splitlines()
    i = rng.randrange(len(rows))
    cells = rows[i].split(",")
    how = rng.choice(["cell", "cell", "drop-row", "dup-row", "cells", "quote"])
    if how == "cell":
        k = rng.randrange(len(cells))
        cells[k] = rng.choice([*vocabulary, *STRANGE_NAMES, "-1", "1e9", "99999999999999999999", "0.5", "yes",
                               "", ";;;", "nan", "inf"]).replace(",", ";")
        rows[i] = ",".join(cells)
    elif how == "drop-row":
        del rows[i]
    elif how == "dup-row":
        rows.insert(i, rows[i])
    elif how == "cells":
        rows[i] = ",".join(cells + ["extra"] * rng.randint(1, 3)) if rng.random() < 0.5 else ",".join(cells[:-3])
    else:
        rows[i] = rows[i] + ',"unclosed'
    return ("\n".join(rows) + "\n").encode("utf-8", "replace"), f"csv {how} row {i}"


# -- history tampering ------------------------------------------------------------------------------


def tamper_history(rng: random.Random,
                   game_json: dict[str, Any]) -> tuple[dict[str, Any], str, int, tuple[int, ...]]:
    """A copy of the game with its history tampered with once, what was done, the first
    history entry that no longer replays as recorded (the one ``verify`` must name), and
    other entries that may be named instead: the set-up, when the change touches a player
    change (whose ``was`` says who played at the start)."""
    for _ in range(50):
        out = copy.deepcopy(game_json)
        hist = out["history"]
        last = len(hist) - 1
        how = rng.choice(["value", "value", "value", "value", "remove", "swap", "dup", "hash", "prev", "seq"])
        i = rng.randrange(len(hist))
        also: tuple[int, ...] = ()
        if how == "value":
            paths = [p for p in json_paths(hist[i]) if p]
            path = rng.choice(paths)
            old = get_at(hist[i], path)
            if rng.random() < 0.2 and path[-1] != "hash" and isinstance(get_at(hist[i], path[:-1]), dict):
                del get_at(hist[i], path[:-1])[path[-1]]
                what = f"deleted history[{i}]{_path_text(path)}"
            else:
                set_at(hist[i], path, _strange_value(rng, old))
                what = f"history[{i}]{_path_text(path)} changed"
            first = i
            # who played at the start is read back from a player change's "was"
            also = (0,) if path[0] == "identities" and (len(path) < 3 or path[2] == "was") else ()
        elif how == "remove":
            if last < 1:
                continue
            i = rng.randrange(1, len(hist))
            also = (0,) if "identities" in hist[i] else ()
            del hist[i]
            what, first = f"history[{i}] removed", min(i, len(hist) - 1)
        elif how == "swap":
            i, j = sorted(rng.sample(range(len(hist)), 2))
            hist[i], hist[j] = hist[j], hist[i]
            what, first = f"history[{i}] and [{j}] swapped", i
        elif how == "dup":
            hist.insert(i + 1, copy.deepcopy(hist[i]))
            what, first = f"history[{i}] duplicated", i + 1
        elif how in ("hash", "prev"):
            hist[i][how] = hashlib.sha256(rng.randbytes(8)).hexdigest()
            what, first = f"history[{i}].{how} changed", i
        else:
            hist[i]["seq"] = hist[i]["seq"] + rng.choice([-1, 1, 100])
            what, first = f"history[{i}].seq changed", i
        if _differs(out, game_json):
            return out, what, first, also
    raise AssertionError("could not tamper with the history")


def _path_text(path: tuple) -> str:
    return "".join(f".{p}" if isinstance(p, str) else f"[{p}]" for p in path)


# -- mails ------------------------------------------------------------------------------------------


def mutate_mail(rng: random.Random, raw: bytes, base: Base) -> tuple[bytes, str]:
    """One broken order mail: its bytes, its headers, its MIME structure or the orders in it."""
    import email
    from email.policy import default

    how = rng.choice(["bytes", "bytes", "header", "attachment", "body", "structure", "charset", "encoding"])
    if how == "bytes":
        data, what = mutate_bytes(rng, raw)
        return data, f"mail {what}"
    msg = email.message_from_bytes(raw, policy=default)
    if how == "header":
        name = rng.choice(["From", "Message-ID", "Subject", "Content-Type", "References", "Auto-Submitted",
                           "In-Reply-To", "Content-Transfer-Encoding", "Date"])
        value = rng.choice([*STRANGE_NAMES[:-1], "=?utf-8?b?////?=", "=?klingon?q?x?=", "<>", "<<a@b>>",
                            "multipart/mixed; boundary=", "text/plain; charset=\"", "a" * 5000,
                            "\"unclosed <x@y>", "@", "base64", "x-unknown"])
        raw_head = f"{name}: {value}".encode("utf-8", "surrogateescape").replace(b"\n", b" ")
        text = raw.replace(b"\n", b"\n" + raw_head + b"\n", 1) if rng.random() < 0.5 else raw_head + b"\n" + raw
        return text, f"mail header {name}"
    if how == "attachment":
        orders = base.positions[0].orders
        if rng.random() < 0.6:
            changed, what = mutate_json(rng, orders, base.vocabulary)
            content = json.dumps(changed).encode()
        else:
            content, what = mutate_bytes(rng, json.dumps(orders).encode())
        msg.add_attachment(content, maintype="application", subtype="json",
                           filename=rng.choice(["orders.json", "ORDERS.JSON", "o.txt", "<x>.json", "é.json"]))
        return msg.as_bytes(), f"mail attachment {what}"
    if how == "body":
        text = base.positions[0].text_orders
        changed, what = mutate_text_lines(rng, text, base.vocabulary)
        from mailkit import ADDRESSES, mail

        changed = changed.encode("utf-8", "replace").decode("utf-8")
        return mail(ADDRESSES["persians"], body=changed), f"mail body {what}"
    if how == "structure":
        depth = rng.choice([2, 50, 500])
        head = b"From: greeks@players.example\r\nMessage-ID: <deep@x>\r\n"
        parts = b"".join(b"Content-Type: multipart/mixed; boundary=\"b%d\"\r\n\r\n--b%d\r\n" % (k, k)
                         for k in range(depth))
        return head + parts + b"Content-Type: text/plain\r\n\r\ngame fuzz\r\nnation greeks\r\n", f"mail nested {depth}"
    if how == "charset":
        cs = rng.choice(["klingon", "utf-7", "utf-16", "x-unknown", "", "ascii", "iso-2022-jp"])
        return raw.replace(b"charset=\"utf-8\"", f"charset=\"{cs}\"".encode()).replace(
            b"charset=utf-8", f"charset={cs}".encode()), f"mail charset {cs}"
    cte = rng.choice(["base64", "quoted-printable", "x-uuencode", "8bit", "garbage"])
    return raw.replace(b"Content-Transfer-Encoding: 7bit", f"Content-Transfer-Encoding: {cte}".encode()), \
        f"mail transfer encoding {cte}"


def mail_problems(raw: bytes, base: Base) -> list[str]:
    """Read ``raw`` as the mail cycle reads an order mail (its Message-ID from the header
    alone, also without the parser when it is plain, the mail, the orders in it, their
    shape, the rules) and write the answer a refused mail gets; anything else than orders
    or an answer is a problem."""
    from datetime import datetime

    from pbem.errors import InputError, Refused
    from pbem.mail.compose import receipt_rejected
    from pbem.mail.inbox import header_id, plain_id, read_message
    from pbem.mail.router import find_orders
    from pbem.service import turns
    from pbem.service.service import read_orders_for_game

    game = base.mail_game
    try:
        if not header_id(raw).startswith("<"):
            return ["the Message-ID read from the header alone is not in angle brackets"]
        incoming = read_message(raw)
        plain = plain_id(raw)  # known mails are passed over by it: it must be the parser's
        if plain is not None and plain != incoming.message_id:
            return [f"the Message-ID read without the parser, {plain}, is not the parser's, {incoming.message_id}"]
        found = find_orders(incoming)
        if found is None:
            return []
        reasons = [found.problem] if found.given is None else []
        if found.given is not None:
            try:
                turns.check(game, read_orders_for_game(game, found.given)[0])
            except (InputError, Refused) as exc:
                reasons = [str(r) for r in getattr(exc, "rejections", getattr(exc, "problems", []))]
                if not reasons:
                    return ["a refusal without a reason"]
            else:
                return []
        if not all(isinstance(r, str) and r.strip() for r in reasons):
            return ["a refusal without a reason"]
        if max(map(len, reasons)) > 1500:
            return [f"a reason of {max(map(len, reasons))} characters (it goes into the answer mail)"]
        answer = receipt_rejected(base.mail_config, game, game.game_id, incoming, reasons,
                                  datetime(2026, 11, 23, tzinfo=UTC))
        answer.as_bytes()
    except Exception:  # the point of the fuzzer: anything else is a bug
        return ["crash: " + traceback.format_exc(limit=-4)]
    return []


# -- running and judging ----------------------------------------------------------------------------

PENDING_SIGNS: tuple[str, ...] = ()
"""How the known problems whose fix is pending in a file another change is rewriting show
(``PENDING`` in tests/test_fuzz.py lists their corpus inputs)."""


def is_pending(problems: list[str]) -> bool:
    """Whether a failure is one of the known problems of :data:`PENDING_SIGNS`: a crash or an
    overlong message, with one of them in it."""
    if not problems or not problems[0].startswith(("exit code 1", "the first line of the message is")):
        return False
    text = "\n".join(problems)
    return any(sign in text for sign in PENDING_SIGNS)


@dataclass
class Ran:
    exit_code: int
    stdout: str
    stderr: str
    crash: str = ""


def _sha(path: Path) -> str | None:
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.exists() else None


def _invoke(args: list[str], subprocess_mode: bool) -> Ran:
    if subprocess_mode:
        done = subprocess.run([EXE, *args], capture_output=True, stdin=subprocess.DEVNULL, timeout=120,
                              env={**os.environ, "COLUMNS": "100"})
        return Ran(done.returncode, done.stdout.decode("utf-8", "replace"), done.stderr.decode("utf-8", "replace"))
    result = cli_run(*args)
    crash = ""
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        crash = "".join(traceback.format_exception(result.exception, limit=-4))
    return Ran(result.exit_code, result.stdout, result.stderr, crash)


LAST: dict[str, int] = {}
"""The exit code of the last command run per kind (for the soak's tally)."""


def run_case(case: Case, base: Base, folder: Path, subprocess_mode: bool = False) -> list[str]:
    """Run ``case`` in a fresh ``folder`` and judge it; returns the problems (none: fine)."""
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    if case.kind == "mail":
        return mail_problems(case.data, base)
    work = folder / "game"
    work.mkdir()
    game = work / "game.json"
    words = case.command.split()
    verb = words[0]
    if case.kind in ("orders", "textorders", "edit"):
        game.write_bytes(case.game)
        given = work / ("orders.txt" if case.kind == "textorders" else "input.json")
        given.write_bytes(case.data)
        args = [verb, game, given, *words[1:]]
    elif case.kind in ("game", "history"):
        game.write_bytes(case.data)
        for name, content in case.extra.items():
            (work / name).write_bytes(content)
        args = _game_args(words, game, base, work, folder)
    elif case.kind == "map":
        given = work / "board.json"
        given.write_bytes(case.data)
        for name, content in case.extra.items():
            (work / name).write_bytes(content)
        if verb == "map":
            args = ["map", "check", given]
        else:
            nations = _nations_for(case)
            args = ["new", game, "--board", given, "--nations", nations, "--kdf-iterations", "1000",
                    "--seed", "fuzz"]
    else:
        raise ValueError(case.kind)
    before = {p.name: _sha(p) for p in work.iterdir()}
    ran = _invoke([str(a) for a in args], subprocess_mode)
    LAST[case.kind] = ran.exit_code
    after = {p.name: _sha(p) for p in work.iterdir()}
    found = judge(case, ran, verb, before, after, list(before) + ["game.json"]) + _drawings(folder / "out")
    honest = verb in ("process", "gm-edit") and case.kind in ("orders", "textorders", "edit")
    if ran.exit_code == 0 and (honest or (verb == "undo" and "--dry-run" not in words)):
        # an honest game changed only by what the rules accepted, or a game taken back to
        # entries that replay as recorded, must verify
        checked = _invoke(["verify", str(game)], False)
        if checked.exit_code != 0:
            found.append(f"{verb} succeeded, but the game file it wrote does not verify: {checked.stderr[:600]!r}")
    if ran.exit_code == 0 and verb == "undo" and "--turns" in words and case.first_bad is not None:
        kept = len(json.loads(case.data)["history"]) - int(words[words.index("--turns") + 1])
        if case.first_bad < kept:
            found.append(f"undo kept tampered history entry {case.first_bad} and wrote the game anew from it")
    return found


def _drawings(folder: Path) -> list[str]:
    """Every board picture a command wrote must be well-formed XML, whatever the names in
    the game (PDF and PNG are drawn from it)."""
    import xml.etree.ElementTree as ET

    out = []
    for svg in sorted(folder.glob("*.svg")) if folder.is_dir() else []:
        try:
            ET.fromstring(svg.read_bytes())
        except ET.ParseError as exc:
            out.append(f"{svg.name} is not well-formed XML: {exc}")
    return out


def _nations_for(case: Case) -> str:
    return "greeks,persians,arabs" if case.position == "kit" else "greeks,romans,germans"


def _game_args(words: list[str], game: Path, base: Base, work: Path, folder: Path) -> list:
    verb = words[0]
    if verb in ("check", "process", "gm-edit"):
        given = work / ("edit.json" if verb == "gm-edit" else "orders.json")
        if not given.exists():
            given.write_bytes(_dumps(base.edit if verb == "gm-edit" else base.orders))
        if "--report-dir" in words:
            return [verb, game, given, "--report-dir", folder / "out", "--format", "txt,md,bbcode,svg"]
        return [verb, game, given]
    if verb == "render":
        return ["render", game, "--format", "txt,md,bbcode,svg", "--out", folder / "out", *words[1:]]
    if verb == "site":
        return ["site", game, folder / "site"]
    if verb == "default-turn":
        orders = work / "orders.json"
        nation = json.loads(orders.read_bytes()).get("nation", "greeks") if orders.exists() else "greeks"
        return [verb, game, nation]
    return [verb, game, *words[1:]]


def judge(case: Case, ran: Ran, verb: str, before: dict[str, str | None], after: dict[str, str | None],
          names: list[str]) -> list[str]:
    """Everything wrong with how a command handled a broken input."""
    out = []
    if ran.crash:
        out.append(f"uncaught exception:\n{ran.crash}")
    if ran.exit_code not in EXIT_CODES:
        out.append(f"exit code {ran.exit_code} (1 is an internal error)")
    for word in ("Traceback", "internal error"):
        if word in ran.stderr:
            out.append(f"stderr says {word!r}")
    lines = ran.stderr.splitlines()
    if ran.exit_code != 0:
        if not lines or not lines[0].startswith("antike-ref:"):
            out.append("the failure message does not start with 'antike-ref:'")
        elif len(lines[0]) > 1500:
            out.append(f"the first line of the message is {len(lines[0])} characters long")
        if ran.exit_code == 3 and lines and not any(Path(n).name in lines[0] for n in names if n):
            out.append("exit 3 but the message names no file")
    read_only = verb in ("check", "verify", "show", "render", "history", "options", "site", "map") or \
        (verb == "undo" and "--dry-run" in case.command)
    if ran.exit_code != 0 or read_only:
        if after != before:
            changed = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
            out.append(f"files changed or left behind by a {'failing' if ran.exit_code else 'read-only'} "
                       f"command: {', '.join(changed)}")
    else:
        stray = [k for k in after if k.endswith((".lock", ".tmp"))]
        if stray:
            out.append(f"files left behind: {', '.join(stray)}")
    if case.kind in ("history", "game") and verb == "verify":
        if ran.exit_code not in (3, 6):
            changed = case.kind == "history" or _semantic_change(case)
            if changed:
                out.append(f"verify exits {ran.exit_code} on a tampered file (3 or 6 expected)")
        named = (case.first_bad, *case.also_bad)
        if ran.exit_code == 6 and case.first_bad is not None:
            if not any(f"history entry {k}:" in ran.stderr for k in named):
                out.append(f"verify does not name history entry {case.first_bad} first")
    if ran.exit_code == 6 and verb != "verify":
        out.append("only verify exits 6 (every other command calls a history that does not replay bad input, 3)")
    if ran.exit_code == 3 and case.kind == "history" and case.first_bad is not None:
        # (a file that is no longer JSON at all, say a lone surrogate, is named as a whole)
        named = (case.first_bad, *case.also_bad)
        if not any(f"history[{k}]" in ran.stderr for k in named) and "not valid JSON" not in ran.stderr:
            out.append(f"exit 3 on a tampered history, but the message does not name $.history[{case.first_bad}]")
    if out:
        out.append(f"exit {ran.exit_code}; stderr: {ran.stderr[:600]!r}")
    return out


def _semantic_change(case: Case) -> bool:
    """Whether a broken game file still parses to something other than the original."""
    try:
        now = json.loads(case.data.decode("utf-8").lstrip("\ufeff"))
    except (ValueError, UnicodeDecodeError, RecursionError):
        return True
    return not case.original or canonical(now) != case.original


def save_case(case: Case, folder: Path, stem: str, problems: list[str]) -> Path:
    """Keep a failing case in ``folder``: the input as ``STEM.input``, the files beside it,
    and what it was and what went wrong as ``STEM.json``. Returns the input's path."""
    folder.mkdir(parents=True, exist_ok=True)
    given = folder / f"{stem}.input"
    given.write_bytes(case.data)
    for name, content in case.extra.items():
        (folder / f"{stem}.{name}").write_bytes(content)
    if case.game:
        (folder / f"{stem}.game.json").write_bytes(case.game)
    about = {"kind": case.kind, "how": case.how, "command": case.command, "position": case.position,
             "first_bad": case.first_bad, "problems": problems}
    (folder / f"{stem}.json").write_text(json.dumps(about, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return given


# -- the regression corpus --------------------------------------------------------------------------

CORPUS = Path(__file__).resolve().parent / "fuzz_corpus"


def corpus_cases(base: Base, folder: Path = CORPUS) -> list[tuple[str, Case]]:
    """Every input in the regression corpus as a case: raw inputs (``KIND-what.EXT``), and
    recipes (``KIND-what.recipe.json``) that make an input too large to keep, or change the
    base game or file at a JSON path."""
    out = []
    for path in sorted(folder.iterdir()):
        if path.name == "README.md" or path.name.startswith("."):
            continue
        kind = path.name.split("-", 1)[0]
        if kind not in KINDS:
            raise ValueError(f"{path.name}: the name must start with one of {', '.join(KINDS)}")
        if path.name.endswith(".recipe.json"):
            case = from_recipe(json.loads(path.read_text(encoding="utf-8")), base, path.name)
        else:
            case = from_raw(kind, path.read_bytes(), base)
        out.append((path.name, case))
    return out


def _command(recipe: dict[str, Any], default: str) -> str:
    return recipe.get("command", default)


def from_raw(kind: str, data: bytes, base: Base) -> Case:
    pos = base.positions[0]
    if kind in ("orders", "textorders"):
        return Case(kind, "corpus", data, "check", pos.game, position=pos.name)
    if kind == "edit":
        return Case(kind, "corpus", data, "gm-edit", base.game)
    if kind == "mail":
        return Case(kind, "corpus", data, "read")
    if kind == "map":
        return Case(kind, "corpus", data, "new --board", position="antike-west")
    return Case(kind, "corpus", data, "verify")


def from_recipe(recipe: dict[str, Any], base: Base, name: str = "") -> Case:
    """A case from a recipe: ``{"kind": K, "generate": "nest", "depth": N}`` (``"open"``:
    ``[`` or ``{``), ``{"kind": K, "generate": "repeat", "text": T, "times": N}``, or
    ``{"kind": K, "patch": [[PATH, VALUE], ...], "delete": [PATH, ...]}`` applied to the
    base input of that kind (for ``history``: also ``"remove": I``, ``"swap": [I, J]``,
    ``"duplicate": I``, and ``"first_bad": I``, the entry ``verify`` must name), then
    ``"replace": [OLD, NEW]`` on its text (for what JSON values cannot say, such as
    ``1e999``; NEW may be ``{"head": H, "text": T, "times": N, "tail": E}``). A map recipe
    may add ``"table_append"`` / ``"table_prepend"``:
    ``{"text": T, "times": N}`` to its provinces table. ``"command"`` picks the command."""
    kind = recipe["kind"]
    if "generate" in recipe:
        if recipe["generate"] == "nest":
            data = nest(recipe["depth"], recipe.get("open", "["))
        elif recipe["generate"] == "repeat":
            data = (recipe.get("head", "") + recipe["text"] * recipe["times"] + recipe.get("tail", "")).encode()
        else:
            raise ValueError(f"{name}: unknown generator {recipe['generate']!r}")
        case = from_raw(kind, data, base)
        case.command = _command(recipe, case.command)
        return case
    sample = _named_sample(base, recipe.get("sample"), name)
    if kind in ("game", "history"):
        target = copy.deepcopy(sample.json)
    elif kind == "edit":
        target = copy.deepcopy(sample.edit if "sample" not in recipe else _edit_for(base, sample))
    elif kind == "orders":
        target = copy.deepcopy(_position(base, recipe.get("position", 0)).orders)
    elif kind == "map":
        target = json.loads(base.maps[recipe.get("map", "antike-west")][0])
    else:
        raise ValueError(f"{name}: no patch recipes for {kind}")
    try:
        for path, value in recipe.get("patch", []):
            set_at(target, tuple(path), value)
        for path in recipe.get("delete", []):
            del get_at(target, tuple(path[:-1]))[path[-1]]
    except (KeyError, IndexError, TypeError) as exc:
        raise AssertionError(f"{name}: the base file has no {exc} where the recipe points (if the bots now "
                             "play differently, point the recipe at an entry of the same kind)") from None
    if "remove" in recipe:
        del target["history"][recipe["remove"]]
    if "swap" in recipe:
        i, j = recipe["swap"]
        h = target["history"]
        h[i], h[j] = h[j], h[i]
    if "duplicate" in recipe:
        i = recipe["duplicate"]
        target["history"].insert(i + 1, copy.deepcopy(target["history"][i]))
    data = _dumps(target)
    if "replace" in recipe:
        old, new = recipe["replace"]
        if isinstance(new, dict):  # {"head": H, "text": T, "times": N, "tail": E}
            new = new.get("head", "") + new["text"] * new["times"] + new.get("tail", "")
        assert old.encode() in data, f"{name}: {old!r} is not in the base file"
        data = data.replace(old.encode(), new.encode(), 1)
    if kind in ("game", "history"):
        return Case(kind, "corpus", data, _command(recipe, "verify"), first_bad=recipe.get("first_bad"),
                    original=canonical(sample.json), extra={"orders.json": _dumps(sample.orders),
                                                            "edit.json": _dumps(sample.edit)})
    if kind == "edit":
        return Case(kind, "corpus", data, "gm-edit", sample.game)
    if kind == "map":
        name_ = recipe.get("map", "antike-west")
        extra = dict(base.maps[name_][1])
        for table in extra:
            for key, at_end in (("table_append", True), ("table_prepend", False)):
                if key in recipe:
                    more = (recipe[key]["text"] * recipe[key]["times"]).encode()
                    extra[table] = extra[table] + more if at_end else more + extra[table]
        return Case(kind, "corpus", data, _command(recipe, "new --board"), extra=extra, position=name_)
    pos = _position(base, recipe.get("position", 0))
    return Case(kind, "corpus", data, _command(recipe, "check"), pos.game, position=pos.name)


def _named_sample(base: Base, name: str | None, recipe: str) -> Sample:
    """The sample a recipe names (``"sample"``), the main game without one."""
    if name is None:
        return base.samples[0]
    for sample in base.samples:
        if sample.name == name:
            return sample
    raise AssertionError(f"{recipe}: no sample {name!r} (one of {', '.join(s.name for s in base.samples)})")


def _edit_for(base: Base, sample: Sample) -> dict[str, Any]:
    """The GM edit of Antike II's own items for ``sample``'s game, else its ordinary one."""
    for game, edit in base.edits:
        if game == sample.game:
            return edit
    return sample.edit


def _position(base: Base, which: int | str) -> Position:
    """A position by its number or its name (``"a2-trade"``)."""
    if isinstance(which, int):
        return base.positions[which]
    for pos in base.positions:
        if pos.name == which:
            return pos
    raise AssertionError(f"no position {which!r} (one of {', '.join(p.name for p in base.positions)})")


DUELLUM_KINDS = ("orders", "textorders", "edit", "game", "history")
"""The kinds of input :func:`duellum_case` makes (and the ones an edition's own material,
Antike II's or Duellum's, is broken into)."""
DU_PASSWORDS = {n: f"pw-{n}" for n in ("carthaginians", "romans", "greeks", "persians")}
DU_ODD_VALUES: list = ["legion", "galley", "admiral", "commander", "fortress", "earthquake", "burglary", "academy",
                       "card_05", "?", "", None, True, 0, -1, 1, 3, 13, 99, {"legion": 1}, {"legion": -1},
                       {"galley": 1, "legion": 1, "admiral": 1}, {}, [], ["fortress", "fortress"], "roma",
                       "carthago", "mare_africum", "atlantis", "always", "never", "sometimes"]
"""Values near what Duellum's own order and edit fields take."""


def mutate_duellum(rng: random.Random, data: dict) -> tuple[dict, str]:
    """One change of a Duellum order file or GM edit in what only Duellum has: ``walls``
    (a rival's city, twice, a sea), ``recruit`` (too many, a special unit, below zero),
    ``events`` (a card not held, FORTRESS, EARTHQUAKE without or with a wrong city, a
    field a card does not take), the standing orders ``fortress`` and ``draw``, and the
    edit items ``walls_supply``, ``recruitment``, ``hand``, ``wall``, ``vp``."""
    import copy

    out = copy.deepcopy(data)
    how = "edit" if "edits" in out else rng.choice(["walls", "recruit", "events", "standing"])
    odd = DU_ODD_VALUES
    if how == "walls":
        walls = out.setdefault("walls", [{"city": "carthago"}])
        walls.append({"city": rng.choice(odd)} if rng.random() < 0.5 else dict(rng.choice(walls)))
        if rng.random() < 0.3:
            out["rondel"] = {"to": rng.choice(["templum", "temple", "militia", "duellum"])}
    elif how == "recruit":
        out["recruit"] = rng.choice([{"legion": 13}, {"galley": -1}, {"admiral": 1}, {},
                                     {"legion": 1, "pay": {"coin": 9}}, rng.choice(odd)])
        if rng.random() < 0.3:
            out["rondel"] = {"to": rng.choice(["scientia", "knowhow", "aurum"])}
    elif how == "events":
        events = out.setdefault("events", [])
        events.append(rng.choice([{"play": rng.choice(odd)}, {"play": "earthquake"},
                                  {"play": "earthquake", "city": rng.choice(odd)}, {"play": "fortress"},
                                  {"play": "burglary", "city": "roma"}, {"play": "academy", "gold": 5},
                                  {"city": "roma"}]))
    elif how == "standing":
        out["standing"] = {rng.choice(["fortress", "draw"]): rng.choice(odd)}
    else:
        edits = out["edits"]
        nation = rng.choice(["carthaginians", "romans", "greeks", "atlantis"])
        item = rng.choice([{"nation": nation, "walls_supply": rng.choice(odd)},
                           {"nation": nation, "recruitment": rng.choice(odd)},
                           {"nation": nation, "hand": rng.choice(odd)},
                           {"nation": nation, "vp": rng.choice(odd)},
                           {"province": rng.choice(["roma", "carthago", "tacape", "mare_africum"]),
                            "wall": rng.choice(odd)},
                           {"province": "roma", "units": {"romans": {"admiral": rng.choice(odd)}}}])
        edits.insert(rng.randrange(len(edits) + 1), item)
    return out, f"duellum {how}"


def duellum_base(base):
    """``base`` with Antike Duellum's material only: two bot games (the Rome/Carthage side
    in the special-units variant, the Aegean excerpt), positions whose order files build
    walls, recruit, play cards and found a city of a chosen type, and a GM edit of its own
    items."""
    import dataclasses

    from pbem import editions
    from pbem.kernel.orders import canonical_edit
    from pbem.kernel.turn import resolve
    from pbem.play.bot import build_turn
    from pbem.play.selfplay import bot_turn, start_game
    from pbem.service import turns
    from pbem.service.boards import load_map_file
    from pbem.service.store import game_text

    du = editions.get("duellum")
    positions = []

    def edited(game, *items):
        return turns.edit(game, canonical_edit({"game": game.game_id, "reason": "fuzz position",
                                                "edits": list(items)}, du))

    def position(name, game, orders):
        resolve(game.state, orders, game.edition, game.board)  # legal, or the kit is wrong
        orders = {**orders, "password": DU_PASSWORDS[orders["nation"]]}
        positions.append(Position(name, game_text(game).encode(), orders, _orders_text(game, orders)))

    game, _ = start_game("fuzzdu", ["carthaginians", "romans"], "fuzz-du", "duellum", "duellum-rome-carthage",
                         ("special_units",), iterations=1000)
    for k in range(24):
        game, _ = bot_turn(game, DU_PASSWORDS, "random" if k % 2 else "greedy")
    nation = game.state.status.active
    other = next(n for n in game.seats if n != nation)
    rng = random.Random(2)
    walls = edited(game, {"nation": nation, "walls_supply": 2, "resources": {"marble": 3}, "rondel": 0})
    orders = build_turn(walls, {"to": "templum"}, rng, 1.0)
    assert orders.get("walls"), orders
    position("du-walls", walls, orders)
    recruit = edited(game, {"nation": nation, "recruitment": {"legion": 0, "galley": 0, du_special(nation): 1},
                            "resources": {"gold": 4}, "rondel": 5, "hand": ["academy"]},
                     {"nation": other, "coins": 4, "knowhow": ["strata"]})
    orders = build_turn(recruit, {"to": "scientia"}, rng, 1.0, greedy=True)
    assert orders.get("recruit") and orders.get("events"), orders
    position("du-recruit", recruit, orders)
    city = game.state.cities(other)[0]
    site = next(p for p in sorted(game.board.provinces) if game.board.province(p).site == "choice"
                and (p not in game.state.provinces or game.state.provinces[p].owner is None))
    found = edited(game, {"province": city, "wall": True}, {"nation": nation, "hand": ["earthquake", "burglary"],
                                                             "resources": {"marble": 2, "iron": 2, "gold": 2}},
                   {"province": site, "units": {nation: {"legion": 1, "galley": 0}}})
    orders = {"game": game.game_id, "nation": nation, "turn": game.state.status.turn,
              "events": [{"play": "earthquake", "city": city}, {"play": "burglary"}],
              "rondel": orders_rondel(found, nation), "found": [{"city": site, "resource": "iron"}],
              "standing": {"fortress": "never", "draw": ["fortress"]}}
    position("du-found", found, orders)
    samples = [_sample("duellum", game, 0, DU_PASSWORDS)]
    aegean, _ = start_game("fuzzdu2", ["greeks", "persians"], "fuzz-du2", "duellum",
                           load_map_file(ROOT / "tests" / "data" / "boards" / "duellum-aegean-excerpt.json"),
                           iterations=1000)
    for k in range(16):
        aegean, _ = bot_turn(aegean, DU_PASSWORDS, "greedy" if k % 2 else "random")
    samples.append(_sample("duellum-aegean", aegean, 0, DU_PASSWORDS))
    edit = {"game": game.game_id, "reason": "Duellum: <walls> & cards", "edits": [
        {"nation": nation, "walls_supply": 3, "recruitment": {"legion": 2, "galley": 1, du_special(nation): 1}},
        {"nation": other, "vp": 1},
        {"province": city, "wall": True},
        {"province": site, "owner": nation, "resource": "gold"},
    ]}
    vocabulary = sorted({*base.vocabulary, *du.nations, *game.board.provinces, *aegean.board.provinces,
                         *du.rondel.names, *du.knowhows, *du.personages, *du.variants, "walls", "recruit", "events",
                         "play", "wall", "hand", "recruitment", "walls_supply", "vp", "fortress", "draw", "admiral",
                         "commander", "earthquake", "burglary", "academy", "deck", "display", "discards", "secret"})
    return dataclasses.replace(base, positions=positions, samples=samples, game=samples[0].game,
                               game_json=samples[0].json, edit=edit, orders=samples[0].orders,
                               edits=[(samples[0].game, edit)], vocabulary=vocabulary)


def duellum_case(kind: str, rng: random.Random, du: Base) -> Case:
    """One broken input of ``kind`` (:data:`DUELLUM_KINDS`) from Duellum's material ``du``
    (:func:`duellum_base`): an order file or GM edit changed in what only Duellum has
    (:func:`mutate_duellum`) four times in ten, else one of :func:`make_case`'s."""
    if kind in ("orders", "edit") and rng.random() < 0.4:
        pos = rng.choice(du.positions)
        source, game = (pos.orders, pos.game) if kind == "orders" else (du.edit, du.game)
        changed, how = mutate_duellum(rng, source)
        return Case(kind, how, json.dumps(changed).encode(),
                    rng.choice(ORDER_COMMANDS) if kind == "orders" else "gm-edit", game,
                    position=pos.name if kind == "orders" else "")
    return make_case(kind, rng, du)


def du_special(nation: str) -> str:
    from pbem.editions.duellum.rules import SPECIAL_UNITS

    return SPECIAL_UNITS[nation]
