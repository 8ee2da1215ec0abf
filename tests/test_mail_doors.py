"""The doors the mail commands, press and the GM's clock opened, locked (issue 40, items 1,
2, 3, 4 and 7): a mail runs a few commands, each kind once, and its answer and its work are
bounded; every number is read by one strict reader with a range; press needs the nation's
password; an absence renewed counts every day away; one change of identity a mail and a
few a day, the address code only at the new address (docs/mail.md, "Commands by mail",
"Press", "The GM's clock")."""

from __future__ import annotations

import json

import pytest
from mailkit import ADDRESSES, add_to_maildir, body, config, game_with_players, mail, maildir, sent

from conftest import cli_run

T0 = "2026-11-23T10:00:00Z"
FORGED = f"Greeks Player <{ADDRESSES['greeks']}>"
"""What a stranger writes in From to speak for the Greeks: the registered address."""


class Desk:
    """A game of four with a 48 h deadline, one observer, its mailbox and a run at a time."""

    def __init__(self, folder, extra: str = ""):
        self.folder = folder
        self.game = game_with_players(folder)
        self.cfg = config(folder, self.game, defaults='deadline = "48h"\nattach = ""\n'
                                                      'observers = ["Olga <olga@watch.example>"]\n' + extra)
        self.box = maildir(folder / "M")
        self.minute = 0
        self.last = None
        self.run()

    def now(self) -> str:
        from datetime import datetime, timedelta

        return (datetime(2026, 11, 23, 10) + timedelta(minutes=self.minute)).strftime("%Y-%m-%dT%H:%M:%SZ")

    def run(self, *mails, code: int = 0, minutes: int = 5):
        add_to_maildir(self.box, *mails)
        self.minute += minutes
        out = self.folder / f"o{self.minute}"
        self.last = cli_run("mail", "run", "--config", self.cfg, "--source", self.box, "--outbox", out,
                            "--now", self.now())
        assert self.last.exit_code == code, self.last.stdout + self.last.stderr
        return sent(out), sorted(out.glob("*.eml")) if out.is_dir() else []

    def ledger(self) -> dict:
        return json.loads((self.folder / "game.mail.json").read_text())

    def clock(self) -> dict:
        return json.loads((self.folder / "game.clock.json").read_text())

    def history(self) -> list:
        return json.loads(self.game.read_text())["history"]


@pytest.fixture
def desk(tmp_path):
    return Desk(tmp_path)


def words(message) -> str:
    return " ".join(body(message).split())


def to(messages, address):
    return [m for m in messages if str(m["To"]).split("<")[-1].rstrip(">") == address]


# -- 1. a mail is bounded, whatever it holds ------------------------------------------------

def test_the_parser_runs_a_few_commands_each_kind_once():
    from pbem.mail.commands import MAX_COMMANDS, read_commands
    from pbem.mail.router import order_line_words

    words_ = order_line_words()
    flood = read_commands("HISTORY 50\n" * 45_000, words_)  # the probe's 495 kB
    assert [c.word for c in flood.commands] == ["history"] and len(flood.not_run) == 44_999
    resend = read_commands("RESEND pdf png svg\n" * 1_000, words_)
    assert len(resend.commands) == 1 and len(resend.not_run) == 999
    identity = read_commands("password pw-greeks\n" + "ADDRESS eve@x.example\nPASSWORD\n" * 500, words_)
    assert [c.word for c in identity.commands] == ["address"] and len(identity.not_run) == 999
    many = read_commands("HELP\nSTATUS\nOPTIONS\nHISTORY\nRESEND\nBACK\nHELP\n", words_)
    assert [c.word for c in many.commands] == ["help", "status", "options", "history", "resend"][:MAX_COMMANDS]
    assert [line for _, line in many.not_run] == ["BACK", "HELP"]


def test_a_flood_of_history_lines_gets_one_history_and_an_answer_under_the_cap(desk):
    from pbem.mail.commands import MAX_ANSWER

    out, files = desk.run(mail(FORGED, subject="h", body="HISTORY 50\n" * 45_000))
    (answer,) = to(out, ADDRESSES["greeks"])
    assert len(out) == 1 and max(f.stat().st_size for f in files) <= MAX_ANSWER
    text = words(answer)
    assert text.count("#0 The game is set up") == 1
    assert "44999 more lines were not run" in text.replace(",", "")
    assert "a mail runs at most" in text


