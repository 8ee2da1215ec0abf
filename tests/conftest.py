"""Shared test helpers: build games in memory, write order files, run the engine."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
MAIL_TESTS = str(Path(__file__).resolve().parent / "mail" / "servers")
if MAIL_TESTS not in sys.path:
    sys.path.insert(0, MAIL_TESTS)

# The real SMTP and IMAP servers of the mail tests (tests/mail/servers/mailservers.py): a plugin,
# not a second conftest.py, because every conftest.py would be imported as ``conftest``.
pytest_plugins = ["mailservers"]

# Test games hash their passwords at the lowest cost `new` accepts: the cost is stored with
# each hash, so everything else works as with a real game, only faster.
os.environ.setdefault("ANTIKE_REF_KDF_ITERATIONS", "1000")

from pbem import editions  # noqa: E402
from pbem.errors import Refused  # noqa: E402
from pbem.kernel import orders as _orders  # noqa: E402
from pbem.kernel.setup import SetupOptions  # noqa: E402
from pbem.service import turns  # noqa: E402
from pbem.service.boards import load_board  # noqa: E402
from pbem.service.creation import new_game as _new_game  # noqa: E402
from pbem.service.passwords import MIN_ITERATIONS  # noqa: E402

CLASSIC = editions.get("classic")

PASSWORDS = {n: f"pw-{n}" for n in CLASSIC.nations}
"""Every test game uses these passwords, so order files are easy to write."""

FOUR = ["persians", "phoenicians", "arabs", "greeks"]


def new_game(opts, board, passwords=None, edition=CLASSIC):
    """A new game in memory (cheap password hashes)."""
    return _new_game(edition, opts, board, passwords, iterations=MIN_ITERATIONS)


def canonical_orders(data, edition=CLASSIC):
    return _orders.canonical_orders(data, edition)


def canonical_edit(data, edition=CLASSIC):
    return _orders.canonical_edit(data, edition)


def apply_orders(game, orders):
    """What the orders would do (password checked), or :class:`Refused`."""
    return turns.check(game, orders)


def process(game, orders):
    """Play the orders; return (next game, result)."""
    return turns.play(game, orders)


def apply_edit(game, change):
    return turns.edit(game, change)


def make_game(nations=FOUR, game_id="t", seed="test-seed", **opts):
    """A new classic game on the East board, in memory, with :data:`PASSWORDS`."""
    setup = SetupOptions(game_id=game_id, board="antike-east", nations=list(nations), seed=seed, **opts)
    game, _ = new_game(setup, load_board("antike-east"), {n: PASSWORDS[n] for n in nations})
    return game


def edit(game, *edits, reason="test set-up"):
    """Apply GM edits (docs/orders.md form, in the game's edition) and return the new game."""
    return apply_edit(game, canonical_edit({"game": game.game_id, "reason": reason, "edits": list(edits)},
                                           game.edition))


def edition_game(edition, board, nations, game_id, seed, first=None, variants=()):
    """A new game of ``edition`` on ``board`` (a loaded board), in memory, with passwords
    ``pw-NATION``."""
    opts = SetupOptions(game_id=game_id, board=board.id, nations=list(nations), first=first,
                        variants=list(variants), seed=seed)
    game, _ = new_game(opts, board, {n: f"pw-{n}" for n in nations}, edition)
    return game


def bot_order_file(game: Path, orders: Path, mode: str = "greedy") -> dict:
    """``bot -o ORDERS`` for the active nation of the game file, with its ``pw-NATION``
    password put in, as a player would send it; returns the orders."""
    wrote = cli_run("bot", game, "--mode", mode, "-o", orders)
    assert wrote.exit_code == 0, wrote.stderr
    data = json.loads(orders.read_text(encoding="utf-8"))
    data["password"] = f"pw-{data['nation']}"
    orders.write_text(json.dumps(data), encoding="utf-8")
    return data


def load_script(relative: str, name: str | None = None):
    """A script of the repository (``bench/bench_duellum.py``) loaded as a module, once."""
    import importlib.util

    path = ROOT / relative
    name = name or path.stem
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, path)
        sys.modules[name] = importlib.util.module_from_spec(spec)  # dataclasses look their module up there
        spec.loader.exec_module(sys.modules[name])
    return sys.modules[name]


def played(game, orders):
    """The events of canonical ``orders`` played on ``game`` (they must be legal)."""
    from pbem.kernel.turn import resolve

    return resolve(game.state, orders, game.edition, game.board).events


def orders_for(game, nation=None, **fields):
    """Canonical orders for ``nation`` (default: the active one) for the current turn."""
    nation = nation or game.state.status.active
    data = {"game": game.game_id, "nation": nation, "turn": game.state.status.turn,
            "password": PASSWORDS[nation], **fields}
    return canonical_orders(data)


def play(game, nation=None, **fields):
    """Process orders; return (new game, result)."""
    return process(game, orders_for(game, nation, **fields))


