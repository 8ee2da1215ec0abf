"""The game service: the one transaction through which every change to a game goes.

Lock, load, authenticate, apply, append to the history, save atomically, write reports:
``process``, ``gm-edit``, ``undo``, ``default-turn`` and ``bot --apply`` all run
:meth:`GameService.change`, and so will the mail and forum commands. Adapters (the
command line, mail) parse their input, call a method here and print what comes back;
they never open a game file themselves.

Reports are written after the save, so that a rendering failure never costs a turn; the
adapter hands in how to write them (a :data:`Reporter`), which keeps this layer below the
report layer. The clock is not read here yet: nothing in a change depends on the time.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem.errors import CannotWrite, ExitCode, InputError, NotReported, PbemError, Refused, UsageError, WitnessMissing
from pbem.kernel.board import Board
from pbem.kernel.edition import Edition
from pbem.kernel.orders import canonical_edit, canonical_orders
from pbem.kernel.rejections import reject
from pbem.kernel.turn import TurnResult
from pbem.service import store, turns
from pbem.service.boards import load_board
from pbem.service.game import Game, consistency_problems
from pbem.service.history import canonical
from pbem.service.schemas import dumps, parse_json, problems, read_json, read_text, validate

if TYPE_CHECKING:
    from pbem.kernel.setup import SetupOptions
    from pbem.service.language.textorders import TextReading
    from pbem.service.witness import Checked, Witness


COMMITTED: list[Path] = []
"""The game files this process has saved, in order: an interrupted command says whether
its change was saved (docs/orders.md, "Exit codes": 8 nothing written, 9 saved)."""


@contextmanager
def commit(path: Path):
    """The moment a game file is replaced (and its audit log line written): Ctrl-C and
    SIGTERM wait until it is over, so an interrupted run has either saved the change and
    recorded it in :data:`COMMITTED`, or written nothing."""
    import signal

    held = {signal.SIGINT, signal.SIGTERM}
    try:
        old = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    except (AttributeError, ValueError, OSError):  # no signal masks here (another platform)
        old = None
    try:
        yield
        COMMITTED.append(path)
    finally:
        if old is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, old)


class AlreadyApplied(PbemError):
    """A mail whose orders are in the history already (found again after a crash, or
    delivered twice)."""

    exit_code = ExitCode.REFUSED


Reporter = Callable[[Game], list[Path]]
"""Writes the reports of a game's latest history entry; returns the files written."""
OrderSource = Callable[[Game], dict[str, Any]]
"""Makes canonical orders for the game as loaded under the lock (a bot, the GM default)."""
Screen = Callable[[Game, dict[str, Any], "TextReading | None"], None]
"""An adapter's checks of a player's orders inside the transaction (the mail's: does the
mail come from the nation's registered address?): called with the game under the lock, the
canonical orders and their text reading before they are played; whatever it raises
leaves the game unchanged and reaches the adapter."""


@dataclass(frozen=True, slots=True)
class Input:
    """An order or edit file as read, before its shape is checked: the data and where it
    came from (named in every message). ``form`` is ``json``, or ``text`` for orders in
    the text syntax (``data`` is then the text; docs/text-orders.md)."""

    data: Any
    source: str
    form: str = "json"
    lines: tuple[tuple[int, str], ...] | None = None
    """Orders in the text syntax: the lines of the text that can hold orders, with their
    numbers (:func:`~pbem.service.language.mailtext.strip_mail`), where the adapter has
    them already (the mail strips a mail once); ``None``: the reader strips the text."""


def input_from_text(text: str, source: str) -> Input:
    """An input given as text: JSON if it starts with ``{`` (after a byte-order mark and
    blanks), otherwise orders in the text syntax."""
    stripped = text.lstrip("\ufeff \t\r\n")
    if stripped.startswith(("{", "[")):
        return Input(parse_json(stripped, source), source)
    return Input(text, source, "text")


