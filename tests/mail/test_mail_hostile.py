"""The mail cycle against strangers and a broken machine: mail built to hurt, headers and
names with line breaks, planted links, full disks. One bad mail never stops the cycle,
never loses a valid mail and never costs memory without bound; an error of ours or of the
machine is never the player's refusal."""

from __future__ import annotations

import json

import pytest

from conftest import cli_run, new_game_file
from mailkit import (
    ADDRESSES,
    GM,
    START,
    active,
    add_to_maildir,
    body,
    config,
    game_with_players,
    mail,
    maildir,
    run_mail,
    sent,
)

run = run_mail


@pytest.fixture
def table(tmp_path):
    game = game_with_players(tmp_path)
    cfg = config(tmp_path, game, defaults='attach = ""')
    return tmp_path, game, cfg


# -- line breaks in headers and names -------------------------------------------------------


def test_an_encoded_line_break_in_a_subject_is_answered_on_one_line(table):
    folder, game, cfg = table
    box = maildir(folder / "M")
    assert run(cfg, box, folder / "o0").exit_code == 0
    nation = active(game)
    raw = mail(ADDRESSES[nation], subject="x",
               body=f"game demo\nnation {nation}\nturn 1\npassword wrong\nrondel gold\n")
    raw = raw.replace(b"Subject: x", b"Subject: =?utf-8?q?my_orders=0D=0ABcc:_eve@evil.example?=")
    add_to_maildir(box, raw)
    result = run(cfg, box, folder / "o1", "2026-11-23T10:05:00Z")
    assert result.exit_code == 0, result.stdout + result.stderr
    (answer,) = sent(folder / "o1")
    assert "NOT accepted" in str(answer["Subject"]) and "\n" not in str(answer["Subject"])
    assert answer["Bcc"] is None and "eve@evil.example" not in str(answer["To"])
    again = run(cfg, box, folder / "o2", "2026-11-23T10:10:00Z")  # and every later run is as calm
    assert again.exit_code == 0 and sent(folder / "o2") == []


def test_a_name_with_a_line_break_in_a_hand_edited_game_never_stops_the_reports(table):
    folder, game, cfg = table
    data = json.loads(game.read_text())
    data["nations"]["greeks"]["player"] = "Dora\r\nBcc: eve@evil.example"
    data["nations"]["arabs"]["email"] = "cem@players.example, eve@evil.example"
    game.write_text(json.dumps(data, indent=1), encoding="utf-8")
    result = run(cfg, maildir(folder / "M"), folder / "out")
    assert result.exit_code == 0, result.stdout + result.stderr
    out = sent(folder / "out")
    assert len(out) == 4  # three players and the GM: the arabs' two-address entry gets nothing
    from email.utils import getaddresses

    for m in out:  # the addresses the transport sends to: the registered ones, nothing else
        assert m["Bcc"] is None and m["Cc"] is None
        assert [a for _, a in getaddresses([str(m["To"])])] in ([a] for a in [*ADDRESSES.values(), GM])
    dora = next(m for m in out if ADDRESSES["greeks"] in str(m["To"]))
    assert "\n" not in str(dora["To"]) and "Dora" in str(dora["To"])
    assert "no single address" in result.stdout


@pytest.mark.parametrize("who", ["Ann <ann@players.example, eve@evil.example>",
                                 "Ann <ann@players.example,eve@x.example>",
                                 "Ann\nBcc: eve@evil.example <ann@players.example>", "Ann <ann @players.example>"])
def test_new_and_player_refuse_a_name_or_address_that_is_not_one(tmp_path, who):
    refused = cli_run("new", tmp_path / "g.json", "--nations", "persians,phoenicians,arabs,greeks",
                      "--player", f"persians={who}")
    assert refused.exit_code == 2 and "one address" in refused.stderr
    assert not (tmp_path / "g.json").exists()
    game = new_game_file(tmp_path, "--id", "demo")
    before = game.read_bytes()
    changed = cli_run("player", game, "greeks", "--player", who)
    assert changed.exit_code == 2 and game.read_bytes() == before


