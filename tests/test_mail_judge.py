"""The judge for long games with people: deadlines in every mail, extensions, absences with
each policy, pauses, observers, the GM's notices (docs/mail.md)."""

from __future__ import annotations

import json

import pytest
from mailkit import ADDRESSES, GM, add_to_maildir, body, config, game_with_players, mail, maildir, sent

from conftest import cli_run

T0 = "2026-11-23T10:00:00Z"


def active(game):
    return json.loads(game.read_text())["status"]["active"]


def kinds(game):
    return [e["kind"] for e in json.loads(game.read_text())["history"]]


def audit(game):
    path = game.with_name(game.stem + ".audit.jsonl")
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


@pytest.fixture
def judged(tmp_path):
    """A game with a 48 h deadline, reminded 12 h before, told in Berlin time."""
    game = game_with_players(tmp_path)

    def make(extra: str = "", absence: str = "wait"):
        cfg = config(tmp_path, game, defaults=f'deadline = "48h"\nremind = "12h"\nmissed = "default"\nattach = ""\n'
                                                f'absence = "{absence}"\n{extra}')
        cfg.write_text(cfg.read_text().replace("[mail]\n", '[mail]\ntimezone = "Europe/Berlin"\n'))
        return cfg

    box = maildir(tmp_path / "M")

    def cycle(cfg, now, out):
        result = cli_run("mail", "run", "--config", cfg, "--source", box, "--outbox", tmp_path / out, "--now", now)
        assert result.exit_code == 0, result.stdout + result.stderr
        return sent(tmp_path / out)

    return tmp_path, game, box, make, cycle


def test_every_mail_tells_the_deadline_in_the_games_time_zone(judged):
    folder, game, box, make, cycle = judged
    cfg = make()
    opening = cycle(cfg, T0, "o0")
    for m in opening:  # 10:00 UTC + 48 h = 11:00 in Berlin, two days on
        assert "Deadline for turn 1: Wed 25 Nov 2026, 11:00 CET, in 48 h." in " ".join(body(m).split())
    nation = active(game)
    add_to_maildir(box, mail(ADDRESSES[nation], body=f"game demo\nnation {nation}\nturn 1\npassword pw-{nation}\n"
                                                     "rondel gold\n"))
    out = cycle(cfg, "2026-11-23T12:30:00Z", "o1")
    receipt = next(m for m in out if "accepted" in str(m["Subject"]))
    assert "Deadline for turn 2: Wed 25 Nov 2026, 13:30 CET, in 48 h." in " ".join(body(receipt).split())
    reminder = cycle(cfg, "2026-11-25T00:30:00Z", "o2")
    assert len(reminder) == 1 and "13:30 CET, in 12 h" in " ".join(body(reminder[0]).split())


def test_the_gm_extends_the_deadline_and_the_players_are_told(judged):
    folder, game, box, make, cycle = judged
    cfg = make()
    cycle(cfg, T0, "o0")
    before = game.read_bytes()
    done = cli_run("deadline", game, "--extend", "24h", "--reason", "Ben is travelling", "--now", "2026-11-24T09:00:00Z")
    assert done.exit_code == 0, done.stderr
    assert "Thu 26 Nov 2026, 11:00 CET" in done.stdout
    assert game.read_bytes() == before  # the game file is not touched: the clock is the ledger's
    (record,) = audit(game)
    assert record["action"] == "deadline" and record["from"] == "2026-11-25T10:00:00Z"
    assert record["to"] == "2026-11-26T10:00:00Z" and record["reason"] == "Ben is travelling"
    notices = cycle(cfg, "2026-11-24T09:05:00Z", "o1")
    assert sorted(str(m["To"]).split("<")[-1].rstrip(">") for m in notices) == sorted([*ADDRESSES.values(), GM])
    text = " ".join(body(notices[0]).split())
    assert "is now Thu 26 Nov 2026, 11:00 CET (it was Wed 25 Nov 2026, 11:00 CET)" in text
    assert "travelling" not in text
    # the old deadline passes: nothing; the new one: the default turn
    assert cycle(cfg, "2026-11-25T10:30:00Z", "o2") == [] and kinds(game) == ["new"]
    cycle(cfg, "2026-11-26T10:00:00Z", "o3")
    assert kinds(game) == ["new", "default-turn"]
    assert json.loads(game.read_text())["history"][-1]["deadline"] == "2026-11-26T10:00:00Z"
    set_to = cli_run("deadline", game, "--set", "2026-12-01T18:00:00Z", "--now", "2026-11-26T10:05:00Z")
    assert set_to.exit_code == 0 and "Tue 01 Dec 2026, 19:00 CET" in set_to.stdout


