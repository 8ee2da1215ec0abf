"""``mail receive``: one mail on standard input, as a mail server's pipe delivery hands it
over, answered at once; kept until every game has read it, so that no mail is lost, and
read by Message-ID, so that none is applied twice. The mail server hears 0 or 75, never a
code that would bounce a player's mail for an error of ours (docs/mail.md, "Answers in
seconds"). The real mail server's pipe is in tests/mail/test_mail_instant.py."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from mailkit import ADDRESSES, START, config, game_with_players, json_orders, mail, maildir, run_mail, sent

from conftest import cli_run

LATER = "2026-11-23T10:05:00Z"
QUICK = 'attach = ""'
"""Report mails without the board picture: these tests are about the mail, not the report."""


def receive(cfg: Path, raw: bytes, outbox: Path, *extra, now: str = LATER):
    from typer.testing import CliRunner

    from pbem.cli import app

    args = ["mail", "receive", "--config", str(cfg), "--outbox", str(outbox), "--now", now, *map(str, extra)]
    return CliRunner().invoke(app, args, input=raw)


@pytest.fixture
def table(tmp_path):
    """A game whose opening mails went out (``mail run``), with no mail source of its own:
    every mail comes through ``mail receive``."""
    game = game_with_players(tmp_path)
    cfg = config(tmp_path, game, defaults=QUICK)
    assert cli_run("mail", "run", "--config", cfg, "--outbox", tmp_path / "opening", "--now", START).exit_code == 0
    return tmp_path, game, cfg


def active(game: Path) -> str:
    return json.loads(game.read_text())["status"]["active"]


def history(game: Path) -> list[dict]:
    return json.loads(game.read_text())["history"]


def waiting(folder: Path) -> list[str]:
    return sorted(os.listdir(folder / "incoming" / "new"))


def order_mail(game: Path, message_id: str = "<orders-1@players.example>") -> bytes:
    nation = active(game)
    return mail(ADDRESSES[nation], body=f"game demo\nnation {nation}\npassword pw-{nation}\nturn 1\nrondel gold\n",
                message_id=message_id)


def test_an_order_mail_on_standard_input_is_applied_answered_and_reported(table):
    folder, game, cfg = table
    result = receive(cfg, order_mail(game), folder / "out")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert history(game)[-1]["mail"] == "<orders-1@players.example>"
    out = sent(folder / "out")
    receipts = [m for m in out if "accepted" in str(m["Subject"])]
    assert len(receipts) == 1 and len([m for m in out if "after turn 1" in str(m["Subject"])]) == 5
    # the receipt went out first, before the reports were rendered
    assert sorted(p.name for p in (folder / "out").glob("*.eml"))[0] == "000001-receipt.eml"
    assert waiting(folder) == []  # every game read it: it leaves the folder


def test_the_same_mail_handed_over_twice_is_applied_once(table):
    folder, game, cfg = table
    raw = order_mail(game)
    assert receive(cfg, raw, folder / "out").exit_code == 0
    before = game.read_bytes()
    again = receive(cfg, raw, folder / "again")
    assert again.exit_code == 0, again.stderr
    assert game.read_bytes() == before and sent(folder / "again") == []
    assert waiting(folder) == []


def test_a_mail_server_from_line_is_not_part_of_the_mail(table):
    """procmail and Postfix's pipe (flag F) put an mbox ``From`` line before the header."""
    folder, game, cfg = table
    raw = b"From ann@players.example  Mon Nov 23 10:00:00 2026\n" + order_mail(game)
    assert receive(cfg, raw, folder / "out").exit_code == 0
    assert history(game)[-1]["mail"] == "<orders-1@players.example>"


