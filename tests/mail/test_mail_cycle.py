"""The mail cycle over local mailboxes (Maildir, mbox, .eml) with an outbox folder:
what is applied, what is answered, what is left alone, and that nothing happens twice."""

from __future__ import annotations

import json

import pytest

from conftest import cli_run
from mailkit import (
    ADDRESSES,
    GM,
    START,
    add_to_maildir,
    body,
    config,
    game_with_players,
    json_orders,
    mail,
    maildir,
    mbox,
    sent,
    to_of,
    to_whom,
)


@pytest.fixture
def table(tmp_path):
    game = game_with_players(tmp_path)
    cfg = config(tmp_path, game)
    return tmp_path, game, cfg


def inbox(game, source, cfg, outbox, now=START):
    return cli_run("inbox", game, source, "--config", cfg, "--outbox", outbox, "--now", now)


def active(game):
    return json.loads(game.read_text())["status"]["active"]


def test_orders_attached_are_applied_answered_and_reported(table):
    folder, game, cfg = table
    nation = active(game)
    box = maildir(folder / "Maildir", mail(ADDRESSES[nation], orders=json_orders(nation, 1, rondel="gold"),
                                           message_id="<first@players.example>"))
    result = inbox(game, box, cfg, folder / "out")
    assert result.exit_code == 0, result.stdout + result.stderr
    data = json.loads(game.read_text())
    assert data["history"][-1]["mail"] == "<first@players.example>"
    assert data["history"][-1]["turn"] == 1
    out = sent(folder / "out")
    receipts = [m for m in out if "accepted" in str(m["Subject"])]
    assert len(receipts) == 1 and to_of(receipts[0]) == ADDRESSES[nation]
    assert receipts[0]["In-Reply-To"] == "<first@players.example>"
    assert "rondel gold" in body(receipts[0]).lower()
    reports = [m for m in out if "after turn 1" in str(m["Subject"])]
    # every player once, and the GM
    assert sorted(to_of(m).split("<")[-1].rstrip(">") for m in reports) == sorted([*ADDRESSES.values(), GM])
    for m in reports:  # the default attachment: the board picture, no PDF
        kinds = sorted(p.get_content_type() for p in m.iter_attachments())
        assert kinds == ["image/png"]
        png = next(p for p in m.iter_attachments() if p.get_content_type() == "image/png").get_content()
        assert png.startswith(b"\x89PNG\r\n\x1a\n")
        assert str(m["X-Antike-Ref-Head"]).strip() == data["history"][-1]["hash"]
    nxt = data["status"]["active"]
    mine = next(m for m in reports if ADDRESSES[nxt] in to_of(m))
    assert "It is your turn" in body(mine)
    others = [m for m in reports if ADDRESSES[nxt] not in to_of(m)]
    assert all("It is your turn" not in body(m) for m in others)
    # the same mailbox again: nothing new is applied or sent
    before = game.read_bytes()
    again = inbox(game, box, cfg, folder / "out2")
    assert again.exit_code == 0
    assert game.read_bytes() == before
    assert sent(folder / "out2") == []
    assert cli_run("verify", game).exit_code == 0


@pytest.mark.parametrize("case", ["wrong-password", "html-only", "two-attachments", "bad-json"])
def test_bad_mail_is_answered_and_never_applied(table, case):
    folder, game, cfg = table
    nation = active(game)
    good = json_orders(nation, 1, rondel="gold")
    raw = {
        "wrong-password": mail(ADDRESSES[nation], orders=json_orders(nation, 1, password="guess", rondel="gold")),
        "html-only": mail(ADDRESSES[nation], html=f"<p>game demo<br>nation {nation}<br>turn 1<br>rondel gold</p>"),
        "two-attachments": _two_attachments(ADDRESSES[nation], good),
        "bad-json": mail(ADDRESSES[nation], body='{"game": "demo", "nation": '),
    }[case]
    before = game.read_bytes()
    result = inbox(game, maildir(folder / "Maildir", raw), cfg, folder / "out")
    assert result.exit_code == 0, result.stderr
    assert game.read_bytes() == before
    out = [m for m in sent(folder / "out") if "set-up" not in str(m["Subject"])]  # not the opening report
    assert len(out) == 1, to_whom(out)
    answer = out[0]
    assert "NOT accepted" in str(answer["Subject"])
    text = body(answer)
    expected = {"wrong-password": "password", "html-only": "plain text",
                "two-attachments": "more than one order file", "bad-json": "JSON"}[case]
    assert expected in text
    assert "nothing in the game has changed" in text


