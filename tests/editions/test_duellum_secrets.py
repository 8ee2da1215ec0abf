"""No secret of Antike Duellum reaches anyone who may not see it (docs/duellum.md,
"Secrets"; D18 in docs/rulings.md), over a whole bot game.

The secrets are a nation's hand, the cards it drew, the deck's order, the secret the deck is
shuffled by and the seed it came from, and the other player's password hash. Two kinds of
proof, after every turn:

- a grep: the other's copy and the public view hold none of the secret texts, every card the
  other holds or drew is a ``"?"`` or absent;
- non-interference: change every secret of the other nation in the GM's game (its hand's
  cards, the cards named in its draw events, the deck's order, the shuffle secret, the seed)
  and the nation's copy and view, and the public view, stay byte for byte the same.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from pbem.cli import app
from pbem.play.selfplay import bot_turn, start_game
from pbem.service import copies
from pbem.service.readout import show_json
from pbem.service.schemas import dumps
from pbem.service.store import game_from_data, save_game

NATIONS = ["carthaginians", "romans"]


def _other(nation: str) -> str:
    return NATIONS[1 - NATIONS.index(nation)]


def _with_other_secrets(game, nation: str):
    """The GM's game with every secret of ``nation`` (and the deck's) changed: its hand's
    cards swapped with cards of the deck (every card stays in one place), the deck's order,
    the shuffle secret, the seed, its password hash, and where draws are hidden (the variant
    ``hidden_draws``) the cards named in its draw events."""
    st = game.state.copy()
    held = st.nation(nation)
    hand, pile = list(held.extra["hand"]), list(st.extra["deck"])
    for i in range(min(len(hand), len(pile))):
        hand[i], pile[i] = pile[i], hand[i]
    held.extra["hand"] = hand
    st.extra["deck"] = list(reversed(pile))  # the order is secret, the size is not
    st.extra["secret"] = "f" * 64
    history = json.loads(json.dumps(game.history))
    for entry in history:
        for event in entry.get("events", []):
            if event.get("type") == "draw" and event.get("nation") == nation and not event.get("public"):
                event["card"] = "burglary" if event["card"] != "burglary" else "academy"
            if "seed" in entry.get("setup", {}):
                entry["setup"]["seed"] = "another-seed"
    changed = game.copy_with(st, history)
    changed.seed = "another-seed"
    for n, meta in changed.meta.items():
        if n == nation:
            changed.meta = {**changed.meta, n: type(meta)(meta.player, meta.email, meta.colour,
                                                         meta.password[:-4] + "0000")}
    return changed


def _views(game, viewer: str) -> tuple[str, str, str]:
    return (dumps(copies.player_copy(game, viewer)), dumps(show_json(game, viewer)), dumps(show_json(game, None)))


def _check_turn(game) -> None:
    secret, seed = game.state.extra["secret"], game.seed
    for viewer in NATIONS:
        other = _other(viewer)
        mine = copies.player_copy(game, viewer)
        text = dumps(mine)
        assert secret not in text and seed not in text
        assert game.meta[other].password not in text
        st = mine["state"]
        assert set(st["nations"][other]["hand"]) <= {"?"}
        assert len(st["nations"][other]["hand"]) == len(game.state.nations[other].extra["hand"])
        assert st["nations"][viewer]["hand"] == game.state.nations[viewer].extra["hand"]
        assert set(st["deck"]) <= {"?"} and st["secret"] == "?" and mine["seed"] == "?"
        hidden = game.state.table.has("hidden_draws")
        for entry in mine["history"]:
            for event in entry.get("events", []):
                if event.get("type") == "draw" and event["nation"] == other:
                    assert ("card" in event) is not hidden  # a draw from the open display is seen
        view = show_json(game, viewer)
        assert "hand" not in view["nations"][other] and view["nations"][viewer]["hand"] == \
            game.state.nations[viewer].extra["hand"]
        public = show_json(game, None)
        assert all("hand" not in n for n in public["nations"].values())
        # non-interference: the other's secrets do not reach this viewer, nor the public
        assert _views(_with_other_secrets(game, other), viewer) == _views(game, viewer)


SMALL_DECK = {"event_cards": [
    *({"id": f"card_{i:02d}", "name": f"Harvest {i}", "effect": [{"kind": "gain", "chips": {"gold": 1}}]}
      for i in (5, 6)),
    *({"id": f"card_{i:02d}", "count": 0} for i in range(7, 26)), {"id": "blank_1", "count": 0},
    {"id": "blank_2", "count": 0}]}
"""A deck of six cards the bots can play: it runs out, and the discards are reshuffled."""


@pytest.mark.slow
@pytest.mark.parametrize("variants,data", [((), None), (("hidden_draws",), None),
                                           (("special_units", "hidden_draws"), None), (("hidden_draws",), SMALL_DECK)],
                         ids=["printed-deck", "hidden-draws", "special-units", "reshuffled-deck"])
def test_no_secret_reaches_the_other_player_over_a_whole_game(variants, data):
    """Also over the reshuffles of the discards into a new deck (001 L431): the new order,
    drawn from the game's secret, is in no copy and no public view, and a copy stays the same
    whatever the deck's order and the secret."""
    game, plain = start_game("secrets", NATIONS, "secret-seed-7", edition="duellum", board="duellum-rome-carthage",
                             variants=variants, data=data)
    drawn = 0
    for _ in range(400):
        game, _ = bot_turn(game, plain, "greedy")
        drawn += sum(1 for e in game.history[-1].get("events", []) if e.get("type") == "draw")
        _check_turn(game)
        if game.state.status.winner:
            break
    assert game.state.status.winner is not None
    assert drawn > 0, "the game drew no event card: the test proved nothing"
    if data is not None:
        assert game.state.extra["shuffles"] > 0, "the discards were never reshuffled: the test proved nothing"
    for viewer in NATIONS:  # each copy is a game file the referee reads
        copy = game_from_data(json.loads(dumps(copies.player_copy(game, viewer))), "copy")
        assert copy.copy_of == viewer


