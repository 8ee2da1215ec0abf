"""Faults of the machine and damaged games, each counted once and kept to its game (issue
40): a password change is one transaction; one damaged game never stops the others; a
mail spooled before a write that failed is not sent again on every run; a server that
drops the connection on a mail is a refusal of that mail, not of the queue; the audit log
never records a change that was not made."""

from __future__ import annotations

import json
import socket
import threading

import pytest

from conftest import cli_run, new_game_file
from mailkit import ADDRESSES, GM, START, add_to_maildir, body, config, game_with_players, mail, maildir, sent
from pbem.service import store


def run(cfg, box, outbox, now=START, *extra):
    return cli_run("mail", "run", "--config", cfg, "--source", box, "--outbox", outbox, "--now", now, *extra)


def at(minute: int) -> str:
    return f"2026-11-23T{10 + minute // 60:02d}:{minute % 60:02d}:00Z"


def failing_replace(monkeypatch, *names, errno=28, why="No space left on device"):
    """``os.replace`` onto a file whose name holds one of ``names`` fails (a full disk);
    returns what makes it work again."""
    real = store.os.replace

    def replace(src, dst, *args, **kwargs):
        if any(n in str(dst) for n in names):
            raise OSError(errno, why)
        return real(src, dst, *args, **kwargs)

    monkeypatch.setattr(store.os, "replace", replace)
    return lambda: monkeypatch.setattr(store.os, "replace", real)


def ledger(game):
    return json.loads(game.with_name(game.stem + ".mail.json").read_text())


def clock(game):
    return json.loads(game.with_name(game.stem + ".clock.json").read_text())


@pytest.fixture
def table(tmp_path):
    game = game_with_players(tmp_path)
    cfg = config(tmp_path, game, defaults='attach = ""')
    box = maildir(tmp_path / "M")
    assert run(cfg, box, tmp_path / "o0").exit_code == 0  # the opening reports
    return tmp_path, game, cfg, box


# -- 6. one damaged game never stops the others -----------------------------------------------


def duellum(folder, name):
    players = ("--player", "romans=Ann <ann@duel.example>", "--player", "carthaginians=Ben <ben@duel.example>")
    return new_game_file(folder, "--edition", "duellum", "--id", name, *players, name=f"{name}.json",
                         nations=["romans", "carthaginians"])


def damage_nation(game):
    """The probe's first damaged game: ``state.nations.romans`` missing (a KeyError once)."""
    data = json.loads(game.read_text())
    del data["state"]["nations"]["romans"]
    game.write_text(json.dumps(data, indent=1), encoding="utf-8")


def damage_card(game):
    """The probe's second: an event card whose id is an object (a TypeError once)."""
    data = json.loads(game.read_text())
    data["rules"]["data"] = {"event_cards": [{"id": {"a": 1}, "text": "x"}]}
    game.write_text(json.dumps(data, indent=1), encoding="utf-8")


def test_damaged_duellum_games_are_their_own_failures_and_every_other_game_is_served(tmp_path):
    first, second = duellum(tmp_path, "broken"), duellum(tmp_path, "cards")
    damage_nation(first)
    damage_card(second)
    good = game_with_players(tmp_path, "good.json", "good")
    cfg = config(tmp_path, first, good, second, defaults='attach = ""')
    result = run(cfg, maildir(tmp_path / "M"), tmp_path / "out")
    assert result.exit_code == 3, result.stdout + result.stderr  # bad input, not a bug
    assert "internal error" not in result.stderr
    assert "$.state.nations" in result.stderr and "event_cards" in result.stderr
    assert len(sent(tmp_path / "out")) == 5  # the good game's opening reports: four players and the GM
    for game, what in ((first, "$.state.nations"), (second, "event_cards")):
        assert what in clock(game)["last_error"]["what"]
    shown = cli_run("status", "--config", cfg, "--json", "--now", START)
    assert shown.exit_code == 0, shown.stderr
    records = {r["file"]: r for r in json.loads(shown.stdout)["games"]}
    assert "$.state.nations" in records["broken.json"]["last_error"]["what"]
    assert "event_cards" in records["cards.json"]["last_error"]["what"]
    assert records["good.json"]["game"] == "good" and not records["good.json"]["needs_gm"]
    text = cli_run("status", "--config", cfg, "--now", START)
    assert text.exit_code == 0 and "does not load" in text.stdout


