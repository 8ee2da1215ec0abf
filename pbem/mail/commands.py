"""Commands by mail: what a player asks the referee besides orders.

A command mail holds one command per line (case does not matter), and may name the game,
the nation and the password as an order mail does (``game demo``, ``nation greeks``,
``password ...``). A greeting before the first command and thanks after the last one are
not read; a line between two commands must be a command. ``PRESS TO ...`` takes every line
after it as the message (a ``password`` line among them is the password, never part of the
message). A line indented four columns or more is a quote (a reply to the referee's answer):
the commands and headers in it are not read again (but for ``CONFIRM``, which the referee's
mail shows indented, and which works once only). A mail with an order line (``rondel``,
``move``, ...) before its ``PRESS`` line is an order mail, never a command mail: the two are
sent apart.

| command | what | password |
| --- | --- | --- |
| ``HELP`` | the commands, with an example | no |
| ``STATUS`` | whose turn, the deadline, your holdings | no |
| ``RESEND [txt|png|pdf|copy ...] [TURN ...]`` | turns' reports again (the latest by default) | no |
| ``OPTIONS`` | what you can do (on your turn) | no |
| ``HISTORY [N]`` | the last N entries (10) | no |
| ``PASSWORD`` | a new password, to the registered address | yes |
| ``ADDRESS new@example.org`` | move to a new address: confirmed from it | yes |
| ``CONFIRM CODE`` | (from the new address) confirms ``ADDRESS`` | no: the code |
| ``ABSENT UNTIL 2026-12-14 [reason]`` | you are away until that day | yes |
| ``BACK`` | you are back | yes |
| ``PRESS TO persians`` / ``PRESS TO all`` | a message to other players | yes |

A mail is bounded whatever it holds: it runs at most :data:`MAX_COMMANDS` commands, each
kind once and one change of identity (``PASSWORD`` or ``ADDRESS``); the lines beyond are
answered as not run. Its answer lists at most a refusal's number of lines of any kind, and
is at most :data:`MAX_ANSWER` bytes with its files; ``RESEND`` renders at most
:data:`MAX_FILES` files a mail. A nation changes its identity at most
:data:`IDENTITY_PER_DAY` times in 24 hours.

Answers go to the registered address only; nothing but ``PASSWORD``, ``ADDRESS`` and
``CONFIRM`` changes the game file, and those as a logged change of a player's identity.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field

WORDS: dict[str, str] = {
    "help": "the commands and how to write them",
    "status": "whose turn it is, the deadline, your holdings",
    "resend": "turns' reports again: RESEND [txt|png|pdf|svg|md|bbcode|copy ...] [TURN ...] (the latest by "
              "default; at most 6 files a mail)",
    "options": "what you can do (on your turn), with a template to answer with",
    "history": "the last entries of the game: HISTORY [N] (10 by default, at most 50)",
    "password": "a new password, mailed to your registered address (needs your password)",
    "address": "move to a new address: ADDRESS new@example.org (needs your password; a code goes to the new "
               "address only, which confirms it)",
    "confirm": "sent from the new address: CONFIRM CODE, with the code the referee mailed there",
    "absent": "you are away: ABSENT UNTIL 2026-12-14 (needs your password); your turns meanwhile follow the "
              "game's rule for absences; every day away in a year counts against the game's cap, an absence "
              "renewed too",
    "back": "you are back (needs your password)",
    "press": "a message to other players: PRESS TO persians (or PRESS TO all), the message on the lines after it "
             "(needs your password: a line 'password ...', which is never passed on)",
}
"""Every command, with what it does (``HELP`` lists them)."""

CHANGES = ("password", "address", "absent", "back")
"""Commands that change something: they need the nation's password."""

SIGNED = (*CHANGES, "press")
"""Commands that need the nation's password: those that change something, and press (which
speaks for the nation to every player, observer and the web page)."""

IDENTITY = ("password", "address")
"""Changes of a player's identity: one a mail, :data:`IDENTITY_PER_DAY` a day."""

IDENTITY_PER_DAY = 3
"""How many changes of identity (a new password, a code sent for a new address) a nation
may make in 24 hours."""

MAX_COMMANDS = 5
"""The most commands one mail runs (each kind once); the others are answered as not run."""

MAX_FILES = 6
"""The most report files one mail's ``RESEND`` renders (a turn in all six formats, or six
turns in one); a player's copy of the game is no rendering and not counted."""

MAX_ANSWER = 2 * 1024 * 1024
"""The most bytes an answer to a mail of commands has, its files included (the size of the
largest mail the referee reads by default): files beyond it are left out, and said so."""

SHOWN = 12
"""An answer lists at most this many lines of one kind (lines not run, lines that are no
command), as a refusal lists its problems; the rest are counted."""

HEADER = ("game", "nation", "password", "turn")
"""Lines a command mail may hold besides its commands, as an order mail has them."""

FORMATS = ("txt", "png", "pdf", "svg", "md", "bbcode", "copy")
"""What ``RESEND`` may ask for."""

