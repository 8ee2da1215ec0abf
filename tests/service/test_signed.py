"""Games without a game master (issue 39; docs/without-gm.md): the set-up in two phases, signed
turns every copy checks, cheating caught by name with every honest folder unchanged.

Each test works on its own copy of one table of three folders (tests/signedkit.py), whose
players exchange nothing but the text blocks."""

from __future__ import annotations

import base64
import hashlib
import json
import shutil
import subprocess
from datetime import timedelta

import pytest

from pbem.errors import ExitCode, PbemError
from pbem.service import store
from pbem.service.service import Input
from pbem.service.signed import chain
from pbem.service.signed.blocks import armor, find
from pbem.service.signed.entries import Signed, sign
from pbem.service.signed.folder import Folder
from pbem.service.signed.verify import proof_lines, verify_signed
from pbem.trust.commit import draw
from signedkit import MINUTE, SEATS, T0, Table, key_of, openssh_accepts


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    """Three folders after the set-up and two turns."""
    table = Table(tmp_path_factory.mktemp("table"))
    table.play()
    table.play()
    return table


@pytest.fixture
def table(base, tmp_path):
    return base.clone(tmp_path)


def refused(code: str, call, *args, **kwargs) -> PbemError:
    with pytest.raises(PbemError) as caught:
        call(*args, **kwargs)
    found = getattr(caught.value, "code", None)
    assert getattr(found, "value", found) == code, str(caught.value)
    return caught.value


def resigned(table: Table, signed: Signed, seat: str, **changes) -> Signed:
    """``signed`` with ``changes``, signed again by ``seat``'s key (a cheat's own entry)."""
    return sign({**signed.entry, **changes}, signed.seat or seat, table.keys[seat])


def next_turn(table: Table) -> Signed:
    """The active seat's next turn, made in a scratch copy of its folder (not sent)."""
    seat = table.active()
    scratch = table.folders[seat].path.parent.parent / f"{seat}-scratch"
    shutil.copytree(table.folders[seat].path.parent, scratch)
    folder = Folder(scratch / table.folders[seat].path.name)
    from pbem.play.bot import play_turn

    orders = play_turn(store.load_game(folder.path), "greedy")
    return folder.play(Input(orders, "orders"), table.keys[seat], table.now + MINUTE)[2]


# -- the set-up ------------------------------------------------------------------------------


def test_three_folders_exchanging_only_blocks_hold_the_same_game(base):
    files = base.files()
    assert len(set(files.values())) == 1
    game = base.game()
    assert chain.is_signed(game) and len(game.history) == 3
    assert all(m.password == "-" for m in game.meta.values())
    for folder in base.folders.values():
        assert not folder.setup_path.exists()  # the set-up lives in the first history entry now
        assert folder.signers_path.read_text().count("namespaces=\"antike-ref@turn\"") == 3


def test_the_set_up_draws_come_from_every_reveal(tmp_path):
    """Antike II's start nation is drawn at random (003 L254): from all three first reveals
    together, unbiased, recomputed here from the reveals alone."""
    seats = ["romans", "carthaginians", "greeks"]
    table = Table(tmp_path, seats=seats, edition="antike2", board="antike2-mare-nostrum")
    reveals = {r.seat: bytes.fromhex(r.entry["value"]) for r in table.reveals}
    assert table.game().state.table.first == seats[draw("demo", 0, "start nation", reveals, 3)]
    from pbem.trust.commit import draw_key

    assert table.game().seed == draw_key("demo", 0, "seed", reveals).hex()[:32]


def test_a_game_a_gm_sets_up_draws_its_lots_from_the_seed_as_before():
    """The GM's lots are unchanged: SHA-256 of SEED:PURPOSE, first byte modulo n (the form every
    earlier game's start nation and start player came from)."""
    from pbem.kernel.chance import SeedLot

    for seed in ("a", "test-seed", "0123456789abcdef"):
        for n in (2, 3, 5, 6):
            for purpose in ("start nation", "start player"):
                assert SeedLot(seed).below(n, purpose) == hashlib.sha256(f"{seed}:{purpose}".encode()).digest()[0] % n