def test_a_copy_checks_orders_refuses_changes_and_verifies_its_chain(tmp_path):
    game, plain = start_game("copied", NATIONS, "copy-seed-3", edition="duellum", board="duellum-rome-carthage")
    for _ in range(12):
        game, _ = bot_turn(game, plain, "greedy")
    path = tmp_path / "game.json"
    save_game(game, path)
    runner = CliRunner()
    active = game.state.status.active
    result = runner.invoke(app, ["copy", str(path), "--for", active])
    assert result.exit_code == 0, result.output
    copy = tmp_path / f"game.{active}.json"
    before = copy.read_bytes()
    from pbem.play.bot import play_turn

    orders = tmp_path / "orders.json"
    orders.write_text(json.dumps({**play_turn(game, "greedy"), "password": plain[active]}))
    checked = runner.invoke(app, ["check", str(copy), str(orders)])
    assert checked.exit_code == 0, checked.output
    refused = runner.invoke(app, ["process", str(copy), str(orders)])
    assert refused.exit_code == 4 and "game/player-copy" in refused.output
    assert copy.read_bytes() == before
    verified = runner.invoke(app, ["verify", str(copy)])
    assert verified.exit_code == 0 and "not checked" in verified.output
    head = game.history[-1]["hash"]
    assert runner.invoke(app, ["verify", str(copy), "--expect", head[:16]]).exit_code == 0
    assert runner.invoke(app, ["verify", str(copy), "--expect", "0" * 16]).exit_code == 6
    twice = runner.invoke(app, ["copy", str(copy), "--for", active])
    assert twice.exit_code == 2


@pytest.mark.parametrize("hidden", [True, False], ids=["hidden-draws", "open-draws"])
def test_the_terminal_summary_keeps_the_others_drawn_cards_hidden(tmp_path, hidden):
    """``show`` and ``show --as NATION`` print the last entries of the history: with the
    variant ``hidden_draws`` a card the other nation drew is not among them (the same
    non-interference as above, on the text); without it the card is named to everyone, as
    the opponent sees it taken from the open display at the table (001 L411-419)."""
    game, plain = start_game("shown", NATIONS, "show-seed-5", edition="duellum", board="duellum-rome-carthage",
                             variants=("hidden_draws",) if hidden else ())
    drawer = None
    for _ in range(400):
        game, _ = bot_turn(game, plain, "greedy")
        drawn = [e for e in game.history[-1].get("events", []) if e.get("type") == "draw"]
        if drawn:
            drawer = drawn[0]["nation"]
            break
    assert drawer is not None, "no card was drawn: the test proved nothing"
    runner = CliRunner()

    def shown(g, *args: str) -> str:
        path = tmp_path / "game.json"
        save_game(g, path)
        result = runner.invoke(app, ["show", str(path), *args])
        assert result.exit_code == 0, result.output
        return result.output

    changed = _with_other_secrets(game, drawer)
    viewer = _other(drawer)
    assert shown(changed, "--as", viewer) == shown(game, "--as", viewer)
    assert shown(changed) == shown(game)
    # the drawer reads which card it took; the other reads only that one was taken
    assert ("take an event card from the display" in shown(game, "--as", viewer)) is hidden
    assert "take an event card from the display" not in shown(game, "--as", drawer)


