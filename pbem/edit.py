"""GM edit files (ORDERS.md, "GM edit file"): applied in order, all or nothing.

Bank pieces move with an edit: coins, temples and personage cards given to a nation or a
city come out of the bank and go back when taken away. The result must be a consistent
game, or nothing is applied.
"""

from __future__ import annotations

from typing import Any

from pbem import history
from pbem.errors import Refused
from pbem.game import Game, consistency_problems
from pbem.rejections import Rejection, reject
from pbem.state import GameState
from pbem.vocab import UNITS


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


def merge_standing(current, change: dict[str, Any]) -> None:
    """Apply a (canonical) ``standing`` change to a nation's :class:`Standing`."""
    if "battle" in change:
        current.battle.update(change["battle"])
    if "bonus_stack" in change:
        current.bonus_stack = list(change["bonus_stack"])
    if "coin_substitute" in change:
        current.coin_substitute = change["coin_substitute"]


def _nation_edit(game: Game, st: GameState, e: dict[str, Any], path: str, out: list[Rejection]) -> None:
    nation = e["nation"]
    if nation not in st.nations:
        out.append(reject("edit/unknown-nation", f"{path}.nation", nation=nation))
        return
    ns = st.nations[nation]
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
    if "all8_bonus" in e:
        ns.all8_bonus = e["all8_bonus"]
    if "rondel" in e:
        ns.rondel = e["rondel"]
    if "standing" in e:
        for rival in e["standing"].get("battle", {}):
            if rival != "default" and rival not in st.nations:
                out.append(reject("standing/unknown-nation", f"{path}.standing.battle.{rival}", nation=rival))
        merge_standing(st.standing[nation], e["standing"])


def _province_edit(game: Game, st: GameState, e: dict[str, Any], path: str, out: list[Rejection]) -> None:
    pid = e["province"]
    if not game.board.is_province(pid):
        out.append(reject("edit/unknown-province", f"{path}.province", province=pid))
        return
    prov = st.province(pid)
    if "owner" in e:
        owner = e["owner"]
        if owner is not None and owner not in st.nations:
            out.append(reject("edit/unknown-nation", f"{path}.owner", nation=owner))
            return
        prov.owner = owner
        if owner is None and prov.temple and "temple" not in e:
            prov.temple = False
            st.bank.temples += 1
    if "temple" in e and e["temple"] != prov.temple:
        if e["temple"] and prov.owner is None:
            out.append(reject("edit/temple-without-city", f"{path}.temple", province=pid))
            return
        _take_from_bank(st, "temples", 1 if e["temple"] else -1, f"{path}.temple", out)
        prov.temple = e["temple"]
    if "units" in e:
        new_units: dict[str, dict[str, int]] = {}
        for nation, counts in e["units"].items():
            if nation not in st.nations:
                out.append(reject("edit/unknown-nation", f"{path}.units.{nation}", nation=nation))
                continue
            full = {u: counts.get(u, 0) for u in UNITS}
            for u, n in full.items():
                if n and not game.board.province(pid).neighbours(u):
                    out.append(reject("edit/unit-terrain", f"{path}.units.{nation}.{u}", unit=u, province=pid))
            if any(full.values()):
                new_units[nation] = full
        prov.units = new_units


def _bank_edit(st: GameState, e: dict[str, Any]) -> None:
    bank = e["bank"]
    if "coins" in bank:
        st.bank.coins = bank["coins"]
    if "temples" in bank:
        st.bank.temples = bank["temples"]
    st.bank.personages.update(bank.get("personages", {}))


def apply_edit(game: Game, edit: dict[str, Any]) -> Game:
    """Return a new :class:`Game` with the edit applied and logged, or raise :class:`Refused`."""
    out: list[Rejection] = []
    if edit["game"] != game.game_id:
        raise Refused([reject("edit/wrong-game", "$.game", got=edit["game"], want=game.game_id)])
    st = game.state.copy()
    for i, e in enumerate(edit["edits"]):
        path = f"$.edits[{i}]"
        if "bank" in e:
            _bank_edit(st, e)
        elif "active" in e:
            if e["active"] not in st.nations:
                out.append(reject("edit/unknown-nation", f"{path}.active", nation=e["active"]))
            else:
                st.status.active = e["active"]
        elif "province" in e:
            _province_edit(game, st, e, path, out)
        else:
            _nation_edit(game, st, e, path, out)
    st.prune()
    new = game.copy_with(st, list(game.history))
    if not out:
        # The problem is in the edited game, not at one place of the edit file: say where.
        out.extend(reject("edit/inconsistent", "$.edits", detail=f"{p.message} (game file {p.path})")
                   for p in consistency_problems(new))
    if out:
        raise Refused(out)
    history.append(new, {"kind": "gm-edit", "reason": edit["reason"], "edits": edit["edits"], "events": []})
    return new
