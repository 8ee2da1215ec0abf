"""The mail fixtures are real servers: the standard library's clients talk to them."""

from __future__ import annotations

import imaplib
import smtplib
import ssl
from email.message import EmailMessage

import pytest


def _message_with_attachment(sender: str, to: str) -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = to
    msg["Subject"] = "Antike: orders for turn 3"
    msg.set_content("Persians: move fleet to Byzantion.\n")
    msg.add_attachment(
        b'{"nation": "persians"}\n', maintype="application", subtype="json",
        filename="orders.json",
    )
    return msg


def _check_received(server, sender: str, to: str) -> None:
    (got,) = server.wait_for(1)
    assert got.envelope_from == sender
    assert got.envelope_to == [to]
    assert got.message["Subject"] == "Antike: orders for turn 3"
    assert got.message.get_body(("plain",)).get_content() == "Persians: move fleet to Byzantion.\n"
    (att,) = list(got.message.iter_attachments())
    assert att.get_filename() == "orders.json"
    assert att.get_content() == b'{"nation": "persians"}\n'
    assert b"orders.json" in got.raw


def test_smtp_starttls_login_and_send(smtp_server):
    assert smtp_server.security == "starttls"
    ctx = ssl.create_default_context(cafile=smtp_server.ca_file)
    with smtplib.SMTP(smtp_server.host, smtp_server.port, timeout=10) as client:
        client.ehlo()
        assert client.has_extn("starttls")
        client.starttls(context=ctx)
        client.ehlo()
        client.login(smtp_server.user, smtp_server.password)
        client.send_message(
            _message_with_attachment("referee@antike.test", "alice@players.test"),
            from_addr="referee@antike.test", to_addrs=["alice@players.test"],
        )
    _check_received(smtp_server, "referee@antike.test", "alice@players.test")


def test_smtp_certificate_valid_for_localhost(smtp_server):
    ctx = ssl.create_default_context(cafile=smtp_server.ca_file)
    with smtplib.SMTP("localhost", smtp_server.port, timeout=10) as client:
        client.starttls(context=ctx)  # verifies the name "localhost"
        client.login(smtp_server.user, smtp_server.password)


def test_smtp_ssl_login_and_send(smtp_ssl_server):
    assert smtp_ssl_server.security == "ssl"
    ctx = ssl.create_default_context(cafile=smtp_ssl_server.ca_file)
    with smtplib.SMTP_SSL(smtp_ssl_server.host, smtp_ssl_server.port, context=ctx, timeout=10) as client:
        client.login(smtp_ssl_server.user, smtp_ssl_server.password)
        client.send_message(_message_with_attachment("referee@antike.test", "bob@players.test"))
    _check_received(smtp_ssl_server, "referee@antike.test", "bob@players.test")


def test_smtp_login_without_tls_refused(smtp_server):
    with smtplib.SMTP(smtp_server.host, smtp_server.port, timeout=10) as client:
        client.ehlo()
        assert not client.has_extn("auth")  # AUTH only offered after STARTTLS
        code, _ = client.docmd("AUTH", "PLAIN")
        assert code == 530  # "Must issue a STARTTLS command first"
        with pytest.raises(smtplib.SMTPException):
            client.login(smtp_server.user, smtp_server.password)
        code, _ = client.docmd("MAIL", "FROM:<referee@antike.test>")
        assert code >= 500
    assert smtp_server.messages == []


@pytest.mark.parametrize("which", ["smtp_server", "smtp_ssl_server"])
def test_smtp_wrong_password_refused(which, request):
    server = request.getfixturevalue(which)
    ctx = ssl.create_default_context(cafile=server.ca_file)
    if which == "smtp_ssl_server":
        client = smtplib.SMTP_SSL(server.host, server.port, context=ctx, timeout=10)
    else:
        client = smtplib.SMTP(server.host, server.port, timeout=10)
        client.starttls(context=ctx)
    with client:
        with pytest.raises(smtplib.SMTPAuthenticationError):
            client.login(server.user, "wrong-" + server.password)
        with pytest.raises(smtplib.SMTPSenderRefused):  # AUTH is required to send
            client.sendmail("referee@antike.test", ["alice@players.test"], b"Subject: x\r\n\r\nx\r\n")
    assert server.messages == []


