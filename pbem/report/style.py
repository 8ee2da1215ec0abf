"""How the reports write and colour what they show, in every format: text that players
supply made safe (:func:`clean`), counted words (:func:`plural`), the colours of chips and the
ink that reads on a nation's colour (:func:`ink_for`, :func:`text_colour`), how a province's
resource and kind are named, and a rondel wedge's name for players (:func:`wedge_label`)."""

from __future__ import annotations

import re
import unicodedata

RESOURCE_COLOURS = {"marble": "#f2f2ef", "iron": "#5d7f9e", "gold": "#e6c24a"}


RECONSTRUCTION_NOTE = "Reconstructed board — not the printed game board"
"""What every report on a reconstructed board (``Board.reconstruction``) says about it."""


SITE_TEXT = {"choice": "resource of choice", "none": "no city site"}
"""How the reports name a province's resource where the board prints none: the founder
chooses it, or no city can stand there (boards of later editions)."""


SEA_KIND = "sea"
"""How the reports name the kind of a sea region (boards of an edition with seas: no city
site, galleys only; it counts double towards the navigator, 001 L165)."""


def is_sea(province) -> bool:
    """Whether a board province is a sea region: no city site, galleys only (boards of
    an edition with seas; the other boards' sea-only provinces are islands with a city site)."""
    return province.resource == "none" and province.sea_only


KIND_TEXT = {"coastal": "port", "sea_only": "sea-only"}
"""How the reports name a province's kind: a port takes galleys and legions, a sea-only
province (an island city) galleys only; an inland one (no word) legions only."""


MAX_TEXT = 80
"""Player-supplied text is cut to this many characters in reports."""


_BIDI = re.compile("[\u200e\u200f\u202a-\u202e\u2066-\u2069]")


_ADDRESS = re.compile(r"<?[^\s<>()\[\]@]+@[^\s<>()\[\]@]+>?")


def clean(text: str | None, limit: int = MAX_TEXT) -> str:
    """Player-supplied text made safe for every format.

    Control characters and line breaks become spaces, characters XML cannot carry
    (surrogates, U+FFFE, U+FFFF) and bidirectional overrides are dropped, runs of spaces
    collapse, and the result is cut to ``limit`` characters with an ellipsis. Escaping for
    XML, Markdown and BBCode is the templates' business (autoescape and finalize). Anything
    that looks like an e-mail address becomes ``(address hidden)``: reports go to forums.
    """
    if not text:
        return ""
    out = []
    for ch in _BIDI.sub("", text):
        cat = unicodedata.category(ch)
        if cat == "Cc" or ch in "\u2028\u2029\x85":
            out.append(" ")
        elif cat == "Cs" or ch in "\ufffe\uffff":
            continue
        else:
            out.append(ch)
    flat = " ".join(_ADDRESS.sub("(address hidden)", "".join(out)).split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


def plural(count: int, word: str) -> str:
    """``1 legion``, ``2 legions``, ``2 cities``."""
    if count == 1:
        return f"{count} {word}"
    if word.endswith("y") and word[-2:-1] not in "aeiou":
        return f"{count} {word[:-1]}ies"
    return f"{count} {word}s"


def luminance(colour: str) -> float:
    """The relative luminance of ``colour`` (#rrggbb), as WCAG 2 defines it."""
    def channel(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(int(colour[i:i + 2], 16)) for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """The WCAG contrast ratio of two colours (1 to 21; 4.5 is enough for text)."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def ink_for(colour: str) -> str:
    """Black or white, whichever has the higher contrast on ``colour`` (#rrggbb): for any
    colour that is at least 4.58 : 1."""
    return "#000000" if contrast(colour, "#000000") >= contrast(colour, "#ffffff") else "#ffffff"


def text_colour(colour: str, ground: str = "#ffffff") -> str:
    """``colour`` darkened just enough to be read as text on ``ground`` (contrast 4.5 : 1),
    for names printed in their nation's colour (BBCode on a light forum page)."""
    rgb = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    for step in range(21):
        shade = "#" + "".join(f"{round(c * (1 - step / 20)):02x}" for c in rgb)
        if contrast(shade, ground) >= 4.5:
            return shade
    return "#000000"


def wedge_label(edition, index: int) -> str:
    """A rondel wedge's name for players: its label, with its number (0-7 clockwise, as
    docs/orders.md counts them) when another wedge has the same label: ``Maneuver (3)``."""
    fields = edition.rondel.fields
    label = fields[index].label
    if sum(1 for f in fields if f.label == label) > 1:
        return f"{label} ({index})"
    return label