def test_a_bug_while_a_game_loads_is_that_games_failure(tmp_path, monkeypatch):
    """An exception of ours while one game loads (a bug) stops neither the run nor the
    status of the others: the run ends with exit 1 (a bug is a bug), the game's status
    names it."""
    real = store.load_game

    def load(path):
        if "broken" in str(path):
            raise TypeError("unhashable type: 'dict'")
        return real(path)

    broken = game_with_players(tmp_path, "broken.json", "broken")
    good = game_with_players(tmp_path, "good.json", "good")
    cfg = config(tmp_path, broken, good, defaults='attach = ""')
    monkeypatch.setattr(store, "load_game", load)
    result = run(cfg, maildir(tmp_path / "M"), tmp_path / "out")
    assert result.exit_code == 1, result.stdout + result.stderr
    assert {str(m["To"]).split("<")[-1].rstrip(">") for m in sent(tmp_path / "out")} == {*ADDRESSES.values(), GM}
    assert "TypeError" in clock(broken)["last_error"]["what"]
    shown = cli_run("status", "--config", cfg, "--json", "--now", START)
    assert shown.exit_code == 0, shown.stderr
    records = {r["file"]: r for r in json.loads(shown.stdout)["games"]}
    assert "TypeError" in records["broken.json"]["error"] and records["good.json"]["error"] is None


def test_a_mail_that_trips_a_bug_is_its_games_last_error(table, monkeypatch):
    from pbem.mail import answers

    folder, game, cfg, box = table

    def broken(*args, **kwargs):
        raise ZeroDivisionError("a bug in the answer")

    monkeypatch.setattr(answers, "command_answer", broken)
    add_to_maildir(box, mail(ADDRESSES["greeks"], body="STATUS\n", message_id="<bug@p>"))
    result = run(cfg, box, folder / "o1", at(5))
    assert result.exit_code == 1 and "ZeroDivisionError" in result.stderr
    assert "ZeroDivisionError" in clock(game)["last_error"]["what"]
    assert ledger(game)["messages"]["<bug@p>"]["outcome"] == "failed"
    shown = json.loads(cli_run("status", "--config", cfg, "--json", "--now", at(6)).stdout)["games"][0]
    assert "ZeroDivisionError" in shown["last_error"]["what"] and shown["needs_gm"]


# -- 5. a password change is one transaction -------------------------------------------------


def test_a_password_change_whose_secrets_file_cannot_be_written_changes_nothing_and_is_answered(table, monkeypatch):
    """PASSWORD by mail while GAME.secrets.json cannot be written: the game keeps the old
    hash, the player is answered (nothing done, the old password works), the run exits 10
    (the machine's error) and the new password is in no output; with room again, PASSWORD
    works."""
    from pbem.service import passwords

    folder, game, cfg, box = table
    monkeypatch.setattr(passwords, "generate", lambda *a, **k: "NEW-SECRET-4711")
    before = game.read_bytes()
    secrets_before = (folder / "game.secrets.json").read_bytes()
    add_to_maildir(box, mail(ADDRESSES["greeks"], body="game demo\nnation greeks\npassword pw-greeks\nPASSWORD\n",
                             message_id="<pw1@p>"))
    room = failing_replace(monkeypatch, "secrets")
    full = run(cfg, box, folder / "o1", at(5))
    assert full.exit_code == 10, full.stdout + full.stderr
    assert "NEW-SECRET-4711" not in full.stdout + full.stderr
    assert game.read_bytes() == before and (folder / "game.secrets.json").read_bytes() == secrets_before
    (answer,) = sent(folder / "o1")
    words = " ".join(body(answer).split())
    assert ADDRESSES["greeks"] in str(answer["To"])
    assert "Not done" in words and "password is unchanged" in words and "NEW-SECRET-4711" not in words
    assert clock(game)["last_error"]["what"]  # the GM sees it in status
    room()
    add_to_maildir(box, mail(ADDRESSES["greeks"], body="game demo\nnation greeks\npassword pw-greeks\nPASSWORD\n",
                             message_id="<pw2@p>"))
    done = run(cfg, box, folder / "o2", at(10))
    assert done.exit_code == 0, done.stdout + done.stderr
    assert "NEW-SECRET-4711" not in done.stdout + done.stderr
    answers = [m for m in sent(folder / "o2") if "Your new password" in body(m)]
    assert len(answers) == 1 and ADDRESSES["greeks"] in str(answers[0]["To"])
    assert "Your new password for the Greeks: NEW-SECRET-4711" in " ".join(body(answers[0]).split())
    assert json.loads((folder / "game.secrets.json").read_text())["greeks"] == "NEW-SECRET-4711"
    assert cli_run("verify", game).exit_code == 0


