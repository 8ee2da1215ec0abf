"""The turn clock the service keeps (pbem/service/clock.py, clockfile.py, clockchanges.py):
one function says what happens next and when (``next_step``); the mail cycle acts on the
steps due, the watermarks record when the next will be, and the two agree over many
generated clocks; the clock's own file beside the game (``GAME.clock.json``: mode 600,
replaced whole, never written through a link planted at its name); the move of an
earlier release's clock out of the mail ledger (docs/mail.md, "Files")."""

from __future__ import annotations

import json
import os
import stat
from datetime import UTC, date, datetime, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.errors import CannotWrite, InputError
from pbem.service.clock import (
    ABSENCE,
    MISSED,
    Absence,
    CurrentTurn,
    Pause,
    Rules,
    TurnClock,
    end_of_day,
    next_step,
    parse_time,
    start_of_day,
)
from pbem.service.clockfile import ClockFile, clock_from_json, clock_to_json, legacy_clock, read_clock

T0 = parse_time("2026-11-23T10:00:00Z")
H = timedelta(hours=1)
RULES = Rules(deadline=48 * H, remind=12 * H, missed="default", absence="wait", zone="Europe/Berlin")


def started(**fields) -> TurnClock:
    """The clock of turn 3 of the Greeks, started at T0 by :data:`RULES` (with ``fields``)."""
    return TurnClock(CurrentTurn(3, "greeks", T0, T0 + 48 * H, 48 * H, "Europe/Berlin"), **fields)


def step(clock: TurnClock, now: datetime, rules: Rules = RULES, turn: int = 3, active: str = "greeks",
         winner: str | None = None):
    return next_step(clock, rules, turn, active, winner, now)


# -- next_step: what happens next, and when ---------------------------------------------------


def test_a_turn_the_clock_has_not_seen_starts_now_with_its_deadline():
    s = step(TurnClock(), T0)
    assert s.kind == "start" and s.at == T0 and s.due_by(T0)
    assert s.clock == CurrentTurn(3, "greeks", T0, T0 + 48 * H, 48 * H, "Europe/Berlin")
    again = step(TurnClock(s.clock), T0 + H, turn=4, active="arabs")  # the next turn: a clock of its own
    assert again.kind == "start" and again.clock.since == T0 + H and again.clock.due == T0 + 49 * H


def test_waiting_for_the_reminder_then_the_deadline_with_the_missed_rule():
    clock = started()
    waiting = step(clock, T0 + H)
    assert (waiting.kind, waiting.at, waiting.due_by(T0 + H)) == ("wait", T0 + 36 * H, False)
    remind = step(clock, T0 + 36 * H)
    assert remind.kind == "remind" and remind.due == T0 + 48 * H and remind.due_by(T0 + 36 * H)
    reminded = clock.after(remind)
    assert reminded.current.reminded and step(reminded, T0 + 37 * H).at == T0 + 48 * H
    missed = step(reminded, T0 + 48 * H)
    assert (missed.kind, missed.how) == ("missed", "default")
    late = step(reminded, T0 + 48 * H, rules=Rules(48 * H, 12 * H, "wait", "wait", "Europe/Berlin"))
    assert late.kind == "late" and reminded.after(late).current.missed
    waiting = Rules(48 * H, 12 * H, "wait", "wait", "Europe/Berlin")
    assert step(reminded.after(late), T0 + 50 * H, rules=waiting).at is None


def test_nothing_runs_while_paused_and_a_game_over_has_no_clock():
    paused = started(paused=Pause(T0, "a ruling"))
    assert (step(paused, T0 + 100 * H).kind, step(paused, T0 + 100 * H).at) == ("paused", None)
    over = step(started(), T0, winner="greeks")
    assert over.kind == "clear" and started().after(over).current is None
    assert step(TurnClock(), T0, winner="greeks").at is None


def test_an_absence_plays_the_turn_or_holds_the_deadline_until_the_player_is_back():
    away = (Absence("greeks", date(2026, 11, 24), date(2026, 11, 30), "skiing"),)
    clock = started(absences=away)
    before = step(clock, T0 + H)
    assert before.kind == "wait" and before.at == start_of_day(date(2026, 11, 24), "Europe/Berlin")
    now = T0 + 20 * H  # 24 November in Berlin
    played = step(clock, now, rules=Rules(48 * H, 12 * H, "default", "bot", "Europe/Berlin"))
    assert (played.kind, played.how, played.until) == ("absent", "bot", date(2026, 11, 30))
    hold = step(clock, now)
    assert hold.kind == "hold" and hold.until == date(2026, 11, 30)
    held = clock.after(hold)
    waits = step(held, T0 + 100 * H)  # the 48 h passed while away: nothing
    assert waits.kind == "held" and waits.at == end_of_day(date(2026, 11, 30), "Europe/Berlin")
    back = end_of_day(date(2026, 11, 30), "Europe/Berlin")
    release = step(held, back)
    assert release.kind == "release" and release.clock.held is None and release.clock.due == back + 48 * H
    assert not release.clock.reminded and not release.clock.missed


