"""No mail lost in silence (issue 38, item 1): each finding of a month of real play, as a
player or a GM wrote it, and what the referee answers now (docs/mail.md, "Commands by
mail", "Press", "Mail from another address", "Observers")."""

from __future__ import annotations

import json

import pytest

from conftest import cli_run
from mailkit import (
    ADDRESSES,
    GM,
    active,
    body,
    desk_table,
    mail,
    text,
    to_of,
)

_minute = [0]


@pytest.fixture
def desk(tmp_path):
    return desk_table(tmp_path, _minute)


def to(message) -> str:
    return to_of(message).split("<")[-1].rstrip(">")


def only_to(messages, address):
    assert [to(m) for m in messages] == [address], [to_of(m) for m in messages]
    return messages[0]


# -- a misspelt command beside a greeting ----------------------------------------------------


def test_a_misspelt_command_beside_a_greeting_gets_did_you_mean(desk):
    folder, game, cfg, cycle = desk
    out = cycle(mail(ADDRESSES["greeks"], subject="help?", body="Hi referee,\n\nHLEP\n\nDora\n"))
    words = text(only_to(out, ADDRESSES["greeks"]))
    assert "'HLEP' is no command (did you mean HELP?)" in words
    # prose is no misspelt command: a chat mail still goes unanswered
    assert cycle(mail(ADDRESSES["greeks"], subject="Friday", body="Hi referee,\n\nSee you on Friday!\n\nDora\n")) \
        == []


def test_a_misspelt_command_after_the_last_command_is_told_not_dropped(desk):
    folder, game, cfg, cycle = desk
    out = cycle(mail(ADDRESSES["greeks"], body="Hi referee,\nSTATUS\nHLEP\nDora\n"))
    words = text(only_to(out, ADDRESSES["greeks"]))
    assert "The Greeks hold" in words  # STATUS was run
    assert "line 3: 'HLEP' is no command (did you mean HELP?)" in words


# -- a command after the orders --------------------------------------------------------------


def test_a_command_after_the_orders_is_run_not_listed_as_not_read(desk):
    folder, game, cfg, cycle = desk
    nation = active(game)
    out = cycle(mail(ADDRESSES[nation], body=f"Hi,\ngame demo\nnation {nation}\nturn 1\npassword pw-{nation}\n"
                                             "rondel gold\nSTATUS\nThanks, Ann\n"))
    mine = [m for m in out if to(m) == ADDRESSES[nation]]
    receipt = next(m for m in mine if "accepted" in str(m["Subject"]))
    assert "STATUS" not in body(receipt).split("Not read as orders")[-1] or "Not read as orders" not in body(receipt)
    assert "Thanks, Ann" in body(receipt)  # the prose around the orders is still listed
    answer = next(m for m in mine if "STATUS" in str(m["Subject"]))
    assert "Next: turn 2" in text(answer) and f"The {nation.capitalize()} hold" in text(answer)
    assert json.loads(game.read_text())["history"][-1]["kind"] == "turn"


def test_press_after_the_orders_is_told_to_go_in_a_mail_of_its_own(desk):
    folder, game, cfg, cycle = desk
    nation = active(game)
    out = cycle(mail(ADDRESSES[nation], body=f"game demo\nnation {nation}\nturn 1\npassword pw-{nation}\n"
                                             "rondel gold\nPRESS TO all\nHello everyone\n"))
    answer = next(m for m in out if to(m) == ADDRESSES[nation] and "PRESS" in str(m["Subject"]))
    assert "a mail of its own" in text(answer)
    assert not (folder / "game.press.jsonl").exists()


# -- a mail from a player's other address ----------------------------------------------------


def test_orders_from_a_players_other_address_are_told_to_the_gm_and_the_sender(desk):
    folder, game, cfg, cycle = desk
    nation = active(game)
    before = game.read_bytes()
    phone = f"{nation}.phone@mobile.example"
    out = cycle(mail(f"{nation.capitalize()} Player <{phone}>", subject="my turn",
                     body=f"game demo\nnation {nation}\nturn 1\npassword pw-{nation}\nrondel gold\n"))
    assert game.read_bytes() == before  # never applied
    answer = only_to([m for m in out if to(m) == phone], phone)
    lines = [line for line in body(answer).splitlines() if line.strip()]
    assert len(" ".join(lines)) < 300 and "registered" in " ".join(lines)
    assert ADDRESSES[nation] not in body(answer)  # the registered address is not told to whoever wrote
    notice = only_to([m for m in out if to(m) == GM], GM)
    assert phone in body(notice) and "--keep-password" in body(notice)
    status = cli_run("status", "--config", cfg, "--now", "2026-11-23T16:00:00Z")
    assert f"a mail for the {nation.capitalize()} came from another address" in status.stdout
    assert phone not in status.stdout


def test_commands_from_a_players_other_address_by_the_senders_name(desk):
    folder, game, cfg, cycle = desk
    out = cycle(mail("Greeks Player <dora.work@office.example>", body="STATUS\n"))
    assert sorted(to(m) for m in out) == sorted(["dora.work@office.example", GM])
    answer = next(m for m in out if to(m) == "dora.work@office.example")
    assert "write from the address you registered" in text(answer) and "The Greeks hold" not in text(answer)


