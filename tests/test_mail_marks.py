"""Watermarks (GAME.mail-mark.json): an idle ``mail run`` leaves a game alone without
loading it, and every change that a cycle must see makes the next run a full one, in
which the right thing happens (docs/mail.md, "What makes an idle run cheap")."""

from __future__ import annotations

import json
import os
import re
import shutil
import time
from pathlib import Path

import pytest
from mailkit import ADDRESSES, GM, START, add_to_maildir, config, game_with_players, json_orders, mail, maildir, mbox, sent

from conftest import cli_run

T1, T2, T3, T4 = (f"2026-11-23T10:0{k}:00Z" for k in (1, 2, 3, 4))


def settle(source: Path) -> None:
    """Date a mailbox back a minute, as a cron run a while after its last mail finds it (a
    mailbox changed less than two seconds before a run is not trusted: marks.RACY_NS)."""
    old = time.time_ns() - 60 * 10**9
    for path in ([source / "new", source / "cur"] if source.is_dir() else [source]):
        os.utime(path, ns=(old, old))


def active(game: Path) -> str:
    return json.loads(game.read_text())["status"]["active"]


def idle_count(result) -> int:
    found = re.search(r"delivered \d+ \(.*\), (\d+) games? idle$", result.stdout.strip().splitlines()[-1])
    assert found, result.stdout
    return int(found.group(1))


def mark_of(game: Path) -> Path:
    return game.with_name(game.name.removesuffix(".json") + ".mail-mark.json")


@pytest.fixture
def table(tmp_path):
    """A game with its players' addresses, a Maildir, and a configuration without report
    attachments (the tests are about when the cycle runs, not what it renders)."""
    game = game_with_players(tmp_path)
    cfg = config(tmp_path, game, defaults='attach = ""')
    box = maildir(tmp_path / "Maildir")
    return tmp_path, game, cfg, box


def run(cfg, source, out, now, *games):
    result = cli_run("mail", "run", *games, "--config", cfg, "--source", source, "--outbox", out, "--now", now)
    assert result.exit_code in (0, 7), result.stdout + result.stderr
    return result


def idle_table(table):
    """The table after a first run (the opening report) on a settled mailbox: a mark that
    a second run trusts."""
    folder, game, cfg, box = table
    settle(box)
    first = run(cfg, box, folder / "o0", START)
    assert first.exit_code == 0 and idle_count(first) == 0
    assert len(sent(folder / "o0")) == 5  # the opening report: four players and the GM
    assert mark_of(game).exists()
    return folder, game, cfg, box


def no_loading(monkeypatch):
    """Make loading a game or a ledger fail the test."""
    from pbem.mail import ledger, runs
    from pbem.service import store

    def refuse(*args, **kwargs):
        raise AssertionError("an idle run loaded a game or a ledger")

    monkeypatch.setattr(store, "load_game", refuse)
    for module in (ledger, runs):  # every module that reads a ledger
        if hasattr(module, "load_ledger"):
            monkeypatch.setattr(module, "load_ledger", refuse)


def test_an_idle_run_loads_neither_the_game_nor_its_ledger(table, monkeypatch):
    folder, game, cfg, box = idle_table(table)
    before = {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}
    no_loading(monkeypatch)
    result = run(cfg, box, folder / "o1", T1)
    assert result.exit_code == 0
    assert result.stdout.strip() == f"applied 0, rejected 0, queued 0, delivered 0 (outbox {folder / 'o1'}), 1 game idle"
    assert sent(folder / "o1") == []
    assert {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()} == before  # nothing written


