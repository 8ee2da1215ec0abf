"""Deadlines that are always true (issue 38, item 2), as players and the GM meet them: an
early BACK gives the turn its whole time from the return, and every mail of that run says
so; a turn that waits for a player who is away says that it waits, never a deadline gone
by; every mail names the deadline (the answers in a turn's run, a new player's welcome,
press); the reminder and the notices of a deadline passed say what happens then; the GM's
clock commands read times in the game's zone, refuse a deadline in the past and take
``--config``; a change of ``missed`` applies to a turn whose deadline passed; a game
belongs to one configuration (docs/mail.md, "Deadlines")."""

from __future__ import annotations

import json

import pytest
from mailkit import ADDRESSES, GM, add_to_maildir, body, config, game_with_players, mail, maildir, sent

from conftest import cli_run

T0 = "2026-11-23T10:00:00Z"
"""Monday 23 November 2026, 11:00 in Berlin: the game's first mail run."""


def flat(message) -> str:
    return " ".join(body(message).split())


def clock_of(game) -> dict:
    return json.loads(game.with_name(game.stem + ".clock.json").read_text())


def kinds(game) -> list[str]:
    return [e["kind"] for e in json.loads(game.read_text())["history"]]


def active(game) -> str:
    return json.loads(game.read_text())["status"]["active"]


@pytest.fixture
def judged(tmp_path):
    """A game of four with a 48 h deadline, reminded 12 h before, told in Berlin time;
    ``make`` writes its configuration, ``cycle`` runs ``mail run`` and returns what it sent,
    ``send`` puts a player's mail in the mailbox."""
    game = game_with_players(tmp_path)
    box = maildir(tmp_path / "M")

    def make(missed: str = "default", absence: str = "wait", folder=tmp_path) -> object:
        cfg = config(folder, game, defaults=f'deadline = "48h"\nremind = "12h"\nmissed = "{missed}"\nattach = ""\n'
                                             f'absence = "{absence}"')
        cfg.write_text(cfg.read_text().replace("[mail]\n", '[mail]\ntimezone = "Europe/Berlin"\n'))
        return cfg

    def cycle(cfg, now: str, out: str, code: int = 0):
        result = cli_run("mail", "run", "--config", cfg, "--source", box, "--outbox", tmp_path / out, "--now", now)
        assert result.exit_code == code, result.stdout + result.stderr
        return sent(tmp_path / out)

    def send(nation: str, text: str, subject: str = "hello") -> None:
        add_to_maildir(box, mail(f"{nation.capitalize()} Player <{ADDRESSES[nation]}>", subject, text))

    return tmp_path, game, make, cycle, send


# -- an early BACK ---------------------------------------------------------------------------


def test_an_early_back_gives_the_turn_its_whole_time_from_the_return_and_every_mail_says_so(judged):
    """docs/mail.md: while the player on turn is away the deadline waits, and when they are
    back the turn has its whole time again. Back early (BACK on Friday, the absence ran to
    6 December): the 48 h run from Friday, not from 7 December, and the answer and every
    notice of that run name that deadline."""
    folder, game, make, cycle, send = judged
    cfg = make()
    cycle(cfg, T0, "o0")
    away = active(game)
    send(away, f"Hi referee,\n\npassword pw-{away}\nABSENT UNTIL 2026-12-06 a week in the mountains\n\nThanks\n")
    cycle(cfg, "2026-11-23T11:00:00Z", "o1")
    assert clock_of(game)["current"]["held"] == "2026-12-06"
    send(away, f"password pw-{away}\nBACK\n", "back early")
    out = cycle(cfg, "2026-11-27T09:00:00Z", "o2")  # Friday 10:00 in Berlin
    current = clock_of(game)["current"]
    assert current["due"] == "2026-11-29T09:00:00Z" and "held" not in current
    answer = next(m for m in out if "BACK" in str(m["Subject"]))
    assert "Welcome back" in flat(answer)
    told = [m for m in out if "Deadline for turn 1" in body(m)]
    assert answer in told and len(told) == len(out) == 1 + len(ADDRESSES) + 1  # the answer, the news to all and the GM
    for m in told:
        assert "Deadline for turn 1: Sun 29 Nov 2026, 10:00 CET, in 48 h." in flat(m), flat(m)
        assert "away" not in flat(m).split("Deadline for turn 1")[1]
    assert kinds(game) == ["new"]
    cycle(cfg, "2026-11-29T08:59:00Z", "o3")
    assert kinds(game) == ["new"]
    cycle(cfg, "2026-11-29T09:00:00Z", "o4")
    assert kinds(game) == ["new", "default-turn"]