def test_a_reveal_before_every_seat_joined_is_refused(tmp_path):
    table_root = tmp_path
    from pbem import editions
    from pbem.kernel.setup import SetupOptions
    from pbem.service.boards import load_board
    from pbem.service.signed.setup import Group, proposal

    made = proposal(editions.get("classic"), SetupOptions("demo", "antike-east", SEATS), load_board("antike-east"),
                    Group("2d", "default", tuple(SEATS)), 50, T0)
    folder = Folder(table_root / "demo.json")
    folder.propose(made)
    folder.join(key_of("greeks"), "greeks", T0)
    error = refused("setup/waiting", folder.reveal, key_of("greeks"), T0)
    assert error.exit_code == ExitCode.REFUSED and "persians, arabs" in str(error)


def test_a_second_join_and_a_join_after_the_start_are_refused(table):
    """A seat cannot join again with another chain (to choose its set-up value after the
    others revealed): the set-up holds one join per seat, and the game has started."""
    other = key_of("greeks", "again")
    join = sign({**table.joins[0].entry, "key": other.public.with_comment("").line()}, "greeks", other)
    before = table.files()
    refused("setup/invalid", table.folders["persians"].accept, armor(join), "mail")
    assert table.files() == before


def test_the_seeds_are_in_no_file(base):
    """A player's copy never holds another's unrevealed values: no seat's chain seed and no
    value it has not revealed is in any file of any folder (the chain is made from the key
    each time, never written)."""
    from pbem.service.signed.setup import chain_for

    game = base.game()
    revealed = chain.trackers(game)
    files = [p.read_bytes() for f in base.folders.values() for p in f.path.parent.iterdir()]
    assert len(files) >= 6
    for seat in SEATS:
        chained = chain_for(base.keys[seat], base.proposal.digest, "demo", seat, 1000)
        assert chained.reveal(revealed[seat].position) in revealed[seat].revealed
        secret = [chained.reveal(k) for k in range(revealed[seat].position + 1, revealed[seat].position + 4)]
        for value in secret:
            for form in (value, value.hex().encode(), base64.b64encode(value)):
                assert not any(form in data for data in files), seat


# -- turns --------------------------------------------------------------------------------


def test_a_turn_is_checked_by_openssh_alone(base, tmp_path):
    """ssh-keygen -Y verify accepts the bytes and signature ``entry`` writes, with the game's
    allowed-signers file."""
    from pbem.service.signed.export import exported

    game = base.game()
    for which in ("2", "join:arabs", "reveal:persians"):
        openssh_accepts(game, which, tmp_path)  # leaves the last one's files in tmp_path
    message, _, identity, _ = exported(game, "reveal:persians")
    (tmp_path / "m").write_bytes(message.replace(b"persians", b"greeks__"))
    result = subprocess.run(["ssh-keygen", "-Y", "verify", "-f", str(tmp_path / "allowed"), "-I", identity, "-n",
                             "antike-ref@turn", "-s", str(tmp_path / "m.sig")], input=(tmp_path / "m").read_bytes(),
                            capture_output=True)
    assert result.returncode != 0


def test_a_turn_out_of_turn_is_refused_to_its_maker(table):
    seat = next(s for s in SEATS if s != table.active())
    game = table.game(seat)
    orders = {"game": "demo", "nation": seat, "rondel": {"to": "arming"}}
    refused("chain/out-of-turn", table.folders[seat].play, Input(orders, "o"), table.keys[seat], table.now)
    assert store.load_game(table.folders[seat].path).history == game.history


def test_the_verifier_rebuilds_the_game_from_its_own_signed_entries(base):
    lines = verify_signed(base.game())
    assert "signed by every seat" in lines[0] and lines[1].startswith("2 turns signed by their movers")


# -- cheating, each caught by name, every honest folder unchanged -----------------------------


def _all_refuse(table: Table, code: str, text: str, now=None) -> None:
    before = table.files()
    for seat in SEATS:
        refused(code, table.folders[seat].accept, text, "the cheat's mail", now or table.now + MINUTE)
    assert table.files() == before


def test_a_forged_signature_is_refused(table):
    signed = next_turn(table)
    blob = bytearray(base64.b64decode("".join(signed.sigs[signed.seat].splitlines()[1:-1])))
    blob[-5] ^= 1
    from pbem.trust.sshsig import armor as sig_armor

    forged = Signed(signed.entry, {signed.seat: sig_armor(bytes(blob))})
    _all_refuse(table, "sshsig/invalid", armor(forged))
    stranger = sign(signed.entry, signed.seat, key_of("mallory"))
    _all_refuse(table, "sshsig/other-key", armor(stranger))


