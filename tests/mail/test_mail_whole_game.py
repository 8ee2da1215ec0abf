"""A whole game played through the mail cycle only: bots write their orders as text in the
body of a reply to the report they got, the cycle reads them from a Maildir, applies
them, and answers; from ``new`` to a win, then ``verify``."""

from __future__ import annotations

import json
from datetime import UTC

import pytest

from conftest import PASSWORDS, cli_run, new_game_file
from mailkit import add_to_maildir, body, config, mail, maildir, sent

NATIONS = ["greeks", "persians", "arabs"]
ADDRESSES = {n: f"{n}@players.example" for n in NATIONS}


def _mail_game(tmp_path, game_id: str, seed: str, defaults: str):
    """A new three-nation game with a player address per nation, its mail configuration
    (``defaults``), an empty Maildir, the outbox folder, the first run's clock and a
    service on the game file."""
    from datetime import datetime

    from pbem.mail.config import load_config
    from pbem.service.service import GameService

    players = [a for n in NATIONS for a in ("--player", f"{n}={n.title()} Bot <{ADDRESSES[n]}>")]
    game = new_game_file(tmp_path, "--id", game_id, "--seed", seed, *players, nations=NATIONS)
    cfg = load_config(config(tmp_path, game, defaults=defaults))
    return (game, cfg, maildir(tmp_path / "Maildir"), tmp_path / "out",
            datetime(2026, 11, 23, 10, 0, tzinfo=UTC), GameService(game))


@pytest.mark.slow
def test_a_whole_game_by_mail(tmp_path):
    from datetime import timedelta

    from pbem.mail.cycle import Cycle
    from pbem.mail.transport import Transport
    from pbem.play.bot import play_turn
    from pbem.service.language.writer import format_text_orders

    game, cfg, box, outbox, clock, service = _mail_game(tmp_path, "bymail", "mail-game",
                                                        'attach = ""')
    log: list[str] = []

    inboxes: dict[str, list] = {n: [] for n in NATIONS}

    def cycle():
        """One cron run; then every player reads their new mail (the outbox empties)."""
        nonlocal clock
        clock += timedelta(minutes=5)
        summary = Cycle(cfg, clock, Transport(outbox=outbox), log.append).run(list(cfg.games), source=str(box))
        assert not summary.failures, log[-5:]
        for message in sent(outbox):
            for n in NATIONS:
                if ADDRESSES[n] in str(message["To"]):
                    inboxes[n].append(message)
        for f in outbox.glob("*.eml"):
            f.unlink()
        return summary

    cycle()  # the opening report to everyone
    turns = 0
    while True:
        current = service.load()  # each player's own copy of the game file
        status = current.state.status
        if status.winner is not None:
            break
        nation = status.active
        # the player answers the latest report mail they received, quoting it
        report = [m for m in inboxes[nation] if "after" in str(m["Subject"])][-1]
        assert "It is your turn" in body(report)
        orders = {**play_turn(current, "greedy"), "password": PASSWORDS[nation]}
        text = format_text_orders(orders, current.edition, current.board)
        quoted = "\n".join("> " + line for line in body(report).splitlines()[:12])
        reply = f"{text}\nOn Monday the referee wrote:\n{quoted}\n-- \n{nation.title()} Bot\n"
        add_to_maildir(box, mail(ADDRESSES[nation], subject=f"Re: {report['Subject']}", body=reply))
        summary = cycle()
        assert summary.applied == 1 and summary.rejected == 0, log[-5:]
        turns += 1
        assert turns < 400, "no winner"
        receipts = [m for m in inboxes[nation] if "accepted" in str(m["Subject"])]
        assert receipts and receipts[-1]["In-Reply-To"] is not None
        inboxes[nation] = inboxes[nation][-3:]
    data = json.loads(game.read_text())
    assert data["status"]["winner"] in NATIONS
    played = [e for e in data["history"] if e["kind"] == "turn"]
    assert len(played) == turns and all("mail" in e for e in played)
    assert len({e["mail"] for e in played}) == turns
    result = cli_run("verify", game)
    assert result.exit_code == 0, result.stderr
    # a last mail after the end is answered, not applied
    add_to_maildir(box, mail(ADDRESSES["greeks"],
                             body="game bymail\nnation greeks\nturn 999\npassword pw-greeks\nrondel gold"))
    before = game.read_bytes()
    assert cycle().rejected == 1
    assert game.read_bytes() == before


