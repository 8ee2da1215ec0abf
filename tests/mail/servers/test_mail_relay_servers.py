"""The mail relay of a game without a game master against real servers (issue 39 item 6;
docs/without-gm.md, "The mail relay"): every player mails their blocks to the relay's
mailbox on a private Dovecot, ``antike-ref mail run`` (or ``mail receive``, fed by Dovecot's
Sieve pipe) checks them against the relay's own copy, and the SMTP sink gets the mails the
relay sends. The players take the others' blocks only from the mails the sink received,
byte for byte as they came over SMTP, never from each other."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from conftest import cli_run
from mailkit import body, mail
from pbem import editions
from pbem.kernel.setup import SetupOptions
from pbem.service import store
from pbem.service.boards import load_board
from pbem.service.service import Input
from pbem.service.signed.blocks import armor
from pbem.service.signed.entries import Signed
from pbem.service.signed.folder import Folder
from pbem.service.signed.setup import Group, proposal
from signedkit import MINUTE, SEATS, T0, Table, key_of
from test_mail_instant import set_receive

ADDRESS = {s: f"{s}@players.example" for s in SEATS}
PLAYER = {s: f"{s.capitalize()} Player <{ADDRESS[s]}>" for s in SEATS}
RELAY = "relay@referee.example"


def iso(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def relay_config(root: Path, relay: Path, smtp, imap) -> Path:
    """SMTP to the sink, ``[imap] url`` on the Dovecot INBOX, one ``[[relay]]`` and no game."""
    text = (f'[mail]\nfrom = "Relay <{RELAY}>"\n\n'
            f'[smtp]\nhost = "{smtp.host}"\nport = {smtp.port}\nsecurity = "{smtp.security}"\n'
            f'user = "{smtp.user}"\npassword_env = "TEST_SMTP_PASSWORD"\nca_file = "{smtp.ca_file}"\n\n'
            f'[imap]\nurl = "{imap.url}"\npassword_env = "TEST_IMAP_PASSWORD"\nca_file = "{imap.ca_file}"\n\n'
            f'[[relay]]\nfile = "{relay}"\n')
    path = root / "mail.toml"
    path.write_text(text, encoding="utf-8")
    return path


class Players:
    """Three players, each with a folder and a key of their own, and the relay's copy; every
    block a player makes is mailed to the relay's INBOX (IMAP APPEND), ``mail run`` runs, and
    the others accept the relay's mail from the bytes the SMTP sink received."""

    def __init__(self, root: Path, smtp, imap, monkeypatch):
        monkeypatch.setenv("TEST_SMTP_PASSWORD", smtp.password)
        monkeypatch.setenv("TEST_IMAP_PASSWORD", imap.password)
        self.root, self.smtp, self.imap = root, smtp, imap
        self.keys = {s: key_of(s) for s in SEATS}
        self.folders = {}
        for s in SEATS:
            (root / s).mkdir()
            self.folders[s] = Folder(root / s / "demo.json")
        self.relay = root / "relay" / "demo.json"
        self.relay.parent.mkdir()
        self.cfg = relay_config(root, self.relay, smtp, imap)
        self.now = T0
        self.count = 0
        self.saved = root / "saved"
        self.saved.mkdir()

    def mail(self, seat: str, block: str, subject: str) -> str:
        """``seat`` mails ``block`` (with a greeting and a signature around it) to the relay;
        ``mail run`` runs five minutes later; the message id of the mail."""
        self.count += 1
        message_id = f"<relay-{self.count}@players.example>"
        text = f"Hello all,\n\n{block}\n-- \n{seat.capitalize()}\n"
        self.imap.deliver(mail(PLAYER[seat], subject, text, message_id=message_id))
        result = cli_run("mail", "run", "--config", self.cfg, "--now", iso(self.now + 5 * MINUTE))
        assert result.exit_code == 0, result.stdout + result.stderr
        return message_id

    def passed_on(self, mark: int, sender: str):
        """The one mail the relay sent since the sink's ``mark``-th: the sender's mail passed
        on to every seat."""
        new = self.smtp.messages[mark:]
        assert len(new) == 1, [(m.envelope_to, str(m.message["Subject"])) for m in new]
        (got,) = new
        assert sorted(got.envelope_to) == sorted(ADDRESS.values()) and got.envelope_from == RELAY
        assert got.message["Auto-Submitted"] == "auto-generated"
        assert f"sent by {ADDRESS[sender]}" in " ".join(body(got.message).split())
        return got

    def relay_round(self, seat: str, signed: Signed, subject: str) -> None:
        """``seat``'s block through the relay; every other seat accepts it from the mail the
        sink received (``antike-ref accept GAME SAVED-MAIL --as SEAT``, the mail saved as it
        came over SMTP); the sender accepts their receipt too, which adds nothing."""
        mark = len(self.smtp.messages)
        self.mail(seat, armor(signed), subject)
        got = self.passed_on(mark, seat)
        assert got.message["Subject"] == f"[demo] {signed.label()}"
        saved = self.saved / f"{self.count:04d}.eml"
        saved.write_bytes(got.raw)
        for other in SEATS:
            result = cli_run("accept", self.folders[other].path, saved, "--as", other,
                             "--now", iso(self.now + 10 * MINUTE))
            assert result.exit_code == 0, result.stdout + result.stderr
            added = "0 new entries, 1 held already" if other == seat else "1 new entry, 0 held already"
            assert f"{saved}: {added}" in result.stdout, result.stdout

    def game(self):
        return store.load_game(self.relay)

    def ledger(self) -> dict:
        return json.loads(self.relay.with_name("demo.mail.json").read_text())["messages"]


