"""What a report may show: the public view, or one nation's own (an edition's secrets).

An edition may keep secrets (docs/rulings.md, D18: the cards a nation holds, the card it
draws, the deck's order and the secret the deck is shuffled by). Every report is
built from the game *as its reader may see it* (:func:`seen_by`): the public report (the
forum post, the website, the report every command writes) as nobody in particular
(``viewer=None``), a nation's private report as that nation. The edition says what each
may see (its secrets facet: :meth:`Secrets.player_view
<pbem.kernel.protocols.Secrets.player_view>` for the state, :meth:`Secrets.mask_event
<pbem.kernel.protocols.Secrets.mask_event>` for the events of the history); everything a
report shows is read from that view only, so a secret never reaches a template (the
conformance kit checks it, :func:`pbem.conformance.secret_problems`). In an edition without secrets every view is the game itself.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pbem.service.game import Game

def has_secrets(edition: Any) -> bool:
    """Whether ``edition`` keeps anything from a player (it has a secrets facet,
    :class:`~pbem.kernel.protocols.Secrets`), so that each nation gets a private report
    beside the public one."""
    return edition.secrets is not None


def mask(edition: Any, event: dict[str, Any], viewers: Iterable[str | None]) -> dict[str, Any]:
    """``event`` as a reader playing ``viewers`` may read it: whole if one of them may
    (a mail address may play several nations), else as the last of them may; with no
    viewer, as the public may."""
    secrets = edition.secrets
    if not secrets:
        return event
    seen = None
    for viewer in viewers:
        seen = secrets.mask_event(event, viewer)
        if seen is event or seen == event:
            return event
    return seen if seen is not None else secrets.mask_event(event, None)


def masked_entry(edition: Any, entry: dict[str, Any], viewers: Iterable[str | None]) -> dict[str, Any]:
    """A history entry whose events are masked for ``viewers`` (the entry itself when
    nothing in it is hidden)."""
    events = entry.get("events")
    if not isinstance(events, list):
        return entry
    viewers = tuple(viewers)
    out = [mask(edition, ev, viewers) if isinstance(ev, dict) else ev for ev in events]
    if all(a is b for a, b in zip(out, events)):
        return entry
    return {**entry, "events": out}


def seen_by(game: Game, viewer: str | None = None) -> Game:
    """``game`` as ``viewer`` (a nation, or ``None`` for the public) may see it: the state
    of the edition's player view and the history with its events masked. The game itself
    in an edition without secrets."""
    edition = game.edition
    if not has_secrets(edition):
        return game
    state = edition.secrets.player_view(game.state, viewer)
    history = [masked_entry(edition, entry, (viewer,)) for entry in game.history]
    return game.copy_with(state, history)