def test_a_flood_of_lines_that_are_no_command_gets_a_short_refusal(desk):
    out, files = desk.run(mail(FORGED, subject="x", body="STATUS\n" + "HISTROY 50\n" * 45_000 + "HELP\n"))
    (answer,) = to(out, ADDRESSES["greeks"])
    text = words(answer)
    assert "Nothing was done" in text and text.count("did you mean HISTORY?") == 12
    assert "and 44,988 more lines that are no command" in text and files[0].stat().st_size < 10_000


def test_a_flood_of_resend_lines_renders_once(desk):
    out, files = desk.run(mail(FORGED, subject="r", body="RESEND txt md bbcode\n" * 1_000))
    (answer,) = to(out, ADDRESSES["greeks"])
    assert sorted(p.get_filename() for p in answer.iter_attachments()) == [
        "demo-turn-000.bbcode", "demo-turn-000.md", "demo-turn-000.txt"]
    assert "999 more lines were not run" in words(answer)


@pytest.mark.slow
def test_the_probes_resend_flood_at_full_size(desk):
    import time

    from pbem.mail.commands import MAX_ANSWER

    start = time.perf_counter()
    out, files = desk.run(mail(FORGED, subject="r", body="RESEND pdf png svg\n" * 1_000))
    assert time.perf_counter() - start < 30  # 998 s before
    (answer,) = to(out, ADDRESSES["greeks"])
    assert len(list(answer.iter_attachments())) == 3 and files[0].stat().st_size <= MAX_ANSWER


def play(desk, turns: int) -> None:
    for _ in range(turns):
        history = desk.history()
        nation = json.loads(desk.game.read_text())["status"]["active"]
        turn = json.loads(desk.game.read_text())["status"]["turn"]
        desk.run(mail(ADDRESSES[nation], body=f"game demo\nnation {nation}\nturn {turn}\npassword pw-{nation}\n"
                                              "rondel gold\n"))
        assert len(desk.history()) == len(history) + 1


def test_resend_of_several_turns_attaches_each_turn_within_the_file_cap(desk):
    from pbem.mail.commands import MAX_FILES

    play(desk, 2)
    out, _ = desk.run(mail(ADDRESSES["arabs"], body="RESEND txt 1 2\n"))
    (answer,) = to(out, ADDRESSES["arabs"])
    assert [p.get_filename() for p in answer.iter_attachments()] == ["demo-turn-001.txt", "demo-turn-002.txt"]
    assert "Attached: turns 1, 2, as txt." in words(answer)
    out, _ = desk.run(mail(ADDRESSES["arabs"], body="RESEND txt md bbcode 0 1 2\n"))
    (answer,) = to(out, ADDRESSES["arabs"])
    names = [p.get_filename() for p in answer.iter_attachments()]
    assert len(names) == MAX_FILES == 6 and names[:3] == ["demo-turn-000.txt", "demo-turn-000.md",
                                                         "demo-turn-000.bbcode"]
    assert "Not attached (at most 6 files a mail): turn 2 as txt, md, bbcode" in words(answer)
    refused, _ = desk.run(mail(ADDRESSES["arabs"], body="RESEND txt 1 7\n"))
    assert "turn 7 has not been played" in words(refused[0]) and not list(refused[0].iter_attachments())


def test_an_answer_over_the_cap_leaves_the_files_out(desk, monkeypatch):
    from pbem.mail import commands

    monkeypatch.setattr(commands, "MAX_ANSWER", 40_000)
    out, files = desk.run(mail(ADDRESSES["arabs"], body="RESEND svg txt\n"))
    (answer,) = to(out, ADDRESSES["arabs"])
    assert [p.get_filename() for p in answer.iter_attachments()] == ["demo-turn-000.txt"]
    assert "Not attached (the answer may be at most 40,000 bytes): demo-turn-000.svg" in words(answer)
    assert files[0].stat().st_size <= 40_000


# -- 2. numbers are numbers ------------------------------------------------------------------

NOT_NUMBERS = [("HISTORY ²", "HISTORY takes a number of entries from 1 to 50, not '²'"),
               ("RESEND txt ¹", "RESEND takes txt, png, pdf"),
               ("HISTORY " + "9" * 5000, "HISTORY takes a number of entries from 1 to 50"),
               ("RESEND " + "7" * 5000, "(5000 characters)")]


def test_a_number_that_is_no_number_is_refused_not_a_crash(desk):
    out, _ = desk.run(*[mail(FORGED, subject="n", body=line + "\n") for line, _ in NOT_NUMBERS])
    answers = to(out, ADDRESSES["greeks"])
    assert len(answers) == len(NOT_NUMBERS)
    for line, told in NOT_NUMBERS:
        (answer,) = [m for m in answers if line[:20] in str(m["Subject"])]
        assert told in words(answer) and len(body(answer)) < 4000