# -- the cycle and the watermarks agree ----------------------------------------------------------

ZONES = ["UTC", "Europe/Berlin", "America/New_York", "Asia/Kolkata"]


@st.composite
def clocks(draw):
    """A clock of turn 3 of the Greeks as a cycle may leave it, its rules, and a time."""
    zone = draw(st.sampled_from(ZONES))
    hours = st.integers(min_value=1, max_value=120).map(lambda n: n * H)
    rules = Rules(draw(st.none() | hours), draw(st.none() | hours), draw(st.sampled_from(MISSED)),
                  draw(st.sampled_from(ABSENCE)), draw(st.sampled_from(ZONES)))
    since = T0 + draw(st.integers(min_value=-200, max_value=200)) * timedelta(minutes=37)
    due = since + draw(hours) if draw(st.booleans()) else None
    held = T0.date() + timedelta(days=draw(st.integers(-5, 8))) if draw(st.booleans()) else None
    current = CurrentTurn(3, "greeks", since, due, due - since if due else None, zone, draw(st.booleans()),
                          draw(st.booleans()), held)
    absences = tuple(Absence(draw(st.sampled_from(["greeks", "greeks", "arabs"])),
                             first := T0.date() + timedelta(days=draw(st.integers(-6, 12))),
                             first + timedelta(days=draw(st.integers(0, 6))))
                     for _ in range(draw(st.integers(0, 3))))
    paused = Pause(T0) if draw(st.integers(0, 9)) == 0 else None
    now = T0 + draw(st.integers(min_value=0, max_value=14 * 24 * 60)) * timedelta(minutes=1)
    return TurnClock(current if draw(st.integers(0, 9)) else None, paused, absences), rules, now


def settle(clock: TurnClock, rules: Rules, now: datetime) -> TurnClock | None:
    """The clock as the cycle leaves it at ``now`` (the steps that change only the clock,
    done as the cycle's timekeeper does them); ``None`` if a turn would be played (then the
    game, not only the clock, moves on)."""
    for _ in range(10):
        s = step(clock, now, rules)
        if not s.due_by(now):
            return clock
        if s.kind in ("absent", "missed"):
            return None
        clock = clock.after(s)
    raise AssertionError(f"the clock does not settle at {now}: {clock}")


MOMENTS = st.lists(st.floats(min_value=0, max_value=1, exclude_max=True), min_size=1, max_size=6)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(clocks(), MOMENTS)
def test_the_watermark_and_the_cycle_agree_over_many_clocks(case, fractions):
    """The moment a watermark records (``next_step(...).at`` once the cycle is done at
    ``now``) is never late: at every moment before it the cycle would find nothing to do
    (an idle run may be skipped), and at that moment something may be due. Both are the
    one function, asked at different times."""
    agree(case, fractions)


