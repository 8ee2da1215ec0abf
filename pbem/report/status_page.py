"""The GM's status of the games as a small static HTML page (``antike-ref status --html``).

One file, written like the game's website (:mod:`pbem.report.site`): its look is the
site's stylesheet, put inside the page; no script, nothing loaded from elsewhere (a
Content-Security-Policy forbids it), and no e-mail address: everything shown is scrubbed
of anything that looks like one (a last error may quote a server's answer about an
address).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pbem.paths import data_dir
from pbem.report.site import render_page, scrub
from pbem.service.clock import told
from pbem.service.overview import left_text


def status_page(records: list[dict[str, Any]], now: datetime, zone: str = "UTC") -> bytes:
    """The page for ``records`` (:func:`pbem.service.overview.game_status`, in the order
    given), as of ``now``, told in the time zone ``zone``."""
    games = []
    for record in records:
        shown = {k: v for k, v in record.items() if k != "absences"}
        shown["absences"] = [{k: v for k, v in a.items() if k != "by"} for a in record["absences"]]
        shown["left"] = left_text(record, now)
        games.append(scrub(shown, []))
    css = (data_dir("templates") / "site" / "style.css").read_text(encoding="utf-8")
    from markupsafe import Markup

    return render_page("status.html.j2", games=games, as_of=told(now, zone), css=Markup(css.strip()),
                   needing=sum(1 for g in games if g["needs_gm"]))