MAX_PRESS = 20_000
"""A press message longer than this (characters) is refused."""


@dataclass(frozen=True)
class Command:
    word: str
    args: tuple[str, ...]
    line: int
    text: str = ""
    """``PRESS``: the message."""


@dataclass
class CommandMail:
    """The commands of a mail, what it says of game, nation and password, and its problems."""

    commands: list[Command] = field(default_factory=list)
    game: str | None = None
    nation: str | None = None
    password: str | None = None
    problems: list[str] = field(default_factory=list)
    """What is wrong, the first :data:`SHOWN` of it; ``unread`` counts the rest."""
    unread: int = 0
    ignored: list[tuple[int, str]] = field(default_factory=list)
    not_run: list[tuple[int, str]] = field(default_factory=list)
    """Command lines beyond what a mail runs (:data:`MAX_COMMANDS`, each kind once, one
    change of identity): line number and line."""
    hints: list[str] = field(default_factory=list)
    """Lines before the first command or after the last that look like a misspelt command
    (:func:`misspelt`): told in the answer, which runs the commands all the same."""


QUOTE_INDENT = 4
"""A line indented this many columns or more (a tab counts four) is quoted, as a reply
quotes the referee's answer or the mail before (a command there was run already): no
command or header line is read from it."""


def quoted(line: str) -> bool:
    """Whether ``line`` (as written) is indented as a quote (:data:`QUOTE_INDENT`)."""
    spread = line.expandtabs(QUOTE_INDENT)
    return len(spread) - len(spread.lstrip()) >= QUOTE_INDENT


def _first(line: str) -> str:
    words = line.split()
    return words[0].lower().rstrip(":") if words else ""


def command_lines(lines) -> list[tuple[int, str]]:
    """The lines of ``lines`` (number and text) that are commands: what an order mail
    holds after its orders (``STATUS`` under the last order line) and runs as commands."""
    return [(n, line) for n, line in lines if _first(line) in WORDS
            and not (_first(line) == "password" and len(line.split()) > 1) and not quoted(line)]


def suggest(word: str) -> str:
    """``did you mean STATUS?`` for a word close to a command, else empty."""
    close = difflib.get_close_matches(word.lower(), list(WORDS), n=1, cutoff=0.6)
    return f"did you mean {close[0].upper()}?" if close else ""


NOT_COMMANDS = frozenset({"hello", "best", "sent", "gruss", "gruß", "grüße", "regards", "cheers", "thanks", "bye"})
"""Words of greetings and closings that are close to a command's name (``Hello`` to
``HELP``, ``Best`` to ``ABSENT``): never taken for a misspelt command."""


def misspelt(line: str) -> str | None:
    """For a line that is one word close to a command (``HLEP``, ``Status?``), not a
    greeting: what the answer says of it; else ``None``. A word followed by a comma
    (``Hello,``) is a greeting, never a command."""
    word = line.strip().rstrip("?!.")
    if not word.isalpha() or word.lower() in NOT_COMMANDS or word.lower() in WORDS:
        return None
    hint = suggest(word)
    return f"'{word.upper()[:30]}' is no command ({hint})" if hint else None


def read_commands(text: str, order_words: frozenset[str],
                  kept: list[tuple[int, str]] | None = None) -> CommandMail | None:
    """The commands in ``text`` (a mail's plain-text body), or ``None`` if it holds none, or
    holds an order line (a word of ``order_words`` other than the header words) before its
    ``PRESS`` line: then it is not a command mail (a press message may say anything).
    ``kept``: the lines of ``text`` that :func:`~pbem.service.language.mailtext.strip_mail`
    keeps, where the caller has them."""
    from pbem.service.language.mailtext import MAX_TEXT_CHARS, strip_mail
    from pbem.service.language.tokens import line_value

    lines = strip_mail(text[:MAX_TEXT_CHARS]) if kept is None else kept
    press = next((i for i, (_, line) in enumerate(lines) if _first(line) == "press"), len(lines) - 1)
    lines = lines[:press + 1]
    if any(_first(line) in order_words and _first(line) not in HEADER for _, line in lines):
        return None
    written = re.split(r"\r\n|\r|\n", text)
    lines = [(n, line) for n, line in lines if _first(line) == "confirm"  # the referee's mail shows it indented
             or not quoted(written[n - 1] if n <= len(written) else line)]
    at = [i for i, (_, line) in enumerate(lines) if _first(line) in WORDS
          and not (_first(line) == "password" and len(line.split()) > 1)]
    if not at:
        return None
    mail = CommandMail()
    for i, (number, line) in enumerate(lines):
        word = _first(line)
        rest = line.split(None, 1)[1].strip() if len(line.split(None, 1)) > 1 else ""
        if word in HEADER and not (word == "password" and not rest):
            if word == "game":  # as an order mail's game line is read
                value = line_value(line, "game") or ""
            else:
                value = rest.split("#", 1)[0].strip() if word != "password" else rest
            if word in ("game", "nation") and value:
                setattr(mail, word, value if word == "game" else value.lower())
            elif word == "password":
                mail.password = value
            continue
        if i < at[0] or i > at[-1]:
            mail.ignored.append((number, line))
            hint = misspelt(line) if len(mail.hints) < SHOWN else None
            if hint:
                mail.hints.append(f"line {number}: {hint}")
            continue
        if word not in WORDS:
            if len(mail.problems) < SHOWN:
                hint = suggest(word)
                mail.problems.append(f"line {number}: '{line.strip()[:60]}' is no command"
                                     + (f" ({hint})" if hint else "") + f"; the commands: "
                                     f"{', '.join(w.upper() for w in WORDS)}")
            else:
                mail.unread += 1
            continue
        ran = [c.word for c in mail.commands]
        if word in ran or len(ran) >= MAX_COMMANDS or (word in IDENTITY and any(w in IDENTITY for w in ran)):
            mail.not_run.append((number, line))
            continue
        if word == "press":
            mail.commands.append(Command("press", tuple(line.split()[1:]), number, _message(text, number, mail)))
            break
        mail.commands.append(Command(word, tuple(line.split()[1:]), number))
    return mail