def refusal(game, nation=None, **fields) -> list:
    """The rejections the orders get (fails the test if they are accepted)."""
    with pytest.raises(Refused) as info:
        apply_orders(game, orders_for(game, nation, **fields))
    return info.value.rejections


def codes(game, nation=None, **fields) -> list[str]:
    return [r.code for r in refusal(game, nation, **fields)]


def write_json(path: Path, data) -> Path:
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")
    return path


def held_lock(path):
    """Hold the game's lock as another run would (the referee's own lock)."""
    from pbem.service.store import locked

    return locked(path, must_exist=False)


_COMMAND: list = []
"""``antike-ref`` as a Click command, built once (:func:`cli_command`)."""


def cli_command():
    """``antike-ref`` as Click runs it, every command module loaded: built once. Typer's
    ``CliRunner.invoke`` builds the whole command tree again at every call, which was most
    of the time a rule case took (0.3 s of 0.34)."""
    if not _COMMAND:
        from typer.main import get_command

        from pbem.cli import app

        _COMMAND.append(get_command(app))
    return _COMMAND[0]


def cli_run(*args):
    """Run ``antike-ref ARGS`` in-process on the command built once, as Typer's
    ``CliRunner.invoke`` runs an application; the result keeps stdout and stderr apart."""
    from typer.testing import CliRunner, Result

    runner, command = CliRunner(), cli_command()
    code, exception, info = 0, None, None
    with runner.isolation() as streams:
        try:
            command.main(args=[str(a) for a in args], prog_name=runner.get_default_prog_name(command))
        except SystemExit as exit_:
            code = 0 if exit_.code is None else exit_.code
            if not isinstance(code, int):  # sys.exit("message"): the message, and code 1
                sys.stdout.write(f"{code}\n")
                code = 1
            exception, info = (exit_, sys.exc_info()) if code else (None, None)
        except Exception as exc:
            code, exception, info = 1, exc, sys.exc_info()
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            out, err, both = (stream.getvalue() for stream in streams)
    return Result(runner=runner, stdout_bytes=out, stderr_bytes=err, output_bytes=both, return_value=None,
                  exit_code=code, exception=exception, exc_info=info)


def new_game_file(folder: Path, *extra, name="game.json", nations=FOUR) -> Path:
    """Create ``folder/name`` with ``antike-ref new`` (fixed seed, :data:`PASSWORDS`)."""
    path = folder / name
    pw = [a for n in nations for a in ("--password", f"{n}={PASSWORDS[n]}")]
    result = cli_run("new", path, "--nations", ",".join(nations), "--seed", "test-seed", *pw, *extra)
    assert result.exit_code == 0, result.stderr
    return path


def ready(game, nation=None, rondel=None, coins=None, **resources):
    """``game`` after a GM edit of ``nation`` (default: the active one): its rondel index,
    coins (from or back to the bank) and the chips named in ``resources``."""
    change = {"nation": nation or game.state.status.active}
    if rondel is not None:
        change["rondel"] = rondel
    if coins is not None:
        change["coins"] = coins
    if resources:
        change["resources"] = resources
    return edit(game, change)


def pass_turn(game):
    """The active nation moves one wedge on for free (its first move: IRON) and does nothing."""
    rondel = game.edition.rondel
    current = game.state.nations[game.state.status.active].rondel
    if current is None:
        return play(game, rondel=rondel[0].name)[0]
    nxt = (current + 1) % len(rondel)
    return play(game, rondel={"to": rondel[nxt].name, "steps": 1})[0]


def pass_until(game, nation):
    """Pass turns (:func:`pass_turn`) until ``nation`` is the active nation."""
    while game.state.status.active != nation:
        game = pass_turn(game)
    return game


def position(*edits, active="phoenicians"):
    """A new four-nation game with ``edits`` applied and ``active`` to play."""
    return edit(make_game(), *edits, {"active": active})


def units(game, province, nation):
    """A nation's legions and galleys in a province."""
    prov = game.state.provinces.get(province)
    return {u: (prov.count(nation, u) if prov else 0) for u in ("legion", "galley")}


def maneuver(game, *steps, **extra):
    """Play a MANEUVER turn with these steps."""
    return play(game, rondel="maneuver", maneuver=list(steps), **extra)


def maneuver_codes(game, *steps):
    """The rejection codes a MANEUVER turn with these steps gets."""
    return codes(game, rondel="maneuver", maneuver=list(steps))


def first_turn_files(tmp_path, game_id="t"):
    """A new game saved in ``tmp_path`` and a legal first-turn order file (GOLD) for it:
    returns (game path, orders path, game)."""
    from pbem.service.store import game_text

    g = make_game(game_id=game_id)
    game = tmp_path / f"{game_id}.json"
    game.write_text(game_text(g), encoding="utf-8")
    nation = g.state.status.active
    orders = write_json(tmp_path / "o.json", {"game": game_id, "nation": nation, "turn": 1,
                                             "password": PASSWORDS[nation], "rondel": "gold"})
    return game, orders, g
