"""The mail cycle against real servers on loopback: Dovecot (IMAPS) for mail in, aiosmtpd
(STARTTLS and SSL, with login) for mail out."""

from __future__ import annotations

import json
import subprocess

import pytest

from conftest import cli_run
from mailkit import ADDRESSES, GM, game_with_players, json_orders, mail, server_config

NOW = "2026-11-23T10:00:00Z"


def mail_config(folder, game, smtp, imap=None, extra=""):
    return server_config(folder, game, smtp, imap, extra=extra)


@pytest.fixture
def servers(tmp_path, smtp_server, imap_server, monkeypatch):
    monkeypatch.setenv("TEST_SMTP_PASSWORD", smtp_server.password)
    monkeypatch.setenv("TEST_IMAP_PASSWORD", imap_server.password)
    game = game_with_players(tmp_path)
    cfg = mail_config(tmp_path, game, smtp_server, imap_server, extra='attach = "pdf,png"\n')
    return tmp_path, game, cfg, smtp_server, imap_server


def run_cycle(cfg, now=NOW):
    result = cli_run("mail", "run", "--config", cfg, "--now", now)
    assert result.exit_code == 0, result.stdout + result.stderr
    return result


def active(game):
    return json.loads(game.read_text())["status"]["active"]


def addressed(received, address):
    return [r for r in received if address in r.envelope_to]


def test_a_turn_by_imap_and_smtp(servers, tmp_path):
    folder, game, cfg, smtp, imap = servers
    run_cycle(cfg)  # first contact: the opening report to everyone
    opening = smtp.wait_for(5)
    assert sorted(a for r in opening for a in r.envelope_to) == sorted([*ADDRESSES.values(), GM])
    smtp.clear()
    nation = active(game)
    text = f"game demo\nnation {nation}\nturn 1\npassword pw-{nation}\nrondel gold\n"
    imap.deliver(mail(ADDRESSES[nation], subject="my turn", body=text, message_id="<t1@players.example>"))
    run_cycle(cfg, "2026-11-23T10:05:00Z")
    received = smtp.wait_for(6)
    assert len(received) == 6
    (receipt,) = [r for r in received if "accepted" in str(r.message["Subject"])]
    assert receipt.envelope_to == [ADDRESSES[nation]]
    assert receipt.envelope_from == "referee@referee.example"
    assert receipt.message["In-Reply-To"] == "<t1@players.example>"
    assert "rondel gold" in receipt.message.get_body(("plain",)).get_content()
    reports = [r for r in received if "after turn 1" in str(r.message["Subject"])]
    assert sorted(a for r in reports for a in r.envelope_to) == sorted([*ADDRESSES.values(), GM])
    for r in reports:
        parts = {p.get_content_type(): p for p in r.message.iter_attachments()}
        assert set(parts) == {"application/pdf", "image/png"}
        pdf = tmp_path / "report.pdf"
        pdf.write_bytes(parts["application/pdf"].get_content())
        info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True)
        assert info.returncode == 0 and "Pages:" in info.stdout, info.stderr  # the PDF opens
        from io import BytesIO

        from PIL import Image

        with Image.open(BytesIO(parts["image/png"].get_content())) as picture:
            assert picture.format == "PNG" and picture.width >= 1000
    # the mailbox is as it was: nothing deleted or flagged
    assert len(imap.messages()) == 1
    # a second run: nothing applied, nothing sent again
    smtp.clear()
    before = game.read_bytes()
    run_cycle(cfg, "2026-11-23T10:10:00Z")
    assert game.read_bytes() == before
    assert smtp.messages == []
    assert cli_run("verify", game).exit_code == 0


def _quoted_reply(nation):
    return (f"game demo\nnation {nation}\nturn 1\npassword pw-{nation}\nrondel gold\n\n"
            "On Mon, 23 Nov 2026 at 10:00, Referee wrote:\n"
            "> Game demo, report for you.\n> It is your turn.\n> rondel iron\n"
            "-- \nsent at midnight\n")