def test_the_strict_reader():
    from pbem.errors import UsageError
    from pbem.service import numbers

    assert numbers.whole("42", "x", 1, 50) == 42 and numbers.whole(7, "x", 1, 50) == 7
    for bad in ("²", "٣", "4 2", "-1", "+3", "", "0x10", "9" * 5000, True, 51, 0, "1e3", "4.0"):
        with pytest.raises(UsageError):
            numbers.whole(bad, "x", 1, 50)
    with pytest.raises(UsageError) as caught:
        numbers.whole("9" * 5000, "HISTORY", 1, 50)
    assert len(str(caught.value)) < 200
    assert str(numbers.day("2026-12-14", "--until")) == "2026-12-14"
    for bad in ("9999-12-31", "2026-12-32", "٢٠٢٦-12-14", "2026-1-5", "tomorrow"):
        with pytest.raises(UsageError):
            numbers.day(bad, "--until")
    assert numbers.duration("48h", "deadline").total_seconds() == 48 * 3600
    for bad in ("99999999d", "0h", "²h", "9" * 5000 + "h", "400d", -5, "48 hours"):
        with pytest.raises(UsageError):
            numbers.duration(bad, "deadline")
    for bad in ("9999-12-31T00:00:00Z", "1066-10-14T09:00:00Z", "2026-11-23T25:00:00Z"):
        with pytest.raises(UsageError):
            numbers.moment(bad, "--set")


CLOCK = [(["absent", "GAME", "greeks", "--until", "9999-12-31"], "--until"),
         (["absent", "GAME", "greeks", "--until", "2028-06-01"], "more than a year ahead"),
         (["absent", "GAME", "greeks", "--from", "²026-12-01", "--until", "2026-12-02"], "--from"),
         (["deadline", "GAME", "--extend", "99999999d"], "--extend"),
         (["deadline", "GAME", "--extend", "365d"], "more than a year ahead"),
         (["deadline", "GAME", "--set", "9999-12-31T00:00:00Z"], "--set"),
         (["pause", "GAME", "--now", "9999-12-31T23:00:00Z"], "--now")]


def test_the_gms_clock_commands_take_sane_numbers_only(desk):
    ledger = (desk.folder / "game.mail.json").read_bytes()
    for args, told in CLOCK:
        args = [desk.game if a == "GAME" else a for a in args]
        done = cli_run(*args, "--now", "2026-11-23T12:00:00Z") if "--now" not in args else cli_run(*args)
        assert done.exit_code == 2, (args, done.stdout + done.stderr)
        assert told in done.stderr, (args, done.stderr)
        assert (desk.folder / "game.mail.json").read_bytes() == ledger


def test_a_far_deadline_an_earlier_release_wrote_still_resumes(desk):
    path = desk.folder / "game.clock.json"
    clock = desk.clock()
    clock["current"]["due"] = "9999-12-31T23:30:00Z"
    clock["current"]["zone"] = "Europe/Berlin"
    path.write_text(json.dumps(clock))
    assert cli_run("pause", desk.game, "--now", "2026-11-24T10:00:00Z").exit_code == 0
    done = cli_run("resume", desk.game, "--now", "2026-11-25T10:00:00Z")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert cli_run("status", "--config", desk.cfg, "--now", "2026-11-25T10:00:00Z").exit_code == 0


@pytest.mark.parametrize("key, value", [("deadline", '"' + "9" * 5000 + 'h"'), ("deadline", '"99999999d"'),
                                        ("remind", '"²h"'), ("absence_days", '"٣"'),
                                        ("absence_days", "9" * 5000)])
def test_a_configurations_numbers_are_read_strictly(tmp_path, key, value):
    game = game_with_players(tmp_path)
    cfg = config(tmp_path, game, defaults=f"{key} = {value}\n")
    done = cli_run("mail", "run", "--config", cfg, "--outbox", tmp_path / "o", "--now", T0)
    assert done.exit_code in (2, 3), done.stdout + done.stderr
    assert key in done.stderr or "TOML" in done.stderr


@pytest.mark.parametrize("section", ['[smtp]\nhost = "h"\nport = "²"\n', '[smtp]\nhost = "h"\nport = 99999\n',
                                     '[smtp]\nhost = "h"\ntimeout = "x"\n', '[mail]\nmax_message = "' + "9" * 5000
                                     + 'MB"\n', '[mail]\nmax_parts = "٣"\n'])