@pytest.mark.slow
@settings(max_examples=5000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(clocks(), MOMENTS)
def test_the_watermark_and_the_cycle_agree_over_very_many_clocks(case, fractions):
    agree(case, fractions)


def agree(case, fractions) -> None:
    clock, rules, now = case
    settled = settle(clock, rules, now)
    if settled is None:
        return
    predicted = step(settled, now, rules).at
    assert predicted is None or predicted > now
    horizon = predicted if predicted is not None else now + timedelta(days=60)
    moments = [now + (horizon - now) * f for f in fractions] + [horizon - timedelta(seconds=1)]
    for t in moments:
        if now <= t < horizon:
            assert not step(settled, t, rules).due_by(t), (settled, rules, now, predicted, t)
    if predicted is not None:
        boundaries = {m for a in settled.absences if a.nation == "greeks"
                      for m in (start_of_day(a.first, settled.zone), end_of_day(a.last, settled.zone))}
        assert step(settled, predicted, rules).due_by(predicted) or predicted in boundaries


# -- the clock's file ----------------------------------------------------------------------------


def test_the_clock_file_round_trips_and_leaves_out_what_the_clock_has_not():
    clock = started(absences=(Absence("arabs", date(2026, 12, 1), date(2026, 12, 3), "moving", "gm", "x"),),
                    paused=Pause(T0, "why"))
    data = clock_to_json(clock)
    assert set(data) == {"format", "current", "paused", "absences"} and "held" not in data["current"]
    assert clock_from_json(json.loads(json.dumps(data))).clock == clock
    assert clock_to_json(TurnClock()) == {"format": 1}


def test_a_reader_never_fails_on_the_clock_file_a_keeper_refuses_a_damaged_one(tmp_path):
    game = tmp_path / "game.json"
    path = tmp_path / "game.clock.json"
    assert read_clock(game) == TurnClock()  # not run by mail
    path.write_text('{"format": 1, "current": {"turn": 1}, "absences": [{"nation": "x", "from": "soon"}]}')
    assert read_clock(game) == TurnClock()  # what cannot be read is left out
    with pytest.raises(InputError) as refused:
        ClockFile(game).load()
    assert "game.clock.json" in str(refused.value) and "cannot be read" in str(refused.value)
    path.write_bytes(b"\xff{not json")
    assert read_clock(game) == TurnClock()
    with pytest.raises(InputError):
        ClockFile(game).load()


def test_the_clock_file_is_the_gms_alone_and_replaces_a_planted_link(tmp_path):
    game = tmp_path / "game.json"
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    (tmp_path / "game.clock.json").symlink_to(victim)
    keeper = ClockFile(game)
    keeper.save(started())
    path = tmp_path / "game.clock.json"
    assert victim.read_text() == "precious\n" and not path.is_symlink()
    assert stat.S_IMODE(path.lstat().st_mode) == 0o600
    assert read_clock(game) == started()


def test_a_change_whose_audit_line_cannot_be_written_leaves_the_clock_as_it_was(tmp_path):
    game = tmp_path / "game.json"
    keeper = ClockFile(game)
    keeper.save(started())
    before = (tmp_path / "game.clock.json").read_bytes()
    (tmp_path / "game.audit.jsonl").mkdir()
    with pytest.raises(CannotWrite):
        keeper.save(started(paused=Pause(T0, "x")), [{"action": "pause"}])
    assert (tmp_path / "game.clock.json").read_bytes() == before and keeper.saved == started()


def test_an_earlier_releases_clock_moves_out_of_the_ledger_once_and_is_logged(tmp_path):
    """The parts of the clock a mail ledger of an earlier release holds (``clock`` with its
    ``key``, ``paused``, ``absences``, ``last_error``) become the clock file, and the move is
    one line in the audit log; a clock file that exists already wins."""
    game = tmp_path / "game.json"
    parts = {"clock": {"key": [3, "greeks"], "since": "2026-11-23T10:00:00Z", "due": "2026-11-25T10:00:00Z",
                       "allow": 172800, "zone": "Europe/Berlin", "reminded": True, "missed": False,
                       "held": "2026-11-30"},
             "paused": {"since": "2026-11-23T10:00:00Z", "reason": "why"},
             "absences": [{"nation": "greeks", "from": "2026-11-24", "until": "2026-11-30", "reason": "skiing",
                           "by": "player", "at": "2026-11-23T10:00:00Z"}, {"nation": "arabs", "from": "garbage"}],
             "last_error": {"at": "2026-11-23T10:00:00Z", "what": "the server refused"}}
    moved = ClockFile(game).migrate(parts, T0, "game.mail.json")
    assert moved.current == CurrentTurn(3, "greeks", T0, T0 + 48 * H, 48 * H, "Europe/Berlin", True, False,
                                        date(2026, 11, 30))
    assert moved.paused == Pause(T0, "why") and [a.reason for a in moved.absences] == ["skiing"]
    assert moved.last_error is not None and moved.last_error.what == "the server refused"
    assert read_clock(game) == moved
    (line,) = (tmp_path / "game.audit.jsonl").read_text().splitlines()
    record = json.loads(line)
    assert record["action"] == "clock-moved" and record["from"] == "game.mail.json"
    assert record["to"] == "game.clock.json" and len(record["dropped"]) == 1
    assert ClockFile(game).migrate({"clock": {"key": [9, "arabs"], "since": "2026-12-01T00:00:00Z"}}, T0,
                                   "game.mail.json") == moved
    assert len((tmp_path / "game.audit.jsonl").read_text().splitlines()) == 1
    assert legacy_clock({}).clock == TurnClock()
    assert not os.path.exists(tmp_path / "game.mail.json")  # the service wrote the clock, never the ledger


def test_the_service_never_reads_the_mail_ledger():
    """No module of the service names the mail ledger's file in its code (docstrings may
    speak of it): the clock is read from its own file."""
    import ast
    from pathlib import Path

    for path in sorted((Path(__file__).resolve().parent.parent.parent / "pbem" / "service").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docs = {id(n.body[0].value) for n in ast.walk(tree)
                if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef)) and n.body
                and isinstance(n.body[0], ast.Expr)}
        named = [n.lineno for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
                 and id(n) not in docs and ".mail.json" in n.value]
        assert named == [], path


def test_the_clock_of_a_game_is_told_whatever_its_ledger_holds(tmp_path):
    from conftest import cli_run, new_game_file

    game = new_game_file(tmp_path, "--id", "demo")
    shown = json.loads(cli_run("show", game, "--json").stdout)
    current = {"turn": shown["turn"], "nation": shown["active"], "since": "2026-11-23T10:00:00Z",
               "due": "2026-11-25T10:00:00Z", "allow": 172800, "zone": "UTC"}
    (tmp_path / "game.clock.json").write_text(json.dumps({"format": 1, "current": current}))
    (tmp_path / "game.mail.json").write_bytes(b"\xff garbage, not a ledger")
    data = json.loads(cli_run("show", game, "--json", "--now", "2026-11-24T10:00:00Z").stdout)
    assert data["deadline"]["due"] == "2026-11-25T10:00:00Z" and data["deadline"]["seconds_left"] == 86400
    assert datetime(2026, 11, 25, 10, tzinfo=UTC) == parse_time(data["deadline"]["due"])
