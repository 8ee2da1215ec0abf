"""GM edit files (docs/orders.md, "GM edit file"): applied in order, all or nothing. Pure.

Bank pieces move with an edit: coins, temples and personage cards given to a nation or a
city come out of the bank and go back when taken away. The result must be a consistent
game (:mod:`pbem.kernel.consistency`), or nothing is applied. Logging the edit in the
history is the game service's business.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pbem.errors import Refused
from pbem.kernel.consistency import state_problems
from pbem.kernel.rejections import Rejection, reject
from pbem.kernel.state import GameState, copy_json
from pbem.kernel.turn import merge_standing
from pbem.kernel.vocab import UNITS

if TYPE_CHECKING:
    from pbem.kernel.board import Board
    from pbem.kernel.edition import Edition


def _take_from_bank(state: GameState, what: str, delta: int, path: str, out: list[Rejection],
                    personage: str | None = None) -> None:
    """Move ``delta`` pieces from the bank (negative: back to it)."""
    bank = state.bank
    held = bank.personages[personage] if personage else getattr(bank, what)
    if delta > held:
        out.append(reject("edit/bank-short", path, held=held, what=personage or what, need=delta))
        return
    if personage:
        bank.personages[personage] -= delta
    else:
        setattr(bank, what, held - delta)


def _nation_edit(st: GameState, edition: Edition, e: dict[str, Any], path: str, out: list[Rejection]) -> None:
    nation = e["nation"]
    if nation not in st.nations:
        out.append(reject("edit/unknown-nation", f"{path}.nation", nation=nation,
                playing=", ".join(st.nations)))
        return
    ns = st.nation(nation)
    ns.resources.update(e.get("resources", {}))
    if "coins" in e:
        _take_from_bank(st, "coins", e["coins"] - ns.coins, f"{path}.coins", out)
        ns.coins = e["coins"]
    if "knowhow" in e:
        ns.knowhow = sorted(e["knowhow"])
    for p, n in e.get("personages", {}).items():
        _take_from_bank(st, "personages", n - ns.personages[p], f"{path}.personages.{p}", out, personage=p)
        ns.personages[p] = n
        if p not in e.get("earned", {}):
            ns.earned[p] = n
    ns.earned.update(e.get("earned", {}))
    if "rondel" in e:
        ns.rondel = e["rondel"]
    # e.g. a hand's cards, out of the deck
    done = edition.edits.nation(st, nation, e, path, out) if edition.edits else frozenset()
    for key in edition.extras.nation:
        if key in e and key not in done:
            ns.extra[key] = copy_json(e[key])
    if "standing" in e:
        for rival in e["standing"].get("battle", {}):
            if rival != "default" and rival not in st.nations:
                out.append(reject("standing/unknown-nation", f"{path}.standing.battle.{rival}", nation=rival,
                playing=", ".join(st.nations)))
        merge_standing(st.standing_to_change(nation), e["standing"])


def _province_edit(st: GameState, board: Board, e: dict[str, Any], path: str, out: list[Rejection],
                   edition: Edition | None = None) -> None:
    pid = e["province"]
    if not board.is_province(pid):
        out.append(reject("edit/unknown-province", f"{path}.province", province=pid, hint=board.hint(pid)))
        return
    prov = st.province(pid)
    if "owner" in e:
        owner = e["owner"]
        if owner is not None and owner not in st.nations:
            out.append(reject("edit/unknown-nation", f"{path}.owner", nation=owner,
                playing=", ".join(st.nations)))
            return
        prov.owner = owner
        if owner is None and prov.temple and "temple" not in e:
            prov.temple = False
            st.bank.temples += 1
        if owner is None and "resource" in prov.extra and "resource" not in e:
            prov.extra = {k: v for k, v in prov.extra.items() if k != "resource"}
    if "temple" in e and e["temple"] != prov.temple:
        if e["temple"] and prov.owner is None:
            out.append(reject("edit/temple-without-city", f"{path}.temple", province=pid))
            return
        _take_from_bank(st, "temples", 1 if e["temple"] else -1, f"{path}.temple", out)
        prov.temple = e["temple"]
    if "resource" in e:  # the city's type where the founder chose it (docs/orders.md, "Editions")
        extra = {k: v for k, v in prov.extra.items() if k != "resource"}
        if e["resource"] is not None:
            extra["resource"] = e["resource"]
        prov.extra = extra
    if "neutral_temple" in e and e["neutral_temple"] != bool(prov.extra.get("neutral_temple")):
        if e["neutral_temple"] and prov.owner is not None:
            out.append(reject("edit/neutral-temple-in-city", f"{path}.neutral_temple", province=pid))
            return
        _take_from_bank(st, "temples", 1 if e["neutral_temple"] else -1, f"{path}.neutral_temple", out)
        extra = {k: v for k, v in prov.extra.items() if k != "neutral_temple"}
        if e["neutral_temple"]:
            extra["neutral_temple"] = True
        prov.extra = extra
    if "units" in e:
        new_units: dict[str, dict[str, int]] = {}
        for nation, counts in e["units"].items():
            if nation not in st.nations:
                out.append(reject("edit/unknown-nation", f"{path}.units.{nation}", nation=nation,
                playing=", ".join(st.nations)))
                continue
            full = {**{u: counts.get(u, 0) for u in UNITS}, **{u: n for u, n in counts.items() if u not in UNITS}}
            for u, n in full.items():
                if n and not board.province(pid).neighbours(edition.moves_as(u) if edition else u):
                    out.append(reject("edit/unit-terrain", f"{path}.units.{nation}.{u}", unit=u, province=pid))
            if any(full.values()):
                new_units[nation] = full
        prov.units = new_units
    if edition is not None and edition.edits:
        edition.edits.province(st, pid, e, path, out)


def _bank_edit(st: GameState, e: dict[str, Any]) -> None:
    bank = e["bank"]
    if "coins" in bank:
        st.bank.coins = bank["coins"]
    if "temples" in bank:
        st.bank.temples = bank["temples"]
    st.bank.personages.update(bank.get("personages", {}))


def apply_edit(state: GameState, edit: dict[str, Any], edition: Edition, board: Board) -> GameState:
    """The state with the (canonical) edit applied, or :class:`Refused` with every problem."""
    out: list[Rejection] = []
    if edit["game"] != state.table.game_id:
        raise Refused([reject("edit/wrong-game", "$.game", got=edit["game"], want=state.table.game_id)])
    st = state.copy()
    for i, e in enumerate(edit["edits"]):
        path = f"$.edits[{i}]"
        if "bank" in e:
            _bank_edit(st, e)
        elif "active" in e:
            if e["active"] not in st.nations:
                out.append(reject("edit/unknown-nation", f"{path}.active", nation=e["active"],
                playing=", ".join(st.nations)))
            else:
                st.status.active = e["active"]
        elif "province" in e:
            _province_edit(st, board, e, path, out, edition)
        elif "nation" in e:
            _nation_edit(st, edition, e, path, out)
        elif not (edition.edits and edition.edits.other(st, e, path, out)):
            raise ValueError(f"an edit the edition does not know: {sorted(e)}")  # the schema allows none
    st.prune()
    if not out:
        # The problem is in the edited game, not at one place of the edit file: say where.
        out.extend(reject("edit/inconsistent", "$.edits", detail=f"{p.message} (game file {p.path})")
                   for p in state_problems(st, edition, board))
    if out:
        raise Refused(out)
    return st