def test_a_password_change_whose_game_file_cannot_be_written_leaves_the_secrets_file(table, monkeypatch):
    folder, game, cfg, box = table
    before, secrets_before = game.read_bytes(), (folder / "game.secrets.json").read_bytes()
    add_to_maildir(box, mail(ADDRESSES["greeks"], body="game demo\nnation greeks\npassword pw-greeks\nPASSWORD\n"))
    failing_replace(monkeypatch, "game.json")
    full = run(cfg, box, folder / "o1", at(5))
    assert full.exit_code == 10, full.stdout + full.stderr
    assert game.read_bytes() == before and (folder / "game.secrets.json").read_bytes() == secrets_before
    assert "password is unchanged" in " ".join(body(sent(folder / "o1")[0]).split())


def test_the_gm_gives_a_new_player_both_or_neither(tmp_path, monkeypatch):
    """``player`` when the secrets file cannot be written: exit 10, the game unchanged, and
    no password printed (it was printed before, to be kept from a log)."""
    from pbem.service import passwords

    game = new_game_file(tmp_path, "--id", "demo")
    monkeypatch.setattr(passwords, "generate", lambda *a, **k: "NEW-SECRET-4711")
    before = game.read_bytes()
    failing_replace(monkeypatch, "secrets")
    changed = cli_run("player", game, "greeks", "--player", "Bea <bea@example.org>")
    assert changed.exit_code == 10, changed.stdout + changed.stderr
    assert "NEW-SECRET-4711" not in changed.stdout + changed.stderr
    assert game.read_bytes() == before


# -- 8. the audit log ---------------------------------------------------------------------------


@pytest.fixture
def clocked(tmp_path):
    game = game_with_players(tmp_path)
    cfg = config(tmp_path, game, defaults='deadline = "48h"\nattach = ""')
    assert run(cfg, maildir(tmp_path / "M"), tmp_path / "o0").exit_code == 0
    return tmp_path, game


def test_an_audit_log_that_cannot_be_written_is_exit_10_and_nothing_changes(clocked):
    folder, game = clocked
    (folder / "game.audit.jsonl").mkdir()  # where the log should be: cannot be appended to
    before = (folder / "game.mail.json").read_bytes()
    for args in (("deadline", game, "--extend", "24h"), ("pause", game), ("absent", game, "greeks", "--until",
                                                                           "2026-11-30")):
        done = cli_run(*args, "--now", "2026-11-23T11:00:00Z")
        assert done.exit_code == 10, (args, done.stdout, done.stderr)
        assert "audit" in done.stderr
        assert (folder / "game.mail.json").read_bytes() == before


def test_a_change_whose_ledger_cannot_be_written_is_not_in_the_audit_log(clocked, monkeypatch):
    folder, game = clocked
    failing_replace(monkeypatch, "game.mail.json")
    done = cli_run("deadline", game, "--extend", "24h", "--now", "2026-11-23T11:00:00Z")
    assert done.exit_code == 10, done.stdout + done.stderr
    assert not (folder / "game.audit.jsonl").exists() or (folder / "game.audit.jsonl").read_text() == ""


def test_an_undo_that_cannot_be_saved_is_not_in_the_audit_log(tmp_path, monkeypatch):
    game = new_game_file(tmp_path, "--id", "demo")
    nation = json.loads(game.read_text())["status"]["active"]
    orders = tmp_path / "t.json"
    orders.write_text(json.dumps({"game": "demo", "nation": nation, "turn": 1, "password": f"pw-{nation}",
                                  "rondel": "gold"}))
    assert cli_run("process", game, orders).exit_code == 0
    before = game.read_bytes()
    log = tmp_path / "game.audit.jsonl"
    log.mkdir()  # the log cannot be written: no undo
    done = cli_run("undo", game, "--turns", "1")
    assert done.exit_code == 10 and "audit log" in done.stderr, done.stdout + done.stderr
    assert game.read_bytes() == before
    log.rmdir()
    failing_replace(monkeypatch, "game.json")  # the game cannot be saved: no line in the log
    done = cli_run("undo", game, "--turns", "1")
    assert done.exit_code == 10, done.stdout + done.stderr
    assert game.read_bytes() == before
    assert not log.exists() or log.read_text() == ""