def _two_attachments(sender, orders):
    import email
    from email.policy import default

    msg = email.message_from_bytes(mail(sender, orders=orders), policy=default)
    msg.add_attachment(json.dumps(orders).encode(), maintype="application", subtype="json", filename="again.json")
    return msg.as_bytes()


def test_mail_that_is_not_for_us_is_left_alone(table):
    folder, game, cfg = table
    chat = mail(ADDRESSES["greeks"], subject="dinner?", body="Shall we meet on Friday?")
    bounce = mail("MAILER-DAEMON@mx.example", subject="Undelivered", body="game demo\nnation greeks",
                  headers={"Auto-Submitted": "auto-replied"})
    before = game.read_bytes()
    box = maildir(folder / "Maildir", chat, bounce)
    names = sorted(p.name for p in (box / "new").iterdir())
    result = inbox(game, box, cfg, folder / "out")
    assert result.exit_code == 0
    assert game.read_bytes() == before
    assert [m for m in sent(folder / "out") if "NOT" in str(m["Subject"])] == []
    assert sorted(p.name for p in (box / "new").iterdir()) == names  # the mailbox is untouched


def test_two_mails_for_one_turn_the_second_is_answered(table):
    folder, game, cfg = table
    nation = active(game)
    first = mail(ADDRESSES[nation], orders=json_orders(nation, 1, rondel="gold"))
    second = mail(ADDRESSES[nation], subject="oops, this one", orders=json_orders(nation, 1, rondel="iron"))
    result = inbox(game, maildir(folder / "Maildir", first, second), cfg, folder / "out")
    assert result.exit_code == 0
    data = json.loads(game.read_text())
    assert [e["kind"] for e in data["history"]] == ["new", "turn"]
    assert data["history"][-1]["orders"]["rondel"]["to"] == "gold"
    refused = [m for m in sent(folder / "out") if "NOT accepted" in str(m["Subject"])]
    assert len(refused) == 1 and "turn" in body(refused[0])


def test_a_mail_applied_already_is_never_applied_again(table):
    """The ledger is lost (or the mail arrives in a second mailbox): the history still
    knows the Message-ID."""
    folder, game, cfg = table
    nation = active(game)
    raw = mail(ADDRESSES[nation], orders=json_orders(nation, 1, rondel="gold"), message_id="<once@x>")
    assert inbox(game, maildir(folder / "A", raw), cfg, folder / "out").exit_code == 0
    after = game.read_bytes()
    (folder / "game.mail.json").unlink()
    single = folder / "again.eml"
    single.write_bytes(raw)
    result = inbox(game, single, cfg, folder / "out2")
    assert result.exit_code == 0
    assert game.read_bytes() == after


def test_mbox_and_single_file_sources(table):
    folder, game, cfg = table
    first = active(game)
    box = mbox(folder / "orders.mbox", mail(ADDRESSES[first], orders=json_orders(first, 1, rondel="gold")))
    assert inbox(game, box, cfg, folder / "out").exit_code == 0
    second = active(game)
    assert second != first
    eml = folder / "one.eml"
    eml.write_bytes(mail(ADDRESSES[second], orders=json_orders(second, 2, rondel="gold")))
    assert inbox(game, eml, cfg, folder / "out").exit_code == 0
    assert [e.get("turn") for e in json.loads(game.read_text())["history"]] == [None, 1, 2]


