"""The words of a game's edition in its reports: the phrasing kit the reports hand the
edition's phrases facet (:func:`words_for`), the edition's status lines and facts of a
nation (:class:`~pbem.kernel.protocols.Phrases`), and its cards by name (:func:`card_namer`)."""

from __future__ import annotations

from pbem.report.text import Words
from pbem.service.game import Game


def words_for(game: Game, card=None):
    """The reports' phrasing kit for ``game``'s edition hooks (:class:`~pbem.report.text.Words`):
    nations and provinces by their display names, cards by ``card`` (default: named and
    noted, :func:`card_namer`)."""
    board = game.board

    def place(pid: str) -> str:
        return board.province(pid).name if board.is_province(pid) else pid

    return Words(name=game.edition.nation_name, place=place, card=card or card_namer(game),
                 automatic=game.edition.forces.automatic_battles)


def edition_status(game: Game) -> list[dict[str, str]]:
    """What an edition keeps beyond the shared state, as labelled sentences for the status
    block (none in classic Antike), as the edition says it
    (:meth:`Phrases.status_lines <pbem.kernel.protocols.Phrases.status_lines>`)."""
    return game.edition.phrases.status_lines(game.state, words_for(game))


def card_namer(game: Game, noted: bool = True):
    """Card id -> the card's name in capitals, as the game's catalogue (with the GM's
    cards, ``new --data``) names it, with its note where it has one (a card whose text is
    not entered: ``CARD 05 (text not entered — ...)``) unless not ``noted``; the id itself
    in an edition without cards."""
    data, cards = game.state.table.data, game.edition.cards

    def card(cid: str) -> str:
        if not cards:
            return cid.upper()
        note = cards.note(cid, data) if noted else ""
        return cards.name(cid, data).upper() + (f" ({note})" if note else "")

    return card


def edition_facts(game: Game, nation: str, viewer: str | None) -> tuple[list[dict[str, str]], str, str | None]:
    """What an edition shows of a nation beyond the shared holdings (:meth:`Phrases.nation_facts
    <pbem.kernel.protocols.Phrases.nation_facts>`), as labelled sentences, as one short line
    for the board page, and the cards held where the reader may see them."""
    facts, short, hand = game.edition.phrases.nation_facts(game.state, nation, viewer, words_for(game))
    return facts, " · ".join(short), hand