def test_a_mail_for_one_game_loads_only_that_game(tmp_path, monkeypatch):
    """Two games share a mailbox: a new mail makes both read it (each ledger notes it), but
    only the game it is for is loaded; the other is left as its mark describes it."""
    one = game_with_players(tmp_path, "one.json", "one")
    two = game_with_players(tmp_path, "two.json", "two")
    cfg = config(tmp_path, one, two, defaults='attach = ""')
    box = maildir(tmp_path / "M")
    settle(box)
    assert idle_count(run(cfg, box, tmp_path / "o0", START)) == 0
    from pbem.service import store

    loaded = []
    real = store.load_game
    monkeypatch.setattr(store, "load_game", lambda path: loaded.append(Path(path).name) or real(path))
    nation = active(one)
    add_to_maildir(box, mail(ADDRESSES[nation], orders=json_orders(nation, 1, game_id="one", rondel="gold")))
    result = run(cfg, box, tmp_path / "o1", T1)
    assert result.exit_code == 0 and "applied 1" in result.stdout
    assert loaded == ["one.json"]  # once: the mail's orders are applied to the game as loaded
    ledger_two = json.loads((tmp_path / "two.mail.json").read_text())
    assert [m["why"] for m in ledger_two["messages"].values()] == ["for another game"]
    assert mark_of(two).exists() and mark_of(one).exists()
    settle(box)
    loaded.clear()
    assert idle_count(run(cfg, box, tmp_path / "o2", T2)) == 0  # the last run's marks came right after the mail
    assert idle_count(run(cfg, box, tmp_path / "o3", T3)) == 2
    assert loaded == []  # neither game changed since its mark: the full run read the mailbox, loaded none


def test_adding_moving_flagging_and_removing_a_mail_change_the_maildirs_watermark(tmp_path):
    from pbem.mail.watermarks import local_state

    box = maildir(tmp_path / "M", mail("a@x.example", body="hello"))
    steps = {
        "add": lambda: add_to_maildir(box, mail("b@x.example", body="again")),
        "move new to cur": lambda: [f.rename(box / "cur" / f"{f.name}:2,") for f in (box / "new").iterdir()],
        "flag in cur": lambda: [f.rename(f.with_name(f.name + "S")) for f in (box / "cur").iterdir()],
        "remove": lambda: [f.unlink() for f in (box / "cur").iterdir()],
    }
    for what, step in steps.items():
        settle(box)
        before = local_state(str(box))
        step()
        assert local_state(str(box)) != before, what


def test_new_mail_in_new_makes_a_full_run_that_applies_it(table):
    folder, game, cfg, box = idle_table(table)
    nation = active(game)
    add_to_maildir(box, mail(ADDRESSES[nation], orders=json_orders(nation, 1, rondel="gold")))
    result = run(cfg, box, folder / "o1", T1)
    assert idle_count(result) == 0 and "applied 1" in result.stdout
    assert json.loads(game.read_text())["history"][-1]["turn"] == 1
    assert len(sent(folder / "o1")) == 6  # the receipt, and the report to four players and the GM


def test_a_mail_moved_from_new_to_cur_makes_a_full_run(table):
    folder, game, cfg, box = idle_table(table)
    add_to_maildir(box, mail(ADDRESSES["greeks"], body="dinner on Friday?"))
    settle(box)
    assert idle_count(run(cfg, box, folder / "o1", T1)) == 0
    assert idle_count(run(cfg, box, folder / "o2", T2)) == 1
    for f in (box / "new").iterdir():  # the player's mail program marks it read
        f.rename(box / "cur" / f"{f.name}:2,S")
    assert idle_count(run(cfg, box, folder / "o3", T3)) == 0
    assert sent(folder / "o3") == []


def test_an_mbox_append_makes_a_full_run(tmp_path):
    game = game_with_players(tmp_path)
    cfg = config(tmp_path, game, defaults='attach = ""')
    box = mbox(tmp_path / "orders.mbox", mail(ADDRESSES["greeks"], body="hello"))
    settle(box)
    assert idle_count(run(cfg, box, tmp_path / "o0", START)) == 0
    assert idle_count(run(cfg, box, tmp_path / "o1", T1)) == 1
    nation = active(game)
    import mailbox

    appended = mailbox.mbox(box)
    appended.add(mail(ADDRESSES[nation], orders=json_orders(nation, 1, rondel="gold")))
    appended.close()
    result = run(cfg, box, tmp_path / "o2", T2)
    assert idle_count(result) == 0 and "applied 1" in result.stdout


def test_a_turn_processed_by_hand_is_reported_by_the_next_run(table):
    folder, game, cfg, box = idle_table(table)
    assert idle_count(run(cfg, box, folder / "o1", T1)) == 1
    nation = active(game)
    orders = folder / "orders.json"
    orders.write_text(json.dumps(json_orders(nation, 1, rondel="gold")), encoding="utf-8")
    assert cli_run("process", game, orders).exit_code == 0
    result = run(cfg, box, folder / "o2", T2)
    assert idle_count(result) == 0
    reports = [m for m in sent(folder / "o2") if "after turn 1" in str(m["Subject"])]
    assert len(reports) == 5
    assert idle_count(run(cfg, box, folder / "o3", T3)) == 1