def test_smtp_untrusted_certificate_rejected(smtp_ssl_server):
    with pytest.raises(ssl.SSLCertVerificationError):
        smtplib.SMTP_SSL(smtp_ssl_server.host, smtp_ssl_server.port,
                         context=ssl.create_default_context(), timeout=10)


def test_smtp_plain_server_without_tls(smtp_plain_server):
    assert smtp_plain_server.security == "plain"
    with smtplib.SMTP(smtp_plain_server.host, smtp_plain_server.port, timeout=10) as client:
        client.sendmail("referee@antike.test", ["a@players.test", "b@players.test"],
                        b"Subject: plain\r\n\r\n.line starting with a dot\r\n")
    (got,) = smtp_plain_server.wait_for(1)
    assert got.envelope_to == ["a@players.test", "b@players.test"]
    assert got.raw == b"Subject: plain\r\n\r\n.line starting with a dot\r\n"  # dot-unstuffed
    assert got.message.get_content() == ".line starting with a dot\n"


def test_smtp_wait_for_times_out(smtp_server):
    with pytest.raises(AssertionError, match="got 0 message"):
        smtp_server.wait_for(1, timeout=0.05)


def test_smtp_messages_cleared_between_tests(smtp_server, smtp_ssl_server):
    assert smtp_server.messages == [] and smtp_ssl_server.messages == []


RAW_1 = (
    b"From: alice@players.test\r\nTo: referee@antike.test\r\n"
    b"Subject: orders 1\r\nMessage-ID: <one@players.test>\r\n\r\nfirst body\r\n"
)
RAW_2 = (
    b"From: bob@players.test\r\nTo: referee@antike.test\r\n"
    b"Subject: orders 2\r\nMessage-ID: <two@players.test>\r\n\r\nsecond body\r\n"
)


def test_imap_login_deliver_search_fetch(imap_server):
    assert imap_server.url == f"imaps://{imap_server.user}@{imap_server.host}:{imap_server.port}/INBOX"
    ctx = ssl.create_default_context(cafile=imap_server.ca_file)
    client = imaplib.IMAP4_SSL(imap_server.host, imap_server.port, ssl_context=ctx, timeout=10)
    try:
        client.login(imap_server.user, imap_server.password)
        typ, data = client.select("INBOX")
        assert typ == "OK" and data == [b"0"]
        imap_server.deliver(RAW_1)
        imap_server.deliver(RAW_2)
        client.noop()
        typ, data = client.search(None, "ALL")
        assert typ == "OK"
        nums = data[0].split()
        assert len(nums) == 2
        bodies = []
        for num in nums:
            typ, data = client.fetch(num, "(BODY.PEEK[])")
            assert typ == "OK"
            bodies.append(data[0][1])
        assert bodies == [RAW_1, RAW_2]
        typ, data = client.search(None, "UNSEEN")  # PEEK left them unread
        assert len(data[0].split()) == 2
    finally:
        client.logout()
    assert imap_server.messages() == [RAW_1, RAW_2]
    on_disk = list((imap_server.maildir / "new").iterdir()) + list((imap_server.maildir / "cur").iterdir())
    assert len(on_disk) == 2
    imap_server.clear()
    assert imap_server.messages() == []


def test_imap_wrong_password_refused(imap_server):
    ctx = ssl.create_default_context(cafile=imap_server.ca_file)
    client = imaplib.IMAP4_SSL("localhost", imap_server.port, ssl_context=ctx, timeout=10)
    try:
        with pytest.raises(imaplib.IMAP4.error, match="AUTHENTICATIONFAILED"):
            client.login(imap_server.user, "wrong-" + imap_server.password)
    finally:
        client.shutdown()


def test_imap_inbox_cleared_between_tests(imap_server):
    assert imap_server.messages() == []
