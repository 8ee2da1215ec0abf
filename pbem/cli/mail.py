"""Playing by e-mail: inbox, remind, mail run, mail receive, mail watch, player, the GM's clock."""

from __future__ import annotations

from datetime import UTC
from pathlib import Path

import typer

from pbem.cli.base import app, err, run
from pbem.errors import ExitCode, UsageError

mail_app = typer.Typer(help="The mail cycle: from cron, from the mail server, or as a service (docs/mail.md).",
                       no_args_is_help=True, rich_markup_mode=None)
app.add_typer(mail_app, name="mail")

CONFIG_HELP = "The mail configuration (docs/mail.md); also from ANTIKE_REF_MAIL_CONFIG."
OUTBOX_HELP = ("Deliver into this folder instead of by SMTP: each mail is written there as an .eml file "
               "and counts as sent (it is not sent again).")
RUN_OUTBOX_HELP = OUTBOX_HELP[:-1] + ". To look without sending, add --dry-run."
"""``mail run`` alone has ``--dry-run``: only its help offers it."""
DRY_RUN_HELP = ("Change nothing: with --outbox DIR, write every mail this run would send into DIR, while the "
                "games, ledgers, mail queues and clocks stay as they are (the real run still sends them).")
NOW_HELP = "The time to act at (ISO 8601, e.g. 2026-11-23T18:00:00Z); default: now. For tests and catching up."


def _setup(config: Path | None, outbox: Path | None, now: str | None):
    """The configuration, the transport and the time, from the options. Light: nothing of
    the cycle, the game service or a mail server's modules is loaded (an idle
    ``mail run`` ends with what this loads and :mod:`pbem.mail.watermarks`)."""
    from datetime import datetime

    from pbem.mail.config import MailConfig, load_config
    from pbem.mail.transport import Transport
    from pbem.service.numbers import moment as read_time

    cfg = load_config(config) if config is not None else MailConfig()
    if outbox is None and cfg.smtp is None:
        raise UsageError("no way to send mail: give --outbox DIR, or --config FILE with an [smtp] section")
    moment = read_time(now, "--now") if now else datetime.now(UTC).replace(microsecond=0)
    return cfg, Transport(None if outbox is not None else cfg.smtp, outbox, cfg.sender), moment


def _cycle(cfg, moment, transport, record: bool, log=print, warn=err):
    """The cycle, keeping the games' watermarks (:class:`pbem.mail.idle.Watermarks`);
    ``inbox``, ``remind`` and a dry run only remove them (they always act), ``mail run``
    writes them. The wall clock (when a local mailbox was looked at) is read here, as
    ``now`` is."""
    import time

    from pbem.mail.rounds import cycle

    return cycle(cfg, moment, transport, log, warn, record, time.time_ns)


def _finish(summary, transport, idle: int | None = None) -> None:
    line = (f"applied {summary.applied}, rejected {summary.rejected}, queued {summary.queued}, "
            f"delivered {summary.sent} ({transport.describe()})")
    print(line if idle is None else f"{line}, {idle} game{'' if idle == 1 else 's'} idle")
    if summary.failures:
        worst = max(int(getattr(f, "exit_code", ExitCode.INTERNAL)) for f in summary.failures)
        raise typer.Exit(worst)


class _Idle:
    """The summary of a ``mail run`` in which every game was idle (the cycle's own,
    :class:`pbem.mail.runs.Summary`, is not even loaded)."""

    applied = rejected = queued = sent = 0
    failures: tuple = ()


_IDLE = _Idle()


def _config_option():
    return typer.Option(None, "--config", envvar="ANTIKE_REF_MAIL_CONFIG", show_envvar=False, help=CONFIG_HELP)