@pytest.mark.parametrize("loaded", [True, False], ids=["game-loaded", "game-not-loaded"])
def test_a_turn_processed_by_hand_while_the_run_ends_is_not_missed(table, monkeypatch, loaded):
    """The GM runs ``process`` in the very moment a cycle delivers its mails: the mark of
    that cycle must not describe the new game file, so the next run reports the turn.
    Whether the cycle had loaded the game (it had no mark) or not (only the mailbox was new)."""
    from pbem.mail import transport
    from pbem.service.service import GameService, read_input

    folder, game, cfg, box = idle_table(table)
    nation = active(game)
    orders = folder / "orders.json"
    orders.write_text(json.dumps(json_orders(nation, 1, rondel="gold")), encoding="utf-8")
    if loaded:
        mark_of(game).unlink()
    else:
        add_to_maildir(box, mail(ADDRESSES["greeks"], body="just chatting"))
    real = transport.Transport.deliver
    done = []

    def deliver_and_process(self, spool, now=None):
        if not done:
            done.append(GameService(game).process(read_input(orders)))
        return real(self, spool, now)

    monkeypatch.setattr(transport.Transport, "deliver", deliver_and_process)
    result = run(cfg, box, folder / "o1", T1)
    assert result.exit_code == 0 and done
    assert not any("after turn 1" in str(m["Subject"]) for m in sent(folder / "o1"))
    monkeypatch.setattr(transport.Transport, "deliver", real)
    settle(box)
    result = run(cfg, box, folder / "o2", T2)
    assert idle_count(result) == 0
    assert len([m for m in sent(folder / "o2") if "after turn 1" in str(m["Subject"])]) == 5


def test_a_failed_delivery_leaves_no_mark_and_the_queue_goes_out_next_time(table, monkeypatch):
    from pbem.mail import transport

    folder, game, cfg, box = idle_table(table)
    nation = active(game)
    add_to_maildir(box, mail(ADDRESSES[nation], orders=json_orders(nation, 1, rondel="gold")))

    def down(self, path, data):
        raise transport.MailServerError("SMTP down")

    with monkeypatch.context() as patched:
        patched.setattr(transport.Transport, "_send", down)
        result = run(cfg, box, folder / "o1", T1)
    assert result.exit_code == 7
    assert not mark_of(game).exists()
    assert list((folder / "game.mail-queue").glob("*.eml"))
    settle(box)
    result = run(cfg, box, folder / "o2", T2)
    assert result.exit_code == 0 and idle_count(result) == 0
    assert len(sent(folder / "o2")) == 6
    assert mark_of(game).exists()


def test_a_mail_waiting_in_the_queue_makes_a_full_run(table):
    """A mail left in the queue (by a run that died before delivering it) is sent by the
    next run, whatever the mark says."""
    folder, game, cfg, box = idle_table(table)
    queue = folder / "game.mail-queue"
    queue.mkdir(exist_ok=True)
    (queue / "000001-left.eml").write_bytes(mail(GM, subject="left behind", body="x"))
    result = run(cfg, box, folder / "o1", T1)
    assert idle_count(result) == 0
    assert [str(m["Subject"]) for m in sent(folder / "o1")] == ["left behind"]


def test_the_reminder_and_the_deadline_make_full_runs(tmp_path):
    game = game_with_players(tmp_path)
    cfg = config(tmp_path, game, defaults='deadline = "48h"\nremind = "12h"\nmissed = "default"\nattach = ""')
    box = maildir(tmp_path / "M")
    settle(box)
    late = active(game)
    assert idle_count(run(cfg, box, tmp_path / "o0", "2026-11-23T10:00:00Z")) == 0  # the clock starts
    assert idle_count(run(cfg, box, tmp_path / "o1", "2026-11-24T21:59:59Z")) == 1
    result = run(cfg, box, tmp_path / "o2", "2026-11-24T22:00:00Z")  # 12 hours before the deadline
    assert idle_count(result) == 0
    (reminder,) = sent(tmp_path / "o2")
    assert "reminder" in str(reminder["Subject"]) and ADDRESSES[late] in str(reminder["To"])
    assert idle_count(run(cfg, box, tmp_path / "o3", "2026-11-25T09:59:59Z")) == 1
    result = run(cfg, box, tmp_path / "o4", "2026-11-25T10:00:00Z")  # the deadline
    assert idle_count(result) == 0
    assert json.loads(game.read_text())["history"][-1]["kind"] == "default-turn"
    assert len(sent(tmp_path / "o4")) == 6  # the reports, and the late player's own notice
    assert idle_count(run(cfg, box, tmp_path / "o5", "2026-11-25T10:05:00Z")) == 1


