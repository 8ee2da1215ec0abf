"""Edition rule tables. Numbers live here, not in ``if edition == ...`` branches."""

from __future__ import annotations

from pbem.rules.classic import CLASSIC
from pbem.rules.table import RuleTable

EDITIONS: dict[str, RuleTable] = {CLASSIC.edition: CLASSIC}


def rules_for(edition: str) -> RuleTable:
    try:
        return EDITIONS[edition]
    except KeyError:
        raise ValueError(f"unsupported edition {edition!r}") from None