def test_standing_orders_from_any_nation_at_any_time(table):
    folder, game, cfg = table
    idle = next(n for n in ADDRESSES if n != active(game))
    standing = {"game": "demo", "nation": idle, "password": f"pw-{idle}", "standing": {"battle": "never"}}
    result = inbox(game, maildir(folder / "M", mail(ADDRESSES[idle], orders=standing)), cfg, folder / "out")
    assert result.exit_code == 0
    entry = json.loads(game.read_text())["history"][-1]
    assert entry["kind"] == "standing" and entry["nation"] == idle


def test_a_second_run_at_the_same_time_leaves_the_game_alone(table):
    from pbem.mail.ledger import mail_lock

    folder, game, cfg = table
    nation = active(game)
    box = maildir(folder / "M", mail(ADDRESSES[nation], orders=json_orders(nation, 1, rondel="gold")))
    before = game.read_bytes()
    with mail_lock(game):
        result = inbox(game, box, cfg, folder / "out")
    assert result.exit_code == 0
    assert "another mail run" in result.stdout
    assert game.read_bytes() == before
    assert inbox(game, box, cfg, folder / "out").exit_code == 0
    assert game.read_bytes() != before


def test_undelivered_mail_stays_queued_and_goes_out_once(table, monkeypatch):
    """The SMTP server is down: the turn is applied, the mails wait in the spool and are
    delivered by the next run, each once."""
    from pbem.mail import transport

    folder, game, cfg = table
    nation = active(game)
    box = maildir(folder / "M", mail(ADDRESSES[nation], orders=json_orders(nation, 1, rondel="gold")))
    real = transport.Transport._send
    calls = {"n": 0}

    def flaky(self, path, data):
        calls["n"] += 1
        if calls["n"] == 3:
            raise transport.MailServerError("SMTP down")
        return real(self, path, data)

    monkeypatch.setattr(transport.Transport, "_send", flaky)
    result = inbox(game, box, cfg, folder / "out")
    assert result.exit_code == 7, result.stdout
    assert len(sent(folder / "out")) == 2
    assert json.loads(game.read_text())["history"][-1]["kind"] == "turn"
    result = inbox(game, box, cfg, folder / "out")
    assert result.exit_code == 0
    out = sent(folder / "out")
    assert len(out) == 6  # receipt + 4 players + GM
    assert len({m["Message-ID"] for m in out}) == 6


def test_deadline_reminds_then_plays_the_default_turn(tmp_path):
    """deadline 48h, reminder 12h before, missed = default: the clock starts when the
    cycle first sees the turn; the reminder goes out once; after the deadline the default
    turn is played, logged with the deadline, and reported."""
    game = game_with_players(tmp_path)
    cfg = config(tmp_path, game, defaults='deadline = "48h"\nremind = "12h"\nmissed = "default"\nattach = ""')
    empty = maildir(tmp_path / "M")

    def cycle(now, out):
        return cli_run("mail", "run", "--config", cfg, "--source", empty, "--outbox", tmp_path / out, "--now", now)

    late = active(game)
    assert cycle("2026-11-23T10:00:00Z", "o1").exit_code == 0  # the clock starts
    assert cycle("2026-11-24T21:59:00Z", "o2").exit_code == 0  # too early for the reminder
    assert sent(tmp_path / "o2") == []
    assert cycle("2026-11-24T22:00:00Z", "o3").exit_code == 0
    reminders = sent(tmp_path / "o3")
    assert [to_of(m).split("<")[-1].rstrip(">") for m in reminders] == [ADDRESSES[late]]
    assert "reminder" in str(reminders[0]["Subject"])
    assert "Wed 25 Nov 2026, 10:00 UTC, in 12 h" in " ".join(body(reminders[0]).split())
    assert cycle("2026-11-24T23:00:00Z", "o4").exit_code == 0
    assert sent(tmp_path / "o4") == []  # once
    before = game.read_bytes()
    assert cycle("2026-11-25T09:59:59Z", "o5").exit_code == 0
    assert game.read_bytes() == before
    result = cycle("2026-11-25T10:00:00Z", "o6")
    assert result.exit_code == 0, result.stdout
    entry = json.loads(game.read_text())["history"][-1]
    assert entry["kind"] == "default-turn" and entry["nation"] == late
    assert entry["deadline"] == "2026-11-25T10:00:00Z"
    mails = sent(tmp_path / "o6")
    reports = [m for m in mails if "after turn 1" in str(m["Subject"])]
    assert len(reports) == 5 and len(mails) == 6  # and the late player's own notice
    assert all("deadline Wed 25 Nov 2026, 10:00 UTC missed" in " ".join(body(m).split()) for m in reports)
    assert cli_run("verify", game).exit_code == 0
    # the next player's clock starts now, not at the old deadline
    assert cycle("2026-11-25T10:05:00Z", "o7").exit_code == 0
    assert json.loads(game.read_text())["history"][-1] == entry


