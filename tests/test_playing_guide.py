"""Every fenced block in docs/playing.md (the player's guide) is executed.

The guide's examples are played in real positions, so that none of them can go stale:

- ```` ```console new-game ```` holds the `antike-ref new` command that creates the game all
  examples start from; it is run (with cheap password hashes) and its output compared.
- ```` ```json gm-edit position=P ```` is the GM edit file that sets up position ``P`` on a
  fresh copy of that game (saved as ``edit-P.json``).
- ```` ```json orders position=P ```` / ```` ```text orders position=P ```` is an order file
  played in position ``P`` (saved as ``orders.json`` / ``orders.txt``). It must be accepted
  by ``check`` and by ``process``. With the flag ``twin`` a text block must mean exactly the
  same orders as the JSON block just before it (the canonical echoes are compared). With the
  flag ``refused`` the file must be refused, by ``check`` and ``process`` alike, and the game
  file must stay as it was.
- A plain ```` ```console ```` block is the referee's answer to the block right before it:
  ``check`` for orders (followed by ``echo $?`` when they are refused), ``gm-edit`` for a GM
  edit. It is compared with what the referee really prints.
- ```` ```console position=P ```` runs the ``$ antike-ref ...`` commands written in it in
  position ``P`` and compares their output.

Any other fenced block fails the test, so that nothing in the guide is left untested.

After a change of the referee's wording, run

    ANTIKE_REF_UPDATE_GUIDE=1 .venv/bin/python -m pytest tests/test_playing_guide.py

to rewrite every console block of the guide from the referee's real output (the commands in
them are kept); then read the diff.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shlex
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem.cli import app

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "docs" / "playing.md"
UPDATE = os.environ.get("ANTIKE_REF_UPDATE_GUIDE", "") not in ("", "0")
FENCE = re.compile(r"^(`{3,})(.*)$")


@dataclass
class Block:
    """One fenced block: its info string split into language, role, flags and keys."""

    index: int
    line: int  # 1-based line of the opening fence
    start: int  # index of the first content line
    end: int  # index of the closing fence
    info: str
    text: str
    lang: str = ""
    role: str = ""
    flags: set[str] = field(default_factory=set)
    keys: dict[str, str] = field(default_factory=dict)

    @property
    def position(self) -> str | None:
        return self.keys.get("position")

    def __str__(self) -> str:
        return f"docs/playing.md:{self.line} ```{self.info}"


def parse(text: str) -> tuple[list[str], list[Block]]:
    lines = text.split("\n")
    blocks: list[Block] = []
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i].strip())
        if not m:
            i += 1
            continue
        fence, info = m.group(1), m.group(2).strip()
        j = i + 1
        while j < len(lines) and lines[j].strip() != fence:
            j += 1
        assert j < len(lines), f"docs/playing.md:{i + 1}: unclosed fence"
        words = info.split()
        b = Block(len(blocks), i + 1, i + 1, j, info, "\n".join(lines[i + 1:j]) + "\n")
        b.lang = words[0] if words else ""
        rest = words[1:]
        if rest and "=" not in rest[0]:
            b.role = rest.pop(0)
        for w in rest:
            if "=" in w:
                k, v = w.split("=", 1)
                b.keys[k] = v
            else:
                b.flags.add(w)
        blocks.append(b)
        i = j + 1
    return lines, blocks


LINES, BLOCKS = parse(GUIDE.read_text(encoding="utf-8"))


def run_cli(args: list[str], cwd: Path):
    """Run ``antike-ref ARGS`` in ``cwd`` (file names in the output stay as written)."""
    with contextlib.chdir(cwd):
        result = CliRunner().invoke(app, args, env={"COLUMNS": "80", "NO_COLOR": "1"})
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def tidy(text: str) -> str:
    """Output as a Markdown file keeps it: no trailing blanks, one final newline."""
    return "\n".join(line.rstrip() for line in text.rstrip("\n").split("\n")) + "\n"


def answer(command: str, result, refused: bool = False) -> str:
    out = f"$ {command}\n{result.stdout}{result.stderr}"
    if refused:
        out = out.rstrip("\n") + f"\n$ echo $?\n{result.exit_code}\n"
    return tidy(out)


def commands(text: str) -> list[str]:
    """The ``$ ...`` command lines of a console block (a trailing ``\\`` continues a line)."""
    out: list[str] = []
    lines = iter(text.split("\n"))
    for line in lines:
        if not line.startswith("$ "):
            continue
        cmd = line[2:]
        while cmd.endswith("\\"):
            cmd = cmd[:-1] + " " + next(lines).strip()
        out.append(cmd)
    return out


class Guide:
    """Plays the guide's blocks in order, recording for each block what went wrong."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.base: Path | None = None
        self.positions: dict[str, Path] = {}
        self.problems: dict[int, list[str]] = {b.index: [] for b in BLOCKS}
        self.actual: dict[int, str] = {}  # console block index -> what it should say
        self.echoes: dict[int, dict] = {}  # orders block index -> canonical JSON echo
        self.accepted: list[tuple[dict, list[dict]]] = []
        self.refused = 0
        self.edit_answers: dict[int, str] = {}
        self.last_answer = ""

    def fail(self, block: Block, message: str) -> None:
        self.problems[block.index].append(message)

    def run(self) -> Guide:
        # First the game and every position, wherever the guide shows them; then every
        # block in the order of the guide.
        for role in ("new-game", "gm-edit"):
            for b in BLOCKS:
                if b.role == role:
                    self.attempt(b, self.new_game if role == "new-game" else self.gm_edit)
        previous: Block | None = None
        for b in BLOCKS:
            self.attempt(b, lambda b, previous=previous: self.play(b, previous))
            previous = b
        return self

    def attempt(self, b: Block, action) -> None:
        try:
            action(b)
        except Exception as exc:  # noqa: BLE001 - report it against the block
            self.fail(b, f"{type(exc).__name__}: {exc}")

    def play(self, b: Block, previous: Block | None) -> None:
        if b.role in ("new-game", "gm-edit") and self.problems[b.index]:
            return None  # already reported
        if b.lang == "console" and b.role == "new-game":
            return None  # played first
        if b.lang == "console" and not b.role and b.position:
            return self.console_commands(b)
        if b.lang == "console" and not b.role and not b.keys and not b.flags:
            return self.console_answer(b, previous)
        if b.lang == "json" and b.role == "gm-edit" and b.position:
            self.last_answer = self.edit_answers.get(b.index, "")
            return None  # set up first
        if b.lang in ("json", "text") and b.role == "orders" and b.position:
            return self.orders(b, previous)
        self.fail(b, "the test does not know how to run this block (see tests/test_playing_guide.py)")

    def compare(self, b: Block, actual: str) -> None:
        self.actual[b.index] = actual
        if not UPDATE and tidy(b.text) != actual:
            self.fail(b, f"the referee says something else; expected:\n{actual}\n"
                         "(ANTIKE_REF_UPDATE_GUIDE=1 rewrites the console blocks)")

    # -- the blocks -----------------------------------------------------------------

    def new_game(self, b: Block) -> None:
        cmds = commands(b.text)
        assert len(cmds) == 1 and cmds[0].startswith("antike-ref new "), "one `antike-ref new` command"
        self.base = self.folder / "base"
        self.base.mkdir()
        args = shlex.split(cmds[0])[1:] + ["--kdf-iterations", "1000"]
        result = run_cli(args, self.base)
        assert result.exit_code == 0, result.stderr
        self.compare(b, answer(cmds[0], result))

    def scene(self, position: str) -> Path:
        """A fresh folder holding position ``position``'s game."""
        assert position in self.positions, f"position {position!r} has no gm-edit block before it"
        folder = self.folder / f"run-{len(list(self.folder.iterdir()))}"
        folder.mkdir()
        shutil.copy(self.positions[position] / "game.json", folder / "game.json")
        return folder

    def gm_edit(self, b: Block) -> None:
        assert self.base is not None, "the `console new-game` block must come first"
        p = b.position
        assert p not in self.positions, f"position {p!r} is set up twice"
        folder = self.folder / f"position-{p}"
        folder.mkdir()
        shutil.copy(self.base / "game.json", folder / "game.json")
        name = f"edit-{p}.json"
        (folder / name).write_text(b.text, encoding="utf-8")
        command = f"antike-ref gm-edit game.json {name}"
        result = run_cli(shlex.split(command)[1:], folder)
        assert result.exit_code == 0, f"the GM edit is refused: {result.stdout}{result.stderr}"
        self.positions[p] = folder
        self.edit_answers[b.index] = answer(command, result)

    def orders(self, b: Block, previous: Block | None) -> None:
        folder = self.scene(b.position)
        name = "orders.json" if b.lang == "json" else "orders.txt"
        if b.lang == "json":
            json.loads(b.text)  # a JSON example must be JSON
        (folder / name).write_text(b.text, encoding="utf-8")
        before = (folder / "game.json").read_bytes()
        command = f"antike-ref check game.json {name}"
        refused = "refused" in b.flags
        result = run_cli(shlex.split(command)[1:], folder)
        self.last_answer = answer(command, result, refused)
        as_json = run_cli(["check", "game.json", name, "--json"], folder)
        processed = run_cli(["process", "game.json", name], folder)
        if refused:
            self.refused += 1
            if result.exit_code == 0:
                self.fail(b, "marked `refused`, but check accepts it")
            if processed.exit_code != result.exit_code:
                self.fail(b, f"check exits {result.exit_code}, process {processed.exit_code}")
            if (folder / "game.json").read_bytes() != before:
                self.fail(b, "a refused file changed the game file")
            return
        if result.exit_code != 0:
            self.fail(b, f"check refuses it:\n{result.stdout}{result.stderr}")
            return
        checked = json.loads(as_json.stdout)
        echo = checked["echo"]
        self.echoes[b.index] = echo
        self.accepted.append((echo, checked["events"]))
        if processed.exit_code != 0:
            self.fail(b, f"process refuses it:\n{processed.stdout}{processed.stderr}")
        if "twin" in b.flags:
            twin = self.previous_orders(b)
            if twin is None or BLOCKS[twin].lang != "json" or BLOCKS[twin].position != b.position:
                self.fail(b, "a `twin` text block must follow a JSON orders block of the same position")
            elif self.echoes.get(twin) != echo:
                self.fail(b, f"not the same orders as its JSON twin:\n{echo}\n!=\n{self.echoes.get(twin)}")

    def previous_orders(self, b: Block) -> int | None:
        for other in reversed(BLOCKS[:b.index]):
            if other.role == "orders":
                return other.index
        return None

    def console_answer(self, b: Block, previous: Block | None) -> None:
        if previous is None or previous.role not in ("orders", "gm-edit") or self.problems[previous.index]:
            if previous is not None and previous.role in ("orders", "gm-edit"):
                self.fail(b, "the block it answers failed")
            else:
                self.fail(b, "a plain console block must follow an orders or gm-edit block")
            return
        self.compare(b, self.last_answer)

    def console_commands(self, b: Block) -> None:
        folder = self.scene(b.position)
        cmds = commands(b.text)
        assert cmds, "a console block with a position must hold `$ antike-ref ...` commands"
        out = ""
        for cmd in cmds:
            args = shlex.split(cmd)
            assert args[0] == "antike-ref", f"only antike-ref commands can be run: {cmd}"
            result = run_cli(args[1:], folder)
            out += answer(cmd, result, refused=result.exit_code != 0)
        self.compare(b, tidy(out))


