"""Games without a game master from the command line (docs/without-gm.md), players'
signatures in a game a GM runs, and draws during play that wait for the others' reveals."""

from __future__ import annotations

import json
import subprocess

import pytest

from conftest import PASSWORDS, cli_run, new_game_file
from pbem.errors import PbemError, VerifyFailed
from pbem.service import store
from pbem.service.signed.blocks import armor, find
from pbem.service.signed.chance import PlayChance
from pbem.trust.commit import draw
from signedkit import MINUTE, SEATS, Table, key_of

NOW = "--now"


def ok(*args):
    result = cli_run(*args)
    assert result.exit_code == 0, result.stderr + result.stdout
    return result.stdout


def test_a_game_from_keygen_to_a_verified_turn_on_the_command_line(tmp_path):
    """Three folders: keys made, the proposal, joins and reveals exchanged as files, a turn
    played with --key and accepted; the files equal; verify and ssh-keygen agree."""
    for seat in SEATS:
        (tmp_path / seat).mkdir()
        ok("keygen", tmp_path / f"{seat}.key", "--comment", seat)
    games = {s: tmp_path / s / "demo.json" for s in SEATS}
    ok("new", games["greeks"], "--signed", "--nations", ",".join(SEATS), "--deadline", "2d",
       NOW, "2026-01-01T10:00:00Z")
    proposal = tmp_path / "proposal.txt"
    proposal.write_text(ok("blocks", games["greeks"]))
    for seat in SEATS:
        ok("join", games[seat], *([proposal] if seat != "greeks" else []), "--seat", seat, "--key",
           tmp_path / f"{seat}.key", NOW, "2026-01-01T10:05:00Z", "--block", tmp_path / f"join-{seat}.txt")
    joins = [tmp_path / f"join-{s}.txt" for s in SEATS]
    for seat in SEATS:
        ok("accept", games[seat], proposal, *joins, NOW, "2026-01-01T10:06:00Z")
    assert "reveal with antike-ref reveal" in ok("show", games["arabs"], "--as", "arabs")
    for seat in SEATS:
        ok("reveal", games[seat], "--key", tmp_path / f"{seat}.key", NOW, "2026-01-01T11:00:00Z",
           "--block", tmp_path / f"reveal-{seat}.txt")
    for seat in SEATS:
        ok("accept", games[seat], *[tmp_path / f"reveal-{s}.txt" for s in SEATS], NOW, "2026-01-01T11:01:00Z")
    assert len({games[s].read_bytes() for s in SEATS}) == 1
    first = store.load_game(games["greeks"]).state.status.active
    shown = ok("show", games[first], "--as", first, NOW, "2026-01-01T12:00:00Z")
    assert "without a game master: you play" in shown
    orders = tmp_path / "orders.txt"
    orders.write_text(f"game demo\nnation {first}\nturn 1\nrondel arming\n")
    out = ok("process", games[first], orders, "--key", tmp_path / f"{first}.key", NOW, "2026-01-01T12:00:00Z",
             "--block", tmp_path / "turn1.txt")
    assert "signed and processed" in out and "-----BEGIN ANTIKE-REF ENTRY-----" in out
    for seat in SEATS:
        if seat != first:
            ok("accept", games[seat], tmp_path / "turn1.txt", NOW, "2026-01-01T12:01:00Z")
    assert len({games[s].read_bytes() for s in SEATS}) == 1
    verified = ok("verify", games["arabs"])
    assert "1 turn signed by their movers" in verified
    ok("entry", games["arabs"], "1", "--message", tmp_path / "m", "--signature", tmp_path / "m.sig", "--signers",
       tmp_path / "allowed")
    result = subprocess.run(["ssh-keygen", "-Y", "verify", "-f", tmp_path / "allowed", "-I", f"{first}@demo", "-n",
                             "antike-ref@turn", "-s", tmp_path / "m.sig"], input=(tmp_path / "m").read_bytes(),
                            capture_output=True)
    assert result.returncode == 0, result.stderr
    post = ok("post", games["arabs"])
    assert post.count("[code]\n-----BEGIN ANTIKE-REF ENTRY-----") == 1
    assert [f.signed.kind for f in find(post, "post")] == ["turn"]