@pytest.mark.parametrize("line", ['gm = "gm@referee.example, eve@evil.example"',
                                  'from = "Ref\\r\\nBcc: x@y <r@x.org>"'])
def test_a_configuration_with_two_addresses_in_one_is_refused(tmp_path, line):
    game = game_with_players(tmp_path)
    cfg = tmp_path / "mail.toml"
    cfg.write_text(f'[mail]\n{line}\n\n[[game]]\nfile = "{game.name}"\n', encoding="utf-8")
    result = cli_run("mail", "run", "--config", cfg, "--outbox", tmp_path / "out", "--now", START)
    assert result.exit_code == 2 and "one address" in result.stderr


# -- a full disk, a read-only folder: the machine's errors ------------------------------------


def _disk_full_for(monkeypatch, *names):
    """Writes of files whose name contains one of ``names`` fail as on a full disk; returns
    what makes room again."""
    from pbem.service import store

    real = store.os.replace

    def replace(src, dst, *args, **kwargs):
        if any(n in str(dst) for n in names):
            raise OSError(28, "No space left on device")
        return real(src, dst, *args, **kwargs)

    def room():
        monkeypatch.setattr(store.os, "replace", real)

    monkeypatch.setattr(store.os, "replace", replace)
    return room


def test_a_full_disk_never_refuses_a_valid_order_mail(table, monkeypatch):
    """The game file cannot be written: the mail is not answered as refused and not noted;
    the run exits 10; the next run, with room again, applies it and answers it."""
    folder, game, cfg = table
    box = maildir(folder / "M")
    assert run(cfg, box, folder / "o0").exit_code == 0
    nation = active(game)
    add_to_maildir(box, mail(ADDRESSES[nation], body=f"game demo\nnation {nation}\nturn 1\npassword pw-{nation}\n"
                                                     "rondel gold\n", message_id="<full@p>"))
    before = game.read_bytes()
    room = _disk_full_for(monkeypatch, "game.json")
    full = run(cfg, box, folder / "o1", "2026-11-23T10:05:00Z")
    assert full.exit_code == 10, full.stdout + full.stderr
    assert "No space left on device" in full.stderr and "read again on the next run" in full.stderr
    assert game.read_bytes() == before
    assert sent(folder / "o1") == []  # no refusal for an error of the machine
    assert "<full@p>" not in json.loads((folder / "game.mail.json").read_text())["messages"]
    room()
    again = run(cfg, box, folder / "o2", "2026-11-23T10:10:00Z")
    assert again.exit_code == 0, again.stdout + again.stderr
    history = json.loads(game.read_text())["history"]
    assert history[-1]["mail"] == "<full@p>"
    assert any("accepted" in str(m["Subject"]) for m in sent(folder / "o2"))


def test_a_full_disk_after_the_turn_was_applied_loses_no_answer(table, monkeypatch):
    """The game is saved, then the mail queue cannot be written: the run exits 10, and the
    next run answers the mail and reports the turn (applied once)."""
    folder, game, cfg = table
    box = maildir(folder / "M")
    assert run(cfg, box, folder / "o0").exit_code == 0
    nation = active(game)
    add_to_maildir(box, mail(ADDRESSES[nation], body=f"game demo\nnation {nation}\nturn 1\npassword pw-{nation}\n"
                                                     "rondel gold\n", message_id="<q@p>"))
    room = _disk_full_for(monkeypatch, "mail-queue", "mail.json")
    full = run(cfg, box, folder / "o1", "2026-11-23T10:05:00Z")
    assert full.exit_code == 10, full.stdout + full.stderr
    assert json.loads(game.read_text())["history"][-1]["mail"] == "<q@p>"
    room()
    again = run(cfg, box, folder / "o2", "2026-11-23T10:10:00Z")
    assert again.exit_code == 0, again.stdout + again.stderr
    out = sent(folder / "o2")
    assert sum("accepted" in str(m["Subject"]) for m in out) == 1
    assert sum("after turn 1" in str(m["Subject"]) for m in out) == 5
    assert [e["kind"] for e in json.loads(game.read_text())["history"]] == ["new", "turn"]
    assert cli_run("verify", game).exit_code == 0


