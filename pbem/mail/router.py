"""Where one mail goes: what it holds (commands, orders, neither, or nothing readable) and
the game that answers it (:func:`route`). Nothing is changed or answered here."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pbem.errors import InputError, PbemError
from pbem.mail import commands
from pbem.mail.addresses import deliverable, observer
from pbem.mail.commands import CommandMail
from pbem.mail.inbox import Incoming
from pbem.mail.runs import GameRun
from pbem.mail.strays import lookalike
from pbem.service.service import Input, input_from_text


@dataclass
class Found:
    """What a mail offers as orders."""

    given: Input | None
    game_id: str | None
    problem: str | None = None


def find_orders(incoming: Incoming) -> Found | None:
    """The orders in a mail: an attached ``.json`` / ``.txt`` file, else the plain-text
    body. ``None`` for a mail that holds nothing that looks like orders (not for us)."""
    from pbem.service.language.textorders import looks_like_text_orders

    source = f"mail {incoming.message_id}"
    from pbem.service.copies import is_player_copy

    attached = [(n, d) for n, d in incoming.attachments if not is_player_copy(d)]  # a reply may carry it back
    if len(attached) > 1:
        names = ", ".join(n for n, _ in attached)
        return Found(None, None, f"more than one order file is attached ({names}); send one per mail")
    if attached:
        name, data = attached[0]
        where = f"{name} ({source})"
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            return Found(None, None, f"{name}: the attachment is not UTF-8 text")
        try:
            given = input_from_text(text, where)
        except InputError as exc:
            return Found(None, text_game(text), "; ".join(str(p) for p in exc.problems) + f" (in {name})")
        return Found(given, game_of(given))
    if incoming.text is not None:
        lines = incoming.body_lines()
        kept = "\n".join(line for _, line in lines).strip()
        if kept.startswith("{"):
            try:
                given = input_from_text(kept, f"the body of {source}")
            except InputError as exc:
                return Found(None, None, "; ".join(str(p) for p in exc.problems))
            return Found(given, game_of(given))
        if looks_like_text_orders(incoming.text, lines):
            given = Input(incoming.text, f"the body of {source}", "text", tuple(lines))
            return Found(given, game_of(given))
        return None
    if incoming.html_text is not None and (looks_like_text_orders(incoming.html_text) or '"nation"' in incoming.html_text):
        return Found(None, text_game(incoming.html_text),
                     "the mail has only an HTML part; send your orders as plain text "
                     "(in your mail program: plain text, not HTML) or attach an order file")
    return None


def text_game(text: str, lines: Sequence[tuple[int, str]] | None = None) -> str | None:
    """The game a text of orders names: the first ``game`` line whose rest is a game id
    (``Game night was fun!`` before the orders is prose, not a game line), else the first
    ``game`` line's rest (a mistyped id, which the answer then quotes)."""
    from pbem.service.language.mailtext import MAX_TEXT_CHARS, strip_mail
    from pbem.service.language.tokens import line_value
    from pbem.service.setup import is_game_id

    if lines is None:
        lines = strip_mail(text[:MAX_TEXT_CHARS])
    named = [found for _, line in lines if (found := line_value(line, "game"))]
    return next((g for g in named if is_game_id(g)), named[0] if named else None)


def game_of(given: Input) -> str | None:
    if given.form == "text":
        return text_game(given.data, given.lines)
    return given.data.get("game") if isinstance(given.data, dict) and isinstance(given.data.get("game"), str) else None


def order_line_words() -> frozenset[str]:
    """Words an order line starts with, in any edition (the text syntax's, and ``know`` of
    ``know how``): a mail with such a line is orders."""
    from pbem.service.language.names import line_words

    return line_words() | {"know"}


@dataclass(frozen=True)
class Route:
    """Where one mail goes: ``target``, the game that answers it (``None``: none does), as
    a mail of ``command`` s, of orders (``found``; ``wrong``: it names a game that is not
    the target), or neither. ``silent``: automatic mail, or mail without a sender, is never
    answered (no mail loops). ``unread``: the mail could not be read; the target is the
    game its sender plays in, which answers it in one line."""

    target: GameRun | None
    command: CommandMail | None = None
    found: Found | None = None
    wrong: bool = False
    silent: bool = False
    unread: bool = False

    def why_ignored(self) -> str:
        """Why the other games leave the mail alone."""
        return "automatic or no sender" if self.silent else "no orders" if self.found is None else "for another game"


def route(incoming: Incoming, runs: list[GameRun]) -> Route:
    """Where ``incoming`` goes among the games that read its mailbox (``runs``)."""
    silent = incoming.automatic or not deliverable(incoming.sender)
    if incoming.problem:
        return Route(None if silent else _player_game(incoming, runs), silent=silent, unread=True)
    by_id = {r.game_id: r for r in runs}
    command = None
    if not silent and incoming.text is not None and not incoming.attachments:
        command = commands.read_commands(incoming.text, order_line_words(), incoming.body_lines())
    if command is not None:
        return Route(_command_game(incoming, command, runs, by_id), command=command)
    found = None if silent else find_orders(incoming)
    target, wrong = _order_game(incoming, found, runs, by_id)
    if target is None and found is None and not silent:
        target = _player_game(incoming, runs, watching=True)
    return Route(target, found=found, wrong=wrong, silent=silent)


def _player_game(incoming: Incoming, runs: list[GameRun], watching: bool = False) -> GameRun | None:
    """The first game the sender plays in (``watching``: or observes)."""
    return next((r for r in runs if not r.stopped and (r.registered(incoming.sender) or (
        watching and observer(r.settings, incoming.sender) is not None))), None)


def _command_game(incoming: Incoming, command: CommandMail, runs: list[GameRun],
                  by_id: dict[str, GameRun]) -> GameRun | None:
    """The game a mail of commands is for: the one it names, else the first game its
    sender plays in, (a ``CONFIRM``) the game that waits for it from this address, the
    first game the sender observes, or the first whose player it seems to come from
    (:func:`pbem.mail.strays.lookalike`: their name, or their nation and password)."""
    if command.game in by_id:
        return by_id[command.game]
    player = _player_game(incoming, runs)
    if player is not None:
        return player
    for run in runs:
        if any(isinstance(p, dict) and p.get("to") == incoming.sender for p in run.ledger.pending.values()):
            return run
    watched = next((r for r in runs if not r.stopped and observer(r.settings, incoming.sender)), None)
    if watched is not None:
        return watched
    for run in runs:
        try:
            if not run.stopped and lookalike(run.game, incoming, command.nation, command.password):
                return run
        except PbemError:  # a game that does not load is not this mail's: the cycle tells it
            continue
    return None


def _order_game(incoming: Incoming, found: Found | None, runs: list[GameRun],
                by_id: dict[str, GameRun]) -> tuple[GameRun | None, bool]:
    """The game that answers a mail of orders, and whether the mail names a game that is
    not this one: the game it names, else the first game its sender plays in."""
    if found is None:
        return None, False
    if found.game_id in by_id:
        return by_id[found.game_id], False
    for run in runs:
        if run.registered(incoming.sender):
            return run, found.game_id is not None
    return None, False