def test_a_configurations_server_numbers_are_read_strictly(tmp_path, section):
    game = game_with_players(tmp_path)
    path = config(tmp_path, game)
    text = path.read_text()
    head, _, rest = section.partition("\n")
    path.write_text(text.replace("[mail]\n", "[mail]\n" + rest) if head == "[mail]" else section + "\n" + text)
    done = cli_run("mail", "run", "--config", path, "--outbox", tmp_path / "o", "--now", T0)
    assert done.exit_code == 2, done.stdout + done.stderr


# -- 3. press proves its sender ---------------------------------------------------------------

def test_press_with_a_forged_from_is_not_passed_on(desk):
    out, _ = desk.run(mail(FORGED, subject="psst", body="PRESS TO all\nThe Greeks surrender. Sparta is yours.\n"))
    assert [str(m["To"]) for m in out] == [f"Greeks Player <{ADDRESSES['greeks']}>"]
    assert "PRESS needs your password" in words(out[0])
    assert not (desk.folder / "game.press.jsonl").exists()


def test_press_with_the_password_is_passed_on_and_the_password_is_nowhere(desk):
    out, files = desk.run(mail(ADDRESSES["arabs"], body="Hi,\npassword pw-arabs\nPRESS TO all\n"
                                                         "Move your legions out of Sparta, Greeks!\nCem\n"))
    press = [m for m in out if "press from the Arabs" in str(m["Subject"])]
    assert len(press) == 4 and all("Move your legions out of Sparta" in body(m) for m in press)
    late, files2 = desk.run(mail(ADDRESSES["arabs"], body="PRESS TO persians\nA word, Ann.\npassword pw-arabs\n"))
    (private,) = [m for m in late if "press from the Arabs" in str(m["Subject"])]
    assert body(private).count("A word, Ann.") == 1
    seen = [f.read_bytes() for f in [*files, *files2]] + [(desk.folder / "game.press.jsonl").read_bytes(),
                                                          (desk.folder / "game.mail.json").read_bytes(),
                                                          desk.last.stdout.encode(), desk.last.stderr.encode()]
    assert not any(b"pw-arabs" in data for data in seen)  # the web page: test_mail_commands.py


def test_press_that_holds_the_password_is_not_passed_on(desk):
    out, _ = desk.run(mail(ADDRESSES["arabs"], body="password pw-arabs\nPRESS TO all\nMy password is pw-arabs\n"))
    assert [str(m["To"]) for m in out] == [f"Arabs Player <{ADDRESSES['arabs']}>"]
    assert "holds your password" in words(out[0]) and "pw-arabs" not in body(out[0])


# -- 4. absences cannot be renewed past the cap -----------------------------------------------

def test_renewing_an_absence_counts_every_day_away(desk):
    def absent(day: int, until: str, *extra):
        return cli_run("absent", desk.game, "greeks", "--until", until, "--config", desk.cfg, *extra,
                       "--now", f"2026-12-{day:02d}T09:00:00Z")

    assert absent(1, "2026-12-21").exit_code == 0  # 21 days, the cap
    for day in range(2, 9):  # the probe: eight overlapping 21-day absences, each renewing the last
        renewed = absent(day, f"2026-12-{day + 20:02d}")
        assert renewed.exit_code == 2 and f"{20 + day} days" in renewed.stderr, renewed.stderr
    assert [(a["from"], a["until"]) for a in desk.clock()["absences"]] == [("2026-12-01", "2026-12-21")]
    assert absent(1, "2026-12-10").exit_code == 0  # a plan made shorter the same day: replaced
    assert [(a["from"], a["until"]) for a in desk.clock()["absences"]] == [("2026-12-01", "2026-12-10")]
    assert absent(5, "2026-12-20").exit_code == 0  # days 1-4 were away: 4 + 16 = 20 days
    assert [(a["from"], a["until"]) for a in desk.clock()["absences"]] == [("2026-12-01", "2026-12-04"),
                                                                           ("2026-12-05", "2026-12-20")]
    over = absent(6, "2027-01-05", "--over-cap", "--reason", "hospital")
    assert over.exit_code == 0, over.stderr
    audit = [json.loads(line) for line in (desk.folder / "game.audit.jsonl").read_text().splitlines()]
    assert audit[-1]["action"] == "absent" and audit[-1]["over_cap"] is True and audit[-1]["days"] == 36
    assert [a.get("over_cap") for a in audit] == [None, None, None, True]