def test_the_mark_keeps_the_moment_the_clock_itself_names(tmp_path):
    """The watermark predicts with the clock's one function (pbem/service/clock.py,
    ``next_step``): after each run the mark's ``next`` is what the clock file says at that
    time, through a reminder, an absence the game waits for (its end), and a GM's change
    of the clock (which takes the mark away)."""
    from pbem.mail.config import load_config
    from pbem.mail.runs import rules_of
    from pbem.service.clock import iso, next_step, parse_time
    from pbem.service.clockfile import read_clock

    game = game_with_players(tmp_path)
    cfg = config(tmp_path, game, defaults='deadline = "48h"\nremind = "12h"\nmissed = "default"\nattach = ""')
    box = maildir(tmp_path / "M")
    settle(box)
    rules = rules_of(load_config(cfg), load_config(cfg).game(game))

    def predicted(now: str):
        status = json.loads(game.read_text())["status"]
        step = next_step(read_clock(game), rules, status["turn"], status["active"], status.get("winner"),
                         parse_time(now))
        return None if step.at is None else iso(step.at)

    moments = ["2026-11-23T10:00:00Z", "2026-11-24T22:00:00Z", "2026-11-24T23:00:00Z", "2026-11-25T12:00:00Z"]
    for k, now in enumerate(moments):
        if k == 2:
            assert cli_run("absent", game, active(game), "--until", "2026-11-26", "--config", cfg,
                           "--now", now).exit_code == 0
            assert not mark_of(game).exists()
        run(cfg, box, tmp_path / f"o{k}", now)
        assert json.loads(mark_of(game).read_text())["next"] == predicted(now), now
    assert json.loads(mark_of(game).read_text())["next"] == "2026-11-27T00:00:00Z"  # the day after the absence
    assert idle_count(run(cfg, box, tmp_path / "o9", "2026-11-26T23:59:59Z")) == 1


def test_a_game_without_deadline_or_that_is_over_stays_idle_whatever_the_time(table):
    folder, game, cfg, box = idle_table(table)
    assert idle_count(run(cfg, box, folder / "o1", "2031-01-01T00:00:00Z")) == 1


def test_a_time_before_the_last_run_makes_a_full_run(table):
    folder, game, cfg, box = idle_table(table)
    assert idle_count(run(cfg, box, folder / "o1", "2026-11-22T10:00:00Z")) == 0


def test_a_changed_configuration_makes_a_full_run_for_that_game_only(tmp_path):
    one = game_with_players(tmp_path, "one.json", "one")
    two = game_with_players(tmp_path, "two.json", "two")
    box = maildir(tmp_path / "M")
    settle(box)
    cfg = config(tmp_path, one, two, defaults='attach = ""')
    assert idle_count(run(cfg, box, tmp_path / "o0", START)) == 0
    assert idle_count(run(cfg, box, tmp_path / "o1", T1)) == 2
    cfg.write_text(cfg.read_text() + 'deadline = "1h"\n', encoding="utf-8")  # the second game's
    assert idle_count(run(cfg, box, tmp_path / "o2", T2)) == 1
    assert idle_count(run(cfg, box, tmp_path / "o3", T3)) == 2
    # rewriting the file unchanged, or adding a game, leaves the marks good
    cfg.write_text(cfg.read_text(), encoding="utf-8")
    three = game_with_players(tmp_path, "three.json", "three")
    cfg.write_text(cfg.read_text() + f'\n[[game]]\nfile = "{three}"\n', encoding="utf-8")
    assert idle_count(run(cfg, box, tmp_path / "o4", T4)) == 2


def test_another_source_on_the_command_line_makes_a_full_run(table):
    folder, game, cfg, box = idle_table(table)
    other = maildir(folder / "Other")
    settle(other)
    assert idle_count(run(cfg, other, folder / "o1", T1)) == 0
    assert idle_count(run(cfg, other, folder / "o2", T2)) == 1
    assert idle_count(run(cfg, box, folder / "o3", T3)) == 0