# -- 8. site and render --out into a folder that cannot be written ------------------------------


@pytest.mark.parametrize("command", ["site", "render"])
def test_site_and_render_into_a_folder_that_cannot_be_written_exit_10(tmp_path, monkeypatch, command):
    game = new_game_file(tmp_path, "--id", "demo")
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder\n")
    args = (game, blocked / "out") if command == "site" else (game, "--out", blocked / "out", "--format", "txt")
    done = cli_run(command, *args)
    assert done.exit_code == 10, done.stdout + done.stderr
    (tmp_path / "out").mkdir()
    failing_replace(monkeypatch, "demo", "style.css", errno=30, why="Read-only file system")
    args = (game, tmp_path / "out") if command == "site" else (game, "--out", tmp_path / "out", "--format", "txt")
    done = cli_run(command, *args)
    assert done.exit_code == 10 and "Read-only file system" in done.stderr, done.stdout + done.stderr


# -- 8. faults are counted once -----------------------------------------------------------------


def test_press_whose_log_cannot_be_written_is_sent_once_when_it_can(table):
    """The press log cannot be written (here: a folder where the file should be): no copy
    of the press goes out while it cannot, however many runs; one copy once it can."""
    folder, game, cfg, box = table
    log = folder / "game.press.jsonl"
    log.mkdir()
    add_to_maildir(box, mail(ADDRESSES["greeks"], body="game demo\nnation greeks\npassword pw-greeks\n"
                                                       "PRESS TO all\nHail, neighbours!\n", message_id="<press@p>"))
    for k in range(3):
        failed = run(cfg, box, folder / f"f{k}", at(5 + k))
        assert failed.exit_code == 10, failed.stdout + failed.stderr
        assert sent(folder / f"f{k}") == []
    log.rmdir()
    done = run(cfg, box, folder / "ok", at(10))
    assert done.exit_code == 0, done.stdout + done.stderr
    out = sent(folder / "ok")
    assert sum("Hail, neighbours!" in body(m) for m in out) == 3  # the three other players, once each
    assert len(log.read_text().splitlines()) == 1


def test_an_address_change_whose_ledger_cannot_be_written_sends_its_code_once(table, monkeypatch):
    folder, game, cfg, box = table
    add_to_maildir(box, mail(ADDRESSES["greeks"], body="game demo\nnation greeks\npassword pw-greeks\n"
                                                       "ADDRESS dora@new.example\n", message_id="<addr@p>"))
    room = failing_replace(monkeypatch, "game.mail.json")
    for k in range(3):
        failed = run(cfg, box, folder / f"f{k}", at(5 + k))
        assert failed.exit_code == 10, failed.stdout + failed.stderr
        assert not list((folder / "game.mail-queue").glob("*.eml"))
        assert sent(folder / f"f{k}") == []
    room()
    done = run(cfg, box, folder / "ok", at(10))
    assert done.exit_code == 0, done.stdout + done.stderr
    assert sum("dora@new.example" in str(m["To"]) for m in sent(folder / "ok")) == 1


def test_notices_whose_ledger_cannot_be_written_are_not_queued_again_and_again(table, monkeypatch):
    """The GM paused the game; the run spools the notice to everyone, but the ledger that
    notes it sent cannot be written: every run fails (exit 10) and sends nothing; the
    first run that can write sends the notice once to each."""
    folder, game, cfg, box = table
    assert cli_run("pause", game, "--reason", "holidays", "--now", at(1)).exit_code == 0
    room = failing_replace(monkeypatch, "game.mail.json")
    for k in range(3):
        failed = run(cfg, box, folder / f"f{k}", at(5 + k))
        assert failed.exit_code == 10, failed.stdout + failed.stderr
        assert sent(folder / f"f{k}") == []
    room()
    done = run(cfg, box, folder / "ok", at(10))
    assert done.exit_code == 0, done.stdout + done.stderr
    notices = [m for m in sent(folder / "ok") if "holidays" in body(m)]
    assert sorted(str(m["To"]).split("<")[-1].rstrip(">") for m in notices) == sorted([*ADDRESSES.values(), GM])