@pytest.mark.slow
def test_a_whole_classic_game_played_only_through_the_relay(tmp_path, smtp_server, imap_server, monkeypatch):
    """Three seats, the classic rules, the greedy bot's orders, played to the win (some 140
    turns, about a minute: every mail read over IMAP and sent over SMTP). The proposal goes
    round by hand, as the relay's copy starts from it (docs/without-gm.md); every join,
    reveal and turn after it reaches the other players only as the relay's mail at the SMTP
    sink. At the end every copy holds the same bytes as the relay's, and ``verify`` checks
    every signature of it."""
    table = Players(tmp_path, smtp_server, imap_server, monkeypatch)
    opts = SetupOptions(game_id="demo", board="antike-east", nations=list(SEATS), player=dict(PLAYER))
    offer = proposal(editions.get("classic"), opts, load_board("antike-east"), Group("2d", "default", tuple(SEATS)),
                     1000, T0)
    Folder(table.relay).accept(armor(offer), "the proposal", T0 + MINUTE)  # the relay's operator, by hand
    table.folders[SEATS[0]].propose(offer)
    joins = {s: table.folders[s].join(table.keys[s], s, T0 + MINUTE, armor(offer), "the proposal") for s in SEATS}

    # the set-up: each join, then each reveal, by the relay alone
    table.now = T0 + MINUTE
    for seat in SEATS:
        table.relay_round(seat, joins[seat], "my join")
    table.now = T0 + 60 * MINUTE
    for seat in SEATS:
        signed, _ = table.folders[seat].reveal(table.keys[seat], table.now)
        table.relay_round(seat, signed, "my reveal")
    assert len({f.path.read_bytes() for f in table.folders.values()} | {table.relay.read_bytes()}) == 1

    # every turn: the mover plays in their own folder and mails the block to the relay
    from pbem.play.bot import play_turn

    turns = 0
    while table.game().state.status.winner is None:
        mover = table.game().state.status.active
        folder = table.folders[mover]
        orders = play_turn(store.load_game(folder.path), "greedy")
        table.now += timedelta(hours=1)
        _, _, signed, _, _ = folder.play(Input(orders, "orders"), table.keys[mover], table.now)
        table.relay_round(mover, signed, f"turn {turns + 1}")
        turns += 1
        assert turns < 400, "no winner"

    status = table.game().state.status
    assert status.winner in SEATS
    assert sum(e["kind"] == "turn" for e in table.game().history) == turns
    last = table.smtp.messages[-1].message
    assert f"the game is over: {status.winner} won" in body(last)
    files = {s: f.path.read_bytes() for s, f in table.folders.items()}
    assert all(data == table.relay.read_bytes() for data in files.values())
    assert len(table.smtp.messages) == 6 + turns  # one mail for each block, nothing else
    ledger = table.ledger()
    assert len(ledger) == 6 + turns and {m["outcome"] for m in ledger.values()} == {"relayed"}
    result = cli_run("verify", table.folders[SEATS[1]].path)
    assert result.exit_code == 0, result.stdout + result.stderr
    assert f"{turns} turns signed by their movers" in result.stdout