def test_an_entry_signed_by_the_wrong_seat_is_refused(table):
    """A turn of the seat to play, signed with another seat's key: the refusal names whose
    key it is; the other seat's own turn out of turn is refused too."""
    signed = next_turn(table)
    other = next(s for s in SEATS if s != signed.seat)
    by_other = Signed(signed.entry, {signed.seat: sign(signed.entry, other, table.keys[other]).sigs[other]})
    error = refused("sshsig/other-key", table.folders[other].accept, armor(by_other), "m", table.now + MINUTE)
    assert f"{other}@demo" in str(error)
    _all_refuse(table, "sshsig/other-key", armor(by_other))
    own = sign({**signed.entry, "seat": other, "orders": {**signed.entry["orders"], "nation": other}}, other,
               table.keys[other])
    _all_refuse(table, "chain/out-of-turn", armor(own))


def test_a_past_entry_altered_is_refused(table, tmp_path):
    """Entry 1 with other orders (or another state hash): its signature no longer matches;
    signed again by its mover, the state it names is not what its orders make; and a game
    file whose history was edited by hand no longer verifies."""
    held = Signed(**{"entry": table.game().history[1]["signed"]["entry"],
                     "sigs": table.game().history[1]["signed"]["sigs"]})
    orders = {**held.entry["orders"], "rondel": {"to": "temple"}}
    altered = Signed({**held.entry, "orders": orders}, held.sigs)
    log = "".join(table.log[:7]) + armor(altered)
    (tmp_path / "fresh").mkdir()
    refused("sshsig/invalid", Folder(tmp_path / "fresh" / "demo.json").rebuild, log, "thread")
    lying = resigned(table, held, held.seat, state="0" * 64)
    refused("chain/state-mismatch", Folder(tmp_path / "fresh" / "demo.json").rebuild,
            "".join(table.log[:7]) + armor(lying), "thread")
    _all_refuse(table, "sshsig/invalid", armor(altered))  # the honest folders, which hold entry 1 already
    before = table.files()
    for seat in SEATS:  # signed again by its mover: two entries of one seat for one place
        refused("chain/equivocation", table.folders[seat].accept, armor(lying), "m", table.now + MINUTE)
    assert table.files() == before
    data = json.loads(table.folders["arabs"].path.read_text())
    data["history"][1]["signed"]["entry"]["orders"]["rondel"] = {"to": "temple"}
    (tmp_path / "edited.json").write_text(json.dumps(data))
    from pbem.service.service import GameService

    with pytest.raises(PbemError) as caught:
        GameService(tmp_path / "edited.json").verify()
    assert caught.value.exit_code == ExitCode.VERIFY_FAILED


def test_two_entries_for_one_turn_are_kept_as_proof_of_equivocation(table):
    """The mover signs a second, different turn for the same place after the first was sent:
    refused, both kept, and verify shows whose signature is on both."""
    first = table.play(send=False)
    second = resigned(table, first, first.seat, time=first.entry["time"][:-3] + "01Z")
    seat = next(s for s in SEATS if s != first.seat)
    table.folders[seat].accept(armor(first), "m", table.now)
    before = table.files()
    error = refused("chain/equivocation", table.folders[seat].accept, armor(second), "m", table.now)
    assert first.seat in str(error)
    assert table.files() == before
    proofs = table.folders[seat].proofs()
    assert len(proofs) == 1 and proofs[0]["seats"] == [first.seat]
    lines = proof_lines(table.game(seat), proofs)
    assert lines[0].startswith(f"EQUIVOCATION: {first.seat} signed two different entries for entry 3")


def test_a_reveal_that_does_not_match_its_commitment_is_refused(table):
    signed = next_turn(table)
    wrong = resigned(table, signed, signed.seat, reveal=hashlib.sha256(b"chosen").hexdigest())
    _all_refuse(table, "commit/mismatch", armor(wrong))


def test_replaying_a_turn_cannot_draw_again(table):
    """An old value offered again (to draw again with it) is refused; a held turn sent again
    changes nothing."""
    signed = next_turn(table)
    first_value = next(r.entry["value"] for r in table.reveals if r.seat == signed.seat)
    again = resigned(table, signed, signed.seat, reveal=first_value)
    _all_refuse(table, "commit/replayed", armor(again))
    before = table.files()
    for seat in SEATS:
        taken = table.folders[seat].accept("".join(table.log), "the whole thread again", table.now)
        assert taken.added == [] and taken.held == len(table.log)
    assert table.files() == before