@app.command()
def inbox(
    game: Path = typer.Argument(..., help="The game file."),
    source: str = typer.Argument(..., help="A Maildir folder, an mbox file, an .eml file or imaps://user@host/INBOX."),
    config: Path | None = _config_option(),
    outbox: Path | None = typer.Option(None, "--outbox", help=OUTBOX_HELP),
    now: str | None = typer.Option(None, "--now", help=NOW_HELP),
    image_base: str | None = typer.Option(None, "--image-base", metavar="URL",
                                             help="Where the board pictures are on the web, for the Markdown and "
                                                  "BBCode reports the mails carry (default: the game's image_base "
                                                  "in the configuration)."),
) -> None:
    """Read order mails for a game: apply the valid ones, answer every one, mail reports.

    Mail that holds no orders is left alone; no mail is ever applied twice.

    Example: antike-ref inbox game.json ~/Maildir --config mail.toml
    """

    def go():
        from dataclasses import replace

        cfg, transport, moment = _setup(config, outbox, now)
        settings = cfg.game(game)
        if image_base is not None:
            from pbem.mail.config import web_address

            settings = replace(settings, image_base=web_address(image_base, "--image-base"))
        cycle = _cycle(cfg, moment, transport, record=False)
        _finish(cycle.run([settings], source=source, deadlines=False), transport)

    run(go)


@app.command()
def remind(
    game: Path = typer.Argument(..., help="The game file."),
    config: Path | None = _config_option(),
    outbox: Path | None = typer.Option(None, "--outbox", help=OUTBOX_HELP),
    now: str | None = typer.Option(None, "--now", help=NOW_HELP),
) -> None:
    """Mail the player whose turn it is a reminder (with what they can do).

    Example: antike-ref remind game.json --config mail.toml
    """

    def go():
        cfg, transport, moment = _setup(config, outbox, now)
        cycle = _cycle(cfg, moment, transport, record=False)
        _finish(cycle.remind(cfg.game(game)), transport)

    run(go)


@mail_app.command("run")
def mail_run(
    games: list[Path] | None = typer.Argument(None, help="Game files (default: every game of the configuration)."),
    config: Path | None = _config_option(),
    source: str | None = typer.Option(None, "--source", help="Read this mail source instead of the configured one."),
    outbox: Path | None = typer.Option(None, "--outbox", help=RUN_OUTBOX_HELP),
    dry_run: bool = typer.Option(False, "--dry-run", help=DRY_RUN_HELP),
    now: str | None = typer.Option(None, "--now", help=NOW_HELP),
) -> None:
    """One whole cycle: read mail, apply and answer it, report, remind, keep deadlines.

    Safe to run from cron every minute, twice at once, or again after a crash. A game in
    which nothing happened since the last run (its watermark, GAME.mail-mark.json, says
    so) is left alone without being loaded. A run of every game of the configuration (no
    GAME named, no --source) first reads the mails `mail receive` kept for later.

    Example: antike-ref mail run --config mail.toml

    To see what it would send first: antike-ref mail run --config mail.toml --dry-run --outbox /tmp/outbox
    """

    def go():
        import time

        from pbem.mail.rounds import one_round
        from pbem.mail.watermarks import arrivals_waiting

        if dry_run and outbox is None:
            raise UsageError("--dry-run writes the mails it would send into a folder: give --outbox DIR too")
        cfg, transport, moment = _setup(config, outbox, now)
        chosen = [cfg.game(g) for g in games] if games else list(cfg.games)
        if not chosen and (games or dry_run or not cfg.relays):  # a configuration may hold relays alone
            raise UsageError("no games: name game files, or list them in the configuration ([[game]] file = ...)")
        # the mails `mail receive` kept are read only by a run of every game (they may be for any)
        kept = cfg.incoming if not games and source is None else None
        if dry_run:
            from pbem.mail.rehearsal import rehearsal

            transport.rehearsal = True
            with rehearsal(chosen, print) as (copies, real):
                cycle = _cycle(cfg, moment, transport, record=False, log=lambda m: print(real(m)),
                               warn=lambda m: err(real(m)))
                if kept is not None and arrivals_waiting(kept):
                    cycle.arrivals(copies, kept, sweep=False)
                summary = cycle.run(copies, source=source)
            _finish(summary, transport)
            return
        # the idle games are told by their watermarks alone (docs/mail.md); only the others
        # load the cycle, the game service and the games
        done = one_round(cfg, chosen, moment, transport, print, err, time.time_ns, source=source, whole=not games)
        _finish(done.summary if done.summary is not None else _IDLE, transport, idle=done.idle)

    run(go)