def test_the_cli_refuses_by_name(tmp_path):
    table = Table(tmp_path / "t")
    seat = next(s for s in SEATS if s != table.active())
    store.write_atomic(tmp_path / f"{seat}.key", table.keys[seat].private_file().decode(), mode=0o600)
    before = table.files()
    result = cli_run("claim", table.folders[seat].path, "--key", tmp_path / f"{seat}.key", NOW, "2026-01-01T12:00:00Z")
    assert result.exit_code == 4 and "(claim/early)" in result.stderr
    orders = tmp_path / "o.json"
    orders.write_text(json.dumps({"game": "demo", "nation": table.active(), "password": "x",
                                  "rondel": {"to": "arming"}}))
    result = cli_run("process", table.folders[seat].path, orders)
    assert result.exit_code == 4 and "game/no-game-master" in result.stderr
    lines = table.log[-1].splitlines()
    lines[3] = lines[3][::-1]  # a line of the block garbled on the way
    (tmp_path / "bad.txt").write_text("\n".join(lines))
    result = cli_run("accept", table.folders[seat].path, tmp_path / "bad.txt")
    assert result.exit_code == 3 and "block/damaged" in result.stderr
    assert table.files() == before
    result = cli_run("new", tmp_path / "x.json", "--signed", "--nations", ",".join(SEATS), "--password", "greeks=a")
    assert result.exit_code == 2 and "no --password" in result.stderr


# -- a game a GM runs, signed by its players ---------------------------------------------------


def test_a_gm_game_proves_which_orders_each_player_gave(tmp_path):
    """The player signs the orders (antike-ref sign); the GM processes them with the block;
    the history keeps it; verify checks it; a signature of other orders is refused; a turn
    without a signature is as it always was."""
    path = new_game_file(tmp_path)
    game = store.load_game(path)
    nation = game.state.status.active
    orders = tmp_path / "o.txt"
    orders.write_text(f"game game\nnation {nation}\npassword {PASSWORDS[nation]}\nturn 1\nrondel arming\n")
    store.write_atomic(tmp_path / "k", key_of(nation).private_file().decode(), mode=0o600)
    ok("sign", orders, "--game", path, "--key", tmp_path / "k", NOW, "2026-01-01T10:00:00Z", "--block",
       tmp_path / "sig.txt")
    other = tmp_path / "other.txt"
    other.write_text(f"game game\nnation {nation}\npassword {PASSWORDS[nation]}\nturn 1\nrondel temple\n")
    before = path.read_bytes()
    result = cli_run("process", path, other, "--signature", tmp_path / "sig.txt")
    assert result.exit_code == 6 and "chain/orders-refused" in result.stderr and path.read_bytes() == before
    ok("process", path, orders, "--signature", tmp_path / "sig.txt")
    entry = store.load_game(path).history[-1]
    assert entry["signed"]["entry"]["orders"]["rondel"] == {"to": "arming"}
    assert entry["signed"]["entry"]["seat"] == nation
    assert f"orders signed by their players: {nation} 1" in ok("verify", path)
    next_nation = store.load_game(path).state.status.active
    orders.write_text(f"game game\nnation {next_nation}\npassword {PASSWORDS[next_nation]}\nturn 2\nrondel arming\n")
    ok("process", path, orders)
    assert "signed" not in store.load_game(path).history[-1]
    data = json.loads(path.read_text())
    data["history"][1]["signed"]["entry"]["orders"]["rondel"] = {"to": "temple"}
    path.write_text(json.dumps(data))
    from pbem.service.signed.referee import verify_referee

    with pytest.raises((VerifyFailed, PbemError)):
        verify_referee(store.load_game(path))


# -- draws during play ---------------------------------------------------------------------