def test_a_copy_holds_no_other_password_hash_not_even_a_former_players(tmp_path):
    """A player change keeps the old and the new hash in the history; a copy keeps only its
    own nation's current hash, whoever asks for it (any edition)."""
    game, plain = start_game("hashes", NATIONS, "hash-seed-1", edition="duellum", board="duellum-rome-carthage")
    from pbem.service import turns

    for nation, who in (("romans", "Rea <rea@example.org>"), ("carthaginians", "Cai <cai@example.org>")):
        game = turns.replace_player(game, nation, who.split(" <")[0], who.split("<")[1].rstrip(">"),
                                    game.meta[nation].password[:-8] + "0" * 8, f"{nation} change hands")
    every = {h for entry in game.history for who in (entry.get("identities") or {}).values()
             for h in (who["password"], who["was"]["password"])}
    assert len(every) == 4
    for viewer in NATIONS:
        text = dumps(copies.player_copy(game, viewer))
        assert [h for h in every if h in text] == [game.meta[viewer].password]


def test_the_seed_found_from_a_copy_does_not_give_the_deck_away(tmp_path):
    """A GM-chosen seed can be found from a player's copy (the password salts come from
    it): here in a few guesses. The deck is shuffled by a secret made from the seed and the
    passwords, so the seed found gives neither the secret nor the deck; a game set up the
    old way (from the seed alone) would have given both, which is what this test guards."""
    import hashlib

    from pbem.editions.duellum.setup import secret_of
    from pbem.service import passwords
    from pbem.service.store import load_game

    path = tmp_path / "duel.json"
    runner = CliRunner()
    made = runner.invoke(app, ["new", str(path), "--edition", "duellum", "--nations", ",".join(NATIONS),
                               "--seed", "duel-2026", "--password", "romans=Tiber-river-1",
                               "--password", "carthaginians=Byrsa-hill-9", "--kdf-iterations", "1000"])
    assert made.exit_code == 0, made.output
    assert "is short" in made.output
    assert runner.invoke(app, ["copy", str(path), "--for", "romans"]).exit_code == 0
    copy = json.loads((tmp_path / "duel.romans.json").read_text())
    assert "duel-2026" not in json.dumps(copy)
    salt = copy["nations"]["romans"]["password"].split("$")[2]
    guesses = [f"duel-{year}" for year in range(2000, 2100)] + ["antike", "duellum", "test"]
    (seed,) = [g for g in guesses if passwords.salt_for(g, "romans") == salt]
    assert seed == "duel-2026"  # the seed is found: it is not what keeps the deck secret
    gm = load_game(path)
    real = gm.state.extra["secret"]
    assert real not in json.dumps(copy) and hashlib.sha256(real.encode()).hexdigest() not in json.dumps(copy)
    assert secret_of(seed) != real
    assert copy["history"][0]["setup"].get("secret") == "?"
    # the old way, for contrast: a set-up without its own secret is the seed's alone
    old, _ = start_game("old", NATIONS, "duel-2026", edition="duellum", board="duellum-rome-carthage")
    assert old.state.extra["secret"] == secret_of("duel-2026")


def test_a_gm_hand_edit_in_the_history_names_the_cards_to_their_holder_only():
    """The legacy game duellum-44 has a GM edit that gave the Carthaginians a card: the
    Romans' copy of the history shows that a card was given, not which (a hand is its
    holder's secret, in the history as in the state); the Carthaginians' copy names it."""
    from pathlib import Path

    from pbem.service.store import load_game

    game = load_game(Path(__file__).resolve().parent.parent / "data" / "legacy" / "duellum-44.json")
    given = [e for entry in game.history for e in entry.get("edits", []) if "hand" in e]
    assert given and all(e["nation"] == "carthaginians" for e in given)
    for viewer, seen in (("romans", False), ("carthaginians", True)):
        edits = [e for entry in copies.player_copy(game, viewer)["history"] for e in entry.get("edits", [])
                 if "hand" in e]
        assert [e["hand"] for e in edits] == [e["hand"] if seen else ["?"] * len(e["hand"]) for e in given]