def test_a_game_held_by_another_run_keeps_the_mail_and_asks_the_server_to_try_again(table):
    from pbem.mail.ledger import mail_lock

    folder, game, cfg = table
    raw = order_mail(game)
    before = game.read_bytes()
    with mail_lock(game):
        held = receive(cfg, raw, folder / "out", "--wait", "0")
    assert held.exit_code == 75, held.stdout + held.stderr
    assert "could not read the mail now" in held.stderr and "tries again" in held.stderr
    assert game.read_bytes() == before and len(waiting(folder)) == 1
    # the next mail run reads it (cron), and takes it out of the folder
    later = cli_run("mail", "run", "--config", cfg, "--outbox", folder / "out", "--now", LATER)
    assert later.exit_code == 0, later.stdout + later.stderr
    assert history(game)[-1]["mail"] == "<orders-1@players.example>" and waiting(folder) == []
    # the mail server's retry changes nothing
    after = game.read_bytes()
    retry = receive(cfg, raw, folder / "retry")
    assert retry.exit_code == 0 and game.read_bytes() == after and sent(folder / "retry") == []


def test_a_game_released_while_receive_waits_reads_the_mail(table, monkeypatch):
    """Another run holds the game for a moment: ``receive`` tries again within ``--wait``."""
    from pbem.mail import receive as module
    from pbem.mail.ledger import mail_lock

    folder, game, cfg = table
    lock = mail_lock(game)
    lock.__enter__()
    monkeypatch.setattr(module, "PAUSE", 0.01)
    real = module.rounds.cycle
    tries = []

    def counting(*args):
        tries.append(1)
        if len(tries) == 2:
            lock.__exit__(None, None, None)  # the other run is done
        return real(*args)

    monkeypatch.setattr(module.rounds, "cycle", counting)
    result = receive(cfg, order_mail(game), folder / "out", "--wait", "30")
    assert result.exit_code == 0, result.stderr
    assert len(tries) == 2 and history(game)[-1]["mail"] == "<orders-1@players.example>"


@pytest.mark.parametrize("problem", ["incoming-is-a-file", "no-config", "bad-toml", "no-games", "no-smtp"])
def test_what_stops_the_mail_being_kept_makes_the_server_try_again(table, problem):
    folder, game, cfg = table
    if problem == "incoming-is-a-file":
        (folder / "incoming").write_text("not a folder")
    elif problem == "no-config":
        cfg = folder / "missing.toml"
    elif problem == "bad-toml":
        cfg.write_text("[mail\n")
    elif problem == "no-games":
        cfg.write_text('[mail]\nfrom = "r@referee.example"\n')
    before = game.read_bytes()
    from typer.testing import CliRunner

    from pbem.cli import app

    args = ["mail", "receive", "--config", str(cfg), "--now", LATER]
    if problem != "no-smtp":
        args += ["--outbox", str(folder / "out")]
    result = CliRunner().invoke(app, args, input=order_mail(game))
    assert result.exit_code == 75, (result.exit_code, result.stdout, result.stderr)
    assert "the mail server keeps" in result.stderr
    assert game.read_bytes() == before


def test_a_mail_too_large_keeps_its_header_only_and_gets_one_line(table):
    folder, game, cfg = table
    cfg.write_text(cfg.read_text().replace("[mail]\n", '[mail]\nmax_message = "64kB"\n'))
    nation = active(game)
    big = mail(ADDRESSES[nation], body="rondel gold\n" + "x" * 200_000, message_id="<big@players.example>")
    result = receive(cfg, big, folder / "out")
    assert result.exit_code == 0, result.stderr
    (answer,) = sent(folder / "out")
    assert str(answer["To"]) == ADDRESSES[nation] and "more than the 65,536" in answer.get_body(("plain",)).get_content()
    ledger = json.loads((folder / "game.mail.json").read_text())
    assert ledger["messages"]["<big@players.example>"]["outcome"] == "unreadable"
    assert waiting(folder) == []


def test_mail_for_nobody_is_taken_and_left_alone(table):
    folder, game, cfg = table
    before = game.read_bytes()
    result = receive(cfg, mail("news@letters.example", subject="Our offers", body="Buy now!"), folder / "out")
    assert result.exit_code == 0 and sent(folder / "out") == [] and game.read_bytes() == before
    assert waiting(folder) == []


def test_an_empty_standard_input_is_no_mail(table):
    folder, game, cfg = table
    result = receive(cfg, b"", folder / "out")
    assert result.exit_code == 0 and "no mail on standard input" in result.stderr
    assert not (folder / "incoming").exists()