def test_deadline_refusals_change_nothing(judged):
    folder, game, box, make, cycle = judged
    no_clock = cli_run("deadline", game, "--extend", "24h")
    assert no_clock.exit_code == 2 and "no deadline yet" in no_clock.stderr
    cycle(make(), T0, "o0")
    ledger = game.with_name("game.mail.json").read_bytes()
    for args in (["--extend", "soon"], ["--set", "tomorrow"], [], ["--extend", "1h", "--set", "2026-12-01T00:00:00Z"]):
        done = cli_run("deadline", game, *args)
        assert done.exit_code == 2, args
    assert game.with_name("game.mail.json").read_bytes() == ledger and audit(game) == []


@pytest.mark.parametrize("policy", ["wait", "default", "bot"])
def test_an_absence_with_each_policy(judged, policy):
    folder, game, box, make, cycle = judged
    cfg = make(absence=policy)
    cycle(cfg, T0, "o0")
    away = active(game)
    done = cli_run("absent", game, away, "--from", "2026-11-23", "--until", "2026-11-30", "--reason", "skiing",
                   "--config", cfg, "--now", "2026-11-23T11:00:00Z")
    assert done.exit_code == 0, done.stderr
    out = cycle(cfg, "2026-11-23T11:05:00Z", "o1")
    told = [m for m in out if "news of the game" in str(m["Subject"])]
    assert told and all("are away from Mon 23 Nov 2026 to Mon 30 Nov 2026" in " ".join(body(m).split()) for m in told)
    assert all("skiing" not in body(m) for m in out)
    if policy == "wait":
        assert kinds(game) == ["new"]
        cycle(cfg, "2026-11-26T12:00:00Z", "o2")  # the 48 h passed while away: the deadline waits
        assert kinds(game) == ["new"]
        clock = json.loads(game.with_name("game.clock.json").read_text())["current"]
        assert clock["held"] == "2026-11-30"
        cycle(cfg, "2026-12-01T00:30:00Z", "o3")  # back: the turn has its whole 48 h from the end of the absence
        clock = json.loads(game.with_name("game.clock.json").read_text())["current"]
        assert clock["due"] == "2026-12-02T23:00:00Z" and "held" not in clock
        cycle(cfg, "2026-12-02T23:00:00Z", "o4")
        assert kinds(game) == ["new", "default-turn"]
    else:
        entry = json.loads(game.read_text())["history"][1]
        assert entry["kind"] == ("default-turn" if policy == "default" else "bot-turn")
        assert entry["nation"] == away and entry["absent"] == "2026-11-30"
        reports = [m for m in sent(folder / "o1") if "after turn 1" in str(m["Subject"])]
        assert reports and all("while the player is away (until 2026-11-30)" in " ".join(body(m).split())
                               for m in reports)
    assert cli_run("verify", game).exit_code == 0


