"""Helpers for the mail tests: games with registered addresses, mails, mailboxes."""

from __future__ import annotations

import json
import mailbox
from email.message import EmailMessage
from email.policy import default as default_policy
from pathlib import Path

from conftest import FOUR, PASSWORDS, new_game_file

ADDRESSES = {n: f"{n}@players.example" for n in FOUR}
GM = "gm@referee.example"
START = "2026-11-23T10:00:00Z"


def game_with_players(folder: Path, name: str = "game.json", game_id: str = "demo") -> Path:
    players = [a for n in FOUR for a in ("--player", f"{n}={n.capitalize()} Player <{ADDRESSES[n]}>")]
    return new_game_file(folder, "--id", game_id, *players, name=name)


def config(folder: Path, *games: Path, extra: str = "", defaults: str = "") -> Path:
    """A mail configuration listing ``games`` (no SMTP: the tests use --outbox)."""
    text = f'[mail]\nfrom = "Referee <referee@referee.example>"\ngm = "{GM}"\n'
    if defaults:
        text += f"\n[defaults]\n{defaults}\n"
    for g in games:
        text += f'\n[[game]]\nfile = "{g}"\n'
    text += extra
    path = folder / "mail.toml"
    path.write_text(text, encoding="utf-8")
    return path


_count = [0]


def mail(sender: str, subject: str = "orders", body: str | None = None, *, orders: dict | None = None,
         attach_name: str = "orders.json", html: str | None = None, message_id: str | None = None,
         headers: dict | None = None) -> bytes:
    """One mail as bytes: a plain-text body, an order file attached (``orders``), an HTML part."""
    _count[0] += 1
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = "referee@referee.example"
    msg["Subject"] = subject
    msg["Date"] = "Mon, 23 Nov 2026 10:00:00 +0000"
    msg["Message-ID"] = message_id or f"<test-{_count[0]}-{abs(hash((sender, subject, body)))}@players.example>"
    for key, value in (headers or {}).items():
        msg[key] = value
    if body is not None:
        msg.set_content(body)
        if html is not None:
            msg.add_alternative(html, subtype="html")
    elif html is not None:
        msg.set_content(html, subtype="html")
    else:
        msg.set_content("see attachment")
    if orders is not None:
        msg.add_attachment(json.dumps(orders).encode(), maintype="application", subtype="json", filename=attach_name)
    return msg.as_bytes()


def json_orders(nation: str, turn: int, game_id: str = "demo", password: str | None = None, **fields) -> dict:
    return {"game": game_id, "nation": nation, "turn": turn,
            "password": PASSWORDS[nation] if password is None else password, **fields}


def _fill(box, mails) -> None:
    for raw in mails:
        box.add(raw)
    box.close()


def maildir(folder: Path, *mails: bytes) -> Path:
    """A new Maildir holding ``mails``."""
    _fill(mailbox.Maildir(folder, create=True), mails)
    return folder


def add_to_maildir(folder: Path, *mails: bytes) -> None:
    _fill(mailbox.Maildir(folder, create=False), mails)


def mbox(path: Path, *mails: bytes) -> Path:
    _fill(mailbox.mbox(path, create=True), mails)
    return path


def sent(outbox: Path) -> list:
    """The mails in an outbox folder, parsed, in name order."""
    import email

    if not outbox.is_dir():
        return []
    return [email.message_from_bytes(p.read_bytes(), policy=default_policy)
            for p in sorted(outbox.glob("*.eml"))]


def to_whom(messages) -> list[str]:
    return [str(m["To"]) for m in messages]


def body(message) -> str:
    part = message.get_body(("plain",))
    return part.get_content() if part is not None else ""


def active(game: Path) -> str:
    """The nation on turn in a game file."""
    return json.loads(game.read_text())["status"]["active"]


def run_mail(cfg: Path, box: Path, outbox: Path, now: str = START, *extra):
    """``mail run`` over a local mailbox into an outbox, at ``now``."""
    from conftest import cli_run

    return cli_run("mail", "run", "--config", cfg, "--source", box, "--outbox", outbox, "--now", now, *extra)


def server_config(folder: Path, game: Path, smtp, imap=None, mail_extra: str = "", extra: str = "") -> Path:
    """A mail configuration for the real test servers (tests/mail/servers/mailservers.py): SMTP, and
    IMAP when given; ``mail_extra`` goes into ``[mail]``, ``extra`` after the game."""
    text = (f'[mail]\nfrom = "Referee <referee@referee.example>"\ngm = "{GM}"\n{mail_extra}\n'
            f'[smtp]\nhost = "{smtp.host}"\nport = {smtp.port}\nsecurity = "{smtp.security}"\n'
            f'user = "{smtp.user}"\npassword_env = "TEST_SMTP_PASSWORD"\nca_file = "{smtp.ca_file}"\n')
    if imap is not None:
        text += f'\n[imap]\nurl = "{imap.url}"\npassword_env = "TEST_IMAP_PASSWORD"\nca_file = "{imap.ca_file}"\n'
    text += f'\n[[game]]\nfile = "{game}"\n{extra}'
    path = folder / "mail.toml"
    path.write_text(text, encoding="utf-8")
    return path


def to_of(message) -> str:
    """The bare addresses a mail is sent to (``To: Ann <ann@x>`` is ``ann@x``: every mail to
    a player names them since issue 38), comma-separated."""
    from email.utils import getaddresses

    return ", ".join(address for _, address in getaddresses([str(message["To"])]))


OBSERVED = 'deadline = "48h"\nattach = ""\nobservers = ["Olga <olga@watch.example>"]'
"""The defaults of :func:`desk_table`'s game: two days a turn, no attachments, one observer."""


def desk_table(tmp_path: Path, minute: list[int]):
    """A game of four players by mail with an observer, after its opening reports: the
    folder, the game file, the configuration and ``cycle(*mails, extra_config="")``, which
    adds the mails to the mailbox and runs ``mail run`` five minutes after the last one
    (``minute``: the module's clock, counted on across its tests), returning what it sent."""
    from conftest import cli_run

    game = game_with_players(tmp_path)
    cfg = config(tmp_path, game, defaults=OBSERVED)
    box = maildir(tmp_path / "M")

    def cycle(*mails, extra_config: str = ""):
        if extra_config:
            cfg.write_text(cfg.read_text() + extra_config)
        add_to_maildir(box, *mails)
        minute[0] += 5
        now = f"2026-11-23T{10 + minute[0] // 60:02d}:{minute[0] % 60:02d}:00Z"
        out = tmp_path / f"o{minute[0]}"
        result = cli_run("mail", "run", "--config", cfg, "--source", box, "--outbox", out, "--now", now)
        assert result.exit_code == 0, result.stdout + result.stderr
        return sent(out)

    cycle()  # the opening reports
    return tmp_path, game, cfg, cycle


def text(message) -> str:
    """A mail's text body on one line, every run of white space one space."""
    return " ".join(body(message).split())