@pytest.fixture
def started(tmp_path, smtp_server, imap_server, monkeypatch):
    """Three players whose set-up is done, and a relay that has passed it on."""
    players = Players(tmp_path, smtp_server, imap_server, monkeypatch)
    table = Table(tmp_path / "table", players=PLAYER)
    Folder(players.relay).accept(table.log[0], "the proposal", T0 + MINUTE)
    players.now = table.now
    mark = len(smtp_server.messages)
    players.mail("greeks", "".join(table.log[1:]), "set-up")
    players.passed_on(mark, "greeks")
    assert players.relay.read_bytes() == table.folders["greeks"].path.read_bytes()
    return players, table


@pytest.mark.slow
def test_a_forged_block_gets_one_refusal_to_its_sender_and_nothing_else(started):
    players, table = started
    before = players.relay.read_bytes()
    mover = table.active()
    signed = table.play(send=False)
    players.now = table.now
    forged = Signed({**signed.entry, "orders": {**signed.entry["orders"], "rondel": {"to": "temple"}}}, signed.sigs)
    mark = len(players.smtp.messages)
    message_id = players.mail(mover, armor(forged), "orders")
    new = players.smtp.messages[mark:]
    assert len(new) == 1, [(m.envelope_to, str(m.message["Subject"])) for m in new]
    answer = new[0]
    assert answer.envelope_to == [ADDRESS[mover]] and answer.envelope_from == RELAY
    assert answer.message["Subject"] == "refused: orders" and answer.message["In-Reply-To"] == message_id
    assert answer.message["Auto-Submitted"] == "auto-replied"
    assert "(sshsig/invalid)" in body(answer.message) and "Nothing of your mail was passed on" in body(answer.message)
    assert players.relay.read_bytes() == before
    noted = players.ledger()[message_id]
    assert (noted["outcome"], noted["code"]) == ("refused", "sshsig/invalid")
    # read once: the next run sends nothing; the true block is then passed on as any other
    assert cli_run("mail", "run", "--config", players.cfg, "--now", iso(table.now + 6 * MINUTE)).exit_code == 0
    assert len(players.smtp.messages) == mark + 1 and players.relay.read_bytes() == before
    players.mail(mover, armor(signed), "orders again")
    assert armor(signed) in body(players.passed_on(mark + 1, mover).message)


@pytest.mark.slow
def test_a_block_the_sieve_pipe_hands_to_receive_is_passed_on_once(tmp_path, smtp_server, receiving_server,
                                                                     monkeypatch):
    """Dovecot takes the mail by LMTP, its Sieve script pipes it to ``mail receive`` (which
    passes it on at once) and keeps it in INBOX, where cron's ``mail run`` reads it after:
    the relay passes it on once."""
    players = Players(tmp_path, smtp_server, receiving_server.imap, monkeypatch)
    table = Table(tmp_path / "table", players=PLAYER)
    Folder(players.relay).accept(table.log[0], "the proposal", T0 + MINUTE)
    set_receive(receiving_server, players.cfg, smtp_server, "--now", iso(table.now + 5 * MINUTE))
    receiving_server.deliver(mail(PLAYER["greeks"], "set-up", "".join(table.log[1:]),
                                  message_id="<sieve-1@players.example>"), ADDRESS["greeks"])
    assert len(smtp_server.messages) == 1, (tmp_path / "receive.log").read_text()
    mover = table.active()
    signed = table.play(send=False)
    set_receive(receiving_server, players.cfg, smtp_server, "--now", iso(table.now + 5 * MINUTE))
    receiving_server.deliver(mail(PLAYER[mover], "my turn", armor(signed), message_id="<sieve-2@players.example>"),
                             ADDRESS[mover])  # returns once the pipe ran
    assert len(smtp_server.messages) == 2, (tmp_path / "receive.log").read_text()
    forward = smtp_server.messages[1]
    assert sorted(forward.envelope_to) == sorted(ADDRESS.values()) and armor(signed) in body(forward.message)
    assert len(receiving_server.imap.messages()) == 2  # kept in INBOX too (the Sieve script's :copy)
    assert list((tmp_path / "incoming" / "new").iterdir()) == []  # read by the relay: it left the folder
    result = cli_run("mail", "run", "--config", players.cfg, "--now", iso(table.now + 10 * MINUTE))
    assert result.exit_code == 0, result.stdout + result.stderr
    assert len(smtp_server.messages) == 2  # cron read the same INBOX: nothing passed on again
    assert [m["outcome"] for m in players.ledger().values()] == ["relayed", "relayed"]
    assert players.relay.read_bytes() == table.folders[mover].path.read_bytes()