# -- absence = "wait": the turn waits, and says so -----------------------------------------------


def test_a_turn_waiting_for_an_absent_player_shows_no_stale_deadline_and_no_false_alarm(judged):
    """Away from Monday to 6 December under ``absence = "wait"``: once the turn's 48 h have
    gone by, no mail shows that old deadline ("passed 2 d ago") beside "away until"; the
    line says the turn waits and when its clock starts again; ``status`` does not call the
    GM for a game that waits as it should."""
    folder, game, make, cycle, send = judged
    cfg = make()
    cycle(cfg, T0, "o0")
    away = active(game)
    other = next(n for n in ADDRESSES if n != away)
    send(away, f"password pw-{away}\nABSENT UNTIL 2026-12-06\n")
    cycle(cfg, "2026-11-23T11:00:00Z", "o1")
    send(other, "STATUS\n", "status")
    out = cycle(cfg, "2026-11-27T12:00:00Z", "o2")  # the 48 h ran out on Wednesday
    (answer,) = out
    text = flat(answer)
    assert "Wed 25 Nov 2026, 11:00 CET" not in text and "passed" not in text, text
    assert ("Deadline for turn 1: none while the player is away (until Sun 06 Dec 2026): the turn waits, and its "
            "48 h start when they are back, at the latest Mon 07 Dec 2026, 00:00 CET.") in text
    shown = cli_run("show", game, "--now", "2026-11-27T12:00:00Z")
    assert "none while the player is away" in shown.stdout and "passed" not in shown.stdout
    data = json.loads(cli_run("show", game, "--json", "--now", "2026-11-27T12:00:00Z").stdout)["deadline"]
    assert data["held_until"] == "2026-12-06" and data["resumes"] == "2026-12-06T23:00:00Z"
    assert "seconds_left" not in data
    status = json.loads(cli_run("status", "--config", cfg, "--json", "--now", "2026-11-27T12:00:00Z").stdout)
    (record,) = status["games"]
    assert record["late_seconds"] is None and record["needs_gm"] is False, record["attention"]
    line = cli_run("status", "--config", cfg, "--now", "2026-11-27T12:00:00Z").stdout
    assert "late by" not in line and "waits for the player" in line


# -- every mail names the deadline ---------------------------------------------------------------


def test_answers_to_commands_in_the_run_that_applies_a_turn_name_the_new_deadline(judged):
    """An order mail and a STATUS from another player in one run: the turn is applied, and
    the STATUS answer, written after it, names the deadline of the turn that began."""
    folder, game, make, cycle, send = judged
    cfg = make()
    cycle(cfg, T0, "o0")
    mover = active(game)
    other = next(n for n in ADDRESSES if n != mover)
    send(mover, f"game demo\nnation {mover}\nturn 1\npassword pw-{mover}\nrondel gold\n", "my turn")
    send(other, "Hi,\nSTATUS\nthanks\n", "status")
    out = cycle(cfg, "2026-11-23T12:30:00Z", "o1")
    answer = next(m for m in out if "STATUS" in str(m["Subject"]))
    assert "Next: turn 2" in flat(answer)
    assert "Deadline for turn 2: Wed 25 Nov 2026, 13:30 CET, in 48 h." in flat(answer), flat(answer)


@pytest.mark.parametrize("keep", [False, True])
def test_a_new_players_welcome_names_the_deadline(judged, keep):
    """``player`` (a new player with a password) and ``player --keep-password`` (the same
    player at a new address): the mail names the current turn's deadline."""
    folder, game, make, cycle, send = judged
    cfg = make()
    cycle(cfg, T0, "o0")
    nation = active(game)
    args = ["--keep-password"] if keep else []
    done = cli_run("player", game, nation, "--player", "Zoe <zoe@players.example>", *args, "--config", cfg,
                   "--outbox", folder / "w", "--now", "2026-11-24T10:00:00Z")
    assert done.exit_code == 0, done.stderr
    welcome = next(m for m in sent(folder / "w") if "zoe@players.example" in str(m["To"]))
    assert "Deadline for turn 1: Wed 25 Nov 2026, 11:00 CET, in 24 h." in flat(welcome), flat(welcome)


def test_press_names_the_deadline(judged):
    folder, game, make, cycle, send = judged
    cfg = make()
    cycle(cfg, T0, "o0")
    send("greeks", "password pw-greeks\nPRESS TO all\nShall we talk about Sparta?\nDora\n", "press")
    out = cycle(cfg, "2026-11-23T12:00:00Z", "o1")
    press = [m for m in out if "press from" in str(m["Subject"])]
    assert len(press) == 3
    for m in press:
        assert "Deadline for turn 1: Wed 25 Nov 2026, 11:00 CET, in 46 h." in flat(m), flat(m)


