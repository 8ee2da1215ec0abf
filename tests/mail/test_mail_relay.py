"""The mail relay of a game without a game master (issue 39 item 6; docs/without-gm.md, "The
mail relay"): the referee checks the blocks a mail holds against its own copy of the game
and passes the new ones on to every seat, holding no key; a refusal goes to its sender
alone, a proof of a seat that signed twice to every seat, and nothing is lost or sent twice."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from typer.testing import CliRunner

from conftest import cli_run
from mailkit import add_to_maildir, mail, maildir, sent, to_of
from mailkit import body as raw_body
from pbem.errors import CannotWrite
from pbem.service import store
from pbem.service.signed import chain
from pbem.service.signed.blocks import armor
from pbem.service.signed.entries import Signed, sign
from pbem.service.signed.folder import Folder
from signedkit import MINUTE, SEATS, T0, Table

ADDRESS = {s: f"{s}@players.example" for s in SEATS}


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    """Three players whose set-up is done in their own folders; the relay has not seen it."""
    return Table(tmp_path_factory.mktemp("relay") / "players",
                 players={s: f"{s.capitalize()} Player <{ADDRESS[s]}>" for s in SEATS})


@pytest.fixture
def table(base, tmp_path):
    return base.clone(tmp_path / "players")


class Relay:
    """The referee's side: its copy of the game (the proposal accepted by hand), a Maildir,
    a configuration with one ``[[relay]]``; :meth:`run` adds mails and runs ``mail run``."""

    def __init__(self, table: Table, root, extra: str = ""):
        self.table, self.root = table, root
        self.path = root / "relay" / "demo.json"
        self.path.parent.mkdir(parents=True)
        Folder(self.path).accept(table.log[0], "the proposal", T0 + MINUTE)
        self.box = maildir(root / "M")
        self.cfg = root / "mail.toml"
        self.cfg.write_text(f'[mail]\nfrom = "Relay <relay@referee.example>"\n{extra}\n'
                            f'[[relay]]\nfile = "{self.path}"\nsource = "{self.box}"\n')
        self.runs = 0

    def run(self, *mails: bytes, code: int = 0):
        add_to_maildir(self.box, *mails)
        self.runs += 1
        out = self.root / f"out{self.runs}"
        now = (self.table.now + timedelta(minutes=5)).strftime("%Y-%m-%dT%H:%M:%SZ")
        result = cli_run("mail", "run", "--config", self.cfg, "--outbox", out, "--now", now)
        assert result.exit_code == code, result.stdout + result.stderr
        self.said = result.stdout
        return sent(out)

    def ledger(self) -> dict:
        return json.loads((self.root / "relay" / "demo.mail.json").read_text())["messages"]

    def outcomes(self) -> list[str]:
        """What became of each mail, in the order the relay read them."""
        return [m["outcome"] for m in sorted(self.ledger().values(), key=lambda m: m["n"])]


def body(message) -> str:
    """A mail's text with its lines as a player's mail program shows them (the spool keeps
    the CRLF of the wire)."""
    return raw_body(message).replace("\r\n", "\n")


def from_seat(seat: str, text: str, subject: str = "my turn", message_id: str | None = None) -> bytes:
    return mail(f"{seat.capitalize()} Player <{ADDRESS[seat]}>", subject, text, message_id=message_id)


def test_the_relay_passes_the_set_up_and_a_turn_to_every_seat_who_takes_them_from_the_mail(table, tmp_path):
    relay = Relay(table, tmp_path)
    setup = "".join(table.log[1:])
    out = relay.run(from_seat("greeks", f"Hi all, the joins and reveals:\n\n{setup}\n-- \nGreta", "set-up"))
    assert len(out) == 1 and "delivered 1 (outbox" in relay.said and "relayed 6" in relay.said
    forward = out[0]
    assert to_of(forward) == ", ".join(ADDRESS[s] for s in SEATS)
    assert "Persians Player" in str(forward["To"]) and forward["Auto-Submitted"] == "auto-generated"
    assert all(block in body(forward) for block in table.log[1:])
    assert "antike-ref accept demo.json" in body(forward) and "to play turn 1" in body(forward)
    assert relay.path.read_bytes() == table.folders["greeks"].path.read_bytes()  # the same game as every seat's

    mover = table.active()
    signed = table.play(send=False)
    out = relay.run(from_seat(mover, f"Here is my move.\n{armor(signed)}"))
    assert len(out) == 1 and out[0]["Subject"] == f"[demo] {signed.label()}"
    saved = tmp_path / "saved.eml"  # a player saves the relay's mail as it came, and accepts it
    saved.write_bytes(out[0].as_bytes())
    for seat in SEATS:
        if seat != mover:
            taken = table.folders[seat].accept(saved.read_text(), "the relay's mail", table.now + MINUTE)
            assert len(taken.added) == 1
    assert len(set(table.files().values())) == 1
    assert relay.path.read_bytes() == table.folders[mover].path.read_bytes()
    assert relay.run() == []  # read once: nothing is passed on twice
    assert relay.outcomes() == ["relayed", "relayed"]


@pytest.mark.parametrize("missed", ["default", "bot-greedy"])
def test_a_claim_of_a_missed_deadline_goes_through_the_relay_and_every_copy_plays_the_same_turn(tmp_path, missed):
    """Item 5 through the relay: the mover is late, another seat claims; the relay checks
    the claim (playing the missed turn by the group's rule, the bot's too, as every copy
    does) and passes it on; every copy ends the same."""
    table = Table(tmp_path / "players", players={s: f"{s.capitalize()} Player <{ADDRESS[s]}>" for s in SEATS},
                  missed=missed)
    relay = Relay(table, tmp_path)
    relay.run(from_seat("greeks", "".join(table.log[1:])))
    late = table.active()
    claimer = next(s for s in SEATS if s != late)
    table.now = chain.deadline(table.game()) + MINUTE
    from pbem.play.bot import play_turn

    claim = table.folders[claimer].claim(table.keys[claimer], table.now, play_turn)
    out = relay.run(from_seat(claimer, armor(claim), "claim"))
    assert len(out) == 1 and out[0]["Subject"] == f"[demo] {claim.label()}"
    for seat in SEATS:
        if seat != claimer:
            table.folders[seat].accept(body(out[0]), "the relay's mail", table.now + MINUTE, play_turn)
    assert len(set(table.files().values()) | {relay.path.read_bytes()}) == 1
    assert table.active() != late


def test_a_refused_entry_is_answered_to_its_sender_alone_and_the_relay_copy_is_unchanged(table, tmp_path):
    relay = Relay(table, tmp_path)
    relay.run(from_seat("greeks", "".join(table.log[1:])))
    before = relay.path.read_bytes()
    mover = table.active()
    signed = table.play(send=False)
    forged = Signed({**signed.entry, "orders": {**signed.entry["orders"], "rondel": {"to": "temple"}}}, signed.sigs)
    out = relay.run(from_seat(mover, armor(forged), "orders"))
    assert len(out) == 1 and to_of(out[0]) == ADDRESS[mover]
    assert out[0]["Subject"] == "refused: orders" and out[0]["In-Reply-To"] is not None
    assert "sshsig/invalid" in body(out[0]) and "Nothing of your mail was passed on" in body(out[0])
    assert relay.path.read_bytes() == before
    # the same from an address no seat has: noted, never answered (no backscatter)
    assert relay.run(mail("Mallory <mallory@elsewhere.example>", "hi", armor(forged))) == []
    read = sorted(relay.ledger().values(), key=lambda m: m["n"])
    assert [m.get("code") for m in read][-2:] == ["sshsig/invalid", "sshsig/invalid"]
    assert relay.path.read_bytes() == before


def test_a_valid_entry_from_any_address_is_passed_on_and_mail_without_blocks_is_left_alone(table, tmp_path):
    """The signatures prove who played, not the sender's address: a turn a player sent from
    another address is passed on; chatter without a block gets no answer."""
    relay = Relay(table, tmp_path)
    relay.run(from_seat("greeks", "".join(table.log[1:])))
    assert relay.run(from_seat("arabs", "Good luck everyone!", "hello")) == []
    signed = table.play(send=False)
    out = relay.run(mail("Phone <someone@mobile.example>", "turn", f"> quoted\n{armor(signed)}"))
    assert len(out) == 1 and "someone@mobile.example" in body(out[0])
    assert relay.outcomes() == ["relayed", "ignored", "relayed"]


def test_two_entries_one_seat_signed_for_one_turn_go_to_every_seat_as_proof(table, tmp_path):
    relay = Relay(table, tmp_path)
    relay.run(from_seat("greeks", "".join(table.log[1:])))
    mover = table.active()
    first = table.play(send=False)
    relay.run(from_seat(mover, armor(first)))
    before = relay.path.read_bytes()
    second = sign({**first.entry, "time": first.entry["time"][:-3] + "01Z"}, first.seat, table.keys[mover])
    out = relay.run(from_seat(mover, armor(second), "again"))
    proof = next(m for m in out if m["Subject"] == "proof: chain/equivocation")
    refusal = next(m for m in out if m["Subject"].startswith("refused"))
    assert to_of(refusal) == ADDRESS[mover]
    assert to_of(proof) == ", ".join(ADDRESS[s] for s in SEATS) and armor(second) in body(proof)
    assert relay.path.read_bytes() == before
    assert len(Folder(relay.path).proofs()) == 1
    other = next(s for s in SEATS if s != mover)  # a player keeps the proof from the mail too
    table.folders[other].accept(armor(first), "m", table.now + MINUTE)
    with pytest.raises(Exception, match="equivocation"):
        table.folders[other].accept(proof.as_bytes().decode(), "the proof mail", table.now + MINUTE)
    assert len(table.folders[other].proofs()) == 1
    again = relay.run(from_seat(other, f"Look at this!\n> {armor(second)}", "Re: proof"))  # a reply quoting it
    assert [to_of(m) for m in again] == [ADDRESS[other]]  # its sender is answered; the proof went out once


def test_a_damaged_block_is_named_to_its_sender(table, tmp_path):
    relay = Relay(table, tmp_path)
    relay.run(from_seat("greeks", "".join(table.log[1:])))
    mover = table.active()
    block = armor(table.play(send=False)).split("\n")
    cut = "\n".join(block[:2] + block[3:])
    out = relay.run(from_seat(mover, cut, "orders"))
    assert len(out) == 1 and out[0]["Subject"] == "skipped: orders" and to_of(out[0]) == ADDRESS[mover]
    assert "did not read" in body(out[0])


def test_a_damaged_relay_copy_leaves_the_mail_for_after_the_mend_and_a_bug_costs_that_mail_alone(table, tmp_path,
                                                                                                 monkeypatch):
    relay = Relay(table, tmp_path)
    relay.run(from_seat("greeks", "".join(table.log[1:])))
    good = relay.path.read_bytes()
    relay.path.write_text("{ damaged")
    signed = table.play(send=False)
    assert relay.run(from_seat(table.active(), armor(signed)), code=3) == []
    assert len(relay.ledger()) == 1  # not noted: read again once the copy is mended
    relay.path.write_bytes(good)
    out = relay.run()
    assert len(out) == 1 and armor(signed) in body(out[0])

    from pbem.service.signed import relay as service_relay

    def broken(*args, **kwargs):
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(service_relay, "relay", broken)
    assert relay.run(from_seat("greeks", armor(signed)), code=1) == []
    assert relay.outcomes()[-1] == "failed"
    monkeypatch.undo()
    assert relay.run() == []  # a mail a bug tripped on is not read again (the GM is told)


def test_a_relay_that_cannot_write_reads_the_mail_again_on_the_next_run(table, tmp_path, monkeypatch):
    """The machine's error is not the player's: nothing goes out, the mail is not noted, and
    the next run passes it on."""
    relay = Relay(table, tmp_path)
    relay.run(from_seat("greeks", "".join(table.log[1:])))
    signed = table.play(send=False)
    def full(game, path, *args, **kwargs):
        raise CannotWrite(str(path), "No space left on device")

    monkeypatch.setattr(store, "save_game", full)  # the disk is full when the relay saves its copy
    assert relay.run(from_seat(table.active(), armor(signed)), code=10) == []
    assert len(relay.ledger()) == 1
    monkeypatch.undo()
    out = relay.run()
    assert len(out) == 1 and armor(signed) in body(out[0])


@pytest.mark.parametrize("held", ["demo.json", "demo.mail.json"])
def test_a_relay_copy_held_by_a_command_or_another_run_waits(table, tmp_path, held):
    """The copy held by a command of the operator's (``accept``), or the relay by another
    mail run: the mail is not noted, and the next run passes it on."""
    relay = Relay(table, tmp_path)
    with store.locked(tmp_path / "relay" / held, must_exist=False):
        assert relay.run(from_seat("greeks", "".join(table.log[1:]))) == []
    assert not (tmp_path / "relay" / "demo.mail.json").exists()  # not noted
    assert len(relay.run()) == 1


def test_a_relay_without_the_proposal_is_the_operators_error_and_its_mail_waits(table, tmp_path):
    relay = Relay(table, tmp_path)
    for name in ("demo.setup.json",):
        (tmp_path / "relay" / name).rename(tmp_path / name)
    result_mails = relay.run(from_seat("greeks", "".join(table.log[1:])), code=1)
    assert result_mails == []
    (tmp_path / "demo.setup.json").rename(tmp_path / "relay" / "demo.setup.json")
    assert len(relay.run()) == 1


def test_mail_receive_hands_a_kept_mail_to_the_relay(table, tmp_path):
    relay = Relay(table, tmp_path)
    relay.run(from_seat("greeks", "".join(table.log[1:])))
    signed = table.play(send=False)
    out = tmp_path / "received"
    now = (table.now + timedelta(minutes=5)).strftime("%Y-%m-%dT%H:%M:%SZ")
    from pbem.cli import app

    result = CliRunner().invoke(app, ["mail", "receive", "--config", str(relay.cfg), "--outbox", str(out), "--now",
                                      now], input=from_seat(table.active(), armor(signed)))
    assert result.exit_code == 0, result.stdout + result.stderr
    assert len(sent(out)) == 1 and armor(signed) in body(sent(out)[0])
    assert not list((tmp_path / "incoming" / "new").iterdir())  # read by every relay: it leaves the folder


def test_mail_receive_keeps_a_mail_for_a_relay_whose_copy_holds_nothing_and_tells_the_server_it_is_taken(table,
                                                                                                           tmp_path):
    """The operator's error is not the mail server's to retry: ``mail receive`` answers 0
    at once (not 75, try again), and the mail waits in ``incoming/`` for a run after the
    copy is mended."""
    relay = Relay(table, tmp_path)
    (tmp_path / "relay" / "demo.setup.json").rename(tmp_path / "away.json")
    now = (table.now + timedelta(minutes=5)).strftime("%Y-%m-%dT%H:%M:%SZ")
    from pbem.cli import app

    result = CliRunner().invoke(app, ["mail", "receive", "--config", str(relay.cfg), "--outbox", str(tmp_path / "o"),
                                      "--now", now, "--wait", "30"], input=from_seat("greeks", "".join(table.log[1:])))
    assert result.exit_code == 0, result.stdout + result.stderr
    assert len(list((tmp_path / "incoming" / "new").iterdir())) == 1
    (tmp_path / "away.json").rename(tmp_path / "relay" / "demo.setup.json")
    assert len(relay.run()) == 1  # mail run reads the kept mail
    assert not list((tmp_path / "incoming" / "new").iterdir())


def test_status_tells_each_relay_beside_the_games(table, tmp_path):
    """The GM's ``status`` (a configuration with relays alone): the relay's game, how far
    its copy is, whose turn, how many mails it read and the last one's fate, its queue; the
    JSON gives the same under ``relays``, with no address."""
    relay = Relay(table, tmp_path)
    relay.run(from_seat("greeks", "".join(table.log[1:]), message_id="<z-first@players.example>"))
    mover = table.active()
    signed = table.play(send=False)
    forged = Signed({**signed.entry, "orders": {**signed.entry["orders"], "rondel": {"to": "temple"}}}, signed.sigs)
    relay.run(from_seat(mover, armor(forged), message_id="<a-last@players.example>"))  # sorts first, came last
    now = (table.now + timedelta(minutes=10)).strftime("%Y-%m-%dT%H:%M:%SZ")
    result = cli_run("status", "--config", relay.cfg, "--now", now)
    assert result.exit_code == 0, result.stdout + result.stderr
    line = result.stdout.splitlines()[-1]
    assert line.startswith("  demo (relay/demo.json): relay, 0 entries since the set-up; ")
    assert f"{mover} to play turn 1" in line and "2 mails read, the last refused (sshsig/invalid)" in line
    assert line.endswith("queue: empty")
    shown = json.loads(cli_run("status", "--config", relay.cfg, "--now", now, "--json").stdout)
    assert shown["games"] == [] and shown["relays"][0]["last"] == {"outcome": "refused", "code": "sshsig/invalid"}
    assert "@" not in json.dumps(shown["relays"])
    relay.path.rename(tmp_path / "away.json")
    line = cli_run("status", "--config", relay.cfg, "--now", now).stdout.splitlines()[-1]
    assert line.startswith("! relay/demo.json: relay: its copy holds no game and no set-up")


def test_a_dry_run_leaves_the_relays_alone_and_says_so(table, tmp_path):
    relay = Relay(table, tmp_path)
    add_to_maildir(relay.box, from_seat("greeks", "".join(table.log[1:])))
    now = (table.now + timedelta(minutes=5)).strftime("%Y-%m-%dT%H:%M:%SZ")
    result = cli_run("mail", "run", "--config", relay.cfg, "--dry-run", "--outbox", tmp_path / "out", "--now", now)
    assert result.exit_code == 0, result.stdout + result.stderr
    assert "1 relay(s) of games without a game master not run: a dry run does not rehearse them" in result.stdout
    assert sent(tmp_path / "out") == [] and not (tmp_path / "relay" / "demo.mail.json").exists()


def test_mail_watch_serves_a_configuration_of_relays_alone(table, tmp_path):
    """A configuration may hold relays alone (docs/without-gm.md): ``mail watch`` serves
    it as ``mail run`` does (both refused it as one with no games)."""
    relay = Relay(table, tmp_path)
    add_to_maildir(relay.box, from_seat("greeks", "".join(table.log[1:])))
    now = (table.now + timedelta(minutes=5)).strftime("%Y-%m-%dT%H:%M:%SZ")
    result = cli_run("mail", "watch", "--config", relay.cfg, "--outbox", tmp_path / "out", "--now", now,
                     "--stop-after", "1")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert len(sent(tmp_path / "out")) == 1 and "1 mail(s) read" in result.stdout


def test_a_configuration_with_games_and_a_relay_on_one_mailbox_serves_each_its_own(table, tmp_path):
    """A GM's game and a relay read one mailbox: the relay's mail (from a seat whose name is
    also a GM game's player, at another address) gets no answer from the game, no stray
    notice to the GM; the game's own mail goes on as before."""
    from mailkit import game_with_players

    game = game_with_players(tmp_path, game_id="gm-game")
    relay = Relay(table, tmp_path)
    game_table = f'gm = "gm@referee.example"\n\n[[game]]\nfile = "{game}"\nsource = "{relay.box}"\nattach = ""\n\n'
    relay.cfg.write_text(relay.cfg.read_text().replace("[[relay]]", game_table + "[[relay]]"))
    relay.run()  # the game's opening mails
    out = relay.run(mail("Persians Player <persians@elsewhere.example>", "set-up", "".join(table.log[1:])))
    assert [m["Subject"] for m in out] == ["[demo] join of greeks and 5 more"]
    assert "relayed 6" in relay.said


@pytest.mark.parametrize("text, words", [
    ("[[relay]]\nsource = \"M\"\n", "relay[0].file is missing"),
    ("[[relay]]\nfile = \"a.json\"\nkey = \"x\"\n", "unknown key(s) key"),
    ("[[relay]]\nfile = \"a.json\"\n[[relay]]\nfile = \"a.json\"\n", "relayed twice"),
    ("relay = 3\n", "a list of tables"),
    ("[[game]]\nfile = \"a.json\"\n[[relay]]\nfile = \"a.json\"\n", "is a [[game]] too"),
])
def test_a_bad_relay_table_is_named(tmp_path, text, words):
    from pbem.errors import UsageError
    from pbem.mail.config import load_config

    (tmp_path / "mail.toml").write_text(text)
    with pytest.raises(UsageError, match=words.replace("[", r"\[").replace("(", r"\(").replace(")", r"\)")):
        load_config(tmp_path / "mail.toml")
