"""docs/mail.md, "Setting up, start to finish", followed literally: its commands run in a
shell as a new GM would type them (only the server names, the passwords and the outbox
folder are replaced by the test servers' own), from `new` to the first report arriving at
a real SMTP server, the dry run first. If the page and the program drift apart, this fails."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[3] / "docs" / "mail.md"


def steps() -> dict[int, str]:
    """Each numbered step of the set-up section, as written."""
    section = DOC.read_text(encoding="utf-8").split("## Setting up, start to finish", 1)[1].split("\n## ", 1)[0]
    parts = re.split(r"^(\d+)\. ", section, flags=re.M)
    return {int(parts[i]): parts[i + 1] for i in range(1, len(parts), 2)}


def commands(step: str) -> list[str]:
    """The shell commands of a step: its indented blocks (7 spaces, as a list item holds
    them), continued lines joined by the shell."""
    blocks, current = [], []
    for line in step.splitlines():
        if line.startswith("       ") and line.strip():
            current.append(line[7:])
        elif current and not line.strip():
            blocks.append("\n".join(current))
            current = []
        elif current:
            blocks.append("\n".join(current))
            current = []
    if current:
        blocks.append("\n".join(current))
    return blocks


def replaced(text: str, old: str, new: str) -> str:
    assert old in text, f"docs/mail.md no longer says {old!r}: update this test with the page"
    return text.replace(old, new)


@pytest.mark.slow
def test_the_set_up_of_docs_mail_md_works_as_written(tmp_path, smtp_server, imap_server):
    home = tmp_path / "home"
    home.mkdir()
    bin_dir = str(Path(sys.executable).parent)
    env = {"HOME": str(home), "PATH": f"{bin_dir}:/usr/bin:/bin", "ANTIKE_REF_KDF_ITERATIONS": "1000",
           "LANG": "C.UTF-8"}

    def shell(script: str, cwd: Path) -> subprocess.CompletedProcess:
        done = subprocess.run(["/bin/bash", "-euc", script], cwd=cwd, env=env, capture_output=True, text=True)
        assert done.returncode == 0, f"{script}\n{done.stdout}\n{done.stderr}"
        return done

    step = steps()
    assert sorted(step) == [0, 1, 2, 3, 4]
    # 0 and 1: the folder, then the game
    shell("\n".join(commands(step[0])), home)
    antike = home / "antike"
    (new,) = [c for c in commands(step[1]) if c.startswith("antike-ref new")]
    shell(new, antike)
    assert (antike / "games" / "demo.json").is_file() and (antike / "games" / "demo.secrets.json").is_file()
    # 2: the configuration as printed, pointed at the test servers, and the password files
    toml = step[2].split("```toml\n", 1)[1].split("```", 1)[0]
    toml = "\n".join(line[3:] if line.startswith("   ") else line for line in toml.splitlines()) + "\n"
    toml = replaced(toml, 'host = "smtp.example.org"', f'host = "{smtp_server.host}"')
    toml = replaced(toml, "port = 587 ", f"port = {smtp_server.port} ")
    toml = replaced(toml, 'user = "referee@example.org"', f'user = "{smtp_server.user}"')
    toml = replaced(toml, 'url = "imaps://referee@imap.example.org/INBOX"', f'url = "{imap_server.url}"')
    toml = replaced(toml, "[smtp]\n", f'[smtp]\nca_file = "{smtp_server.ca_file}"\n')
    toml = replaced(toml, "[imap]\n", f'[imap]\nca_file = "{imap_server.ca_file}"\n')
    (antike / "mail.toml").write_text(toml, encoding="utf-8")
    secrets = "\n".join(c for c in commands(step[2]) if "password" in c)
    secrets = replaced(secrets, "'the SMTP password'", shlex.quote(smtp_server.password))
    secrets = replaced(secrets, "'the IMAP password'", shlex.quote(imap_server.password))
    shell(secrets, antike)
    # 3: the dry run sends nothing and changes nothing
    before = {p.name: p.read_bytes() for p in (antike / "games").iterdir() if p.is_file()}
    (dry,) = [c for c in commands(step[3]) if "--dry-run" in c]
    outbox = tmp_path / "outbox"
    shell(replaced(dry, "/tmp/outbox", str(outbox)), antike)
    assert len(list(outbox.glob("*.eml"))) == 5  # four players and the GM
    assert smtp_server.messages == []
    assert {p.name: p.read_bytes() for p in (antike / "games").iterdir() if p.is_file()} == before
    # 4: the cron line, as printed, run the way cron runs it (another folder, a bare environment)
    (ask,) = [c for c in commands(step[4]) if c.startswith("antike-ref mail cron-line")]
    line = shell(ask, antike).stdout.strip()
    fields = line.split(" ", 5)
    assert fields[:5] == ["*/5", "*", "*", "*", "*"]
    assert os.path.isabs(shlex.split(fields[5].split("&&", 1)[1])[0])
    shell(fields[5], Path("/"))
    received = smtp_server.wait_for(5)
    assert sorted(a for r in received for a in r.envelope_to) == sorted(
        ["ann@example.org", "ben@example.org", "cem@example.org", "dora@example.org", "gm@example.org"])
    assert all("after set-up" in str(r.message["Subject"]) for r in received)
    assert "delivered 5" in (antike / "mail.log").read_text()