def _message(text: str, number: int, mail: CommandMail) -> str:
    """The message of the ``PRESS`` line ``number``: every line after it as written, but
    quoted lines, the signature after ``-- `` and ``password`` lines (``password`` and one
    word: the first is the password if the mail gave none before). A password is never
    part of the message."""
    from pbem.service.language.mailtext import MAX_TEXT_CHARS

    kept = []
    for raw in re.split(r"\r\n|\r|\n", text[:MAX_TEXT_CHARS])[number:]:
        if raw.lstrip().startswith(">"):
            continue
        words = raw.split()
        if len(words) == 2 and _first(raw) == "password":
            mail.password = words[1] if mail.password is None else mail.password
            continue
        kept.append(raw)
    body = "\n".join(kept)
    return re.split(r"\n-- ?\n", "\n" + body, maxsplit=1)[0].strip("\n")


ATTRIBUTION = re.compile(r"^\s*(On .{0,300}wrote:|Am .{0,300}schrieb .{0,200}:|-{2,}\s*Original Message\s*-{2,})\s*$",
                         re.IGNORECASE)
"""The line a mail program writes above the mail a reply quotes."""


def reply_text(text: str) -> tuple[str, str | None]:
    """What a reply to a press mail says, and the password it gives: its own lines, as a
    ``PRESS`` message is read (no quoted line, no signature, no ``password`` line), up to
    the line above the quoted mail (``On ... wrote:``)."""
    from pbem.service.language.mailtext import MAX_TEXT_CHARS

    lines = re.split(r"\r\n|\r|\n", text[:MAX_TEXT_CHARS])
    end = next((i for i, line in enumerate(lines) if ATTRIBUTION.match(line)), len(lines))
    mail = CommandMail()
    return _message("\n".join(lines[:end]), 0, mail), mail.password


def not_run_lines(mail: CommandMail) -> list[str]:
    """What the answer says of the command lines a mail held beyond what it runs."""
    from pbem.errors import clip

    count = len(mail.not_run)
    lines = [f"{count:,} more line{'s were' if count > 1 else ' was'} not run: a mail runs at most {MAX_COMMANDS} "
             "commands, each kind once, and one change of password or address. Send the others in another mail."]
    lines += [f"    line {number}: {clip(line.strip(), 60)}" for number, line in mail.not_run[:SHOWN]]
    if count > SHOWN:
        lines.append(f"    and {count - SHOWN:,} more")
    return lines


def holds_password(text: str, password: str | None) -> bool:
    """Whether ``text`` holds ``password`` as a word of its own (a password of fewer than
    four characters is not looked for: it would be found in any text)."""
    if not password or len(password) < 4:
        return False
    return re.search(rf"(?<![\w-]){re.escape(password)}(?![\w-])", text) is not None


def near_command(text: str, kept: list[tuple[int, str]] | None = None) -> str | None:
    """For a mail that is neither orders nor commands: if it looks like a mistyped command
    (its first line one word close to one, or any line of it one such word beside a
    greeting: ``Hi referee, / HLEP / Dora``), the answer's first line; else ``None``."""
    from pbem.service.language.mailtext import MAX_TEXT_CHARS, strip_mail

    lines = strip_mail(text[:MAX_TEXT_CHARS]) if kept is None else kept
    written = re.split(r"\r\n|\r|\n", text)
    lines = [(n, line) for n, line in lines if not quoted(written[n - 1] if n <= len(written) else line)]
    if not lines:
        return None
    word = _first(lines[0][1])
    hint = suggest(word) if len(lines[0][1].split()) <= 4 and word.rstrip(",") not in NOT_COMMANDS else ""
    if hint:
        return f"'{word.upper()}' is no command ({hint}); the commands: {', '.join(w.upper() for w in WORDS)}"
    for _, line in lines[:SHOWN * 2]:
        found = misspelt(line)
        if found:
            return f"{found}; the commands: {', '.join(w.upper() for w in WORDS)}"
    return None