def read_input(path: str | os.PathLike) -> Input:
    """Read an input file (orders in JSON or the text syntax, an edit); :class:`InputError`
    if it cannot be read."""
    source = str(path)
    return input_from_text(read_text(path, source), source)


def parse_orders(edition: Edition, given: Input, board: Board | None = None, rules_data: str = "") -> dict[str, Any]:
    """Orders checked against the edition's order schema, in canonical form; orders in the
    text syntax need the ``board`` their provinces are named on, and the game's
    ``rules_data`` for the names of what a GM entered (the event cards of an edition with cards)."""
    return read_orders(edition, given, board, rules_data)[0]


def read_orders(edition: Edition, given: Input, board: Board | None = None,
                rules_data: str = "") -> tuple[dict[str, Any], TextReading | None]:
    """:func:`parse_orders`, and for orders in the text syntax what the text says where
    (:class:`~pbem.service.language.textorders.TextReading`; ``None`` for an order file in JSON). An
    :class:`InputError` of the schema about text orders carries the reading as its
    ``text_reading``, so that its problems can be told by line."""
    data = given.data
    reading: TextReading | None = None
    if given.form == "text" and board is None:
        raise UsageError(f"{given.source}: orders in the text syntax need the game's board")
    try:
        if given.form == "text":
            from pbem.service.language.textorders import read_text_orders

            assert board is not None  # refused above
            reading = read_text_orders(data, edition, board, given.source, data=rules_data, kept=given.lines)
            data = reading.orders
        elif board is not None:
            from pbem.service.language.aliases import board_words

            data = board_words(data, edition, board)
        validate("orders", data, given.source, edition)
    except InputError as exc:
        exc.about_orders = True  # the command line points the player to the guide
        exc.text_reading = reading
        raise
    return canonical_orders(data, edition), reading


def read_orders_for_game(game: Game, given: Input) -> tuple[dict[str, Any], TextReading | None]:
    """:func:`read_orders` for ``game``: its edition, its board and its rules' data."""
    return read_orders(game.edition, given, game.board, game.state.table.data)


@contextmanager
def told_by_line(reading: TextReading | None):
    """A :class:`Refused` raised inside carries ``reading`` (orders in the text syntax) as
    its ``text_reading``, so that its rejections can be told by line."""
    try:
        yield
    except Refused as exc:
        if reading is not None:
            exc.text_reading = reading
        raise


def echo_text(game: Game, orders: dict[str, Any]) -> str:
    """Canonical orders in the text syntax (the echo for orders that came as text)."""
    from pbem.service.language.writer import format_text_orders

    return format_text_orders(orders, game.edition, game.board)


def parse_edit(edition: Edition, given: Input) -> dict[str, Any]:
    """A GM edit checked against the edition's edit schema, in canonical form."""
    validate("edit", given.data, given.source, edition)
    return canonical_edit(given.data, edition)


@dataclass
class Outcome:
    """What a change did: the game before and after, the turn's result if orders were
    played, the history entries added or taken back, and the report files written."""

    before: Game
    after: Game
    result: TurnResult | None = None
    added: list[dict[str, Any]] = field(default_factory=list)
    removed: list[dict[str, Any]] = field(default_factory=list)
    reports: list[Path] = field(default_factory=list)
    saved_to: Path | None = None
    reading: TextReading | None = None
    """Orders in the text syntax: what the text says where, and the lines not read."""