def test_a_damaged_game_keeps_the_mail_for_when_it_is_mended(tmp_path):
    """Another game of the configuration does not load: the mail is taken (no retry of the
    mail server's would mend the file), applied by the game it is for, and kept for the
    damaged one, which reads it once the GM has mended it."""
    game = game_with_players(tmp_path)
    other = game_with_players(tmp_path, name="other.json", game_id="other")
    cfg = config(tmp_path, game, other, defaults=QUICK)
    assert cli_run("mail", "run", "--config", cfg, "--outbox", tmp_path / "o", "--now", START).exit_code == 0
    good = other.read_bytes()
    other.write_text("{ not json")
    result = receive(cfg, order_mail(game), tmp_path / "out")
    assert result.exit_code == 0, result.stderr
    assert "until every game can read it" in result.stderr
    assert history(game)[-1]["mail"] == "<orders-1@players.example>" and len(waiting(tmp_path)) == 1
    other.write_bytes(good)
    assert cli_run("mail", "run", "--config", cfg, "--outbox", tmp_path / "o2", "--now", LATER).exit_code == 0
    assert waiting(tmp_path) == []


def test_a_mail_that_trips_a_bug_is_noted_and_kept_aside(table, monkeypatch):
    from pbem.mail import router

    folder, game, cfg = table

    def buggy(incoming):
        raise KeyError("a bug")

    monkeypatch.setattr(router, "find_orders", buggy)
    result = receive(cfg, order_mail(game), folder / "out")
    assert result.exit_code == 0 and "internal error" in result.stderr
    assert waiting(folder) == [] and len(os.listdir(folder / "incoming" / "cur")) == 1  # for the GM's report


def test_the_next_cron_run_after_receive_stays_idle(tmp_path):
    """``receive`` reads only the mail it was handed; the game's watermark keeps what the
    last ``mail run`` saw of the configured mailbox, so cron's next run leaves the game
    alone (it loads nothing) unless that mailbox changed."""
    game = game_with_players(tmp_path)
    box = maildir(tmp_path / "M")
    cfg = config(tmp_path, game, defaults=QUICK)
    cfg.write_text(cfg.read_text().replace("[mail]\n", f'[mail]\nsource = "{box}"\n'))
    old = 1_700_000_000_000_000_000
    for sub in ("new", "cur"):
        os.utime(box / sub, ns=(old, old))  # a mailbox quiet for a long time
    assert cli_run("mail", "run", "--config", cfg, "--outbox", tmp_path / "o", "--now", START).exit_code == 0
    assert receive(cfg, order_mail(game), tmp_path / "out").exit_code == 0
    assert history(game)[-1]["mail"] == "<orders-1@players.example>"
    idle = cli_run("mail", "run", "--config", cfg, "--outbox", tmp_path / "o2", "--now", LATER)
    assert idle.exit_code == 0 and "1 game idle" in idle.stdout, idle.stdout


def test_a_dry_run_reads_the_kept_mails_and_leaves_them(table):
    from pbem.mail.ledger import mail_lock

    folder, game, cfg = table
    with mail_lock(game):
        assert receive(cfg, order_mail(game), folder / "out", "--wait", "0").exit_code == 75
    before = game.read_bytes()
    dry = cli_run("mail", "run", "--config", cfg, "--dry-run", "--outbox", folder / "dry", "--now", LATER)
    assert dry.exit_code == 0, dry.stdout + dry.stderr
    assert any("accepted" in str(m["Subject"]) for m in sent(folder / "dry"))
    assert game.read_bytes() == before and len(waiting(folder)) == 1


def test_the_log_option_appends_what_receive_says(table):
    folder, game, cfg = table
    log = folder / "receive.log"
    assert receive(cfg, order_mail(game), folder / "out", "--log", log).exit_code == 0
    text = log.read_text()
    assert "applied turn 1" in text and text.startswith("20")
    assert oct(log.stat().st_mode & 0o777) == "0o600"


