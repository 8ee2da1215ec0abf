"""Creating a game (``antike-ref new``): the edition's set-up, who plays, their passwords.

The edition decides the state at the start (its set-up facet, :meth:`SetUpRules.start
<pbem.kernel.setup.SetUpRules.start>`); this module adds what is not the rules' business:
player names and addresses, the seed, and the password hashes, and records the set-up
as the first history entry so that the game can be replayed from it.
"""

from __future__ import annotations

import re
import secrets as _secrets
from collections.abc import Callable
from dataclasses import MISSING, fields
from typing import Any

from pbem.errors import UsageError
from pbem.kernel.board import Board
from pbem.kernel.edition import Edition
from pbem.kernel.setup import GAME_ID, SetupOptions
from pbem.service import history, passwords
from pbem.service.game import Game, NationMeta

_PLAYER = re.compile(r"^\s*(?P<name>[^<>\x00-\x1f\x7f\x85\u2028\u2029]*?)\s*"
                     r"(?:<(?P<email>[^\s<>,;:\"()\[\]\\@]+@[^\s<>,;:\"()\[\]\\@]+)>)?\s*$")
"""``Name <e-mail>``: a name on one line without angle brackets, and one address (no
comma, semicolon or space in it: a second address would get every mail too)."""
NAME_LIMIT = 80


def is_game_id(text: str) -> bool:
    """Whether ``text`` is a game id as ``new --id`` takes it (letters, digits, ``-``, ``_``)."""
    return GAME_ID.match(text) is not None


def parse_player(text: str) -> tuple[str | None, str | None]:
    """``"Ann <ann@example.org>"`` -> (name, e-mail); either part may be missing."""
    m = _PLAYER.match(text)
    if not m:
        from pbem.errors import clip

        raise UsageError(f"player {clip(text)!r}: expected 'Name <e-mail>': a name on one line, and one "
                         "address in angle brackets (no comma, semicolon or space in it)")
    if len(m["name"]) > NAME_LIMIT:
        raise UsageError(f"player: a name of {len(m['name'])} characters; at most {NAME_LIMIT}")
    return (m["name"] or None), m["email"]


def _check_passwords(given: dict[str, str], nations: list[str]) -> None:
    for n, pw in given.items():
        if n not in nations:
            raise UsageError(f"--password {n}: {n!r} is not among --nations")
        if not pw or pw != pw.strip():
            raise UsageError(f"--password {n}: a password must not be empty or start or end with a space")


def start(edition: Edition, opts: SetupOptions, board: Board) -> tuple[Game, dict]:
    """The game as the edition sets it up, before anyone plays, with identities but no
    password hashes and no history yet; and the body of the ``new`` entry that records
    the set-up (:func:`record`)."""
    opts = opts if opts.seed else opts.replace(seed=_secrets.token_hex(8))
    if board.edition != edition.id and board.edition not in edition.board_editions:
        raise UsageError(f"--board {board.id}: a board for {board.edition}, not for {edition.name} ({edition.id})")
    if opts.revision is not None and not 1 <= opts.revision <= edition.revision:
        raise UsageError(f"revision {opts.revision}: {edition.name} has rules revisions 1 to {edition.revision}")
    wrong = edition.setup.data_problems(opts.data, board)
    if wrong:
        raise UsageError("--data: " + "; ".join(wrong))
    state, events, recorded = edition.setup.start(opts, board)
    meta = {}
    for n in state.table.seats:
        name, email = parse_player(opts.player[n]) if n in opts.player else (None, None)
        meta[n] = NationMeta(name, email, edition.nations[n].colour, "")
    assert recorded.seed is not None  # drawn above when not given
    game = Game(state, edition, board, recorded.seed, meta, [])
    return game, {"kind": "new", "setup": recorded.to_json(), "events": events}


def _one_player_per_team(game: Game, teams: list[list[str]], opts: SetupOptions) -> None:
    """Two players with four nations: a team's two nations belong to one player, so a
    ``--player`` given for one of them holds for both; two different ones are refused."""
    for team in teams:
        given = sorted({opts.player[n] for n in team if n in opts.player})
        if len(given) > 1:
            raise UsageError(f"--player: {' and '.join(team)} are run by one player, "
                             f"but two are named ({'; '.join(given)})")
        if given:
            for n in team:
                meta = game.meta[n]
                meta.player, meta.email = parse_player(given[0])


def record(game: Game, entry: dict) -> Game:
    """Start ``game``'s history with its ``new`` entry (once its identities are final)."""
    game.history = []
    history.append(game, entry)
    return game