def _asked(game, seq: int, purpose: str, n: int):
    """``game`` as if entry ``seq`` had asked for a draw (an edition's turn does)."""
    game.history[seq] = {**game.history[seq], "draws": [{"purpose": purpose, "n": n}]}
    return game


def test_a_draw_waits_for_the_reveals_made_after_the_choice(tmp_path):
    """A draw asked at entry 1 (greeks' turn) is pending until persians and arabs have
    revealed after it; then every copy computes the same index, from those reveals and the
    chooser's own."""
    table = Table(tmp_path)
    table.play()
    chance = PlayChance(_asked(table.game(), 1, "display 1", 25), "persians")
    assert chance.below(25, "display 1") is None
    table.play()
    assert PlayChance(_asked(table.game(), 1, "display 1", 25), "arabs").below(25, "display 1") is None
    table.play()
    games = [_asked(table.game(s), 1, "display 1", 25) for s in SEATS]
    reveals = {e["signed"]["entry"]["seat"]: bytes.fromhex(e["signed"]["entry"]["reveal"])
               for e in games[0].history[1:4]}
    expected = draw("demo", 1, "display 1", reveals, 25)
    assert {PlayChance(g, "greeks").below(25, "display 1") for g in games} == {expected}
    fresh = PlayChance(games[0], "greeks")
    assert fresh.below(6, "discard 4") is None and fresh.asked == [{"purpose": "discard 4", "n": 6}]


def test_a_withheld_reveal_does_not_stall_a_draw(tmp_path):
    """A seat that misses its turn after the draw (a claim plays it) is left out: the others'
    reveals decide."""
    table = Table(tmp_path)
    table.play()
    table.play()
    missed = table.active()
    claimer = next(s for s in SEATS if s != missed)
    from pbem.service.signed import chain

    due = chain.deadline(table.game())
    claim = table.folders[claimer].claim(table.keys[claimer], due)
    table.deliver(armor(claim), due + MINUTE, [s for s in SEATS if s != claimer])
    game = _asked(table.game(), 2, "card", 10)
    said = [game.history[i]["signed"]["entry"] for i in (2,)]
    assert PlayChance(game, "greeks").below(10, "card") is None  # greeks has not revealed since entry 2
    table.now = due + MINUTE
    table.play()
    game = _asked(table.game(), 2, "card", 10)
    reveals = {said[0]["seat"]: bytes.fromhex(said[0]["reveal"]),
               "greeks": bytes.fromhex(game.history[4]["signed"]["entry"]["reveal"])}
    assert PlayChance(game, "persians").below(10, "card") == draw("demo", 2, "card", reveals, 10)



def test_an_editions_draw_during_a_turn_is_recorded_pending_and_resolved_by_the_next_reveals(tmp_path, monkeypatch):
    """An edition asks the turn's chance source (``Turn.chance``): in a game without a GM the
    draw is pending, recorded with the entry in every copy alike; the same question asked
    at a later entry is answered once the other seats have revealed."""
    from pbem import editions

    classic = editions.get("classic")
    plain = classic.turn.at_moment
    answers: list = []

    def at_moment(t, when, orders, echo):
        plain(t, when, orders, echo)
        if when == "after" and t.chance is not None:
            answers.append((t.state.status.turn, t.chance.below(6, "die of turn 1")))

    monkeypatch.setattr(classic.turn, "at_moment", at_moment)
    table = Table(tmp_path)
    table.play()
    entry = table.game().history[1]
    assert entry["draws"] == [{"purpose": "die of turn 1", "n": 6}]
    assert len(set(table.files().values())) == 1
    table.play()
    table.play()
    reveals = {e["signed"]["entry"]["seat"]: bytes.fromhex(e["signed"]["entry"]["reveal"])
               for e in table.game().history[1:4]}
    by_turn = {turn: {value for t, value in answers if t == turn} for turn, _ in answers}
    assert by_turn[1] == by_turn[2] == {None}  # every copy, the mover's included, waits
    assert by_turn[3] == {draw("demo", 1, "die of turn 1", reveals, 6)}  # made in the entry that completes it
