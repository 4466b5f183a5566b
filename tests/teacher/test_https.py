"""The dashboard over HTTPS (``tabletop teacher --tls-cert --tls-key``, a real process on
loopback) with the certificate ``tabletop fleet setup`` made for the broker's name, and
the refusals of certificate files that cannot serve."""

from __future__ import annotations

import asyncio
import ssl
import subprocess
from pathlib import Path

import aiohttp
import pytest

from tabletop import cli
from tabletop.classroom.fleet.config import CA_FILE, CERT_FILE, KEY_FILE, free_port, provision
from tabletop.engine.errors import BadInput
from tabletop.teacher.auth import COOKIE, DEVICE_COOKIE
from tabletop.teacher.cli import teacher_command, tls_context
from tests.teacher.serving import wait_port

PIN = "4321"


def test_teacher_dashboard_over_https(tmp_path: Path) -> None:
    files = provision(tmp_path / "fleet", ["station-1"], host="127.0.0.1", port=free_port())
    port, redirect = free_port(), free_port()
    log = tmp_path / "teacher.log"
    with open(log, "wb") as out:
        server = subprocess.Popen(
            teacher_command(
                files.file("teacher"),
                tmp_path / "console",
                port,
                pin=PIN,
                tls=(files.folder / CERT_FILE, files.folder / KEY_FILE),
                redirect=redirect,
            ),
            stdout=out,
            stderr=subprocess.STDOUT,
        )
        try:
            wait_port(port, server)
            wait_port(redirect, server)
            seen = asyncio.run(_visit(port, redirect, files.folder / CA_FILE))
        finally:
            server.terminate()
            server.wait(10)
    said = log.read_text(encoding="utf-8")
    assert f"teacher dashboard on https://127.0.0.1:{port}/" in said
    assert f"http://127.0.0.1:{redirect}/ sends browsers there" in said
    # An http:// bookmark lands on the same page over HTTPS.
    assert seen["redirect"] == (307, f"https://127.0.0.1:{port}/login?next=1")
    assert "TLS)" in said  # the broker, too
    assert seen["plain"] == "refused"
    assert seen["login"] == 303
    assert seen["other_scheme"] == 403
    assert seen["hsts"] == "max-age=31536000"  # HTTPS only (test_app: none over http)
    assert seen["cookie_secure"] and seen["cookie_httponly"] and seen["device_secure"]
    assert seen["state"] == 200


async def _visit(port: int, redirect: int, ca: Path) -> dict[str, object]:
    trust = ssl.create_default_context(cafile=str(ca))  # the classroom's authority only
    seen: dict[str, object] = {}
    async with aiohttp.ClientSession() as plain:
        try:
            await plain.get(f"http://127.0.0.1:{port}/login")
            seen["plain"] = "answered"
        except aiohttp.ClientError:
            seen["plain"] = "refused"
        moved = await plain.get(f"http://127.0.0.1:{redirect}/login?next=1", allow_redirects=False)
        seen["redirect"] = (moved.status, moved.headers.get("Location"))
    base = f"https://127.0.0.1:{port}"
    jar = aiohttp.CookieJar(unsafe=True)  # keep cookies from an IP address
    connector = aiohttp.TCPConnector(ssl=trust)
    async with aiohttp.ClientSession(connector=connector, cookie_jar=jar) as web:
        # Issue 25 item 10: the same host and port over plain http is another origin.
        other = await web.post(
            f"{base}/login",
            data={"pin": PIN},
            headers={"Origin": f"http://127.0.0.1:{port}"},
            allow_redirects=False,
        )
        seen["other_scheme"] = other.status
        done = await web.post(
            f"{base}/login",
            data={"pin": PIN},
            headers={"Origin": base},
            allow_redirects=False,
        )
        seen["login"] = done.status
        cookie = done.cookies[COOKIE]
        seen["cookie_secure"] = bool(cookie["secure"])
        seen["cookie_httponly"] = bool(cookie["httponly"])
        device = done.cookies.get(DEVICE_COOKIE)
        seen["device_secure"] = device is not None and bool(device["secure"])
        seen["hsts"] = done.headers.get("Strict-Transport-Security")
        state = await web.get(f"{base}/api/state")
        seen["state"] = state.status
    return seen


def test_teacher_tls_files_that_cannot_serve_are_refused(tmp_path: Path) -> None:
    files = provision(tmp_path / "fleet", ["station-1"])
    other = provision(tmp_path / "other", ["station-1"])
    cert, key = files.folder / CERT_FILE, files.folder / KEY_FILE
    assert tls_context(None, None) is None
    assert tls_context(cert, key) is not None
    cases = [
        ((cert, None), "give both --tls-cert FILE and --tls-key FILE"),
        ((cert, tmp_path / "nope.key"), "nope.key cannot be read: No such file or directory"),
        ((cert, other.folder / KEY_FILE), "are not a certificate (PEM) and its own private key"),
        ((files.folder / "acl", key), "are not a certificate"),
    ]
    for (c, k), says in cases:
        with pytest.raises(BadInput) as err:
            tls_context(c, k)
        assert err.value.code == "teacher.tls" and says in err.value.message, (c, k)


def test_teacher_command_says_what_is_wrong_with_its_tls_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = provision(tmp_path / "fleet", ["station-1"], port=1)
    args = ["teacher", "--fleet", str(files.file("teacher")), "--pin", PIN]
    assert cli.main([*args, "--tls-cert", str(files.folder / CERT_FILE)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["tabletop teacher: give both --tls-cert FILE and --tls-key FILE, or neither"]
    tls = ["--tls-cert", str(files.folder / CERT_FILE), "--tls-key", str(files.folder / KEY_FILE)]
    for more, says in [
        (["--redirect-port", "8080"], "--redirect-port sends browsers to HTTPS: give --tls-cert"),
        ([*tls, "--redirect-port", "8080"], "--redirect-port must differ from --port"),
        ([*tls, "--redirect-port", "70000"], "the port 70000 is not 1..65535"),
    ]:
        assert cli.main([*args, *more]) == 2
        assert capsys.readouterr().err.strip() == f"tabletop teacher: {says}"