@pytest.mark.parametrize("policy", ["wait", "remind"])
def test_deadline_that_waits_tells_the_player_and_the_gm(tmp_path, policy):
    game = game_with_players(tmp_path)
    cfg = config(tmp_path, game, defaults=f'deadline = "1h"\nmissed = "{policy}"\nattach = ""')
    empty = maildir(tmp_path / "M")
    run = lambda now, out: cli_run("mail", "run", "--config", cfg, "--source", empty,  # noqa: E731
                                   "--outbox", tmp_path / out, "--now", now)
    assert run("2026-11-23T10:00:00Z", "a").exit_code == 0
    before = game.read_bytes()
    assert run("2026-11-23T11:00:00Z", "b").exit_code == 0
    assert game.read_bytes() == before
    notices = sent(tmp_path / "b")
    assert sorted(to_of(m).split("<")[-1].rstrip(">") for m in notices) == sorted([ADDRESSES[active(game)], GM])
    assert run("2026-11-23T12:00:00Z", "c").exit_code == 0
    assert sent(tmp_path / "c") == []


def test_remind_command_mails_the_player_on_turn(table):
    folder, game, cfg = table
    result = cli_run("remind", game, "--config", cfg, "--outbox", folder / "out", "--now", START)
    assert result.exit_code == 0, result.stdout + result.stderr
    reminders = [m for m in sent(folder / "out") if "reminder" in str(m["Subject"])]
    assert len(reminders) == 1 and ADDRESSES[active(game)] in to_of(reminders[0])
    assert "What you can do" in body(reminders[0])


def test_gm_replaces_a_player(table):
    folder, game, cfg = table
    nation = active(game)
    result = cli_run("player", game, nation, "--player", "Nell New <nell@new.example>", "--reason", "Ann left",
                     "--config", cfg, "--outbox", folder / "out", "--now", START)
    assert result.exit_code == 0, result.stdout + result.stderr
    secrets = json.loads((folder / "game.secrets.json").read_text())
    welcome = [m for m in sent(folder / "out") if "you play" in str(m["Subject"])]
    assert len(welcome) == 1 and "nell@new.example" in to_of(welcome[0])
    assert secrets[nation] in body(welcome[0])
    data = json.loads(game.read_text())
    assert data["nations"][nation]["email"] == "nell@new.example"
    assert data["history"][-1]["kind"] == "gm-edit" and data["history"][-1]["reason"] == "Ann left"
    assert cli_run("verify", game).exit_code == 0
    # the old address and the old password no longer work; the new ones do
    old = mail(ADDRESSES[nation], orders=json_orders(nation, 1, rondel="gold"))
    stale_pw = mail("nell@new.example", orders=json_orders(nation, 1, rondel="gold"))
    good = mail("nell@new.example", orders=json_orders(nation, 1, password=secrets[nation], rondel="gold"))
    before = game.read_bytes()
    assert inbox(game, maildir(folder / "M", old, stale_pw), cfg, folder / "o2").exit_code == 0
    assert game.read_bytes() == before
    refused = [m for m in sent(folder / "o2") if "NOT accepted" in str(m["Subject"])]
    assert [to_of(m) for m in refused] == ["nell@new.example"]  # the old address is a stranger now: no answer
    add_to_maildir(folder / "M", good)
    assert inbox(game, folder / "M", cfg, folder / "o3").exit_code == 0
    assert json.loads(game.read_text())["history"][-1]["kind"] == "turn"
    assert cli_run("verify", game).exit_code == 0