@app.command()
def player(
    game: Path = typer.Argument(..., help="The game file."),
    nation: str = typer.Argument(..., help="The nation that gets a new player."),
    who: str = typer.Option(..., "--player", help="The new player: 'Name <e-mail>'."),
    reason: str = typer.Option("new player", "--reason", help="Why; logged in the history."),
    config: Path | None = _config_option(),
    outbox: Path | None = typer.Option(None, "--outbox", help=OUTBOX_HELP),
    now: str | None = typer.Option(None, "--now", help=NOW_HELP),
    kdf_iterations: int | None = typer.Option(
        None, "--kdf-iterations", envvar="ANTIKE_REF_KDF_ITERATIONS", show_envvar=False,
        help="Cost of the new password's hash (default 60000)."),
    keep_password: bool = typer.Option(False, "--keep-password",
                                       help="The same player at a new address (or under a new name): the password "
                                            "stays, none is mailed."),
) -> None:
    """GM: give a nation a new player (name, address, new password), as a logged edit.

    The password goes into GAME.secrets.json and, with --config or --outbox, by mail to
    the new player; the player being replaced is told. With --keep-password the player
    only moves to another address (or name) and keeps the password.

    Example: antike-ref player game.json greeks --player "Bea <bea@example.org>" --config mail.toml
    """

    def go():
        from pbem.service import passwords, store
        from pbem.service.creation import parse_player
        from pbem.service.service import GameService

        name, email = parse_player(who)
        if not email:
            raise UsageError(f"--player {who!r}: give the address too, as 'Name <e-mail>'")
        sending = config is not None or outbox is not None
        cfg, transport, moment = _setup(config, outbox, now) if sending else (None, None, None)
        service = GameService(game)
        before = service.load().meta.get(nation)
        if keep_password:
            service.change_address(nation, email, reason, player=name)
            plain = None
            print(f"{nation} is now played by {name or email} at {email}; the password stays as it was")
        else:
            outcome, plain = service.replace_player(nation, name, email, reason,
                                                    kdf_iterations or passwords.ITERATIONS)
            print(f"{nation} is now played by {name or email}; the new password is in "
                  f"{store.sibling(game, '.secrets.json')}")
        if sending:
            from pbem.mail.welcome import player_mail

            player_mail(cfg, game, nation, plain, moment, transport, print,
                        old=(before.player, before.email) if before is not None else None)
        elif plain is not None:
            err("no --config or --outbox: send the new player their password yourself")

    run(go)


RECEIVE_WAIT_HELP = ("How long to try again while another run holds a game (seconds, 0-300); then the mail waits in "
                     "the incoming folder for the next run and the mail server is told to try again (75).")


@mail_app.command("receive")
def mail_receive(
    config: Path | None = _config_option(),
    outbox: Path | None = typer.Option(None, "--outbox", help=OUTBOX_HELP),
    now: str | None = typer.Option(None, "--now", help=NOW_HELP),
    wait: float = typer.Option(5.0, "--wait", min=0, max=300, help=RECEIVE_WAIT_HELP),
    log: Path | None = typer.Option(None, "--log", help="Also append what it says to this file (mode 600), each "
                                                           "line with the time: a mail server shows nobody."),
) -> None:
    """Answer one mail at once: a mail server's pipe delivery hands it over on standard input.

    For a Postfix pipe, procmail, a Sieve pipe or Dovecot's LDA (docs/mail.md, "Answers in
    seconds"). The mail is kept in the configuration's incoming folder, synced to disk,
    then every game of the configuration reads it as `mail run` reads a mailbox (the same
    guards, locks and ledgers: a mail is applied once, however often it is handed over).
    Exit codes, for the mail server: 0, the mail is taken (kept until every game has read
    it); 75 (EX_TEMPFAIL), it could not be kept or read now (the configuration does not
    load, the disk is full, another run holds a game past --wait): the server tries again,
    and a mail that was kept is read by the next run anyway. No other code.

    Example: antike-ref mail receive --config /home/gm/antike/mail.toml
    """
    import sys

    say, complain = _receive_log(log)
    try:
        code = _receive(config, outbox, now, wait, say, complain, sys.stdin.buffer)
    except BaseException as exc:  # noqa: B036 -- the mail server must hear 0 or 75, whatever happened
        if isinstance(exc, typer.Exit):
            raise
        complain(f"mail receive: {type(exc).__name__}: {exc}; the mail server keeps the mail and tries again")
        code = 75
    sys.stdout.flush()
    raise typer.Exit(code)