CASES = {
    # name: (mail, applied?, words the answer must contain)
    "attachment": (lambda n: mail(ADDRESSES[n], orders=json_orders(n, 1, rondel="gold")), True, "accepted"),
    "quoted-reply": (lambda n: mail(ADDRESSES[n], subject="Re: [demo] your turn", body=_quoted_reply(n)),
                     True, "accepted"),
    "other-nation": (lambda n: mail(ADDRESSES[next(o for o in ADDRESSES if o != n)],
                                    orders=json_orders(n, 1, rondel="gold")), False, "registered"),
    "wrong-password": (lambda n: mail(ADDRESSES[n],
                                      body=f"game demo\nnation {n}\nturn 1\npassword nope\nrondel gold\n"),
                       False, "password"),
    "html-only": (lambda n: mail(ADDRESSES[n], html=f"<div>game demo</div><div>nation {n}</div><div>rondel gold</div>"),
                  False, "plain text"),
}


@pytest.mark.slow
@pytest.mark.parametrize("case", list(CASES))
def test_order_mails_by_imap(servers, case):
    folder, game, cfg, smtp, imap = servers
    run_cycle(cfg)
    smtp.wait_for(5)
    smtp.clear()
    nation = active(game)
    make, applied, words = CASES[case]
    imap.deliver(make(nation))
    before = game.read_bytes()
    run_cycle(cfg, "2026-11-23T10:05:00Z")
    history = json.loads(game.read_text())["history"]
    if applied:
        assert history[-1]["kind"] == "turn" and history[-1]["nation"] == nation
        answer = [r for r in smtp.wait_for(6) if "accepted" in str(r.message["Subject"])]
    else:
        assert game.read_bytes() == before
        answer = smtp.wait_for(1)
        assert len(smtp.messages) == 1
        assert "NOT accepted" in str(answer[0].message["Subject"])
    assert len(answer) == 1
    assert words in answer[0].message.get_body(("plain",)).get_content()


def test_replayed_and_doubled_mails_by_imap(servers):
    """The same mail delivered twice, and a second mail for a turn already played: the
    first is applied once, the others are answered."""
    folder, game, cfg, smtp, imap = servers
    run_cycle(cfg)
    smtp.wait_for(5)
    smtp.clear()
    nation = active(game)
    first = mail(ADDRESSES[nation], orders=json_orders(nation, 1, rondel="gold"), message_id="<dup@players.example>")
    imap.deliver(first)
    imap.deliver(first)  # the same Message-ID again (a resent mail)
    imap.deliver(mail(ADDRESSES[nation], subject="changed my mind", orders=json_orders(nation, 1, rondel="iron")))
    run_cycle(cfg, "2026-11-23T10:05:00Z")
    history = json.loads(game.read_text())["history"]
    assert [e["kind"] for e in history] == ["new", "turn"]
    assert history[-1]["mail"] == "<dup@players.example>"
    received = smtp.wait_for(7)
    subjects = [str(r.message["Subject"]) for r in received]
    assert sum("accepted" in s and "NOT" not in s for s in subjects) == 1
    assert sum("NOT accepted" in s for s in subjects) == 1


def test_smtp_over_ssl_and_a_server_that_is_down(tmp_path, smtp_ssl_server, monkeypatch):
    monkeypatch.setenv("TEST_SMTP_PASSWORD", smtp_ssl_server.password)
    game = game_with_players(tmp_path)
    cfg = mail_config(tmp_path, game, smtp_ssl_server)
    from mailkit import maildir

    empty = maildir(tmp_path / "M")
    result = cli_run("remind", game, "--config", cfg, "--now", NOW)
    assert result.exit_code == 0, result.stdout + result.stderr
    got = smtp_ssl_server.wait_for(1)
    assert any("reminder" in str(r.message["Subject"]) for r in got)
    # a wrong password: the run says so (exit 7), the mail stays queued
    smtp_ssl_server.clear()
    monkeypatch.setenv("TEST_SMTP_PASSWORD", "wrong")
    result = cli_run("remind", game, "--config", cfg, "--now", "2026-11-23T11:00:00Z")
    assert result.exit_code == 7
    assert "SMTP" in result.stdout + result.stderr
    assert list((tmp_path / "game.mail-queue").glob("*.eml"))
    monkeypatch.setenv("TEST_SMTP_PASSWORD", smtp_ssl_server.password)
    assert cli_run("mail", "run", "--config", cfg, "--source", empty, "--now", "2026-11-23T11:05:00Z").exit_code == 0
    assert len(smtp_ssl_server.wait_for(1)) == 1
    assert not list((tmp_path / "game.mail-queue").glob("*.eml"))