# -- what happens at the deadline ------------------------------------------------------------------

AT_THE_DEADLINE = {
    "remind": "If your orders have not come by then, you are told so and the game waits for them.",
    "wait": "If your orders have not come by then, the game waits and the GM decides what becomes of your turn: a "
            "default turn, a bot's turn, or waiting for your orders.",
    "default": "If your orders have not come by then, the GM's default turn is played for you.",
    "bot": "If your orders have not come by then, the greedy bot plays your turn.",
}


@pytest.mark.parametrize("missed", ["remind", "wait", "default", "bot"])
def test_the_reminder_and_the_deadline_passed_say_what_happens_and_the_late_player_hears_of_it(judged, missed):
    """The reminder says what the deadline brings; when it passes, the player on turn gets a
    notice of their own (the game waits for them, the GM decides, or a turn was played for
    them); the run's lines and the history's tell the deadline in the game's time zone."""
    folder, game, make, cycle, send = judged
    cfg = make(missed=missed)
    cycle(cfg, T0, "o0")
    late = active(game)
    (reminder,) = cycle(cfg, "2026-11-24T22:00:00Z", "o1")
    assert "The deadline is Wed 25 Nov 2026, 11:00 CET, in 12 h." in flat(reminder)
    assert AT_THE_DEADLINE[missed] in flat(reminder), flat(reminder)
    result = cli_run("mail", "run", "--config", cfg, "--source", folder / "M", "--outbox", folder / "o2", "--now",
                     "2026-11-25T10:00:00Z")
    assert result.exit_code == 0, result.stderr
    assert "Wed 25 Nov 2026, 11:00 CET" in result.stdout and "2026-11-25T10:00:00Z" not in result.stdout
    out = sent(folder / "o2")
    mine = [m for m in out if ADDRESSES[late] in str(m["To"]) and "deadline passed" in str(m["Subject"])]
    assert len(mine) == 1, [str(m["Subject"]) for m in out]
    text = flat(mine[0])
    assert "The deadline for turn 1 (Wed 25 Nov 2026, 11:00 CET) has passed" in text
    if missed == "remind":
        assert "The game waits for your orders: send them as soon as you can." in text
    elif missed == "wait":
        assert "The GM decides what becomes of your turn" in text and "welcome until then" in text
    else:
        who = "the GM's default turn was" if missed == "default" else "the greedy bot's turn was"
        assert f"without your orders: {who} played for you" in text, text
        assert "Deadline for turn 2:" in text  # and the next turn's clock runs
        report = next(m for m in out if "after turn 1" in str(m["Subject"]))
        assert "deadline Wed 25 Nov 2026, 11:00 CET missed" in flat(report)
        assert "2026-11-25T10:00:00Z" not in flat(report)


# -- the GM's clock commands ---------------------------------------------------------------------


def test_deadline_set_refuses_a_time_in_the_past_unless_forced(judged):
    folder, game, make, cycle, send = judged
    cfg = make()
    cycle(cfg, T0, "o0")
    before = game.with_name("game.clock.json").read_bytes()
    past = cli_run("deadline", game, "--set", "2026-11-24T08:00:00Z", "--config", cfg, "--now", "2026-11-24T09:00:00Z")
    assert past.exit_code == 2 and "in the past" in past.stderr and "--force" in past.stderr, past.stderr
    short = cli_run("deadline", game, "--extend", "1m", "--config", cfg, "--now", "2026-11-26T09:00:00Z")
    assert short.exit_code == 2 and "in the past" in short.stderr
    assert game.with_name("game.clock.json").read_bytes() == before
    forced = cli_run("deadline", game, "--set", "2026-11-24T08:00:00Z", "--force", "--config", cfg, "--now",
                     "2026-11-24T09:00:00Z")
    assert forced.exit_code == 0, forced.stderr
    assert clock_of(game)["current"]["due"] == "2026-11-24T08:00:00Z"
    cycle(cfg, "2026-11-24T09:05:00Z", "o1")  # missed at the next run
    assert kinds(game) == ["new", "default-turn"]