def test_renewing_an_absence_by_mail_counts_every_day_away(desk):
    first, _ = desk.run(mail(ADDRESSES["greeks"], body="password pw-greeks\nABSENT UNTIL 2026-12-13\n"))
    assert any("you are away from Mon 23 Nov 2026 to Sun 13 Dec 2026" in words(m) for m in first)
    again, _ = desk.run(mail(ADDRESSES["greeks"], body="password pw-greeks\nABSENT UNTIL 2026-12-14\n"),
                        minutes=1440)
    answer = next(m for m in to(again, ADDRESSES["greeks"]) if "ABSENT" in str(m["Subject"]))
    assert "would be away 22 days in a year; the game allows 21" in words(answer)
    assert [(a["from"], a["until"]) for a in desk.clock()["absences"]] == [("2026-11-23", "2026-12-13")]


# -- 7. the password is not a licence to flood ------------------------------------------------

def test_a_thousand_address_lines_send_one_code_and_the_code_only_to_the_new_address(desk):
    lines = "".join(f"ADDRESS victim{k}@elsewhere.example\n" for k in range(1_000))
    asked = "<moving-1@players.example>"
    out, _ = desk.run(mail(ADDRESSES["greeks"], body="password pw-greeks\n" + lines, message_id=asked))
    codes = [m for m in out if "elsewhere.example" in str(m["To"])]
    assert [str(m["To"]) for m in codes] == ["victim0@elsewhere.example"]
    code = next(line.split()[-1] for line in body(codes[0]).splitlines() if line.strip().startswith("CONFIRM"))
    (answer,) = to(out, ADDRESSES["greeks"])
    assert code not in body(answer) and "A code went to victim0@elsewhere.example" in words(answer)
    assert "999 more lines were not run" in words(answer)
    pending = desk.ledger()["pending"]
    assert list(pending) == [code]
    import hashlib

    hashed = json.loads(desk.game.read_text())["nations"]["greeks"]["password"]
    guess = hashlib.sha256(f"{hashed}|victim0@elsewhere.example|{asked}".encode()).hexdigest()
    assert code != guess[:10].upper()  # the code an earlier release sent, which the player could compute


def test_a_thousand_password_lines_make_one_change(desk):
    before = len(desk.history())
    out, _ = desk.run(mail(ADDRESSES["greeks"], body="password pw-greeks\n" + "PASSWORD\n" * 1_000))
    assert len(desk.history()) == before + 1
    (answer,) = [m for m in to(out, ADDRESSES["greeks"]) if "PASSWORD" in str(m["Subject"])]
    assert "999 more lines were not run" in words(answer)


def test_identity_changes_have_a_rate_a_day(desk):
    from pbem.mail.commands import IDENTITY_PER_DAY

    secret = "pw-greeks"
    for k in range(IDENTITY_PER_DAY):
        out, _ = desk.run(mail(ADDRESSES["greeks"], body=f"password {secret}\nPASSWORD\n"))
        (answer,) = [m for m in to(out, ADDRESSES["greeks"]) if "PASSWORD" in str(m["Subject"])]
        secret = next(line.split(": ", 1)[1] for line in body(answer).splitlines() if "Your new password" in line)
    before = desk.game.read_bytes()
    out, _ = desk.run(mail(ADDRESSES["greeks"], body=f"password {secret}\nADDRESS dora@new.example\n"))
    assert [str(m["To"]) for m in out] == [f"Greeks Player <{ADDRESSES['greeks']}>"]
    assert f"at most {IDENTITY_PER_DAY} changes of password or address a day" in words(out[0])
    assert desk.game.read_bytes() == before
    later, _ = desk.run(mail(ADDRESSES["greeks"], body=f"password {secret}\nADDRESS dora@new.example\n"),
                        minutes=1440)
    assert [str(m["To"]) for m in later if "dora@" in str(m["To"])] == ["dora@new.example"]


def test_a_servers_mailbox_numbers_are_read_strictly():
    """The IMAP server's UIDVALIDITY, UIDNEXT and EXISTS go through the strict reader too:
    ``'²'.isdigit()`` is true and ``int('²')`` a crash."""
    from pbem.mail.inbox import mailbox_state

    good = {"UIDVALIDITY": [b"7"], "UIDNEXT": [b"12"], "EXISTS": [b"3"]}
    assert mailbox_state(good) == {"uidvalidity": 7, "uidnext": 12, "exists": 3}
    for bad in ("\u00b2", "9" * 5000, "-1", "", None):
        assert mailbox_state({**good, "UIDNEXT": [bad]}) is None
