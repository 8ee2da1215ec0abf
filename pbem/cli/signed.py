"""Games without a game master (docs/without-gm.md): keys, joining and revealing, accepting
the others' blocks, claims, rulings, and the bytes ``ssh-keygen -Y verify`` checks.

``new --signed`` writes the proposal and ``process --key`` plays a signed turn (both in
:mod:`pbem.cli.game`); ``verify`` and ``show`` say what the signatures prove and what each
player must do next.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import typer

from pbem.cli.base import app, err, run, time_option
from pbem.errors import InputError, UsageError

KEY_HELP = "Your private key file (OpenSSH Ed25519: antike-ref keygen, or ssh-keygen -t ed25519)."
NOW_HELP = "The time to sign with (ISO 8601, e.g. 2026-11-23T18:00:00Z); default: now."
BLOCK_HELP = "Also write the block to this file (to attach to a mail or paste into a post)."
PASSPHRASE_ENV = "ANTIKE_REF_PASSPHRASE"


def read_key(path: Path):
    """The secret key of ``path``: its passphrase from ``ANTIKE_REF_PASSPHRASE``, or asked
    for when the file needs one."""
    from pbem.service.schemas import read_text
    from pbem.trust.keys import PassphraseNeeded, read_private_key

    text = read_text(path, str(path))
    try:
        return read_private_key(text, str(path), os.environ.get(PASSPHRASE_ENV))
    except PassphraseNeeded:
        if not sys.stdin.isatty():
            raise
        import getpass

        return read_private_key(text, str(path), getpass.getpass(f"passphrase for {path}: "))


def bot_orders(game, mode: str) -> dict:
    """The bot a claim plays a missed turn with (every copy plays the same)."""
    from pbem.play.bot import play_turn

    return play_turn(game, mode)


def print_block(signed, block: Path | None) -> None:
    """The block of ``signed`` on stdout (and into ``block``), with a caption above it."""
    from pbem.service import store
    from pbem.service.signed.blocks import armor, caption

    text = armor(signed)
    if block is not None:  # first: the entry is saved already, and stdout may be a pipe closed early
        store.write_atomic(block, text, durable=False)
    print(caption(signed))
    sys.stdout.write(text)


def _texts(files: list[str]) -> list[tuple[str, str]]:
    from pbem.service.schemas import read_text

    out = []
    for name in files:
        if name == "-":
            out.append((sys.stdin.read(), "stdin"))
        else:
            out.append((read_text(name, name), name))
    return out


def next_lines(path: Path, seat: str | None, now) -> list[str]:
    """Where a game without a game master stands, and what ``seat`` must do next."""
    from pbem.service.signed.folder import Folder
    from pbem.service.signed.relay import folder_standing

    game, book = Folder(path).load()
    if game is None and book is None:
        raise InputError(str(path), "no game and no set-up (GAME.setup.json) here")
    return folder_standing(game, book, now, seat)


@app.command()
def keygen(
    key: Path = typer.Argument(..., help="The private key file to write (the public key goes to KEY.pub)."),
    comment: str = typer.Option("", "--comment", help="The comment of the public key line (e.g. your name)."),
    passphrase: bool = typer.Option(False, "--passphrase", help="Protect the key with a passphrase (asked for, or "
                                    f"from {PASSPHRASE_ENV})."),
    force: bool = typer.Option(False, "--force", help="Overwrite an existing key file."),
) -> None:
    """Make a key to sign your entries with (Ed25519, in OpenSSH's formats).

    An Ed25519 key ssh-keygen made serves as well. Keep the private key file to yourself:
    it is your signature and, in every game, your secret values.

    Example: antike-ref keygen keys/romans --comment "Ann"
    """

    def go():
        from pbem.service import store
        from pbem.trust.keys import generate_key

        public = key.with_name(key.name + ".pub")
        for path in (key, public):
            if path.exists() and not force:
                raise UsageError(f"{path} exists already (use --force to overwrite)")
        if not key.resolve().parent.is_dir():
            raise UsageError(f"{key}: folder {key.parent} does not exist")
        secret = os.environ.get(PASSPHRASE_ENV) if passphrase else None
        if passphrase and not secret:
            import getpass

            secret = getpass.getpass("passphrase: ")
            if secret != getpass.getpass("again: "):
                raise UsageError("the two passphrases differ")
        made = generate_key(comment)
        store.write_atomic(key, made.private_file(secret).decode("ascii"), mode=0o600)
        store.write_atomic(public, made.public_file())
        print(f"wrote {key} (keep it to yourself) and {public}")
        print(made.public.fingerprint_line(str(key)))

    run(go)


@app.command()
def join(
    game: Path = typer.Argument(..., help="The game file this folder will hold (GAME.setup.json until it starts)."),
    proposal: Path | None = typer.Argument(None, help="A text holding the proposal's block (when this folder has "
                                              "no set-up yet)."),
    seat: str = typer.Option(..., "--seat", help="The seat (nation) you play."),
    key: Path = typer.Option(..., "--key", help=KEY_HELP),
    now: str | None = typer.Option(None, "--now", metavar="TIME", help=NOW_HELP),
    block: Path | None = typer.Option(None, "--block", help=BLOCK_HELP),
) -> None:
    """Join a game without a game master: your key and the commitment of your chain.

    Prints your join's block: send it to the others. When every seat has joined, reveal.

    Example: antike-ref join demo.json proposal.txt --seat romans --key keys/romans
    """

    def go():
        from pbem.service.schemas import read_text
        from pbem.service.signed.folder import Folder

        text = read_text(proposal, str(proposal)) if proposal is not None else None
        folder = Folder(game)
        signed = folder.join(read_key(key), seat, time_option(now), text, str(proposal))
        print(f"{seat} joined {signed.entry['game']} with the key {read_key(key).public.fingerprint()}")
        print(f"you agreed to: {folder.load()[1].summary()}")
        print_block(signed, block)

    run(go)


@app.command()
def reveal(
    game: Path = typer.Argument(..., help="The game file (GAME.setup.json until it starts)."),
    key: Path = typer.Option(..., "--key", help=KEY_HELP),
    now: str | None = typer.Option(None, "--now", metavar="TIME", help=NOW_HELP),
    block: Path | None = typer.Option(None, "--block", help=BLOCK_HELP),
) -> None:
    """Reveal your first value, once every seat has joined (it signs every seat's join).

    When every seat has revealed, the game starts: its set-up's draws come from all the
    reveals together.

    Example: antike-ref reveal demo.json --key keys/romans
    """

    def go():
        from pbem.service.signed.folder import Folder

        signed, taken = Folder(game).reveal(read_key(key), time_option(now))
        print(f"{signed.seat} revealed" + (f"; the game has started: {taken.game.state.status.active} plays first"
                                            if taken.started else f"; waiting for {taken.book.waiting_words()}"))
        print_block(signed, block)

    run(go)


@app.command()
def accept(
    game: Path = typer.Argument(..., help="Your game file (or GAME.setup.json before the game starts)."),
    texts: list[str] = typer.Argument(..., help="Files holding the others' blocks (a mail, a saved forum page; - for "
                                      "stdin), read in order."),
    now: str | None = typer.Option(None, "--now", metavar="TIME", help="This computer's time, for entries signed "
                                      "ahead of it (ISO 8601); default: now."),
    seat: str | None = typer.Option(None, "--as", help="Your seat: also say what you must do next."),
) -> None:
    """Accept the others' entries: every signature, reveal and turn checked, all or none.

    Everything but the blocks is ignored (quotes, BBCode, chatter); a block held already
    is skipped. A refused entry leaves your game as it was and says why; two different
    entries one seat signed for one turn are kept as proof (antike-ref verify shows it).

    Example: antike-ref accept demo.json mail.txt --as romans
    """

    def go():
        from pbem.service.signed.folder import Folder

        moment = time_option(now)
        folder = Folder(game)
        total = None
        for text, source in _texts(texts):
            taken = folder.accept(text, source, moment, bot_orders)
            total = taken
            for problem in taken.damaged:
                err(f"skipped: {problem}")
            print(f"{source}: {len(taken.added)} new entr{'y' if len(taken.added) == 1 else 'ies'}, "
                  f"{taken.held} held already" + ("; the game has started" if taken.started else ""))
        if total is not None:
            for line in next_lines(game, seat, moment):
                print(line)

    run(go)


@app.command()
def rebuild(
    game: Path = typer.Argument(..., help="The game file to write."),
    text: Path = typer.Argument(..., help="A text holding every block in order: a saved forum thread, a mailbox."),
    force: bool = typer.Option(False, "--force", help="Overwrite an existing game file."),
) -> None:
    """Rebuild a game without a game master from any text holding its blocks, checking all.

    Example: antike-ref rebuild demo.json thread.txt
    """

    def go():
        from pbem.service.schemas import read_text
        from pbem.service.signed.chain import state_hash
        from pbem.service.signed.folder import Folder

        taken = Folder(game).rebuild(read_text(text, str(text)), str(text), bot_orders, force)
        for problem in taken.damaged:
            err(f"skipped: {problem}")
        after = taken.game
        print(f"rebuilt {game}: {len(taken.added)} entries checked ({taken.held} repeated blocks skipped), "
              f"{len(after.history)} history entries; state {state_hash(after)[:16]}")

    run(go)


@app.command()
def claim(
    game: Path = typer.Argument(..., help="Your game file."),
    key: Path = typer.Option(..., "--key", help=KEY_HELP),
    now: str | None = typer.Option(None, "--now", metavar="TIME", help=NOW_HELP),
    block: Path | None = typer.Option(None, "--block", help=BLOCK_HELP),
) -> None:
    """Claim that the seat to play missed its deadline: its turn is played as the group agreed.

    The default turn or the bot's, the same in every copy. Refused before the deadline.

    Example: antike-ref claim demo.json --key keys/romans
    """

    def go():
        from pbem.service.signed.folder import Folder

        signed = Folder(game).claim(read_key(key), time_option(now), bot_orders)
        print(f"claimed: {signed.entry['missed']} missed the deadline {signed.entry['deadline']}; "
              f"its turn was played ({signed.entry['play']})")
        print_block(signed, block)

    run(go)


@app.command()
def rule(
    game: Path = typer.Argument(..., help="Your game file."),
    key: Path = typer.Option(..., "--key", help=KEY_HELP),
    reason: str = typer.Option("", "--reason", help="Why (kept in the history)."),
    deadline: str | None = typer.Option(None, "--deadline", metavar="TIME", help="A new deadline for the seat to "
                                           "play (ISO 8601)."),
    edit: Path | None = typer.Option(None, "--edit", help="A GM edit file the arbiters apply (docs/orders.md)."),
    cosign: Path | None = typer.Option(None, "--cosign", help="Sign the ruling in this text instead of making one."),
    now: str | None = typer.Option(None, "--now", metavar="TIME", help=NOW_HELP),
    block: Path | None = typer.Option(None, "--block", help=BLOCK_HELP),
) -> None:
    """Arbiters: settle a dispute with a ruling every arbiter signs (a deadline, edits).

    Example: antike-ref rule demo.json --key keys/romans --reason "mail lost" --deadline 2026-12-01T18:00:00Z
    """

    def go():
        from pbem.service.numbers import moment
        from pbem.service.schemas import read_json, read_text
        from pbem.service.signed.folder import Folder

        if cosign is None and not reason.strip():
            raise UsageError("--reason: say why (or --cosign FILE to sign another arbiter's ruling)")
        edits = []
        if edit is not None:
            data = read_json(edit)
            edits = data.get("edits", []) if isinstance(data, dict) else None
            if not isinstance(edits, list):
                raise InputError(str(edit), "expected a GM edit file with its edits")
        until = moment(deadline, "--deadline") if deadline else None
        text = read_text(cosign, str(cosign)) if cosign is not None else None
        signed, done = Folder(game).rule(read_key(key), time_option(now), reason, until, edits, text, str(cosign))
        print("the ruling is applied" if done else
              f"signed by {', '.join(sorted(signed.sigs))}; the other arbiters co-sign it (rule --cosign)")
        print_block(signed, block)

    run(go)


@app.command()
def blocks(
    game: Path = typer.Argument(..., help="The game file (or GAME.setup.json before it starts)."),
    since: int = typer.Option(0, "--from", help="From this history entry on (0: the set-up)."),
) -> None:
    """Print the blocks of the game's signed entries, to send again or post.

    Example: antike-ref blocks demo.json --from 12
    """

    def go():
        from pbem.service.signed.blocks import armor, caption
        from pbem.service.signed.folder import Folder, game_blocks

        loaded, book = Folder(game).load()
        if loaded is not None:
            found = game_blocks(loaded, since)
        elif book is not None:
            found = [book.proposal, *[book.joins[s] for s in book.seats if s in book.joins],
                     *[book.reveals[s] for s in book.seats if s in book.reveals]]
        else:
            raise InputError(str(game), "no game and no set-up here")
        for signed in found:
            print(caption(signed))
            sys.stdout.write(armor(signed))
            print()

    run(go)


@app.command()
def entry(
    game: Path = typer.Argument(..., help="The game file."),
    which: str = typer.Argument(..., help="A history entry's number, or join:SEAT / reveal:SEAT (the set-up)."),
    message: Path = typer.Option(..., "--message", help="Write the exact bytes that were signed here."),
    signature: Path = typer.Option(..., "--signature", help="Write the signature (SSHSIG) here."),
    seat: str | None = typer.Option(None, "--seat", help="Whose signature (a ruling has one per arbiter)."),
    signers: Path | None = typer.Option(None, "--signers", help="Also write the game's allowed-signers file here."),
) -> None:
    """Write an entry's signed bytes and signature, for ssh-keygen -Y verify without antike-ref.

    Example: antike-ref entry demo.json 12 --message e12 --signature e12.sig --signers allowed
    """

    def go():
        from pbem.service import store
        from pbem.service.signed.export import exported

        loaded = _game(game)
        data, sig, identity, allowed = exported(loaded, which, seat)
        store.write_atomic(signature, sig, durable=False)
        with open(message, "wb") as fh:
            fh.write(data)
        if signers is not None:
            store.write_atomic(signers, allowed, durable=False)
        print(f"ssh-keygen -Y verify -f {signers or 'ALLOWED_SIGNERS'} -I {identity} -n antike-ref@turn "
              f"-s {signature} < {message}")

    run(go)


def _game(path: Path):
    from pbem.service.service import GameService

    return GameService(path).load()


@app.command()
def sign(
    orders: Path = typer.Argument(..., help="Your order file (JSON or text orders)."),
    game: Path = typer.Option(..., "--game", help="Your copy of the game (the GM's game file or a player's copy)."),
    key: Path = typer.Option(..., "--key", help=KEY_HELP),
    now: str | None = typer.Option(None, "--now", metavar="TIME", help=NOW_HELP),
    block: Path | None = typer.Option(None, "--block", help=BLOCK_HELP),
) -> None:
    """In a game a GM runs: sign your orders, so the game proves which orders you gave.

    Send the block with your orders; the GM gives it to process --signature.

    Example: antike-ref sign romans-12.txt --game copy.json --key keys/romans --block romans-12.sig.txt
    """

    def go():
        from pbem.service.service import read_input, read_orders_for_game
        from pbem.service.signed.referee import sign_orders

        loaded = _game(game)
        given, _ = read_orders_for_game(loaded, read_input(orders))
        signed = sign_orders(loaded, given, read_key(key), time_option(now))
        print_block(signed, block)

    run(go)



def propose(game: Path, edition, board, opts, given: dict, deadline: str, missed: str, arbiters, chain: int, now,
            force: bool) -> None:
    """``new --signed``: the proposal, written as the set-up file and printed as a block."""
    from pbem.service.signed.entries import MISSED
    from pbem.service.signed.folder import Folder
    from pbem.service.signed.setup import Group, proposal

    for option, value in given.items():
        if value:
            raise UsageError(f"--signed: no {option} in a game without a game master (each seat signs with its key, "
                             "and the seed comes from every seat's reveal)")
    if missed not in MISSED:
        raise UsageError(f"--missed {missed!r}: one of {', '.join(MISSED)}")
    group = Group(deadline.strip(), missed, tuple(arbiters or opts.nations))
    made = proposal(edition, opts, board, group, chain, now)
    folder = Folder(game)
    folder.propose(made, force)
    print(f"wrote the proposal of {opts.game_id} to {folder.setup_path}: {', '.join(opts.nations)}; deadline "
          f"{group.deadline}, a missed turn gets {group.missed}, arbiters {', '.join(group.arbiters)}")
    print("each player: antike-ref join GAME PROPOSAL-TEXT --seat SEAT --key KEY (send them the block below)")
    print_block(made, None)


def signed_turn(game: Path, orders: Path, key: Path, now, block: Path | None, as_json: bool,
                output: Path | None, report_dir: Path | None):
    """``process --key``: the mover's signed turn (game before, the signed entry, the
    turn's result, the order file as read, the reading of text orders)."""
    from pbem.service.service import read_input
    from pbem.service.signed.folder import Folder

    if output is not None or report_dir is not None:
        raise UsageError("--key: a signed turn is written to the game itself and has no -o or --report-dir (render "
                         "its report afterwards: antike-ref render)")
    if as_json and block is None:
        raise UsageError("--json with --key: give --block FILE for the block")
    secret = read_key(key)
    given = read_input(orders)
    before, _, signed, result, reading = Folder(game).play(given, secret, now)
    return before, signed, result, given, reading


def write_block(signed, block: Path | None, as_json: bool) -> None:
    """The block of a signed turn: printed (and into ``block``), or with ``--json`` into
    ``block`` only."""
    if not as_json:
        print_block(signed, block)
        return
    from pbem.service import store
    from pbem.service.signed.blocks import armor

    if block is not None:
        store.write_atomic(block, armor(signed), durable=False)


def print_signatures(path: Path, game) -> None:
    """``verify``: every signature of the game checked, in words, and the proofs of
    cheating its folder kept (a game without signatures prints nothing)."""
    from pbem.service.signed import chain

    if chain.is_signed(game):
        from pbem.service.signed.folder import Folder
        from pbem.service.signed.verify import proof_lines, verify_signed

        for line in verify_signed(game, bot_orders):
            print(f"  {line}")
        folder = Folder(path)
        proofs = folder.proofs()
        for line in proof_lines(game, proofs):
            print(f"  {line}")
        if proofs:
            err(f"note: {len(proofs)} proof{'s' if len(proofs) > 1 else ''} of cheating kept in {folder.proofs_path}: "
                "the game's arbiters settle it (docs/without-gm.md)")
    elif any("signed" in entry for entry in game.history[1:]):
        from pbem.service.signed.referee import verify_referee

        for line in verify_referee(game):
            print(f"  {line}")


def show_setup(path: Path, seat: str | None, now, as_json: bool) -> bool:
    """``show`` of a game without a game master whose set-up is still gathered (no game
    file yet): where it stands and what ``seat`` must do; ``False`` if there is a game."""
    from pbem.service import store

    if path.exists() or not store.sibling(path, ".setup.json").exists():
        return False
    lines = next_lines(path, seat, now)
    if as_json:
        from pbem.cli.base import print_json

        print_json({"signed": {"setup": True, "next": lines}})
    else:
        for line in lines:
            print(line)
    return True


def signed_lines(game, seat: str | None, now) -> list[str]:
    """``show`` of a game without a game master: whose turn, its deadline, and what
    ``seat`` must do next (none for a game a GM runs)."""
    from pbem.service.signed import chain

    return chain.next_seat_step(game, seat, now) if chain.is_signed(game) else []


def post_blocks(game, kind: str) -> str:
    """What ``post`` adds after the report of a game without a game master: the block of
    the entry reported (the set-up's: every block of the set-up), in a code box so that
    the forum keeps it as it is; nothing for a game a GM runs."""
    from pbem.service.signed import chain
    from pbem.service.signed.blocks import armor, caption
    from pbem.service.signed.folder import game_blocks

    if not chain.is_signed(game):
        return ""
    last = len(game.history) - 1
    found = game_blocks(game, last) if last else game_blocks(game)
    if kind == "md":
        return "".join(f"\n{caption(s)}\n\n```\n{armor(s)}```\n" for s in found)
    return "".join(f"\n{caption(s)}\n[code]\n{armor(s)}[/code]\n" for s in found)