def new_game(edition: Edition, opts: SetupOptions, board: Board,
             given_passwords: dict[str, str] | None = None,
             iterations: int = passwords.ITERATIONS) -> tuple[Game, dict[str, str]]:
    """Create the game; return it with the plain passwords (for the GM's secrets file).

    Passwords not given are generated; each is stored only as a salted hash of cost
    ``iterations`` (salts derive from the seed, so the same options give the same file).
    """
    if iterations < passwords.MIN_ITERATIONS:
        raise UsageError(f"--kdf-iterations {iterations}: at least {passwords.MIN_ITERATIONS}")
    plain = dict(given_passwords or {})
    _check_passwords(plain, list(opts.nations))
    if opts.revision is None:  # a new game plays by the edition's rules as they are now
        opts = opts.replace(revision=edition.revision)
    created, entry = start(edition, opts, board)
    _one_player_per_team(created, entry["setup"].get("teams", []), opts)
    for n in created.seats:
        plain.setdefault(n, passwords.generate())
        salt = passwords.salt_for(created.seed, n)
        created.meta[n].password = passwords.hash_password(plain[n], salt, iterations)
    return record(created, entry), {n: plain[n] for n in created.seats}


def with_hidden_secret(edition: Edition, opts: SetupOptions,
                       plain: dict[str, str]) -> tuple[SetupOptions, dict[str, str]]:
    """What ``new`` sets up with, for an edition with secrets: the options with a seed (a
    random one unless given) and the set-up's secret (:func:`hidden_secret`), and the plain
    passwords it is made from (those not given are generated here). Other editions: as
    given."""
    if not edition.secrets or opts.secret is not None:
        return opts, plain
    opts = opts if opts.seed else opts.replace(seed=_secrets.token_hex(8))
    assert opts.seed is not None
    plain = dict(plain)
    for n in opts.nations:
        plain.setdefault(n, passwords.generate())
    return opts.replace(secret=hidden_secret(opts.seed, plain)), plain


def hidden_secret(seed: str, plain: dict[str, str]) -> str:
    """The set-up's secret of a game with hidden information (:attr:`SetupOptions.secret`):
    made from the seed and every nation's plain password, which only the GM holds together
    (each player knows one). The seed alone, which a player's copy lets anyone try to guess
    offline (password salts derive from it), no longer gives the deck away; and the same
    options with the same passwords still give the same game."""
    import hashlib
    import hmac
    import json

    given = json.dumps(dict(sorted(plain.items())), ensure_ascii=False, separators=(",", ":"))
    return hmac.new(seed.encode(), f"set-up secret:{given}".encode(), hashlib.sha256).hexdigest()


def recorded_options(data: Any) -> SetupOptions:
    """Set-up options as a history entry (or a proposal of a game without a game master)
    records them, each of the type ``new`` wrote; :class:`ValueError` saying what is wrong."""
    def strings(v: Any) -> bool:
        return isinstance(v, list) and all(isinstance(x, str) for x in v)

    def number(v: Any) -> bool:
        return v is None or (isinstance(v, int) and not isinstance(v, bool))

    kinds: dict[str, Callable[[Any], bool]] = {
        "game_id": lambda v: isinstance(v, str), "board": lambda v: isinstance(v, str), "nations": strings,
        "first": lambda v: v is None or isinstance(v, str), "variants": strings, "goal": number,
        "players": number, "seed": lambda v: v is None or isinstance(v, str),
        "player": lambda v: isinstance(v, dict) and all(isinstance(x, str) for x in v.values()),
        "start": lambda v: isinstance(v, dict) and all(strings(x) for x in v.values()),
        "teams": lambda v: isinstance(v, list) and all(strings(x) for x in v), "picks": strings,
        "data": lambda v: isinstance(v, dict), "secret": lambda v: v is None or isinstance(v, str),
        "revision": number, "chance": lambda v: False,  # never recorded: a game without a GM has its reveals
    }
    if not isinstance(data, dict):
        raise ValueError("its 'setup' is not an object")
    options = fields(SetupOptions)
    unknown = sorted(set(data) - {f.name for f in options})
    if unknown:
        raise ValueError(f"its set-up has an unknown option {unknown[0][:40]!r}")
    missing = [f.name for f in options if f.default is MISSING and f.default_factory is MISSING
               and f.name not in data]
    if missing:
        raise ValueError(f"its set-up lacks {missing[0]!r}")
    wrong = [key for key, value in data.items() if not kinds.get(key, lambda v: True)(value)]
    if wrong:
        raise ValueError(f"its set-up's {wrong[0]!r} is not of the kind 'new' records")
    return SetupOptions(**data)