class Crash(BaseException):
    """Stands for the process dying (not an error the cycle could catch)."""


@pytest.mark.slow
@pytest.mark.parametrize("where", ["after-apply", "after-spool", "mid-delivery"])
def test_a_crash_anywhere_loses_nothing_and_repeats_nothing(table, monkeypatch, where):
    from pbem.mail import cycle, ledger, reporter, transport
    from pbem.service.clock import parse_time

    folder, game, cfg = table
    assert inbox(game, maildir(folder / "M"), cfg, folder / "out").exit_code == 0  # opening report
    nation = active(game)
    add_to_maildir(folder / "M", mail(ADDRESSES[nation], orders=json_orders(nation, 1, rondel="gold")))
    outbox = folder / "out2"
    armed = {"on": True}

    def once(original):
        def patched(*args, **kwargs):
            if armed["on"]:
                armed["on"] = False
                if where == "mid-delivery":
                    original(*args, **kwargs)
                raise Crash(where)
            return original(*args, **kwargs)
        return patched

    if where == "after-apply":
        monkeypatch.setattr(ledger.Ledger, "note", once(ledger.Ledger.note))
    elif where == "after-spool":
        monkeypatch.setattr(reporter.Reporter, "reports", once(reporter.Reporter.reports))
    else:
        monkeypatch.setattr(transport.Transport, "_send", once(transport.Transport._send))
    from pbem.mail.config import load_config
    from pbem.mail.transport import Transport

    config = load_config(cfg)
    with pytest.raises(Crash):
        cycle.Cycle(config, parse_time(START), Transport(outbox=outbox), lambda _: None).run(
            [config.game(game)], source=str(folder / "M"), deadlines=False)
    (folder / "game.mail.json.lock").unlink(missing_ok=True)  # a dead run's lock file stays; flock is free
    assert inbox(game, folder / "M", cfg, outbox).exit_code == 0
    data = json.loads(game.read_text())
    assert [e["kind"] for e in data["history"]] == ["new", "turn"]
    out = sent(outbox)
    receipts = [m for m in out if "accepted" in str(m["Subject"])]
    reports = [m for m in out if "after turn 1" in str(m["Subject"])]
    assert len(receipts) == 1
    assert sorted(to_of(m) for m in reports) == sorted(set(to_of(m) for m in reports))
    assert len(reports) == 5
    assert inbox(game, folder / "M", cfg, folder / "out3").exit_code == 0
    assert sent(folder / "out3") == []


def test_mail_is_routed_to_the_game_it_names(tmp_path):
    """Two games read one mailbox: each mail goes to the game it names; a player who names
    a game that is not run here is told; a stranger's mail for an unknown game is left alone."""
    one = game_with_players(tmp_path, "one.json", "one")
    two = game_with_players(tmp_path, "two.json", "two")
    cfg = config(tmp_path, one, two, defaults='attach = ""')
    n1, n2 = active(one), active(two)
    box = maildir(tmp_path / "M",
                  mail(ADDRESSES[n1], orders=json_orders(n1, 1, game_id="one", rondel="gold")),
                  mail(ADDRESSES[n2], orders=json_orders(n2, 1, game_id="two", rondel="iron")),
                  mail(ADDRESSES["greeks"], body="game three\nnation greeks\nturn 1\npassword pw-greeks\nrondel gold"),
                  mail("someone@else.example", body="game four\nnation greeks\nturn 1\nrondel gold"))
    result = cli_run("mail", "run", "--config", cfg, "--source", box, "--outbox", tmp_path / "out", "--now", START)
    assert result.exit_code == 0, result.stdout
    assert json.loads(one.read_text())["history"][-1]["orders"]["rondel"]["to"] == "gold"
    assert json.loads(two.read_text())["history"][-1]["orders"]["rondel"]["to"] == "iron"
    refused = [m for m in sent(tmp_path / "out") if "NOT accepted" in str(m["Subject"])]
    assert len(refused) == 1 and ADDRESSES["greeks"] in to_of(refused[0])
    assert "'three'" in body(refused[0])
    assert all("someone@else.example" not in to_of(m) for m in sent(tmp_path / "out"))


