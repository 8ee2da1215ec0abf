"""The rejection catalogue (STYLE.md habit 4) and its generated page, docs/rejections.md."""

from __future__ import annotations

import re
import string
import sys
from pathlib import Path

import pytest

from pbem.kernel.rejections import CODES, reject

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import gen_rejections_doc  # noqa: E402


def package_source() -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted((ROOT / "pbem").rglob("*.py"))
                     if p.name != "rejections.py")


def test_committed_page_is_up_to_date():
    """docs/rejections.md is what tools/gen_rejections_doc.py makes from CODES now."""
    committed = (ROOT / "docs" / "rejections.md").read_text(encoding="utf-8")
    assert committed == gen_rejections_doc.render(), "run: python tools/gen_rejections_doc.py"


def test_check_mode_reports_a_stale_page(tmp_path):
    stale = tmp_path / "rejections.md"
    stale.write_text("# Rejection codes\n", encoding="utf-8")
    assert gen_rejections_doc.main(["--check", "--out", str(stale)]) == 1
    assert gen_rejections_doc.main(["--out", str(stale)]) == 0
    assert gen_rejections_doc.main(["--check", "--out", str(stale)]) == 0


def test_page_lists_every_code_once():
    page = gen_rejections_doc.render()
    for code in CODES:
        assert page.count(f"| `{code}` |") == 1, code


@pytest.mark.parametrize("code", list(CODES))
def test_codes_are_namespaced_and_templates_format(code):
    """Codes are stable ``namespace/kebab-case`` ids; each template names its values."""
    assert re.fullmatch(r"[a-z]+/[a-z0-9]+(-[a-z0-9]+)*", code)
    fields = {name for _, name, _, _ in string.Formatter().parse(CODES[code]) if name}
    r = reject(code, "$.x", **{name: f"<{name}>" for name in fields})
    assert (r.code, r.path) == (code, "$.x")
    assert "{" not in r.message


def test_every_code_is_used_and_every_used_code_is_defined():
    """No dead entries in the catalogue, and no literal code that the catalogue lacks."""
    source = package_source()
    unused = [code for code in CODES if f'"{code}"' not in source]
    assert unused == []
    literal = set(re.findall(r'reject\(\s*"([a-z]+/[a-z0-9-]+)"', source))
    # (every code the kernel raises is the kernel's own: tests/test_architecture.py)
    from pbem import editions

    defined = set(CODES).union(*(editions.get(e).codes for e in editions.BUILT_IN))
    assert literal - defined == set()