class GameService:
    """Every read and change of one game file (and of its lock and audit log)."""

    def __init__(self, path: str | os.PathLike):
        self.path = Path(path)
        self.reuse_loaded = False
        """Let a change start from the game :meth:`load` read last, instead of reading the
        file again under the lock, when the file is provably the one it was read from
        (:meth:`_loaded_game`). The mail cycle sets it: it loads a game, then applies the
        orders of a mail to it."""
        self._loaded: tuple[tuple[int, int, int, int], Game, int, str] | None = None

    # -- reading ------------------------------------------------------------------------

    def load(self) -> Game:
        """The game as it is on disk (schema and consistency checked)."""
        before = store.file_state(self.path)
        game = store.load_game(self.path)
        after = store.file_state(self.path)
        # remembered only if the file did not change while it was read
        self._loaded = (after, game, len(game.history), game.history[-1]["hash"]) \
            if after is not None and before == after and game.history else None
        return game

    def _loaded_game(self) -> Game | None:
        """The game :meth:`load` read last, if :attr:`reuse_loaded` allows it and the file
        is still the very one it was read from: the same device, inode, modification time
        and size (every writer replaces a game file whole, so a changed file is a new
        one), and the game still ends with the entry it was read with. Called under the
        game's lock; otherwise ``None`` and the file is read again."""
        if not self.reuse_loaded or self._loaded is None:
            return None
        state, game, length, head = self._loaded
        if store.file_state(self.path) != state or len(game.history) != length or game.history[-1]["hash"] != head:
            return None
        return game

    def raw(self) -> dict[str, Any]:
        return read_json(self.path)

    def check(self, orders: Input) -> tuple[Game, TurnResult, TextReading | None]:
        """What the orders would do; nothing is locked or written. Also the reading of
        orders in the text syntax (``None`` for JSON): which lines it did not read, and
        which line each order came from (a refusal carries it as ``text_reading``)."""
        game = self.load()
        given, reading = read_orders_for_game(game, orders)
        with told_by_line(reading):
            return game, turns.check(game, given), reading

    def verify(self, progress=None):
        """Replay the whole history and compare it with the file."""
        from pbem.service.replay import verify

        game = self.load()
        return verify(game, self.raw(), progress=progress)

    def verify_witnesses(self, witnesses: list[Witness], progress=None) -> tuple[Any, Checked]:
        """:meth:`verify`, then check that every witness hash players hold (from their
        receipts and reports) is the hash of an entry of the verified history;
        :class:`WitnessMissing` names each one that is not, and where it came from."""
        from pbem.service import witness
        from pbem.service.replay import verify

        game = self.load()
        result = verify(game, self.raw(), progress=progress)
        checked = witness.check(game.history, witnesses)
        if checked.missing:
            notes = witness.undo_notes(self.audit_path())
            count = len(checked.missing)
            lines = [f"{self.path}: the history replays, but {count} game hash{'es' if count > 1 else ''} "
                     f"given to players {'are' if count > 1 else 'is'} not in it: the history was rewritten "
                     f"after {'these receipts were' if count > 1 else 'this receipt was'} sent"]
            for digits, sources in checked.missing.items():
                unique = list(dict.fromkeys(sources))
                shown = "; ".join(unique[:6]) + (f"; and {len(unique) - 6} more" if len(unique) > 6 else "")
                note = next((why for h, why in notes.items() if h.startswith(digits)), None)
                lines.append(f"  {digits} from {shown}" + (f"; {note}" if note else ""))
            raise WitnessMissing("\n".join(lines))
        return result, checked

    # -- the one transaction -----------------------------------------------------------

    def change(self, step: Callable[[Game], Outcome], output: Path | None = None,
               reporter: Reporter | None = None,
               saved: Callable[[Outcome], None] | None = None,
               logged: Callable[[Outcome], None] | None = None) -> Outcome:
        """Lock the game (and ``output``), load it (or take the game :meth:`load` read, if the
        file is provably that one: :meth:`_loaded_game`), let ``step`` make the next game, call
        ``logged`` (the audit log: written first, so a run killed in between leaves a record
        whose ``head_before`` is still the game's head rather than a change nobody logged),
        save it atomically (to ``output`` if given), call ``saved`` while the lock is still
        held, then write the reports."""
        target = output or self.path
        with store.locked_files(self.path, output):
            game = own_game(self._loaded_game() or self.load())
            outcome = step(game)
            with commit(target):
                if logged is not None:
                    logged(outcome)
                store.save_game(outcome.after, target)
                self._loaded = None  # a new file: read again the next time
                outcome.saved_to = target
                if saved is not None:
                    saved(outcome)
        if reporter is not None:
            outcome.reports = write_reports_after(reporter, outcome.after, target)
        return outcome

    def process(self, orders: Input, output: Path | None = None,
                reporter: Reporter | None = None, mail_id: str | None = None,
                screen: Screen | None = None, signed: Any = None) -> Outcome:
        """A player's order file: checked (password included), applied, recorded.

        ``mail_id`` is the Message-ID of the mail the orders came in: it is recorded with
        the entry, and a mail whose orders are in the history already is refused
        (:class:`AlreadyApplied`), so no mail is ever applied twice. ``screen``: the
        adapter's own checks of the orders (:data:`Screen`), made in the same transaction,
        on the orders as read once and the game as loaded once. ``signed``: the player's
        signature of these orders (:mod:`pbem.service.signed.referee`), checked and kept
        with the entry."""

        def step(game: Game) -> Outcome:
            if mail_id is not None and mail_id in turns.mail_ids(game):
                raise AlreadyApplied(f"{orders.source}: mail {mail_id} was applied already")
            notes: dict[str, Any] | None = {"mail": mail_id} if mail_id is not None else None
            given, reading = read_orders_for_game(game, orders)
            if screen is not None:
                screen(game, given, reading)
            if signed is not None:
                notes = {**(notes or {}), "signed": self._checked_signature(game, given, signed)}
            with told_by_line(reading):
                new, result = turns.play(game, given, turns.PLAYER, notes)
            return Outcome(game, new, result, added=[new.history[-1]], reading=reading)

        return self.change(step, output, reporter)

    def _checked_signature(self, game: Game, given: dict[str, Any], signed: Any) -> dict[str, Any]:
        """The player's signature of ``given``, checked (against the key this folder's
        ``GAME.allowed_signers`` names for the seat, if it has one)."""
        from pbem.service.signed.referee import check_orders

        allowed: tuple[Any, ...] = ()
        signers = store.sibling(self.path, ".allowed_signers")
        if signers.exists():
            from pbem.trust.signers import read_allowed_signers

            allowed = read_allowed_signers(read_text(signers, str(signers)), str(signers))
        return check_orders(game, given, signed, f"{signed.entry.get('seat')}'s signature", allowed).note()

    def gm_edit(self, edit: Input, output: Path | None = None,
                reporter: Reporter | None = None) -> Outcome:
        """A GM edit file: all edits or none, logged in the history with its reason."""

        def step(game: Game) -> Outcome:
            new = turns.edit(game, parse_edit(game.edition, edit))
            return Outcome(game, new, added=[new.history[-1]])

        return self.change(step, output, reporter)

    def bot_turn(self, mode: str, make: OrderSource, reporter: Reporter | None = None,
                 notes: dict[str, Any] | None = None) -> Outcome:
        """A bot's turn for the active nation's absent player (``make`` writes the orders
        from the game as loaded): recorded as the bot's, never as the player's."""

        def step(game: Game) -> Outcome:
            new, result = turns.play(game, make(game), turns.bot(mode), notes)
            return Outcome(game, new, result, added=[new.history[-1]])

        return self.change(step, reporter=reporter)

    def default_turn(self, nation: str, reporter: Reporter | None = None,
                     notes: dict[str, Any] | None = None) -> Outcome:
        """The default turn (D15) for the active nation's missing player."""

        def step(game: Game) -> Outcome:
            new, result = turns.default_turn(game, nation, notes)
            return Outcome(game, new, result, added=[new.history[-1]])

        return self.change(step, reporter=reporter)

    def replace_player(self, nation: str, player: str | None, email: str | None, reason: str,
                       iterations: int, password: str | None = None) -> tuple[Outcome, str]:
        """A new player for ``nation``: name, address and a new password (generated unless
        given), logged as a GM edit; returns the outcome and the plain password, which is
        also written to the GM's secrets file.

        One transaction: the secrets file is written first, then the game; if the game
        cannot be saved, the secrets file is put back as it was. Either both hold the new
        password or neither does (:class:`CannotWrite`, which names no password)."""
        from pbem.service import passwords

        plain = password or passwords.generate()
        if iterations < passwords.MIN_ITERATIONS:
            raise UsageError(f"--kdf-iterations {iterations}: at least {passwords.MIN_ITERATIONS}")
        secrets = store.sibling(self.path, ".secrets.json")
        old = read_text(secrets, str(secrets)) if secrets.exists() else None  # unreadable: refused before any change
        known = parse_json(old, str(secrets)) if old is not None else {}
        if not isinstance(known, dict):
            raise InputError(str(secrets), "expected an object of nation: password")

        def step(game: Game) -> Outcome:
            salt = passwords.salt_for(f"{game.seed}:{len(game.history)}", nation)
            hashed = passwords.hash_password(plain, salt, iterations)
            new = turns.replace_player(game, nation, player, email, hashed, reason)
            return Outcome(game, new, added=[new.history[-1]])

        written: list[bool] = []

        def remember(outcome: Outcome) -> None:  # before the game is saved
            store.write_atomic(secrets, dumps({**known, nation: plain}), mode=0o600)
            written.append(True)

        try:
            return self.change(step, logged=remember, saved=lambda outcome: written.clear()), plain
        except BaseException:
            if written:  # the game was not saved: neither is the new password
                _put_back(secrets, old)
            raise

    def change_address(self, nation: str, email: str, reason: str, player: str | None = None) -> Outcome:
        """The player of ``nation`` moves to another address (and, if given, another name),
        keeping the password: logged as a GM edit of the nation's identity, as
        :meth:`replace_player` is (its hash stays, so a replay holds the same)."""

        def step(game: Game) -> Outcome:
            if nation not in game.meta:
                raise Refused([reject("orders/unknown-nation", "$.nation", nation=nation,
                                      playing=", ".join(game.meta))])
            meta = game.meta[nation]
            new = turns.replace_player(game, nation, meta.player if player is None else player, email,
                                       meta.password, reason)
            return Outcome(game, new, added=[new.history[-1]])

        return self.change(step)

    def undo(self, count: int, reason: str = "", dry_run: bool = False,
             reporter: Reporter | None = None) -> Outcome:
        """Take back the last ``count`` history entries (turns, GM edits, standing-order
        changes, as ``history`` lists them) by replay; logged in the audit log.

        The game file becomes exactly what it was before them, so processing the same
        orders again gives the same bytes. With ``dry_run`` nothing is written."""

        def step(game: Game) -> Outcome:
            earlier, removed = take_back(game, count)
            return Outcome(game, earlier, removed=removed)

        logged: list[tuple[int, int]] = []

        def log(outcome: Outcome) -> None:
            before = outcome.before
            record = {"action": "undo", "turns": count, "reason": reason,
                      "from_turn": before.state.status.turn, "to_turn": outcome.after.state.status.turn,
                      "head_before": before.history[-1]["hash"], "removed": outcome.removed}
            logged.append(store.append_audit(self.path, canonical(record)))

        if dry_run:
            return step(self.load())
        try:
            return self.change(step, reporter=reporter, logged=log, saved=lambda outcome: logged.clear())
        except BaseException:
            if logged:  # the game could not be saved: the log keeps no undo that was not made
                store.retract_audit(self.path, logged[0])
            raise

    # -- creating ---------------------------------------------------------------------

    def create(self, edition: Edition, opts: SetupOptions, board: Board | None, passwords: dict[str, str],
               secrets: Path, iterations: int, force: bool = False, reporter: Reporter | None = None) -> Outcome:
        """Create the game file and the GM's secrets file (plain passwords, mode 600) on
        ``board`` (default: the shipped board ``opts.board``); ``after`` is the new game."""
        from pbem.service.creation import new_game, with_hidden_secret  # only new sets a game up

        opts, passwords = with_hidden_secret(edition, opts, passwords)
        created, plain = new_game(edition, opts, board or load_board(opts.board), passwords, iterations)
        wrong = problems("game", created.to_json(), edition) + consistency_problems(created)
        if wrong:
            raise RuntimeError(f"new would write a game file that does not load: {wrong[0]}")
        with store.locked(self.path, must_exist=False):
            for path in (self.path, secrets):
                if path.exists() and not force:
                    raise UsageError(f"{path} exists already (use --force to overwrite)")
            with commit(self.path):
                store.write_atomic(secrets, dumps(plain), mode=0o600)
                # a game with hidden cards holds every hand and the deck: the GM's alone
                store.save_game(created, self.path, mode=0o600 if edition.secrets else None)
        outcome = Outcome(created, created, added=list(created.history), saved_to=self.path)
        if reporter is not None:
            outcome.reports = write_reports_after(reporter, created, self.path)
        return outcome

    def audit_path(self) -> Path:
        return store.audit_path(self.path)