def _receive(config, outbox, now, wait, say, complain, stream) -> int:
    import time

    from pbem.errors import PbemError
    from pbem.mail.receive import TEMPFAIL, Clocks, receive

    try:
        if config is None:
            raise UsageError("give --config FILE (the mail configuration that lists the games)")
        cfg, transport, moment = _setup(config, outbox, now)
    except PbemError as exc:
        complain(f"mail receive: {exc}; the mail server keeps the mail and tries again")
        return TEMPFAIL
    return receive(cfg, stream, Clocks(moment, time.time_ns, time.monotonic, time.sleep), transport, say, complain,
                   wait)


def _receive_log(path: Path | None):
    """What ``mail receive`` says: to stdout and stderr, and appended to ``path`` if given."""

    def into(line: str) -> None:
        if path is None:
            return
        import os
        from datetime import datetime

        stamp = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        try:
            fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
            with os.fdopen(fd, "a", encoding="utf-8") as fh:
                fh.write(f"{stamp} {line}\n")
        except OSError as exc:
            err(f"mail receive: cannot write {path}: {exc.strerror or exc}")

    def say(line: str) -> None:
        print(line)
        into(line)

    def complain(line: str) -> None:
        err(line)
        into(line)

    return say, complain


@mail_app.command("watch")
def mail_watch(
    config: Path | None = _config_option(),
    outbox: Path | None = typer.Option(None, "--outbox", help=OUTBOX_HELP),
    now: str | None = typer.Option(None, "--now", help="Start the watch's clock at this time (ISO 8601); it runs "
                                                          "on from there. For tests and catching up."),
    stop_after: int | None = typer.Option(None, "--stop-after", min=1, metavar="N",
                                             help="Stop after the round in which the N-th mail was read."),
    stop_at: str | None = typer.Option(None, "--stop-at", metavar="TIME",
                                          help="Stop once the watch's clock reaches TIME (after a last round)."),
) -> None:
    """Answer each mail as it arrives (IMAP IDLE) and keep every deadline on time, until stopped.

    A long-running service (docs/mail.md gives a systemd unit): a round of `mail run` at the
    start, then one whenever a mail arrives in a mailbox of the games (IMAP IDLE; a local
    mailbox and the incoming folder of `mail receive` are looked at twice a second) and
    whenever a game's clock needs one (a reminder, a deadline, an absence). A dropped
    connection is opened again (after 1, 2, 4 ... up to 60 s). SIGTERM or Ctrl-C ends it
    after the round under way, its mails finished and delivered (exit code 0).
    `mail run` from cron and `mail receive` may run beside it: each mail is read once.

    Example: antike-ref mail watch --config mail.toml
    """

    def go():
        import time
        from datetime import datetime, timedelta

        from pbem.mail.transport import Transport
        from pbem.mail.watch import Clocks, Until, Watch
        from pbem.service.numbers import moment as read_time

        cfg, transport, start = _setup(config, outbox, now)
        if not (cfg.games or cfg.relays):
            raise UsageError("no games: list them in the configuration ([[game]] file = ... or [[relay]] file = ...)")
        began = time.monotonic()

        def clock():
            return start + timedelta(seconds=time.monotonic() - began) if now else datetime.now(UTC)

        until = Until(stop_after, read_time(stop_at, "--stop-at") if stop_at else None)
        watcher = Watch(cfg, list(cfg.games), Clocks(clock, time.time_ns),
                        lambda: Transport(transport.smtp, transport.outbox, transport.sender),
                        lambda m: print(m, flush=True), err, until)
        code = _watch_until_stopped(watcher)
        if code:
            raise typer.Exit(code)

    run(go)


def _watch_until_stopped(watcher) -> int:
    """Run ``watcher`` with SIGTERM and SIGINT asking it to stop after the round under way
    (asked twice: as without the watch); the handlers before it are put back after."""
    import signal

    previous = {s: signal.getsignal(s) for s in (signal.SIGTERM, signal.SIGINT)}

    def stop(signum, frame):
        if watcher.stopping:  # asked twice: as without the watch
            handler = previous.get(signum)
            if callable(handler):
                handler(signum, frame)
            raise KeyboardInterrupt
        watcher.request_stop(signal.Signals(signum).name)

    for s in previous:
        signal.signal(s, stop)
    try:
        return watcher.run()
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)