def test_a_claim_before_the_deadline_is_refused_by_name(table):
    seat = next(s for s in SEATS if s != table.active())
    due = chain.deadline(table.game())
    error = refused("claim/early", table.folders[seat].claim, table.keys[seat], due - MINUTE)
    assert error.exit_code == ExitCode.REFUSED
    game = table.game(seat)
    entry = {"v": 1, "kind": "claim", "game": "demo", "seq": len(game.history), "prev": game.history[-1]["hash"],
             "seat": seat, "missed": table.active(), "deadline": chain.stamp(due), "play": "default",
             "state": "0" * 64, "time": chain.stamp(due - MINUTE), "engine": "x", "data": "x"}
    _all_refuse(table, "claim/early", armor(sign(entry, seat, table.keys[seat])), due)


def test_a_claim_after_the_deadline_plays_the_default_turn_in_every_copy(table):
    seat = next(s for s in SEATS if s != table.active())
    missed = table.active()
    due = chain.deadline(table.game())
    claim = table.folders[seat].claim(table.keys[seat], due)
    table.deliver(armor(claim), due + MINUTE, [s for s in SEATS if s != seat])
    assert len(set(table.files().values())) == 1
    last = table.game().history[-1]
    assert last["kind"] == "default-turn" and last["nation"] == missed and last["deadline"] == chain.stamp(due)
    assert "claimed after the deadline" in verify_signed(table.game())[2]


def test_an_entry_signed_ahead_of_the_clock_waits(table):
    signed = next_turn(table)
    early = table.now - timedelta(hours=1)
    before = table.files()
    refused("time/future", table.folders["arabs"].accept, armor(signed), "m", early)
    assert table.files() == before


def test_a_gm_command_is_refused_on_a_game_without_a_game_master(table):
    from pbem.service.service import GameService

    orders = {"game": "demo", "nation": table.active(), "password": "-", "rondel": {"to": "arming"}}
    error = refused("game/no-game-master", GameService(table.folders["arabs"].path).process, Input(orders, "o"))
    assert error.exit_code == ExitCode.REFUSED


# -- blocks in mails and forum threads --------------------------------------------------------


def test_a_block_survives_quoting_bbcode_and_a_forums_whitespace(base):
    block = base.log[-1]
    quoted = "\n".join("> > " + line for line in block.splitlines())
    forum = ("[quote=\"Ann\"]" + block.replace("\n", " \n\n").replace("-----", "\u2014\u2014\u2014") + "[/quote]")
    html = "<blockquote><p>" + block.replace("\n", "<br />\n") + "</p></blockquote>"
    for text in (quoted, forum, html, f"[code]{block}[/code]"):
        found = find(text, "post")
        assert len(found) == 1 and found[0].signed is not None
        assert found[0].signed.message == find(block, "b")[0].signed.message


def test_a_damaged_block_is_named_and_skipped(base, tmp_path):
    lines = base.log[-1].splitlines()
    cut = "\n".join(lines[:3] + lines[4:])
    found = find(cut, "post")
    assert found[0].signed is None and found[0].problem.code.value == "block/damaged"
    error = refused("chain/gap", Folder(tmp_path / "demo.json").rebuild, "".join(base.log[:-2]) + cut + base.log[-1],
                    "thread")
    assert "follows entry 1" in str(error)


def test_a_forum_thread_saved_as_text_rebuilds_the_game(base, tmp_path):
    """Posts with chatter, quotes of earlier blocks (some trimmed), BBCode and the blocks in
    order: the game rebuilt from it alone is every folder's game, and verifies."""
    posts = []
    for i, block in enumerate(base.log):
        posts.append(f"[b]Post {i} by player {i % 3}[/b]\nGood luck all! :) 8)\n[code]\n{block}[/code]\n")
        if i > 1:
            posts.append("[quote=\"someone\"]\n" + "\n".join("> " + ln for ln in base.log[i - 1].splitlines())
                         + "\n[/quote]\nNice move. Here is half of it again:\n"
                         + "\n".join(base.log[i - 2].splitlines()[:4]) + "\n")
    thread = "\n----------\n".join(posts)
    folder = Folder(tmp_path / "demo.json")
    taken = folder.rebuild(thread, "thread.txt")
    assert folder.path.read_bytes() == base.files()["arabs"]
    assert taken.damaged and all(p.code.value == "block/damaged" for p in taken.damaged)
    assert verify_signed(store.load_game(folder.path))


