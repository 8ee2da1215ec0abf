"""The judge against real servers: mail in by IMAP (Dovecot), out by SMTP (aiosmtpd). Every
command by mail, press to one and to all with every address hidden, an observer who gets
the public report and public press only (in Antike Duellum too), an extension, an
absence with each policy, a pause."""

from __future__ import annotations

import json

import pytest

from conftest import cli_run, new_game_file
from mailkit import ADDRESSES, GM, game_with_players, mail, server_config

OBSERVER = "olga@watch.example"


def mail_config(folder, game, smtp, imap, defaults=""):
    return server_config(folder, game, smtp, imap, mail_extra='timezone = "Europe/Berlin"\n',
                         extra=f'deadline = "48h"\nremind = "12h"\nattach = ""\nobservers = ["Olga <{OBSERVER}>"]\n'
                               f'{defaults}')


@pytest.fixture
def judge_servers(tmp_path, smtp_server, imap_server, monkeypatch):
    monkeypatch.setenv("TEST_SMTP_PASSWORD", smtp_server.password)
    monkeypatch.setenv("TEST_IMAP_PASSWORD", imap_server.password)
    return tmp_path, smtp_server, imap_server


class Table:
    def __init__(self, folder, smtp, imap, game, cfg):
        self.folder, self.smtp, self.imap, self.game, self.cfg = folder, smtp, imap, game, cfg
        self.minute = 0

    def run(self, *mails, at: str | None = None):
        """Deliver ``mails`` to the IMAP inbox, run the cycle, return what the SMTP server got."""
        for raw in mails:
            self.imap.deliver(raw)
        self.smtp.clear()
        self.minute += 5
        now = at or f"2026-11-23T{10 + self.minute // 60:02d}:{self.minute % 60:02d}:00Z"
        result = cli_run("mail", "run", "--config", self.cfg, "--now", now)
        assert result.exit_code == 0, result.stdout + result.stderr
        return list(self.smtp.messages)

    def to(self, received, address):
        return [r for r in received if address in r.envelope_to]


def text_of(received) -> str:
    return " ".join(received.message.get_body(("plain",)).get_content().split())


def test_every_command_press_and_an_observer_against_real_servers(judge_servers):
    folder, smtp, imap = judge_servers
    game = game_with_players(folder)
    table = Table(folder, smtp, imap, game, mail_config(folder, game, smtp, imap))
    opening = table.run(at="2026-11-23T10:00:00Z")
    assert sorted(a for r in opening for a in r.envelope_to) == sorted([*ADDRESSES.values(), GM, OBSERVER])
    assert "Deadline for turn 1: Wed 25 Nov 2026, 11:00 CET, in 48 h." in text_of(table.to(opening, OBSERVER)[0])
    before = game.read_bytes()
    got = table.run(mail(ADDRESSES["greeks"], subject="questions",
                         body="HELP\nSTATUS\nOPTIONS\nHISTORY 3\nRESEND pdf\n"))
    (answer,) = got
    assert answer.envelope_to == [ADDRESSES["greeks"]]
    words = text_of(answer)
    assert "PRESS TO persians" in words and "The Greeks hold" in words and "It is not your turn" in words
    assert [p.get_content_type() for p in answer.message.iter_attachments()] == ["application/pdf"]
    assert game.read_bytes() == before
    # press to one, then to all: from the referee, signed with the nation, no address anywhere
    got = table.run(mail(ADDRESSES["arabs"], body="password pw-arabs\nPRESS TO persians\n"
                         "An alliance against the Greeks?\n"))
    press = [r for r in got if "press from the Arabs" in str(r.message["Subject"])]
    assert [r.envelope_to for r in press] == [[ADDRESSES["persians"]]]
    got = table.run(mail(ADDRESSES["arabs"], body="password pw-arabs\nPRESS TO all\nPeace in our time.\n"))
    press = [r for r in got if "press from the Arabs" in str(r.message["Subject"])]
    assert sorted(a for r in press for a in r.envelope_to) == sorted(
        [ADDRESSES["greeks"], ADDRESSES["persians"], ADDRESSES["phoenicians"], OBSERVER])
    for r in press:
        raw = r.raw.decode("utf-8", "replace")
        assert ADDRESSES["arabs"] not in raw and r.envelope_from == "referee@referee.example"
        assert "Peace in our time." in text_of(r) and "from the Arabs (Arabs Player)" in text_of(r)
    # PASSWORD, ADDRESS + CONFIRM, ABSENT, BACK
    got = table.run(mail(ADDRESSES["persians"], body="password pw-persians\nPASSWORD\n"))
    new = next(line.split(": ", 1)[1] for r in got if ADDRESSES["persians"] in r.envelope_to
               for line in r.message.get_body(("plain",)).get_content().splitlines() if "Your new password" in line)
    got = table.run(mail(ADDRESSES["persians"], body=f"password {new.strip()}\nADDRESS ann@new.example\n"))
    code_mail = table.to(got, "ann@new.example")[0]
    code = next(line.split()[-1] for line in code_mail.message.get_body(("plain",)).get_content().splitlines()
                if line.strip().startswith("CONFIRM"))
    got = table.run(mail("ann@new.example", body=f"CONFIRM {code}\n"))
    assert table.to(got, ADDRESSES["persians"]) and table.to(got, "ann@new.example")
    assert json.loads(game.read_text())["nations"]["persians"]["email"] == "ann@new.example"
    got = table.run(mail("ann@new.example", body=f"password {new.strip()}\nABSENT UNTIL 2026-11-30\n"))
    assert any("you are away" in text_of(r) for r in table.to(got, "ann@new.example"))
    notices = [r for r in got if "news of the game" in str(r.message["Subject"])]
    assert notices and all("The Persians are away" in text_of(r) for r in notices)
    got = table.run(mail("ann@new.example", body=f"password {new.strip()}\nBACK\n"))
    assert any("Welcome back" in text_of(r) for r in table.to(got, "ann@new.example"))
    assert cli_run("verify", game).exit_code == 0


