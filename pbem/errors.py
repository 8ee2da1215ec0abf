"""Exception types and the exit code each maps to (docs/orders.md, "Exit codes").

Rule violations inside an order file are *data* (:class:`pbem.kernel.rejections.Rejection`);
exceptions are for unreadable files, schema failures, refusals as a whole, locks and bugs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any


class ExitCode(IntEnum):
    """Process exit codes, one per kind of failure."""

    OK = 0
    """Success."""
    INTERNAL = 1
    """A bug in antike-ref."""
    USAGE = 2
    """Bad command-line arguments."""
    BAD_INPUT = 3
    """A file is unreadable, not JSON, or violates its schema."""
    REFUSED = 4
    """Orders or edits refused by the rules of the game."""
    LOCKED = 5
    """The game file is locked by another run."""
    VERIFY_FAILED = 6
    """The history does not replay."""
    MAIL = 7
    """A mail server could not be reached, or refused the login or a message."""
    INTERRUPTED = 8
    """Interrupted (Ctrl-C or SIGTERM) before anything was saved: the game file is unchanged."""
    INTERRUPTED_SAVED = 9
    """Interrupted after the game file was saved: the change is applied, but what comes
    after it (reports, mails) may be missing."""
    CANNOT_WRITE = 10
    """A file could not be written (a full disk, a read-only folder, no permission): the
    change was not saved, the game file is unchanged."""
    NOT_REPORTED = 11
    """The change is saved, but a report, mail or file that comes after it could not be
    written (a full disk, a read-only folder): write it again once there is room."""


class PbemError(Exception):
    """Base class; ``exit_code`` says how the CLI ends."""

    exit_code: ExitCode = ExitCode.INTERNAL


class UsageError(PbemError):
    """Bad arguments given to a command."""

    exit_code = ExitCode.USAGE


@dataclass(frozen=True, slots=True)
class Problem:
    """One problem found in an input file: where (JSON path) and what."""

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


def clip(text: str, limit: int = 60) -> str:
    """``text`` as a message quotes it: whole if it is short, else its start and its length,
    so that a name 100,000 characters long does not make a message of that size."""
    if len(text) <= limit:
        return text
    return f"{text[:max(limit - 24, 8)]}… ({len(text)} characters)"


class InputError(PbemError):
    """A file cannot be read, is not JSON, or does not match its schema."""

    exit_code = ExitCode.BAD_INPUT
    about_orders: bool
    """Set (to ``True``) on an error about orders a player sent: the command line then
    points the player to the guide."""
    text_reading: Any = None  # Any: a TextReading, of the service, which this bottom layer does not import
    """For a problem of the orders schema about orders in the text syntax: the reading of
    the text (:class:`pbem.service.language.textorders.TextReading`), whose ``describe`` tells each
    problem by line."""

    def __init__(self, source: str, problems: list[Problem] | str):
        if isinstance(problems, str):
            problems = [Problem("$", problems)]
        self.source = source
        self.problems = problems
        first = problems[0]
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        super().__init__(f"{source}: {first}{more}")


class InconsistentGame(InputError):
    """A game file that is valid JSON of the right shape but breaks an invariant."""


class Refused(PbemError):
    """Orders or an edit refused by the rules; carries every rejection."""

    exit_code = ExitCode.REFUSED
    text_reading: Any = None  # Any: a TextReading, of the service, which this bottom layer does not import
    """For orders in the text syntax: the reading of the text
    (:class:`pbem.service.language.textorders.TextReading`), whose ``describe`` tells each rejection
    by line."""

    def __init__(self, rejections: list):
        self.rejections = list(rejections)
        first = self.rejections[0]
        more = f" (and {len(self.rejections) - 1} more)" if len(self.rejections) > 1 else ""
        super().__init__(f"{first}{more}")


class CannotWrite(PbemError):
    """This machine could not write a file: an error of the machine, never of the input
    (nor a player's refusal)."""

    exit_code = ExitCode.CANNOT_WRITE

    def __init__(self, path: str, reason: str):
        self.path = path
        self.reason = reason
        super().__init__(f"{path}: cannot write file: {reason}")


class NotReported(PbemError):
    """A change was saved, but what comes after it (reports, a mail) could not be written;
    the message says what is saved and what is missing."""

    exit_code = ExitCode.NOT_REPORTED


class GameLocked(PbemError):
    """Another run holds the game's lock file."""

    exit_code = ExitCode.LOCKED


class MailServerError(PbemError):
    """A mail server could not be reached or refused us."""

    exit_code = ExitCode.MAIL


@dataclass
class VerifyFailed(PbemError):
    """``verify`` found a history entry that does not replay."""

    entry: int
    reason: str
    source: str = ""
    """The game file, named first in the message when it is known."""
    exit_code: ExitCode = field(default=ExitCode.VERIFY_FAILED, init=False)

    def __str__(self) -> str:
        where = f"{self.source}: " if self.source else ""
        return f"{where}history entry {self.entry}: {self.reason}"


class WitnessMissing(PbemError):
    """``verify --expect`` / ``--receipts``: the history replays, but it no longer holds a
    hash a player was given (it was rewritten after that receipt was sent)."""

    exit_code = ExitCode.VERIFY_FAILED


class Interrupted(BaseException):
    """Ctrl-C or SIGTERM. A :class:`BaseException` of our own, so no ``except Exception``
    and none of Click's handlers turn it into another exit code on the way out."""


RECEIVED: list[int] = []
"""The signals the console script's handler received in this process."""


def caused_by_interrupt(exc: BaseException | None) -> bool:
    """Whether ``exc`` is, or was raised because of, Ctrl-C or SIGTERM. Python wraps an
    exception raised while a class is being made in a RuntimeError, and a library may turn
    it into an error of its own (cairo's writer reports a write error): an error that
    follows an interrupt is the interrupt's."""
    if RECEIVED:
        return True
    seen = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, (Interrupted, KeyboardInterrupt)):
            return True
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return False