def test_a_block_of_another_game_pasted_in_is_named_and_skipped(base, tmp_path):
    """A thread where another group's game is posted too: its blocks are skipped by name
    (entry/other-game), this game's blocks are taken, the copy is every folder's game."""
    other = Table(tmp_path / "other", game_id="other")
    thread = "".join(a + b for a, b in zip(base.log, [*other.log, *[""] * len(base.log)]))
    folder = Folder(tmp_path / "demo.json")
    taken = folder.rebuild(thread, "thread.txt")
    assert folder.path.read_bytes() == base.files()["greeks"]
    assert len(taken.damaged) == len(other.log)
    assert all(p.code.value == "entry/other-game" and "game other" in str(p) for p in taken.damaged)


# -- rulings, show, the relay ----------------------------------------------------------------


def test_a_ruling_needs_every_arbiter(tmp_path):
    table = Table(tmp_path, arbiters=["greeks", "persians"])
    until = T0 + timedelta(days=30)
    first, done = table.folders["greeks"].rule(table.keys["greeks"], table.now, "mail lost", until)
    assert not done
    before = table.files()
    taken = table.folders["arabs"].accept(armor(first), "m", table.now)
    assert not taken.added and taken.damaged[0].code.value == "entry/unsigned"  # waits for the co-signature
    assert table.files() == before
    by_arabs = sign(first.entry, "arabs", table.keys["arabs"])
    refused("ruling/not-arbiter", table.folders["arabs"].accept,
            armor(Signed(first.entry, {**first.sigs, **by_arabs.sigs})), "m", table.now)
    both, done = table.folders["persians"].rule(table.keys["persians"], table.now, cosign=armor(first), source="m")
    assert done and set(both.sigs) == {"greeks", "persians"}
    table.deliver(armor(first) + armor(both) + armor(first), table.now, ["greeks", "arabs"])  # as passed round
    assert len(set(table.files().values())) == 1
    assert chain.deadline(table.game()) == until
    refused("claim/early", table.folders["arabs"].claim, table.keys["arabs"], until - MINUTE)


def test_show_says_what_each_seat_does_next(base):
    game = base.game()
    active = game.state.status.active
    other = next(s for s in SEATS if s != active)
    assert "you play" in chain.next_seat_step(game, active, base.now)[1]
    assert "you wait" in chain.next_seat_step(game, other, base.now)[1]
    late = chain.deadline(game) + MINUTE
    assert "you may claim it" in chain.next_seat_step(game, other, late)[1]


def test_the_relay_forwards_only_what_is_new_and_checked(base, tmp_path):
    from pbem.service.signed.relay import relay

    shutil.copytree(base.folders["arabs"].path.parent, tmp_path / "relay")
    path = tmp_path / "relay" / "demo.json"
    assert relay(path, "".join(base.log), "mail", base.now).blocks == ()
    signed = next_turn(base.clone(tmp_path / "scratch"))
    relayed = relay(path, f"Hi all,\n{armor(signed)}\nbye", "mail", base.now + timedelta(hours=1))
    assert relayed.blocks == (armor(signed),)


def test_a_proposal_that_sets_no_game_up_is_refused_by_name(tmp_path):
    """A stranger's proposal is read before anyone joins it: an unknown option, an unknown
    board or edition, nations the board does not seat, a Duellum game on a board of classic
    Antike, a deadline that does not read."""
    from pbem import editions
    from pbem.kernel.setup import SetupOptions
    from pbem.service.boards import load_board
    from pbem.service.signed.entries import Signed
    from pbem.service.signed.setup import Group, proposal

    made = proposal(editions.get("classic"), SetupOptions("demo", "antike-east", SEATS), load_board("antike-east"),
                    Group("2d", "default", tuple(SEATS)), 50, T0)
    bad = [{"setup": {**made.entry["setup"], "colour": "red"}}, {"board": "atlantis"}, {"edition": "chess"},
           {"seats": ["romans", "greeks", "arabs"]}, {"edition": "duellum"},
           {"group": {**made.entry["group"], "deadline": "soon"}}]
    for change in bad:
        text = armor(Signed({**made.entry, **change}))
        folder = Folder(tmp_path / f"{len(list(tmp_path.iterdir()))}" / "demo.json")
        folder.path.parent.mkdir()
        error = refused("entry/malformed", folder.accept, text, "mail")
        assert not folder.setup_path.exists(), (change, error)
    duellum = proposal(editions.get("duellum"), SetupOptions("demo", "duellum-rome-carthage",
                                                             ["romans", "carthaginians"]),
                       load_board("duellum-rome-carthage"), Group("2d", "default", ("romans",)), 50, T0)
    assert duellum.entry["edition"] == "duellum"  # its draws come from the chance source (test_signed_duellum.py)