@pytest.mark.parametrize("errno, why", [(28, "No space left on device"), (30, "Read-only file system")])
def test_reports_into_a_full_folder_say_the_turn_is_saved(tmp_path, monkeypatch, errno, why):
    from pbem import report

    game = new_game_file(tmp_path, "--id", "demo")
    nation = active(game)
    orders = tmp_path / "o.json"
    orders.write_text(json.dumps({"game": "demo", "nation": nation, "turn": 1, "password": f"pw-{nation}",
                                  "rondel": "gold"}))

    write_in = report.store.write_in

    def full(folder, name, data, mode=0o600, durable=True):
        if not durable:  # a report (the game file and the history are written durably)
            raise OSError(errno, why, str(folder / name))
        return write_in(folder, name, data, mode, durable)

    monkeypatch.setattr(report.store, "write_in", full)
    done = cli_run("process", game, orders, "--report-dir", tmp_path / "r")
    assert done.exit_code == 11, done.stderr
    assert "the turn is saved" in done.stderr and "antike-ref render" in done.stderr and why in done.stderr
    assert json.loads(game.read_text())["history"][-1]["turn"] == 1
    assert cli_run("verify", game).exit_code == 0


def test_a_gm_edit_on_a_full_disk_changes_nothing(tmp_path, monkeypatch):
    game = new_game_file(tmp_path, "--id", "demo")
    edit = tmp_path / "e.json"
    edit.write_text(json.dumps({"game": "demo", "reason": "x", "edits": [{"nation": "greeks", "coins": 3}]}))
    before = game.read_bytes()
    _disk_full_for(monkeypatch, "game.json")
    done = cli_run("gm-edit", game, edit)
    assert done.exit_code == 10 and "No space left on device" in done.stderr
    assert game.read_bytes() == before
    assert not list(tmp_path.glob(".*.tmp"))


# -- links planted in the folders the referee writes ------------------------------------------


def test_links_planted_in_the_outbox_and_the_queue_are_never_written_through(table, tmp_path):
    import os
    import stat

    folder, game, cfg = table
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    victim.chmod(0o644)
    outbox = folder / "out"
    outbox.mkdir()
    (outbox / "000000-report-00.eml").symlink_to(victim)  # the name the first report will have
    queue = folder / "game.mail-queue"
    queue.mkdir(mode=0o700)
    (queue / "000000-report-01.eml.lnk").symlink_to(victim)
    (queue / "zz-planted.eml").symlink_to(victim)  # waiting to be "sent"
    result = run(cfg, maildir(folder / "M"), outbox)
    assert result.exit_code == 0, result.stdout + result.stderr
    assert victim.read_text() == "precious\n" and stat.S_IMODE(victim.stat().st_mode) == 0o644
    written = outbox / "000000-report-00.eml"
    assert not written.is_symlink() and b"Subject:" in written.read_bytes()
    for mail_file in outbox.iterdir():  # a mail may hold a password or a hand: for the GM only
        assert stat.S_IMODE(os.lstat(mail_file).st_mode) == 0o600, mail_file.name
    assert all(b"precious" not in p.read_bytes() for p in outbox.iterdir())
    assert (queue / "zz-planted.eml").is_symlink()  # left alone, never sent


def test_a_mail_queue_that_is_a_link_is_refused(table, tmp_path):
    folder, game, cfg = table
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (folder / "game.mail-queue").symlink_to(elsewhere, target_is_directory=True)
    result = run(cfg, maildir(folder / "M"), folder / "out")
    assert result.exit_code == 10 and "symbolic link" in result.stderr
    assert list(elsewhere.iterdir()) == []


# -- strangers: no backscatter --------------------------------------------------------------