class DroppingServer:
    """A small SMTP server that takes every mail but drops the connection, without an
    answer, at the end of the data of a mail holding ``marker``."""

    def __init__(self, *markers: bytes):
        self.markers = markers
        self.received: list[bytes] = []
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(5)
        self.port = self.sock.getsockname()[1]
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self):
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            with conn:
                self._session(conn.makefile("rwb"))

    def _session(self, f):
        def say(line):
            f.write(line + b"\r\n")
            f.flush()

        say(b"220 drop.example ESMTP")
        while True:
            line = f.readline()
            if not line:
                return
            verb = line[:4].upper()
            if verb in (b"EHLO", b"HELO"):
                say(b"250 drop.example")
            elif verb in (b"MAIL", b"RCPT", b"RSET", b"NOOP"):
                say(b"250 ok")
            elif verb == b"DATA":
                say(b"354 go on")
                data = b""
                while (chunk := f.readline()) not in (b".\r\n", b""):
                    data += chunk
                if any(marker in data for marker in self.markers):
                    return  # the connection drops: no answer to this mail
                self.received.append(data)
                say(b"250 queued")
            elif verb == b"QUIT":
                say(b"221 bye")
                return
            else:
                say(b"502 no")

    def close(self):
        self.sock.close()


def test_a_server_that_drops_the_connection_on_a_mail_is_a_refusal_of_that_mail(tmp_path):
    """The other mails go out; the dropped one is tried again on the back-off schedule and,
    after the last try, given up into undeliverable/ and the GM told (the tries between are
    tests/mail/servers/test_mail_refused.py's)."""
    server = DroppingServer(ADDRESSES["greeks"].encode())
    try:
        game = game_with_players(tmp_path)
        cfg = tmp_path / "mail.toml"
        cfg.write_text(f'[mail]\nfrom = "Referee <referee@referee.example>"\ngm = "{GM}"\n\n[smtp]\n'
                       f'host = "127.0.0.1"\nport = {server.port}\nsecurity = "plain"\ntimeout = 5\n\n'
                       f'[[game]]\nfile = "{game}"\nattach = ""\n', encoding="utf-8")
        box = maildir(tmp_path / "M")

        def cycle(now):
            return cli_run("mail", "run", "--config", cfg, "--source", box, "--now", now)

        first = cycle(START)
        assert first.exit_code == 7, first.stdout + first.stderr
        assert "tried again later" in first.stderr
        assert len(server.received) == 4  # three players and the GM: the queue was not held up
        queue = tmp_path / "game.mail-queue"
        (waiting,) = queue.glob("*.eml")
        assert ADDRESSES["greeks"] in waiting.read_text()
        tries = queue / (waiting.name + ".tries")
        assert json.loads(tries.read_text())["count"] == 1
        assert cycle("2026-11-23T10:11:00Z").exit_code == 7  # after its first back-off: dropped again
        assert json.loads(tries.read_text())["count"] == 2
        tries.write_text(json.dumps({"count": 4, "next": "2026-11-24T17:13:00Z"}))  # as after the next two tries
        last = cycle("2026-11-24T17:14:00Z")
        assert last.exit_code == 7 and "given up" in last.stderr
        assert not list(queue.glob("*.eml")) and len(list((queue / "undeliverable").glob("*.eml"))) == 1
        assert any(b"could not be delivered" in m for m in server.received[4:])  # the GM is told
    finally:
        server.close()


def test_a_server_that_drops_two_mails_is_unwell_and_the_rest_waits(tmp_path):
    """The first mail dropped in a run is that mail's refusal; a second one dropped in the
    same run stops the delivery (exit 7), the rest staying queued without a try counted."""
    server = DroppingServer(ADDRESSES["greeks"].encode(), ADDRESSES["arabs"].encode())
    try:
        game = game_with_players(tmp_path)
        cfg = tmp_path / "mail.toml"
        cfg.write_text(f'[mail]\nfrom = "Referee <referee@referee.example>"\ngm = "{GM}"\n\n[smtp]\n'
                       f'host = "127.0.0.1"\nport = {server.port}\nsecurity = "plain"\ntimeout = 5\n\n'
                       f'[[game]]\nfile = "{game}"\nattach = ""\n', encoding="utf-8")
        first = cli_run("mail", "run", "--config", cfg, "--source", maildir(tmp_path / "M"), "--now", START)
        assert first.exit_code == 7 and "dropped again" in first.stderr, first.stdout + first.stderr
        queue = tmp_path / "game.mail-queue"
        assert len(list(queue.glob("*.eml.tries"))) == 1 and len(list(queue.glob("*.eml"))) >= 2
    finally:
        server.close()
