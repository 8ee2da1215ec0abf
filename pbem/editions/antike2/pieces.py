"""Antike II's pieces beside the shared state and the GM's edits of them: BELLONA's holder
in ``show --json`` and in a GM edit, and the checks of a loaded game (BELLONA, neutral
temples, chosen city types, Pliny)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pbem.errors import Problem
from pbem.kernel.facets import SharedEdits, SharedPieces
from pbem.kernel.rejections import Rejection, reject

if TYPE_CHECKING:
    from pbem.kernel.board import Board
    from pbem.kernel.state import GameState


class Antike2Pieces(SharedPieces):
    """BELLONA in ``show --json``; the checks of a loaded state."""

    def view_extra(self, state: GameState) -> dict[str, Any]:
        return {"bellona": state.extra.get("bellona")}

    def consistency_problems(self, state: GameState, board: Board) -> list[Problem]:
        out = []
        holder = state.extra.get("bellona")
        if holder is not None and holder not in state.nations:
            out.append(Problem("$.state.bellona", f"BELLONA is held by {holder!r}, who does not play"))
        for pid, prov in state.provinces.items():
            if prov.extra.get("neutral_temple") and (prov.owner is not None or prov.temple):
                out.append(Problem(f"$.state.provinces.{pid}", "a neutral temple stands only where no city is"))
            chosen = prov.extra.get("resource")
            if chosen is not None and prov.owner is None:
                out.append(Problem(f"$.state.provinces.{pid}.resource", "a city type without a city"))
        pliny = state.status.extra.get("pliny")
        if pliny is not None and pliny not in state.nations:
            out.append(Problem("$.status.pliny", f"Pliny was won by {pliny!r}, who does not play"))
        return out


class Antike2Edits(SharedEdits):
    """A GM edit of who holds BELLONA (``{"bellona": NATION}``)."""

    def other(self, state: GameState, edit: dict[str, Any], path: str, out: list[Rejection]) -> bool:
        if "bellona" not in edit:
            return False
        holder = edit["bellona"]
        if holder not in state.nations:
            out.append(reject("edit/unknown-nation", f"{path}.bellona", nation=holder,
                              playing=", ".join(state.nations)))
        else:
            state.extra["bellona"] = holder
        return True