def test_a_time_without_a_zone_is_in_the_games_zone(judged):
    folder, game, make, cycle, send = judged
    cfg = make()
    cycle(cfg, T0, "o0")
    done = cli_run("deadline", game, "--set", "2026-11-30T18:00", "--config", cfg, "--now", "2026-11-24T09:00:00Z")
    assert done.exit_code == 0, done.stderr
    assert clock_of(game)["current"]["due"] == "2026-11-30T17:00:00Z" and "Mon 30 Nov 2026, 18:00 CET" in done.stdout
    plain = cli_run("deadline", game, "--set", "2026-12-01T18:00:00", "--now", "2026-11-24T09:00:00Z")
    assert plain.exit_code == 0 and clock_of(game)["current"]["due"] == "2026-12-01T17:00:00Z"  # the clock's zone


def test_every_gm_clock_command_takes_config(judged):
    folder, game, make, cycle, send = judged
    cfg = make()
    cycle(cfg, T0, "o0")
    for command in ("deadline", "absent", "pause", "resume"):
        assert "--config" in cli_run(command, "--help").stdout, command
    paused = cli_run("pause", game, "--reason", "a ruling", "--config", cfg, "--now", "2026-11-24T09:00:00Z")
    assert paused.exit_code == 0, paused.stderr
    assert cli_run("resume", game, "--config", cfg, "--now", "2026-11-24T10:00:00Z").exit_code == 0
    assert clock_of(game)["current"]["due"] == "2026-11-25T11:00:00Z"


# -- the configuration the game is run by ----------------------------------------------------------


def test_a_changed_missed_applies_to_a_turn_whose_deadline_passed_and_is_not_handled(judged):
    """``missed = "wait"``: the deadline passes, the GM is told and the game waits. The GM
    changes the configuration to ``missed = "default"``: the next run plays the default
    turn for the turn that waits."""
    folder, game, make, cycle, send = judged
    cfg = make(missed="wait")
    cycle(cfg, T0, "o0")
    out = cycle(cfg, "2026-11-25T10:00:00Z", "o1")
    assert any(GM in str(m["To"]) and "deadline passed" in str(m["Subject"]) for m in out)
    assert clock_of(game)["current"]["missed"] is True and kinds(game) == ["new"]
    cycle(cfg, "2026-11-25T11:00:00Z", "o2")
    assert kinds(game) == ["new"]
    make(missed="default")
    cycle(cfg, "2026-11-25T12:00:00Z", "o3")
    assert kinds(game) == ["new", "default-turn"]
    assert json.loads(game.read_text())["history"][-1]["deadline"] == "2026-11-25T10:00:00Z"


def test_a_game_belongs_to_one_configuration_and_the_gm_moves_it_on_purpose(judged):
    """A second configuration pointed at the same game (``missed = "default"`` where the
    game's own says ``wait``) is refused: it plays nothing, marks nothing, writes nothing.
    ``mail adopt`` moves the game to it, logged; then the first is refused."""
    folder, game, make, cycle, send = judged
    own = make(missed="wait")
    cycle(own, T0, "o0")
    assert clock_of(game)["config"] == str(own.resolve())
    cycle(own, "2026-11-25T10:00:00Z", "o1")
    (folder / "other").mkdir()
    second = make(missed="default", folder=folder / "other")
    files = {p: p.read_bytes() for p in folder.glob("game.*") if p.is_file()}
    result = cli_run("mail", "run", "--config", second, "--source", folder / "M", "--outbox", folder / "x", "--now",
                     "2026-11-25T11:00:00Z")
    assert result.exit_code == 2, result.stdout + result.stderr
    assert str(own.resolve()) in result.stderr and "mail adopt" in result.stderr
    assert {p: p.read_bytes() for p in folder.glob("game.*") if p.is_file()} == files
    assert sent(folder / "x") == []
    for command in (["pause", game], ["deadline", game, "--extend", "1h"], ["absent", game, "greeks", "--back"]):
        refused = cli_run(*command, "--config", second, "--now", "2026-11-25T11:00:00Z")
        assert refused.exit_code == 2 and "belongs to" in refused.stderr, command
    status = json.loads(cli_run("status", "--config", second, "--json", "--now", "2026-11-25T11:00:00Z").stdout)
    assert any("belongs to another mail configuration" in a for a in status["games"][0]["attention"])
    moved = cli_run("mail", "adopt", game, "--config", second, "--now", "2026-11-25T11:30:00Z")
    assert moved.exit_code == 0, moved.stderr
    audit = [json.loads(line) for line in game.with_name("game.audit.jsonl").read_text().splitlines()]
    assert audit[-1] == {"action": "adopt", "at": "2026-11-25T11:30:00Z", "from": str(own.resolve()),
                         "to": str(second.resolve())}
    cycle(second, "2026-11-25T12:00:00Z", "o2")
    assert kinds(game) == ["new", "default-turn"]
    cycle(own, "2026-11-25T12:05:00Z", "o3", code=2)