def test_a_deleted_ledger_makes_a_full_run_that_repeats_nothing(table):
    folder, game, cfg, box = idle_table(table)
    nation = active(game)
    add_to_maildir(box, mail(ADDRESSES[nation], orders=json_orders(nation, 1, rondel="gold")))
    run(cfg, box, folder / "o1", T1)
    settle(box)
    run(cfg, box, folder / "o2", T2)
    assert idle_count(run(cfg, box, folder / "o3", T3)) == 1
    before = game.read_bytes()
    (folder / "game.mail.json").unlink()
    result = run(cfg, box, folder / "o4", T4)
    assert idle_count(result) == 0 and "applied 0" in result.stdout
    assert game.read_bytes() == before
    assert sent(folder / "o4") == []  # the mail applied is known by the history; the past is not mailed again
    assert (folder / "game.mail.json").exists()


class Crash(BaseException):
    """Stands for the process dying."""


def test_a_run_that_dies_leaves_no_mark(table, monkeypatch):
    from pbem.mail import reporter

    folder, game, cfg, box = idle_table(table)
    nation = active(game)
    add_to_maildir(box, mail(ADDRESSES[nation], orders=json_orders(nation, 1, rondel="gold")))

    def die(self, run, news, clock=None):
        raise Crash()

    with monkeypatch.context() as patched:
        patched.setattr(reporter.Reporter, "reports", die)
        with pytest.raises(Crash):
            cli_run("mail", "run", "--config", cfg, "--source", box, "--outbox", folder / "o1", "--now", T1)
    assert not mark_of(game).exists()
    (folder / "game.mail.json.lock").unlink(missing_ok=True)  # a dead run's lock file stays; flock is free
    result = run(cfg, box, folder / "o2", T2)
    assert idle_count(result) == 0
    assert len([m for m in sent(folder / "o2") if "after turn 1" in str(m["Subject"])]) == 5


def test_a_failure_in_a_game_leaves_no_mark_for_it(table, monkeypatch):
    from pbem.errors import InputError
    from pbem.mail import timekeeper

    folder, game, cfg, box = idle_table(table)
    mark_of(game).unlink()  # the next run loads the game, and its clock fails

    def broken(self, run):
        raise InputError("somewhere", "a failure")

    with monkeypatch.context() as patched:
        patched.setattr(timekeeper.Timekeeper, "keep_time", broken)
        result = cli_run("mail", "run", "--config", cfg, "--source", box, "--outbox", folder / "o1", "--now", T1)
    assert result.exit_code == 3
    assert not mark_of(game).exists()
    assert idle_count(run(cfg, box, folder / "o2", T2)) == 0


@pytest.mark.parametrize("how", ["garbage", "empty", "other-format", "other-version", "hand-edited", "wrong-kinds",
                                 "deep", "large", "fifo"])
def test_a_mark_that_cannot_be_trusted_means_a_full_run_never_an_error(table, how):
    folder, game, cfg, box = idle_table(table)
    path = mark_of(game)
    data = json.loads(path.read_text())
    if how == "garbage":
        path.write_bytes(b"\xff\x00{not json")
    elif how == "empty":
        path.write_bytes(b"")
    elif how == "other-format":
        path.write_text(json.dumps({**data, "format": 99}))
    elif how == "other-version":
        path.write_text(json.dumps({**data, "version": "0.0.1"}))
    elif how == "hand-edited":  # the deadline pushed into the future by hand: the checksum tells
        path.write_text(json.dumps({**data, "next": "2099-01-01T00:00:00Z"}))
    elif how == "wrong-kinds":
        path.write_text(json.dumps({**data, "game": {"file": "x"}, "source": []}))
    elif how == "deep":
        path.write_text("[" * 100_000 + "]" * 100_000)
    elif how == "large":
        path.write_text(json.dumps({**data, "padding": "x" * 100_000}))
    else:  # a named pipe nobody writes to: reading it must not wait
        path.unlink()
        os.mkfifo(path)
    result = run(cfg, box, folder / "o1", T1)
    assert result.exit_code == 0 and idle_count(result) == 0
    assert result.stderr == ""
    assert idle_count(run(cfg, box, folder / "o2", T2)) == 1  # the full run wrote a good mark again