def test_absences_are_capped_and_can_end_early(judged):
    folder, game, box, make, cycle = judged
    cfg = make(extra="absence_days = 10")
    cycle(cfg, T0, "o0")
    too_long = cli_run("absent", game, "greeks", "--from", "2026-12-01", "--until", "2026-12-20", "--config", cfg,
                       "--now", T0)
    assert too_long.exit_code == 2 and "20 days" in too_long.stderr and "allows 10" in too_long.stderr
    assert cli_run("absent", game, "greeks", "--from", "2026-12-01", "--until", "2026-12-07", "--config", cfg,
                   "--now", T0).exit_code == 0
    again = cli_run("absent", game, "greeks", "--from", "2026-12-10", "--until", "2026-12-14", "--config", cfg,
                    "--now", T0)
    assert again.exit_code == 2 and "12 days" in again.stderr
    back = cli_run("absent", game, "greeks", "--back", "--now", "2026-12-03T08:00:00Z")
    assert back.exit_code == 0
    ledger = json.loads(game.with_name("game.clock.json").read_text())
    assert ledger["absences"] == [{"at": "2026-11-23T10:00:00Z", "by": "gm", "from": "2026-12-01", "nation": "greeks",
                                   "reason": "", "until": "2026-12-02"}]
    assert [r["action"] for r in audit(game)] == ["absent", "back"]
    assert cli_run("absent", game, "atlantis", "--until", "2026-12-02", "--now", T0).exit_code == 2


def test_a_pause_stops_the_deadline_and_resume_moves_it_on(judged):
    folder, game, box, make, cycle = judged
    cfg = make()
    cycle(cfg, T0, "o0")
    assert cli_run("pause", game, "--reason", "the GM is away", "--now", "2026-11-24T10:00:00Z").exit_code == 0
    assert cli_run("pause", game, "--now", "2026-11-24T10:00:00Z").exit_code == 2  # paused already
    out = cycle(cfg, "2026-11-24T10:05:00Z", "o1")
    assert all("paused the game: the GM is away" in " ".join(body(m).split()) for m in out)
    cycle(cfg, "2026-11-27T10:00:00Z", "o2")  # long past the deadline: paused, nothing happens
    assert kinds(game) == ["new"]
    done = cli_run("resume", game, "--now", "2026-11-27T10:00:00Z")
    assert done.exit_code == 0, done.stderr
    clock = json.loads(game.with_name("game.clock.json").read_text())["current"]
    assert clock["due"] == "2026-11-28T10:00:00Z"  # 24 h were left when it was paused
    out = cycle(cfg, "2026-11-27T10:05:00Z", "o3")
    assert all("The game goes on. The deadline of the current turn is Sat 28 Nov 2026, 11:00 CET."
               in " ".join(body(m).split()) for m in out)
    assert [r["action"] for r in audit(game)] == ["pause", "resume"]
    cycle(cfg, "2026-11-28T10:00:00Z", "o4")
    assert kinds(game) == ["new", "default-turn"]
    assert cli_run("resume", game).exit_code == 2


def test_observers_get_the_public_report_and_nothing_private(tmp_path):
    from conftest import new_game_file

    players = ("--player", "romans=Ann <ann@players.example>", "--player", "carthaginians=Ben <ben@players.example>")
    game = new_game_file(tmp_path, "--edition", "duellum", "--id", "duel", *players, nations=["romans", "carthaginians"])
    cfg = config(tmp_path, game, defaults='attach = "txt,copy"\nobservers = ["Olga <olga@watch.example>"]')
    box = maildir(tmp_path / "M")
    assert cli_run("mail", "run", "--config", cfg, "--source", box, "--outbox", tmp_path / "o", "--now", T0).exit_code == 0
    olga = [m for m in sent(tmp_path / "o") if "olga@watch.example" in str(m["To"])]
    assert len(olga) == 1
    names = [p.get_filename() for p in olga[0].iter_attachments()]
    assert names == ["duel-turn-000.txt"]  # the public report: no copy, no private report
    public = olga[0].get_body(("plain",)).get_content() + next(olga[0].iter_attachments()).get_content()
    data = json.loads(game.read_text())
    for nation in ("romans", "carthaginians"):
        for card in data["state"]["nations"][nation].get("hand", []):
            assert f"hand: {card}" not in public.lower()
    assert "report for Olga (observer)" in public
    assert "It is your turn" not in public