@mail_app.command("cron-line")
def cron_line(
    config: Path = typer.Option(..., "--config", envvar="ANTIKE_REF_MAIL_CONFIG", show_envvar=False,
                                help=CONFIG_HELP),
    every: int = typer.Option(5, "--every", min=1, max=59, help="Run every this many minutes."),
    log: Path | None = typer.Option(None, "--log", help="Where the runs write (default: mail.log beside "
                                                           "the configuration)."),
) -> None:
    """Print the crontab line that runs the mail cycle of this installation.

    Every path in it is absolute (this antike-ref, the configuration, the log), since cron
    starts in another folder with another PATH. Add the line with `crontab -e`.

    Example: antike-ref mail cron-line --config mail.toml
    """

    def go():
        import shlex
        import sys

        from pbem.mail.config import load_config

        load_config(config)  # a configuration that does not load makes no cron line
        folder = config.absolute().parent
        target = (log or folder / "mail.log").absolute()
        print(f"*/{every} * * * * cd {shlex.quote(str(folder))} && {executable(sys.argv[0])} mail run --config "
              f"{shlex.quote(str(config.absolute()))} >> {shlex.quote(str(target))} 2>&1")

    run(go)


def executable(called: str) -> str:
    """This antike-ref as an absolute command: the script it was started as, else the one
    on PATH, else this Python running the package."""
    import shlex
    import shutil
    import sys

    script = Path(called)
    if script.name == "antike-ref" and script.is_file():
        return shlex.quote(str(script.absolute()))
    found = shutil.which("antike-ref")
    if found:
        return shlex.quote(str(Path(found).absolute()))
    return f"{shlex.quote(sys.executable)} -m pbem"


def _moment(now: str | None):
    """``--now``, else the clock (read here, by the command line)."""
    from datetime import datetime

    from pbem.service.numbers import moment

    return moment(now, "--now") if now else datetime.now(UTC).replace(microsecond=0)


GM_CONFIG_HELP = ("The mail configuration the game is run by (docs/mail.md): its time zone is used, and a game "
                  "that belongs to another configuration is refused. Also from ANTIKE_REF_MAIL_CONFIG.")


def _gm_config(config: Path | None):
    """The configuration a GM's clock command was given, and the owner it names (or none)."""
    if config is None:
        return None, None
    from pbem.mail.config import load_config

    cfg = load_config(config)
    return cfg, cfg.owner


def _gm_config_option():
    return typer.Option(None, "--config", envvar="ANTIKE_REF_MAIL_CONFIG", show_envvar=False, help=GM_CONFIG_HELP)


@app.command()
def deadline(
    game: Path = typer.Argument(..., help="The game file."),
    extend: str | None = typer.Option(None, "--extend", help="Move this turn's deadline on by a duration (24h, 90m, "
                                         "2d; the deadline at most a year ahead)."),
    set_to: str | None = typer.Option(None, "--set", help="Set this turn's deadline to a time "
                                         "(2026-11-30T18:00:00Z, or 2026-11-30T18:00 in the game's time zone; at "
                                         "most a year ahead)."),
    force: bool = typer.Option(False, "--force", help="Also a deadline in the past (the turn is then late at the "
                                                      "next mail run); without it one is refused."),
    reason: str = typer.Option("", "--reason", help="Why (written to the audit log, not told to the players)."),
    config: Path | None = _gm_config_option(),
    now: str | None = typer.Option(None, "--now", help=NOW_HELP),
) -> None:
    """GM: extend or set the current turn's deadline (this turn only); logged, and the players told.

    A time without a zone is in the game's time zone ([mail] timezone). A deadline that
    would not lie ahead is refused, unless --force.

    Example: antike-ref deadline game.json --extend 24h --reason "Ann is travelling"
    """

    def go():
        from pbem.mail import judge
        from pbem.service.numbers import duration

        cfg, owner = _gm_config(config)
        by = duration(extend, "--extend") if extend is not None else None
        print(judge.change_deadline(game, _moment(now), by, set_to, reason, force, owner,
                                    cfg.timezone if cfg is not None else None).what)

    run(go)