def test_a_report_tells_everything_since_the_readers_last_turn(table):
    folder, game, cfg = table
    assert inbox(game, maildir(folder / "M"), cfg, folder / "o0").exit_code == 0
    order = json.loads(game.read_text())["seats"]
    first = active(game)
    for turn in range(1, 5):
        nation = active(game)
        add_to_maildir(folder / "M", mail(ADDRESSES[nation],
                                          orders=json_orders(nation, turn, rondel="gold" if turn % 2 else "iron")))
        assert inbox(game, folder / "M", cfg, folder / f"o{turn}").exit_code == 0
    # after turn 4 the first player (who played turn 1) reads turns 2, 3 and 4
    mine = next(m for m in sent(folder / "o4") if ADDRESSES[first] in to_of(m) and "after turn 4" in str(m["Subject"]))
    text = body(mine)
    assert "Turn 1:" not in text and all(f"Turn {t}:" in text for t in (2, 3, 4))
    assert len(order) == 4


def test_text_orders_in_the_body_answered_with_line_and_column(table):
    folder, game, cfg = table
    nation = active(game)
    text = f"game demo\nnation {nation}\nturn 1\npassword pw-{nation}\nrondel maneuver\nmove 2 legions athen atehns\n"
    before = game.read_bytes()
    assert inbox(game, maildir(folder / "M", mail(ADDRESSES[nation], body=text)), cfg, folder / "out").exit_code == 0
    assert game.read_bytes() == before
    (answer,) = [m for m in sent(folder / "out") if "NOT accepted" in str(m["Subject"])]
    assert "line 6, column 22" in body(answer) and "did you mean" in body(answer)


def test_check_and_process_read_text_orders_and_echo_them_as_text(tmp_path):
    from conftest import new_game_file

    game = new_game_file(tmp_path, "--id", "demo")
    nation = active(game)
    orders = tmp_path / "orders.txt"
    orders.write_text(f"Game: demo\nNation: {nation[:5].upper()}\nTurn 1\nPassword: pw-{nation}\nRondel gold\n",
                      encoding="utf-8")
    checked = cli_run("check", game, orders)
    assert checked.exit_code == 0, checked.stderr
    assert f"nation {nation}\nturn 1\nrondel gold" in checked.stdout
    as_json = cli_run("check", game, orders, "--json")
    assert json.loads(as_json.stdout)["echo"]["rondel"]["to"] == "gold"
    done = cli_run("process", game, orders)
    assert done.exit_code == 0 and json.loads(game.read_text())["history"][-1]["turn"] == 1


def test_hostile_mails_are_answered_or_left_alone_never_a_crash(table):
    import email
    from email.policy import default

    folder, game, cfg = table
    nation = active(game)
    deep = email.message_from_bytes(mail(ADDRESSES[nation], body="x"), policy=default)
    deep.add_attachment(("[" * 100000 + "]" * 100000).encode(), maintype="application", subtype="json",
                        filename="orders.json")
    cases = {
        "deep": (deep.as_bytes(), 1),
        "garbage": (b"\x00\xff\xfe garbage \r\n\r\n\x80\x81", 0),
        "no sender": (mail("", body=f"game demo\nnation {nation}\nturn 1\nrondel gold"), 0),
        "bad charset": (f"From: {ADDRESSES[nation]}\r\nMessage-ID: <cs@x>\r\nContent-Type: text/plain; "
                        "charset=klingon\r\n\r\ngame demo\r\nnation x\r\nturn 1\r\n".encode(), 1),
    }
    before = game.read_bytes()
    for name, (raw, answers) in cases.items():
        result = inbox(game, maildir(folder / name, raw), cfg, folder / f"out-{name}")
        assert result.exit_code == 0, (name, result.stderr)
        assert game.read_bytes() == before, name
        refused = [m for m in sent(folder / f"out-{name}") if "NOT accepted" in str(m["Subject"])]
        assert len(refused) == answers, name