def rewrite(guide: Guide) -> None:
    """Put the referee's real output into every console block of the guide."""
    lines = list(LINES)
    for b in sorted(BLOCKS, key=lambda b: -b.index):
        if b.index in guide.actual:
            lines[b.start:b.end] = guide.actual[b.index].rstrip("\n").split("\n")
    GUIDE.write_text("\n".join(lines), encoding="utf-8")


@pytest.fixture(scope="module")
def guide(tmp_path_factory):
    played = Guide(tmp_path_factory.mktemp("guide")).run()
    if UPDATE:
        rewrite(played)
    return played


@pytest.mark.parametrize("block", BLOCKS, ids=lambda b: f"L{b.line}-{b.info.replace(' ', '-')}")
def test_every_block_runs(guide, block):
    problems = guide.problems[block.index]
    assert not problems, f"{block}:\n" + "\n".join(problems)


def test_every_example_has_the_referees_answer_under_it():
    for b in BLOCKS:
        if b.role == "orders":
            following = BLOCKS[b.index + 1] if b.index + 1 < len(BLOCKS) else None
            assert following is not None and following.lang == "console" and not following.keys, \
                f"{b}: the referee's answer (a ```console block) must follow it"


def test_the_guide_covers_every_wedge_and_every_kind_of_order(guide):
    """What the guide promises: an accepted example for each of the eight wedges (both
    MANEUVERs), a paid rondel move, every kind of maneuver step, founding, trading, standing
    orders only, and refusals."""
    seen: set[str] = set()
    for echo, events in guide.accepted:
        if "rondel" not in echo:
            seen.add("standing-only")
        for e in events:
            if e["type"] == "rondel":
                seen.add(f"wedge {e['to']}")
                if any(e["paid"].values()):
                    seen.add("paid steps")
        for step in echo.get("maneuver", []):
            if "move" in step:
                seen.add(f"move of {min(len(step['path']), 2)} step(s)")
            elif "battle" in step:
                seen.add("battle")
            else:
                seen.add("conquest with give_up" if "give_up" in step else "conquest")
        seen |= {k for k in ("found", "trade", "temples", "arm", "knowhow") if echo.get(k)}
    wanted = {f"wedge {i}" for i in range(8)} | {
        "paid steps", "move of 1 step(s)", "move of 2 step(s)", "battle", "conquest",
        "conquest with give_up", "found", "trade", "temples", "arm", "knowhow", "standing-only"}
    assert wanted <= seen, f"no example of: {sorted(wanted - seen)}"
    assert guide.refused >= 3
    assert len(guide.accepted) >= 2 * 14, "each example in JSON and as text"


def test_the_guide_cites_the_printed_book_and_stays_in_the_repository():
    text = GUIDE.read_text(encoding="utf-8")
    assert not re.search(r"\b00\d L\d", text), "cite the printed rulebook by page, not by line code"
    for target in re.findall(r"\]\(([^)#]+)", text):
        if "://" not in target:
            resolved = (GUIDE.parent / target).resolve()
            assert resolved.exists(), f"broken link: {target}"
            assert resolved.is_relative_to(ROOT), f"link out of the repository: {target}"


def test_the_readme_points_new_players_to_the_guide():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    quick = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    assert "docs/playing.md" in readme.split("## Quick start", 1)[0]
    assert "docs/playing.md" in quick