@pytest.mark.parametrize("answer", [False, True])
def test_orders_from_a_stranger_are_never_applied_and_answered_only_if_asked_without_game_detail(tmp_path, answer):
    game = game_with_players(tmp_path)
    cfg = config(tmp_path, game, defaults='attach = ""')
    if answer:
        cfg.write_text(cfg.read_text().replace("[mail]\n", "[mail]\nanswer_strangers = true\n"))
    box = maildir(tmp_path / "M")
    assert run(cfg, box, tmp_path / "o0").exit_code == 0
    nation = active(game)
    before = game.read_bytes()
    forged = [mail("eve@evil.example", body=f"game demo\nnation {nation}\nturn 1\npassword x\nrondel gold\n"),
              mail("eve@evil.example", body='{"game": "demo", "nation": '),  # broken orders, named game
              mail(f"{ADDRESSES[nation]} <eve@evil.example>", body=f"game demo\nnation {nation}\nturn 1\n"
                                                                   f"password pw-{nation}\nrondel gold\n"),
              mail(f'"{ADDRESSES[nation]}"', body=f"game demo\nnation {nation}\nturn 1\npassword pw-{nation}\n"
                                                  "rondel gold\n")]
    add_to_maildir(box, *forged)
    result = run(cfg, box, tmp_path / "o1", "2026-11-23T10:05:00Z")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert game.read_bytes() == before
    out = sent(tmp_path / "o1")
    assert all(ADDRESSES[nation] not in str(m["To"]) for m in out)  # never to an address from a display name
    if not answer:
        assert out == []
    else:
        # the forged order mail; the broken one names no game it could be for: not for us
        assert len(out) == 1 and all(str(m["To"]) == "eve@evil.example" for m in out)
        for m in out:
            text = body(m)
            assert "demo" not in text and "Next:" not in text and "game hash" not in text
            assert m["X-Antike-Ref-Game"] is None and len(text) < 400


# -- mail built to hurt: each one is that mail's problem, never the run's -----------------------


def nested(sender: str, depth: int) -> bytes:
    """A mail whose MIME parts are nested ``depth`` deep (about 70 bytes a level)."""
    head = (f"From: {sender}\r\nTo: referee@referee.example\r\nSubject: deep\r\nMessage-ID: <deep-{depth}@x>\r\n"
            "MIME-Version: 1.0\r\n").encode()
    opening = b"".join(f'Content-Type: multipart/mixed; boundary="b{k}"\r\n\r\n--b{k}\r\n'.encode()
                       for k in range(depth))
    closing = b"".join(f"\r\n--b{k}--\r\n".encode() for k in reversed(range(depth)))
    return head + opening + b"Content-Type: text/plain\r\n\r\ngame demo\r\nnation greeks\r\n" + closing


def many_parts(sender: str, parts: int) -> bytes:
    from email.message import EmailMessage

    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"], msg["Message-ID"] = sender, "r@referee.example", "parts", "<parts@x>"
    msg.set_content("game demo\nnation greeks\n")
    for k in range(parts):
        msg.add_attachment(b"x", maintype="application", subtype="octet-stream", filename=f"p{k}.bin")
    return msg.as_bytes()