def test_deleting_the_mark_is_always_safe(table):
    folder, game, cfg, box = idle_table(table)
    mark_of(game).unlink()
    result = run(cfg, box, folder / "o1", T1)
    assert result.exit_code == 0 and idle_count(result) == 0
    assert sent(folder / "o1") == []


def test_inbox_and_remind_always_act_and_take_the_mark_away(table):
    folder, game, cfg, box = idle_table(table)
    result = cli_run("remind", game, "--config", cfg, "--outbox", folder / "o1", "--now", T1)
    assert result.exit_code == 0
    assert [str(m["Subject"]) for m in sent(folder / "o1")][0].startswith("[demo] reminder")
    assert not mark_of(game).exists()
    assert idle_count(run(cfg, box, folder / "o2", T2)) == 0
    assert mark_of(game).exists()
    assert cli_run("inbox", game, box, "--config", cfg, "--outbox", folder / "o3", "--now", T3).exit_code == 0
    assert not mark_of(game).exists()


def test_a_legacy_game_and_a_ledger_without_marks_work_as_before(tmp_path):
    """A game written by 0.1.0 and a ledger written before marks existed: the first run is
    a full one as it always was (nothing mailed again), and writes the mark."""
    legacy = Path(__file__).parent / "data" / "legacy" / "demo-16.json"
    game = tmp_path / "demo.json"
    shutil.copy(legacy, game)
    data = json.loads(game.read_text())
    head = data["history"][-1]
    key = [data["status"]["turn"], data["status"]["active"]]
    ledger = {"format": 1, "messages": {"<old@x>": {"outcome": "ignored", "why": "no orders"}},
              "queued": len(data["history"]) - 1, "head": head["hash"],
              "clock": {"key": key, "since": START, "reminded": False, "missed": False}}
    (tmp_path / "demo.mail.json").write_text(json.dumps(ledger, sort_keys=True, indent=1) + "\n")
    cfg = config(tmp_path, game, defaults='attach = ""\ndeadline = "48h"')
    box = maildir(tmp_path / "M", mail("someone@x.example", body="hello", message_id="<old@x>"))
    settle(box)
    result = run(cfg, box, tmp_path / "o1", T1)
    assert result.exit_code == 0 and idle_count(result) == 0
    assert sent(tmp_path / "o1") == []
    assert game.read_bytes() == legacy.read_bytes()
    assert idle_count(run(cfg, box, tmp_path / "o2", T2)) == 1
    assert json.loads(mark_of(game).read_text())["next"] == "2026-11-25T10:00:00Z"  # 48 h from the old clock


def test_the_head_of_a_game_file_is_read_without_parsing_it(tmp_path):
    from pbem.mail.idle import head_of, settled_game
    from pbem.service.store import load_game

    game = game_with_players(tmp_path)
    loaded = load_game(game)
    text = game.read_bytes()
    assert head_of(text) == loaded.history[-1]["hash"]
    assert head_of(json.dumps(json.loads(text)).encode()) == loaded.history[-1]["hash"]  # another layout
    assert head_of(b"{}") is None and head_of(b"\xff") is None
    assert settled_game(game, loaded.history[-1]["hash"]) is not None
    assert settled_game(game, "0" * 64) is None


@pytest.mark.parametrize("raw, expected", [
    (b"Message-ID: <a@b>\r\n\r\nbody", "<a@b>"),
    (b"From: x@y\nMessage-Id:\n  <a@b>\n\nbody", "<a@b>"),
    (b"message-id: <a@b>\nMessage-ID: <c@d>\n\n", "<a@b>"),
    (b"Message-ID: =?utf-8?q?x?=\n\n", None),
    (b"X: y\nnot a header\nMessage-ID: <a@b>\n\n", None),
    (b"Message-ID: <a@b> <c@d>\n\n", None),
    (b"Message-ID: <a b@c>\n\n", None),
    (b"Subject: hi\n\nMessage-ID: <a@b>\n", None),
    (b" folded first\nMessage-ID: <a@b>\n\n", None),
    (b"From someone Mon Nov 23\nMessage-ID: <a@b>\n\n", None),
])
def test_a_plain_message_id_is_read_without_the_parser_and_as_the_parser_reads_it(raw, expected):
    from pbem.mail.inbox import plain_id, read_message

    assert plain_id(raw) == expected
    if expected is not None:
        assert read_message(raw).message_id == expected
