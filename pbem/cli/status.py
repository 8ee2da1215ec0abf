"""The ``status`` command: the GM's view of every game run by mail, the games that need
the GM first (docs/mail.md, "Status for the GM")."""

from __future__ import annotations

import os
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

import typer

from pbem.cli.base import app, print_json, run, time_option
from pbem.errors import InputError, UsageError


@app.command()
def status(
    games: list[Path] | None = typer.Argument(None, help="Game files (default: every game of the configuration)."),
    config: Path | None = typer.Option(None, "--config", envvar="ANTIKE_REF_MAIL_CONFIG", show_envvar=False,
                                          help="The mail configuration (docs/mail.md); also from "
                                               "ANTIKE_REF_MAIL_CONFIG."),
    as_json: bool = typer.Option(False, "--json", help="One JSON object on stdout: a record of named fields per "
                                                       "game (docs/mail.md), with no e-mail address."),
    html: Path | None = typer.Option(None, "--html", metavar="FILE",
                                        help="Also write the status as a small static HTML page to FILE (no "
                                             "script, nothing loaded from elsewhere, no e-mail address; mode "
                                             "600, a link at FILE is replaced, never written through)."),
    now: str | None = typer.Option(None, "--now", metavar="TIME",
                                      help="The time to tell the status at (ISO 8601, e.g. 2026-11-23T18:00:00Z); "
                                           "default: now."),
) -> None:
    """GM: one line per game run by mail: whose turn, the deadline, how late, who is away, the
    mail queue, the last error.

    The games that need the GM come first (a failed run, a deadline passed, a mail given
    up or still queued, a pause), then the latest, then the nearest deadline. Nothing is
    changed; a game file that does not load is a line with its error.

    Example: antike-ref status --config mail.toml --html status.html
    """

    def go():
        moment = time_option(now)
        cfg, records = _records(config, games, moment)
        relays = _relays(cfg, moment) if not games else []
        if as_json:
            from pbem.report.site import scrub
            from pbem.service.clock import iso

            # as the page: no address (a last error may quote a server's answer about one)
            shown = {"now": iso(moment), "games": scrub(records, [])}
            print_json({**shown, "relays": scrub(relays, [])} if relays else shown, sort_keys=False)
        else:
            for line in status_lines(records, moment, cfg.timezone):
                print(line)
            if relays:
                from pbem.mail.relays import relay_line

                for record in relays:
                    print(relay_line(record))
        if html is not None:
            from pbem.report.status_page import status_page
            from pbem.service import store

            # the GM's alone (it names the reasons of absences), and never written through a link
            store.write_in(html.parent, html.name, status_page(records, moment, cfg.timezone), 0o600)
            print(f"status page: {html}", file=sys.stderr if as_json else sys.stdout)

    run(go)


def _records(config: Path | None, games: list[Path] | None, moment: datetime) -> tuple[Any, list[dict[str, Any]]]:
    """The mail configuration (``--config``, or none) and the status record of each game
    it names (or of ``games``), the games that need the GM first."""
    from pbem.mail.config import MailConfig, load_config
    from pbem.service.overview import game_status, order

    if config is not None:
        try:
            cfg = load_config(config)
        except InputError as exc:  # a configuration that cannot be read is a usage error here
            raise UsageError(f"--config {exc}") from None
    else:
        cfg = MailConfig()
    chosen = [cfg.game(g) for g in games] if games else list(cfg.games)
    if not chosen and (games or not cfg.relays):
        raise UsageError("no games: name game files, or give --config with games in it ([[game]] file = ...)")
    base = cfg.path.parent.absolute() if cfg.path is not None else None
    known = cfg.path is not None  # no configuration, no policy
    owner = os.path.realpath(cfg.path) if cfg.path is not None else None
    return cfg, order([game_status(g.file, moment, _queue(g.file), cfg.timezone, g.missed if known else None,
                                   _shown(g.file, base, bool(games)), g.absence if known else None, owner,
                                   _strays(g.file))
                       for g in chosen])