def big(sender: str, size: int) -> bytes:
    return (f"From: {sender}\r\nTo: r@referee.example\r\nSubject: big\r\nMessage-ID: <big-{size}@x>\r\n\r\n"
            "game demo\r\nnation greeks\r\n").encode() + b"rondel gold\r\n" * (size // 13)


@pytest.mark.parametrize("kind", ["maildir", "mbox"])
def test_hostile_mail_is_noted_and_the_valid_mail_behind_it_applied(tmp_path, kind):
    from mailkit import mbox

    game = game_with_players(tmp_path)
    cfg = config(tmp_path, game, defaults='attach = ""')
    nation = active(game)
    player = ADDRESSES[nation]
    hostile = [nested(player, 1000), many_parts(player, 150), big(player, 3 * 1024 * 1024),
               nested("eve@evil.example", 2000), b"\x00\xff garbage \r\n\r\n\x80"]
    valid = mail(player, body=f"game demo\nnation {nation}\nturn 1\npassword pw-{nation}\nrondel gold\n",
                 message_id="<valid@p>")
    source = (maildir(tmp_path / "M", *hostile, valid) if kind == "maildir"
              else mbox(tmp_path / "box.mbox", *hostile, valid))
    result = run(cfg, source, tmp_path / "o1")
    assert result.exit_code == 0, result.stdout + result.stderr
    history = json.loads(game.read_text())["history"]
    assert [e.get("mail") for e in history] == [None, "<valid@p>"]
    ledger = json.loads((tmp_path / "game.mail.json").read_text())["messages"]
    unread = {mid: r["why"] for mid, r in ledger.items() if r["outcome"] == "unreadable"}
    assert set(unread) >= {"<deep-1000@x>", "<parts@x>", f"<big-{3 * 1024 * 1024}@x>", "<deep-2000@x>"}
    assert "more than 100 parts" in unread["<parts@x>"] and "2,097,152" in unread[f"<big-{3 * 1024 * 1024}@x>"]
    answers = [m for m in sent(tmp_path / "o1") if "not read" in str(m["Subject"])]
    assert sorted(str(m["To"]) for m in answers) == [player] * 3  # the player, in one line each; not eve
    assert all(len(body(m)) < 400 for m in answers)
    again = run(cfg, source, tmp_path / "o2", "2026-11-23T10:05:00Z")
    assert again.exit_code == 0 and sent(tmp_path / "o2") == []


def test_a_named_pipe_is_no_mail_source(tmp_path):
    import os
    import subprocess
    import sys

    game = game_with_players(tmp_path)
    cfg = config(tmp_path, game, defaults='attach = ""')
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    exe = [sys.executable, "-m", "pbem", "mail", "run", "--config", str(cfg), "--source", str(fifo),
           "--outbox", str(tmp_path / "out"), "--now", START]
    done = subprocess.run(exe, capture_output=True, text=True, timeout=60,
                          env={**os.environ, "ANTIKE_REF_KDF_ITERATIONS": "1000"})
    assert done.returncode == 3 and "named pipe" in done.stderr


def test_a_message_id_seen_again_with_other_content_is_noted_and_the_gm_told(table):
    folder, game, cfg = table
    box = maildir(folder / "M")
    assert run(cfg, box, folder / "o0").exit_code == 0
    nation = active(game)
    first = mail(ADDRESSES[nation], body="let us meet on Friday", message_id="<same@p>")
    add_to_maildir(box, first)
    assert run(cfg, box, folder / "o1", "2026-11-23T10:05:00Z").exit_code == 0
    before = game.read_bytes()
    other = mail(ADDRESSES[nation], body=f"game demo\nnation {nation}\nturn 1\npassword pw-{nation}\nrondel gold\n",
                 message_id="<same@p>")
    add_to_maildir(box, other)
    result = run(cfg, box, folder / "o2", "2026-11-23T10:10:00Z")
    assert result.exit_code == 0 and "other content" in result.stderr
    assert game.read_bytes() == before  # not read: a Message-ID is read once
    (notice,) = sent(folder / "o2")
    assert GM in str(notice["To"]) and "came again with other content" in str(notice["Subject"])
    assert run(cfg, box, folder / "o3", "2026-11-23T10:15:00Z").exit_code == 0
    assert sent(folder / "o3") == []  # told once


def test_a_temporary_file_a_killed_run_left_in_the_queue_is_removed(table):
    folder, game, cfg = table
    queue = folder / "game.mail-queue"
    queue.mkdir(mode=0o700)
    stale = queue / ".000000-report-00.eml.AbCdEfGh.tmp"
    stale.write_bytes(b"half a mail")
    assert run(cfg, maildir(folder / "M"), folder / "out").exit_code == 0
    assert not stale.exists() and len(sent(folder / "out")) == 5