def test_the_three_side_by_side_apply_a_mail_once(table):
    """The same mail through ``receive`` (the mail server's pipe), in the mailbox ``mail
    watch`` and cron's ``mail run`` read: applied once, answered once."""
    folder, game, cfg = table
    raw = order_mail(game)
    box = maildir(folder / "M", raw)
    cfg.write_text(cfg.read_text().replace("[mail]\n", f'[mail]\nsource = "{box}"\n'))
    assert receive(cfg, raw, folder / "out").exit_code == 0
    watch = cli_run("mail", "watch", "--config", cfg, "--outbox", folder / "w", "--now", LATER, "--stop-at", LATER)
    assert watch.exit_code == 0, watch.stdout + watch.stderr
    cron = run_mail(cfg, box, folder / "c", LATER)
    assert cron.exit_code == 0
    assert [e.get("mail") for e in history(game)].count("<orders-1@players.example>") == 1
    assert sent(folder / "w") == [] and sent(folder / "c") == []


def test_hostile_mail_handed_over_is_that_mails_problem_never_the_valid_ones(table):
    """Mail built to hurt, each handed over by the mail server in turn: taken (0), noted as
    unreadable, answered in one line to a player; the valid mail behind them applied."""
    from test_mail_hostile import big, many_parts, nested

    folder, game, cfg = table
    nation = active(game)
    player = ADDRESSES[nation]
    for k, raw in enumerate([nested(player, 1000), many_parts(player, 150), big(player, 3 * 1024 * 1024),
                             nested("eve@evil.example", 2000), b"\x00\xff garbage \r\n\r\n\x80"]):
        result = receive(cfg, raw, folder / f"h{k}")
        assert result.exit_code == 0, (k, result.stdout, result.stderr)
    assert receive(cfg, order_mail(game), folder / "out").exit_code == 0
    assert [e.get("mail") for e in history(game)] == [None, "<orders-1@players.example>"]
    ledger = json.loads((folder / "game.mail.json").read_text())["messages"]
    assert sum(r["outcome"] == "unreadable" for r in ledger.values()) >= 4
    assert waiting(folder) == []


def test_a_full_disk_keeps_the_mail_and_never_answers_it_as_refused(table, monkeypatch):
    """The game file cannot be written (the machine's error, not the player's): the mail is
    kept, nothing is answered, the server is told to try again (75); once there is room,
    the next run applies it."""
    from pbem.service import store

    folder, game, cfg = table
    real = store.os.replace

    def full(src, dst, *args, **kwargs):
        if "game.json" in str(dst):
            raise OSError(28, "No space left on device")
        return real(src, dst, *args, **kwargs)

    monkeypatch.setattr(store.os, "replace", full)
    before = game.read_bytes()
    result = receive(cfg, order_mail(game), folder / "out", "--wait", "0")
    assert result.exit_code == 75, result.stdout + result.stderr
    assert game.read_bytes() == before and sent(folder / "out") == [] and len(waiting(folder)) == 1
    monkeypatch.setattr(store.os, "replace", real)
    assert cli_run("mail", "run", "--config", cfg, "--outbox", folder / "out", "--now", LATER).exit_code == 0
    assert history(game)[-1]["mail"] == "<orders-1@players.example>" and waiting(folder) == []
    assert any("accepted" in str(m["Subject"]) for m in sent(folder / "out"))


def test_standard_input_is_read_with_bounded_memory():
    """Of a mail over ``max_message`` only the header's 64 kB are kept (its size counted);
    a From line of any length before it is dropped; a mail at the limit is kept whole."""
    import io

    from pbem.mail.arrivals import read_mail
    from pbem.mail.config import Limits

    body = b"Subject: big\n\n" + b"a" * (3 * 1024 * 1024)
    raw, size = read_mail(io.BytesIO(b"From " + b"x" * 100_000 + b" date\n" + body), Limits(size=1024 * 1024))
    assert raw == body[:64 * 1024] and size == len(body)
    exact = b"Subject: s\n\n" + b"b" * (1024 * 1024 - 12)
    assert read_mail(io.BytesIO(exact), Limits(size=1024 * 1024)) == (exact, 1024 * 1024)