@app.command()
def absent(
    game: Path = typer.Argument(..., help="The game file."),
    nation: str = typer.Argument(..., help="The nation whose player is away."),
    start: str | None = typer.Option(None, "--from", help="The first day away (2026-12-01); default: today."),
    until: str | None = typer.Option(None, "--until", help="The last day away (2026-12-14; at most a year ahead)."),
    back: bool = typer.Option(False, "--back", help="The player is back: end the absence (or take back one to come)."),
    reason: str = typer.Option("", "--reason", help="Why (for the GM's log only: the players are told nothing of it)."),
    over_cap: bool = typer.Option(False, "--over-cap", help="Allow more days away than the game's absence_days "
                                  "(the audit log records it)."),
    config: Path | None = _gm_config_option(),
    now: str | None = typer.Option(None, "--now", help=NOW_HELP),
) -> None:
    """GM: a player is away from one day to another; their turns follow the game's absence policy.

    With --config the game's absence_days cap and time zone are used (default: 21 days a
    year, UTC). The cap counts every day away in the 365 days up to the last one, the days
    of an absence renewed or replaced included; --over-cap lets the GM go past it. The other
    players are told, without the reason.

    Example: antike-ref absent game.json greeks --from 2026-12-01 --until 2026-12-14 --config mail.toml
    """

    def go():
        from pbem.mail import judge
        from pbem.service.clock import local_day

        moment = _moment(now)
        cfg, owner = _gm_config(config)
        if back:
            print(judge.end_absence(game, nation, moment, owner=owner).what)
            return
        if until is None:
            raise UsageError("give --until DAY (the last day away), or --back")
        settings = cfg.game(game) if cfg is not None else None
        zone = cfg.timezone if cfg is not None else None
        first = judge.zone_day(start, "--from") if start else local_day(moment, zone)
        print(judge.add_absence(game, nation, first, judge.zone_day(until, "--until"), moment, reason, "gm",
                                settings.absence_days if settings else 21, zone, over_cap, owner).what)

    run(go)


@app.command()
def pause(
    game: Path = typer.Argument(..., help="The game file."),
    reason: str = typer.Option("", "--reason", help="Why: told to the players."),
    config: Path | None = _gm_config_option(),
    now: str | None = typer.Option(None, "--now", help=NOW_HELP),
) -> None:
    """GM: pause the game: no deadline runs until `resume`; the players are told.

    Example: antike-ref pause game.json --reason "the GM is away until Monday"
    """

    def go():
        from pbem.mail import judge

        print(judge.pause(game, _moment(now), reason, _gm_config(config)[1]).what)

    run(go)


@app.command()
def resume(
    game: Path = typer.Argument(..., help="The game file."),
    config: Path | None = _gm_config_option(),
    now: str | None = typer.Option(None, "--now", help=NOW_HELP),
) -> None:
    """GM: the paused game goes on; the current turn's deadline moves on by the time it was paused.

    Example: antike-ref resume game.json
    """

    def go():
        from pbem.mail import judge

        print(judge.resume(game, _moment(now), _gm_config(config)[1]).what)

    run(go)


@mail_app.command("adopt")
def adopt(
    games: list[Path] = typer.Argument(..., help="The game files (each listed in the configuration)."),
    config: Path = typer.Option(..., "--config", envvar="ANTIKE_REF_MAIL_CONFIG", show_envvar=False,
                                help="The mail configuration the games are to belong to."),
    now: str | None = typer.Option(None, "--now", help=NOW_HELP),
) -> None:
    """GM: move games to this mail configuration on purpose; the one they belonged to is refused from then on.

    A game belongs to the configuration whose mail run first ran it (recorded in
    GAME.clock.json); a run, or a GM's clock command, with another configuration is
    refused, so that two configurations never keep one game's deadlines by two sets of
    rules. Logged in each game's audit log.

    Example: antike-ref mail adopt games/demo.json --config mail.toml
    """

    def go():
        from pbem.mail import judge
        from pbem.mail.config import load_config

        cfg = load_config(config)
        moment = _moment(now)
        for game in games:
            print(judge.adopt(game, moment, cfg))

    run(go)