@pytest.mark.parametrize("policy", ["wait", "default", "bot"])
def test_an_extension_an_absence_and_a_pause_against_real_servers(judge_servers, policy):
    folder, smtp, imap = judge_servers
    game = game_with_players(folder)
    table = Table(folder, smtp, imap, game, mail_config(folder, game, smtp, imap, f'absence = "{policy}"\n'
                                                                                  'missed = "default"\n'))
    table.run(at="2026-11-23T10:00:00Z")
    assert cli_run("deadline", game, "--extend", "24h", "--now", "2026-11-23T11:00:00Z").exit_code == 0
    got = table.run(at="2026-11-23T11:05:00Z")
    assert len(got) == 6 and all("Thu 26 Nov 2026, 11:00 CET" in text_of(r) for r in got)
    away = json.loads(game.read_text())["status"]["active"]
    assert cli_run("absent", game, away, "--from", "2026-11-24", "--until", "2026-11-27",
                   "--now", "2026-11-23T12:00:00Z").exit_code == 0
    table.run(at="2026-11-23T12:05:00Z")
    got = table.run(at="2026-11-24T08:00:00Z")  # the absence has begun
    history = json.loads(game.read_text())["history"]
    if policy == "wait":
        assert [e["kind"] for e in history] == ["new"] and got == []
    else:
        assert history[-1]["kind"] == ("default-turn" if policy == "default" else "bot-turn")
        assert history[-1]["absent"] == "2026-11-27"
        assert any("while the player is away" in text_of(r) for r in got)
    assert cli_run("pause", game, "--reason", "GM on holiday", "--now", "2026-11-24T09:00:00Z").exit_code == 0
    got = table.run(at="2026-11-24T09:05:00Z")
    assert got and all("paused the game: GM on holiday" in text_of(r) for r in got)
    kinds = [e["kind"] for e in json.loads(game.read_text())["history"]]
    assert table.run(at="2026-12-05T09:00:00Z") == []  # paused: no deadline runs
    assert [e["kind"] for e in json.loads(game.read_text())["history"]] == kinds
    assert cli_run("resume", game, "--now", "2026-12-05T09:00:00Z").exit_code == 0
    got = table.run(at="2026-12-05T09:05:00Z")
    assert got and all("The game goes on." in text_of(r) for r in got)
    assert cli_run("verify", game).exit_code == 0


def test_an_observer_of_a_duellum_game_gets_no_private_data_against_real_servers(judge_servers):
    folder, smtp, imap = judge_servers
    players = ("--player", f"romans=Ann <{ADDRESSES['persians']}>",
               "--player", f"carthaginians=Ben <{ADDRESSES['greeks']}>")
    game = new_game_file(folder, "--edition", "duellum", "--id", "duel", *players, nations=["romans", "carthaginians"])
    cfg = mail_config(folder, game, smtp, imap)
    cfg.write_text(cfg.read_text().replace('attach = ""', 'attach = "txt,copy"'))
    table = Table(folder, smtp, imap, game, cfg)
    got = table.run()
    (olga,) = table.to(got, OBSERVER)
    assert [p.get_filename() for p in olga.message.iter_attachments()] == ["duel-turn-000.txt"]
    data = json.loads(game.read_text())
    raw = olga.raw.decode("utf-8", "replace")
    assert "YOUR-PASSWORD" not in raw and "pw-" not in raw and "Your password" not in raw
    for nation in ("romans", "carthaginians"):
        for card in data["state"]["nations"][nation].get("hand", []):
            assert f"hand: {card}" not in raw.lower()
    mine = table.to(got, ADDRESSES["persians"])[0]
    assert "game.romans.json" in [p.get_filename() for p in mine.message.iter_attachments()]
    got = table.run(mail(ADDRESSES["persians"], body="password pw-romans\nPRESS TO all\nAve!\n"))
    assert any("Ave!" in text_of(r) for r in table.to(got, OBSERVER))
