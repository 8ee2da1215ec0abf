"""The words of the board in a JSON order file: keys and names as players write them.

The board and the reports say ARMING, KNOW-HOW, TEMPLE, "Leptis Magna"; the order file's
keys and ids are ``arm``, ``knowhow``, ``temples``, ``leptis_magna``. Before an order file
is checked against its schema, :func:`board_words` turns the board's words into the ids:

- keys: the wedge's words for its action's key (``arming`` -> ``arm``, ``temple`` ->
  ``temples``, ``know-how`` -> ``knowhow``, from the edition), ``founding`` -> ``found``,
  ``give-up``/``giveup`` -> ``give_up`` (each only when the id itself is not also given);
- names of wedges, nations, know-hows and provinces written as the board shows them, in
  any case, with or without accents, ``-`` or ``_`` (``"KNOW-HOW"``, ``"Leptis Magna"``,
  ``"Phoenicians"``) -> their ids. Only a complete name is taken (no abbreviations, unlike
  the text syntax); anything else is left as written, for the schema and the rules to name.

The echo shows the ids, so a player who wrote the board's words sees the ids in return.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pbem.kernel.board import Board
    from pbem.kernel.edition import Edition

TOP_KEYS = {"founding": "found"}
"""Keys that no wedge names; the wedges' own words come from the edition (:func:`key_aliases`)."""
STEP_KEYS = {"give-up": "give_up", "giveup": "give_up"}


def key_aliases(edition: Edition) -> dict[str, str]:
    """Other names for the order keys of the wedges' actions: the wedge's id and label as
    the board prints them (``ARMING`` -> ``arm``, ``KNOW-HOW`` -> ``knowhow``), in the
    spellings a player types (lowercase, with ``-``, ``_`` or nothing between words)."""
    out = dict(TOP_KEYS)
    for f in edition.rondel.fields:
        if len(f.action.keys) != 1:
            continue
        key = f.action.keys[0]
        for name in (f.name, f.label):
            words = name.lower().replace("_", " ").replace("-", " ").split()
            for joined in {"-".join(words), "_".join(words), "".join(words), " ".join(words)}:
                if joined != key:
                    out.setdefault(joined, key)
    return out


def _rename(obj: dict[str, Any], table: dict[str, str]) -> dict[str, Any]:
    """``obj`` with each key that ``table`` knows (in any case) renamed, unless the key it
    stands for is given too (then both stay, for the schema to name the stranger)."""
    out: dict[str, Any] = {}
    for key, value in obj.items():
        target = table.get(key.lower(), key) if isinstance(key, str) else key
        if target != key and (target in obj or target in out):
            target = key
        out[target] = value
    return out


def board_words(data: Any, edition: Edition, board: Board) -> Any:
    """``data`` (a parsed JSON order file) with the board's words turned into ids; the
    input is not changed. Anything that is not an object is returned as it is."""
    if not isinstance(data, dict):
        return data
    ids = {"provinces": board.provinces, "nations": edition.nations, "knowhows": edition.knowhows,
           "wedges": frozenset(f.name for f in edition.rondel.fields)}
    names: list[Any] = []  # the vocabulary, made only when a name is not an id already

    def by(kind: str) -> Callable[[Any], Any]:
        def convert(value: Any) -> Any:
            if not isinstance(value, str) or value in ids[kind]:
                return value
            if not names:
                from pbem.service.language.names import vocabulary

                names.append(vocabulary(edition, board))
            found, _ = getattr(names[0], kind).exact(value)
            return found if found is not None else value
        return convert

    province, nation, wedge, knowhow = by("provinces"), by("nations"), by("wedges"), by("knowhows")
    out = _rename(data, key_aliases(edition))
    if "nation" in out:
        out["nation"] = nation(out["nation"])
    rondel = out.get("rondel")
    if isinstance(rondel, str):
        out["rondel"] = wedge(rondel)
    elif isinstance(rondel, dict) and "to" in rondel:
        out["rondel"] = {**rondel, "to": wedge(rondel["to"])}
    for key, field, convert in (("temples", "city", province), ("found", "city", province),
                                ("knowhow", "name", knowhow)):
        if isinstance(out.get(key), list):
            out[key] = [convert(e) if isinstance(e, str)
                        else {**e, field: convert(e[field])} if isinstance(e, dict) and field in e else e
                        for e in out[key]]
    if isinstance(out.get("arm"), list):
        out["arm"] = [{**e, "at": province(e["at"])} if isinstance(e, dict) and "at" in e else e for e in out["arm"]]
    if isinstance(out.get("maneuver"), list):
        out["maneuver"] = [_step(s, province, nation) for s in out["maneuver"]]
    standing = out.get("standing")
    if isinstance(standing, dict) and isinstance(standing.get("battle"), dict):
        battle = {("default" if k == "default" else nation(k)): v for k, v in standing["battle"].items()}
        if len(battle) == len(standing["battle"]):
            out["standing"] = {**standing, "battle": battle}
    return out


def _step(step: Any, province, nation) -> Any:
    if not isinstance(step, dict):
        return step
    step = _rename(step, STEP_KEYS)
    for key in ("from", "at", "conquer", "give_up"):
        if key in step:
            step[key] = province(step[key])
    if isinstance(step.get("path"), list):
        step["path"] = [province(p) for p in step["path"]]
    if "against" in step:
        step["against"] = nation(step["against"])
    return step