def own_game(game: Game) -> Game:
    """``game``, if it is the GM's game file; a player's copy is refused (it is for
    ``check`` and ``options``, never changed), and so is a game without a game master
    (its seats change it with their keys: :mod:`pbem.service.signed`)."""
    if game.copy_of is not None:
        raise Refused([reject("game/player-copy", "$.copy", nation=game.copy_of)])
    if game.history and "signed" in game.history[0]:
        from pbem.service.signed.refusals import SignedRefused, Why

        raise SignedRefused(Why.NO_GM, "a game without a game master: no password and no GM command changes it; "
                                       "each seat plays with its key (process --key), claims a missed turn (claim), "
                                       "and the arbiters rule (rule)", game.source, ExitCode.REFUSED)
    return game


def _put_back(path: Path, text: str | None) -> None:
    """``path`` as it was (``None``: it did not exist), after a transaction that wrote it
    could not be completed; best effort."""
    try:
        if text is None:
            path.unlink(missing_ok=True)
        else:
            store.write_atomic(path, text, mode=0o600)
    except (OSError, CannotWrite):
        pass


def write_reports_after(reporter: Reporter, game: Game, saved: Path) -> list[Path]:
    """The reports of a change that is saved already: a report that cannot be written (a
    full disk, a read-only folder) leaves the change saved and says so
    (:class:`NotReported`, its own exit code), never as if nothing had happened."""
    try:
        return reporter(game)
    except (CannotWrite, OSError) as exc:
        reason = exc.reason if isinstance(exc, CannotWrite) else (exc.strerror or str(exc))
        where = f" ({exc.path})" if isinstance(exc, CannotWrite) else (f" ({exc.filename})" if exc.filename else "")
        kind = "turn" if game.history[-1].get("kind") in turns.TURN_KINDS else "change"
        raise NotReported(f"{saved}: the {kind} is saved (game hash after it: {game.history[-1]['hash'][:12]}), but "
                          f"its reports could not be written{where}: {reason}; write them again with "
                          "antike-ref render once there is room") from None


def take_back(game: Game, count: int) -> tuple[Game, list[dict[str, Any]]]:
    """The game before its last ``count`` history entries, and those entries."""
    if count < 1:
        raise UsageError("--turns must be at least 1")
    entries = len(game.history) - 1
    if entries < count:
        raise UsageError(f"only {entries} history entr{'y' if entries == 1 else 'ies'} after the set-up; "
                         f"cannot take back {count}")
    from pbem.service.replay import game_after  # only undo replays: not every command's start

    cut = len(game.history) - count
    return game_after(game, cut - 1), game.history[cut:]


def refusal_json(exc: Refused | InputError) -> dict[str, Any]:
    """docs/orders.md's object for an order file that was refused (its rejections) or could
    not be read (one ``input/invalid`` rejection per problem): what ``check --json`` and
    ``process --json`` print."""
    if isinstance(exc, Refused):
        found = exc.rejections
    else:
        found = [reject("input/invalid", p.path, source=exc.source, message=p.message) for p in exc.problems]
    return {"ok": False, "rejections": [r.to_json() for r in found]}