def _relays(cfg, moment: datetime) -> list[dict[str, Any]]:
    """The status record of each relay of games without a game master the configuration
    names (:func:`pbem.mail.relays.relay_status`)."""
    if not cfg.relays:
        return []
    from pbem.mail.relays import relay_status

    base = cfg.path.parent.absolute() if cfg.path is not None else None
    return [relay_status(r, moment, _shown(r.file, base, False)) for r in cfg.relays]


def _queue(game: Path):
    """What waits in the game's mail queue: mails not delivered yet, mails given up."""
    from pbem.mail.ledger import spool_path
    from pbem.mail.transport import UNDELIVERABLE, waiting
    from pbem.service.overview import Queue

    folder = spool_path(game)
    return Queue(len(waiting(folder)), len(waiting(folder / UNDELIVERABLE)))


def _strays(game: Path) -> list[dict]:
    """The mails from a player's other address the game's mail ledger keeps (when and for
    which nation; the addresses are in the GM's notices, not here)."""
    from pbem.errors import PbemError
    from pbem.mail.ledger import load_ledger

    try:
        kept = load_ledger(game).strays
    except PbemError:  # a ledger that cannot be read is the mail run's to tell
        return []
    return [{"at": s["at"], "nation": s["nation"]} for s in kept if isinstance(s, dict)
            and isinstance(s.get("at"), str) and isinstance(s.get("nation"), str)]


def _shown(game: Path, base: Path | None, named: bool) -> str:
    """How a game file is named to the GM: as given on the command line, else relative to
    the configuration's folder when it lies inside it."""
    if named or base is None:
        return str(game)
    try:
        return str(Path(os.path.abspath(game)).relative_to(base))
    except ValueError:
        return str(game)


def status_lines(records: list[dict], now, zone: str) -> list[str]:
    """The status as text: a head line, then one line per game (``!`` before the games
    that need the GM)."""
    from pbem.service.clock import told
    from pbem.service.overview import left_text

    needing = sum(1 for r in records if r["needs_gm"])
    head = f"{len(records)} game{'s' if len(records) != 1 else ''} as of {told(now, zone)}: "
    lines = [head + (f"{needing} need{'s' if needing == 1 else ''} you" if needing else "nothing needs you")]
    for r in records:
        parts = []
        if r["error"]:
            parts.append("does not load")
        elif r["winner"]:
            parts.append(f"over: {r['winner_name']} won")
        else:
            who = f"turn {r['turn']}, {r['active_name']}" + (f" ({r['player']})" if r["player"] else "")
            parts.append(f"{who} since {r['since_local']}" if r["since_local"] else
                         f"{who}, not seen by the mail cycle yet")
            deadline = r["deadline"]
            if deadline and deadline.get("held_until") and not deadline.get("paused"):
                parts.append(f"no deadline: {left_text(r, now)}")
            elif deadline and deadline.get("due_local"):
                parts.append(f"deadline {deadline['due_local']}"
                             + (", paused" if deadline.get("paused") else f", {left_text(r, now)}"))
            elif r["paused"]:
                parts.append("no deadline while paused")
        if r["absences"]:
            parts.append("away: " + ", ".join(
                f"{a['name']} {a['from']} to {a['until']}" + (f" ({a['reason']})" if a["reason"] else "")
                + ("" if a["now"] else " (to come)") for a in r["absences"]))
        queue = r["queue"]
        parts.append("queue: " + (f"{queue['waiting']} waiting" if queue["waiting"] else "empty")
                     + (f", {queue['undeliverable']} given up" if queue["undeliverable"] else ""))
        if r["attention"]:
            parts.append("needs you: " + "; ".join(r["attention"]))
        name = f"{r['game']} ({r['file']})" if r["game"] else r["file"]
        lines.append(f"{'!' if r['needs_gm'] else ' '} {name}: " + "; ".join(parts))
    return lines