def test_imap_password_from_a_file_must_be_private(tmp_path, smtp_server, imap_server, monkeypatch):
    monkeypatch.setenv("TEST_SMTP_PASSWORD", smtp_server.password)
    game = game_with_players(tmp_path)
    secret = tmp_path / "imap-password"
    secret.write_text(imap_server.password + "\n")
    secret.chmod(0o644)
    cfg = mail_config(tmp_path, game, smtp_server)
    text = (cfg.read_text() + f'\n[imap]\nurl = "{imap_server.url}"\npassword_file = "{secret}"\n'
            f'ca_file = "{imap_server.ca_file}"\n')
    cfg.write_text(text)
    result = cli_run("mail", "run", "--config", cfg, "--now", NOW)
    assert result.exit_code != 0
    assert "chmod 600" in result.stdout + result.stderr
    secret.chmod(0o600)
    assert cli_run("mail", "run", "--config", cfg, "--now", NOW).exit_code == 0


class ImapCalls:
    """Counts the logins and UID commands (SEARCH, FETCH) of the referee's IMAP sessions."""

    def __init__(self, monkeypatch):
        import imaplib

        self.logins = 0
        self.commands: list[str] = []
        real_login, real_uid = imaplib.IMAP4.login, imaplib.IMAP4.uid

        def login(conn, user, password):
            self.logins += 1
            return real_login(conn, user, password)

        def uid(conn, command, *args):
            self.commands.append(" ".join(str(a) for a in (command, *args)))
            return real_uid(conn, command, *args)

        monkeypatch.setattr(imaplib.IMAP4, "login", login)
        monkeypatch.setattr(imaplib.IMAP4, "uid", uid)

    def fetched(self) -> list[str]:
        return [c for c in self.commands if c.startswith("FETCH")]


def test_an_imap_source_reads_only_what_is_new_to_every_game(imap_server, monkeypatch):
    """What the games remember of the mailbox (its UIDVALIDITY, UIDNEXT, EXISTS): as it
    is, nothing is searched or fetched; a UIDNEXT further on, only the mails from the
    lowest one remembered; a game that remembers nothing, or another UIDVALIDITY, every
    mail. The state is taken when the mailbox is opened, before anything is read."""
    from pbem.mail.config import Imap, Secret
    from pbem.mail.inbox import ImapSource

    monkeypatch.setenv("TEST_IMAP_PASSWORD", imap_server.password)
    settings = Imap(Secret("TEST_IMAP_PASSWORD"), imap_server.ca_file)
    for k in range(3):
        imap_server.deliver(mail(ADDRESSES["greeks"], subject=f"chat {k}", body="hello", message_id=f"<c{k}@x>"))
    source = ImapSource(imap_server.url, settings)
    assert [m.message_id for m in source.messages(lambda mid, fingerprint=None: False)] == [
        "<c0@x>", "<c1@x>", "<c2@x>"]
    seen = source.observed
    assert seen is not None and seen["exists"] == 3 and seen == source.state()
    with monkeypatch.context() as patched:
        calls = ImapCalls(patched)
        source = ImapSource(imap_server.url, settings)
        source.remembered = [seen, seen]
        assert list(source.messages(lambda mid, fingerprint=None: False)) == []
        assert calls.commands == [] and source.observed == seen
        imap_server.deliver(mail(ADDRESSES["greeks"], subject="new", body="hello", message_id="<new@x>"))
        source.remembered = [seen, {**seen, "uidnext": seen["uidnext"] - 1}]
        assert [m.message_id for m in source.messages(lambda mid, fingerprint=None: False)] == ["<c2@x>", "<new@x>"]
        assert calls.commands[0] == f"SEARCH None UID {seen['uidnext'] - 1}:*"
        assert len(calls.fetched()) == 4  # two headers, two mails: nothing below the lowest UIDNEXT
        assert source.observed["uidnext"] == seen["uidnext"] + 1
        for remembered in ([seen, None], [{**seen, "uidvalidity": seen["uidvalidity"] + 1}], None):
            calls.commands = []
            source.remembered = remembered
            assert len(list(source.messages(lambda mid, fingerprint=None: False))) == 4
            assert len(calls.fetched()) == 8