@pytest.mark.slow
def test_a_whole_game_by_mail_with_an_absence_an_extension_press_and_an_observer(tmp_path):
    """A long game as people play it: one player goes away for two days (the bot plays for
    them), the GM extends one deadline, someone sends press every few turns, an observer
    follows; from ``new`` to a win, then ``verify``."""
    from datetime import timedelta

    from pbem.mail import judge
    from pbem.mail.cycle import Cycle
    from pbem.mail.transport import Transport
    from pbem.play.bot import play_turn
    from pbem.service.language.writer import format_text_orders

    game, cfg, box, outbox, clock, service = _mail_game(tmp_path, "judged", "judge-game",
                                                        'attach = ""\ndeadline = "48h"\nabsence = "bot"\n'
                                                      'observers = ["Olga <olga@watch.example>"]')
    log: list[str] = []
    got: dict[str, list] = {a: [] for a in [*ADDRESSES.values(), "olga@watch.example"]}

    def cycle(step=timedelta(hours=3)):
        nonlocal clock
        clock += step
        summary = Cycle(cfg, clock, Transport(outbox=outbox), log.append).run(list(cfg.games), source=str(box))
        assert not summary.failures, log[-5:]
        for message in sent(outbox):
            for address in got:
                if address in str(message["To"]):
                    got[address].append(message)
        for f in outbox.glob("*.eml"):
            f.unlink()

    cycle()
    turns = press = 0
    away, extended = None, False
    while True:
        current = service.load()
        status = current.state.status
        if status.winner is not None:
            break
        nation = status.active
        turns += 1
        assert turns < 400, "no winner"
        if turns == 10 and away is None:
            away = nation
            until = (clock + timedelta(days=2)).date().isoformat()
            add_to_maildir(box, mail(ADDRESSES[nation], body=f"password {PASSWORDS[nation]}\nABSENT UNTIL {until}\n"))
            cycle(timedelta(minutes=5))  # noted; from now on the bot plays for them
            continue
        if turns == 20 and not extended:
            judge.change_deadline(game, clock, by=timedelta(hours=24), reason="a long weekend")
            extended = True
        if turns % 6 == 0:
            add_to_maildir(box, mail(ADDRESSES[nation], body=f"password pw-{nation}\nPRESS TO all\n"
                                                         f"Turn {status.turn}: peace to all.\n"))
            press += 1
        orders = {**play_turn(current, "greedy"), "password": PASSWORDS[nation]}
        add_to_maildir(box, mail(ADDRESSES[nation], subject="orders",
                                 body=format_text_orders(orders, current.edition, current.board)))
        cycle()
    data = json.loads(game.read_text())
    assert data["status"]["winner"] in NATIONS
    bot_turns = [e for e in data["history"] if e["kind"] == "bot-turn"]
    assert bot_turns and all(e["nation"] == away and e.get("absent") for e in bot_turns)
    assert cli_run("verify", game).exit_code == 0, "the game does not verify"
    olga = got["olga@watch.example"]
    assert sum("press from" in str(m["Subject"]) for m in olga) == press
    assert any("news of the game" in str(m["Subject"]) and "The deadline of turn" in body(m) for m in olga)
    assert sum("after turn" in str(m["Subject"]) for m in olga) >= turns - 5
    audit = [json.loads(line) for line in game.with_name(game.stem + ".audit.jsonl").read_text().splitlines()]
    assert [r["action"] for r in audit] == ["absent", "deadline"]


@pytest.mark.slow
def test_a_whole_game_by_mail_where_the_strong_bot_plays_a_nation_that_misses_its_deadlines(tmp_path):
    """One player stops answering after their first turn; the configuration says
    ``missed = "bot"`` and ``bot = "strong"``, so the searching bot plays every turn of
    theirs once the deadline has passed; the others answer by mail; from ``new`` to a win,
    then ``verify``."""
    from datetime import timedelta

    from pbem.mail.cycle import Cycle
    from pbem.mail.transport import Transport
    from pbem.play.bot import play_turn
    from pbem.service.language.writer import format_text_orders

    game, cfg, box, outbox, clock, service = _mail_game(tmp_path, "strongmail", "strong-mail",
                                                        'attach = ""\ndeadline = "48h"\nmissed = "bot"\nbot = "strong"')
    log: list[str] = []
    silent = "arabs"

    def cycle(step):
        nonlocal clock
        clock += step
        summary = Cycle(cfg, clock, Transport(outbox=outbox), log.append).run(list(cfg.games), source=str(box))
        assert not summary.failures, log[-5:]
        for f in outbox.glob("*.eml"):
            f.unlink()

    cycle(timedelta(minutes=5))
    turns = missed = 0
    while True:
        current = service.load()
        status = current.state.status
        if status.winner is not None:
            break
        nation = status.active
        turns += 1
        assert turns < 400, "no winner"
        if nation == silent and turns > len(NATIONS):
            cycle(timedelta(hours=49))  # the deadline passes: the strong bot plays
            missed += 1
            after = service.load()
            assert after.history[-1]["kind"] == "bot-turn" and after.history[-1]["nation"] == silent
            continue
        orders = {**play_turn(current, "greedy"), "password": PASSWORDS[nation]}
        add_to_maildir(box, mail(ADDRESSES[nation], subject="orders",
                                 body=format_text_orders(orders, current.edition, current.board)))
        cycle(timedelta(hours=1))
    data = json.loads(game.read_text())
    assert data["status"]["winner"] in NATIONS
    bot_turns = [e for e in data["history"] if e["kind"] == "bot-turn"]
    assert len(bot_turns) == missed > 0
    assert all(e["nation"] == silent and e.get("bot") == "strong" and e.get("deadline") for e in bot_turns)
    assert cli_run("verify", game).exit_code == 0, "the game does not verify"