def test_strangers_stay_unanswered(desk):
    folder, game, cfg, cycle = desk
    nation = active(game)
    assert cycle(mail("Eve <eve@spam.example>", body="STATUS\n"),
                 mail("Eve <eve@spam.example>", body=f"game demo\nnation {nation}\nturn 1\npassword guess\n"
                                                     "rondel gold\n")) == []
    status = cli_run("status", "--config", cfg, "--now", "2026-11-23T16:00:00Z")
    assert "another address" not in status.stdout


# -- a reply to a press mail -----------------------------------------------------------------


def _press(cycle):
    out = cycle(mail(ADDRESSES["arabs"], body="password pw-arabs\nPRESS TO persians\nShall we share Babylon?\n"))
    return next(m for m in out if "press from the Arabs" in str(m["Subject"]))


def test_a_reply_to_a_press_mail_with_the_password_reaches_the_press_sender(desk):
    folder, game, cfg, cycle = desk
    press = _press(cycle)
    quoted = "\n".join("> " + line for line in body(press).splitlines())
    out = cycle(mail(ADDRESSES["persians"], subject="Re: " + str(press["Subject"]),
                     body=f"Yes, gladly.\npassword pw-persians\n\nOn Monday the referee wrote:\n{quoted}\n",
                     headers={"In-Reply-To": press["Message-ID"], "References": press["Message-ID"]}))
    back = only_to([m for m in out if "press from the Persians" in str(m["Subject"])], ADDRESSES["arabs"])
    assert "Yes, gladly." in body(back)
    assert "pw-persians" not in body(back) and "Shall we share" not in body(back) and "wrote:" not in body(back)
    assert any(to(m) == ADDRESSES["persians"] and "Sent to Arabs" in text(m) for m in out)


def test_a_reply_to_a_press_mail_without_the_password_tells_how_to_answer(desk):
    folder, game, cfg, cycle = desk
    press = _press(cycle)
    out = cycle(mail(ADDRESSES["persians"], subject="Re: " + str(press["Subject"]), body="Yes, gladly.\n",
                     headers={"In-Reply-To": press["Message-ID"]}))
    answer = only_to(out, ADDRESSES["persians"])
    assert "PRESS TO arabs" in body(answer) and "password" in text(answer)
    assert len([json.loads(line) for line in (folder / "game.press.jsonl").read_text().splitlines()]) == 1


# -- observers -------------------------------------------------------------------------------


def test_an_observer_gets_status_and_help(desk):
    folder, game, cfg, cycle = desk
    out = cycle(mail("Olga <olga@watch.example>", body="Hello,\nSTATUS\nHELP\n"))
    answer = only_to(out, "olga@watch.example")
    words = text(answer)
    assert "Next: turn 1" in words and "STATUS:" in words
    assert "hold" not in words.split("HELP")[0]  # no nation's holdings: an observer plays none
    refused = cycle(mail("Olga <olga@watch.example>", body="PRESS TO all\nGood luck!\n"))
    assert "observers" in text(only_to(refused, "olga@watch.example"))
    assert not (folder / "game.press.jsonl").exists()


def test_an_observer_speaks_where_the_game_lets_observers_speak(desk):
    folder, game, cfg, cycle = desk
    out = cycle(mail("Olga <olga@watch.example>", body="PRESS TO all\nGood luck to all!\n"),
                extra_config="observer_press = true\n")
    press = [m for m in out if "press from" in str(m["Subject"])]
    assert sorted(to(m) for m in press) == sorted(ADDRESSES.values())
    assert all("Good luck to all!" in body(m) and "olga@watch.example" not in body(m) for m in press)
    told = cycle(mail("Olga <olga@watch.example>", body="PRESS TO greeks\nPsst\n"))
    assert "to all only" in text(only_to(told, "olga@watch.example"))


# -- a refused command copied to the GM ------------------------------------------------------


def test_a_refused_command_is_copied_to_the_gm_when_gm_copies_asks(desk):
    folder, game, cfg, cycle = desk
    out = cycle(mail(ADDRESSES["greeks"], body="PASSWORD\n"), extra_config='gm_copies = "refusals"\n')
    assert sorted(to(m) for m in out) == sorted([ADDRESSES["greeks"], GM])
    copy = next(m for m in out if to(m) == GM)
    assert "[copy]" in str(copy["Subject"]) and "needs your password" in body(copy)
    # a mail with a command done and one refused: the copy shows the refusal, never a new password
    out = cycle(mail(ADDRESSES["greeks"], body="password pw-greeks\nPASSWORD\nRESEND 99\n"))
    new = json.loads((folder / "game.secrets.json").read_text())["greeks"]
    copy = next(m for m in out if to(m) == GM and "[copy]" in str(m["Subject"]))
    assert "has not been played" in body(copy) and new not in body(copy)
    assert to_of(cycle(mail(ADDRESSES["greeks"], body="STATUS\n"))[0]) == ADDRESSES["greeks"]