def test_an_idle_imap_run_is_one_login_and_fetches_nothing(servers, monkeypatch):
    """The mailbox is asked for its UIDVALIDITY, UIDNEXT and EXISTS (one login, EXAMINE):
    as every game remembers them, nothing is searched or fetched and no game is loaded. A
    new mail changes UIDNEXT: only it is fetched, and applied."""
    from pbem.service import store

    folder, game, cfg, smtp, imap = servers
    for k in range(3):
        imap.deliver(mail(ADDRESSES["greeks"], subject=f"chat {k}", body="not orders"))
    run_cycle(cfg)  # first contact: the opening report, every mail looked at once
    smtp.wait_for(5)
    smtp.clear()
    with monkeypatch.context() as patched:
        calls = ImapCalls(patched)
        loads = []
        real = store.load_game
        patched.setattr(store, "load_game", lambda path: loads.append(path) or real(path))
        result = run_cycle(cfg, "2026-11-23T10:05:00Z")
        assert result.stdout.strip().endswith("1 game idle")
        assert (calls.logins, calls.commands, loads) == (1, [], [])
        nation = active(game)
        imap.deliver(mail(ADDRESSES[nation], body=f"game demo\nnation {nation}\nturn 1\npassword pw-{nation}\n"
                                                   "rondel gold\n"))
        calls.logins, calls.commands = 0, []
        result = run_cycle(cfg, "2026-11-23T10:10:00Z")
        assert "applied 1" in result.stdout and result.stdout.strip().endswith("0 games idle")
        assert calls.logins == 2  # the look, then the cycle
        assert len(calls.fetched()) == 2  # the new mail's Message-ID, then the mail: no old one
        assert len(smtp.wait_for(6)) == 6
        smtp.clear()
        calls.logins, calls.commands = 0, []
        run_cycle(cfg, "2026-11-23T10:15:00Z")
        assert (calls.logins, calls.commands) == (1, [])


def test_a_game_changed_by_hand_reads_an_unchanged_imap_mailbox_without_fetching(servers, monkeypatch, tmp_path):
    """The GM processes a turn by hand: the next run is a full one and reports it, but the
    mailbox, as the game's unchanged ledger remembers it, is opened and not read."""
    folder, game, cfg, smtp, imap = servers
    imap.deliver(mail(ADDRESSES["greeks"], subject="chat", body="not orders"))
    run_cycle(cfg)
    smtp.wait_for(5)
    smtp.clear()
    nation = active(game)
    orders = tmp_path / "orders.json"
    orders.write_text(json.dumps(json_orders(nation, 1, rondel="gold")), encoding="utf-8")
    assert cli_run("process", game, orders).exit_code == 0
    with monkeypatch.context() as patched:
        calls = ImapCalls(patched)
        result = run_cycle(cfg, "2026-11-23T10:05:00Z")
    assert result.stdout.strip().endswith("0 games idle")
    assert calls.commands == []
    reports = smtp.wait_for(5)
    assert all("after turn 1" in str(r.message["Subject"]) for r in reports)
    # the ledger is taken away: every mail is looked at again (and nothing is repeated)
    (tmp_path / "game.mail.json").unlink()
    smtp.clear()
    with monkeypatch.context() as patched:
        calls = ImapCalls(patched)
        run_cycle(cfg, "2026-11-23T10:10:00Z")
    assert calls.fetched() and smtp.messages == []


def test_an_imap_mail_over_the_size_limit_is_never_fetched_whole(servers, monkeypatch):
    """With max_message = 64kB: a 200 kB mail on the server is judged by its RFC822.SIZE
    and its header alone (the player gets one line); the order mail behind it is applied."""
    folder, game, cfg, smtp, imap = servers
    cfg.write_text(cfg.read_text().replace("[mail]\n", '[mail]\nmax_message = "64kB"\n'))
    run_cycle(cfg)
    smtp.wait_for(5)
    smtp.clear()
    nation = active(game)
    imap.deliver(mail(ADDRESSES[nation], subject="a picture", body="x" * 200_000, message_id="<huge@p>"))
    imap.deliver(mail(ADDRESSES[nation], body=f"game demo\nnation {nation}\nturn 1\npassword pw-{nation}\n"
                                              "rondel gold\n", message_id="<small@p>"))
    with monkeypatch.context() as patched:
        calls = ImapCalls(patched)
        run_cycle(cfg, "2026-11-23T10:05:00Z")
    whole = [c for c in calls.fetched() if "BODY.PEEK[]" in c]
    assert len(whole) == 1  # the small one only
    assert json.loads(game.read_text())["history"][-1]["mail"] == "<small@p>"
    answers = [r for r in smtp.wait_for(7) if "not read" in str(r.message["Subject"])]
    assert len(answers) == 1 and answers[0].envelope_to == [ADDRESSES[nation]]
    assert "more than the 65,536" in answers[0].message.get_body(("plain",)).get_content()