def test_a_mail_that_trips_a_bug_is_noted_and_does_not_block_the_others(table, monkeypatch):
    from pbem.mail import router

    folder, game, cfg = table
    nation = active(game)
    poison = mail(ADDRESSES[nation], subject="poison", body="game demo\nnation x\nturn 1", message_id="<poison@x>")
    good = mail(ADDRESSES[nation], orders=json_orders(nation, 1, rondel="gold"))
    real = router.find_orders

    def buggy(incoming):
        if incoming.message_id == "<poison@x>":
            raise KeyError("a bug")
        return real(incoming)

    monkeypatch.setattr(router, "find_orders", buggy)
    result = inbox(game, maildir(folder / "M", poison, good), cfg, folder / "out")
    assert result.exit_code == 1 and "internal error" in result.stderr and "<poison@x>" in result.stderr
    assert json.loads(game.read_text())["history"][-1]["kind"] == "turn"  # the good mail went through
    assert inbox(game, folder / "M", cfg, folder / "out2").exit_code == 0  # noted: not tried again


@pytest.mark.parametrize("attached, copy", [
    (b'{"copy": {"of": "romans"}, "history": []}', True),
    (b'{"copy": {}, "history": ' + b"[" * 100_000 + b"]" * 100_000 + b"}", False),  # nested too deep: no copy
    (b'{"copy": "no", "history": []}', False),
    (b'\xff"copy" "history"', False),
])
def test_an_attachment_that_looks_like_a_players_copy_never_breaks_the_reader(attached, copy):
    """A report mail may carry a player's copy of the game, and a reply may bring it back:
    the reader passes over a real copy, and any other attachment, however odd, is read as
    orders (for the schema to judge) or refused with one clear reason (found by feeding the copy check bad input: a
    deeply nested one was a RecursionError)."""
    from email import message_from_bytes, policy

    from pbem.mail import router
    from pbem.mail.inbox import read_message
    from pbem.service.copies import is_player_copy

    assert is_player_copy(attached) is copy
    msg = message_from_bytes(mail(ADDRESSES["greeks"], body="see the attachment"), policy=policy.default)
    msg.add_attachment(attached, maintype="application", subtype="json", filename="game.greeks.json")
    found = router.find_orders(read_message(msg.as_bytes()))
    if copy:  # passed over: the body holds no orders, so the mail is not for the referee
        assert found is None
    else:  # read as orders: taken for the schema to judge, or refused with its reason
        assert found is not None and (found.given is not None or found.problem)


def test_an_order_mail_is_read_once_and_its_game_loaded_once(table, monkeypatch):
    """The mail path parses and loads once: the body of an order mail is stripped of
    quotes and signature once (for commands, orders, its game line and the reader alike),
    read as orders once (in the transaction that applies them, with the sender check), and
    the game is loaded once for the run and the change."""
    from mailkit import PASSWORDS
    from pbem.service import store
    from pbem.service.language import mailtext, textorders

    folder, game, cfg = table
    counts = {"read": 0, "load": 0, "strip": 0}
    read, load, strip = textorders.read_text_orders, store.load_game, mailtext.strip_mail

    def counting_strip(*args, **kwargs):
        counts["strip"] += 1
        return strip(*args, **kwargs)

    def counting_read(*args, **kwargs):
        counts["read"] += 1
        return read(*args, **kwargs)

    def counting_load(*args, **kwargs):
        counts["load"] += 1
        return load(*args, **kwargs)

    monkeypatch.setattr(textorders, "read_text_orders", counting_read)
    monkeypatch.setattr(store, "load_game", counting_load)
    monkeypatch.setattr(mailtext, "strip_mail", counting_strip)
    nation = active(game)
    text = f"game demo\nnation {nation}\nturn 1\npassword {PASSWORDS[nation]}\nrondel gold\n"
    box = maildir(folder / "Maildir", mail(ADDRESSES[nation], body=text))
    assert inbox(game, box, cfg, folder / "out").exit_code == 0
    assert json.loads(game.read_text())["history"][-1]["turn"] == 1
    assert counts == {"read": 1, "load": 1, "strip": 1}
