"""`tabletop teacher` as a real process on loopback, for the tests that talk to it over
the network (the browser's and the HTTPS one)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tabletop.classroom.fleet.config import wait_listening


def teacher_command(fleet: Path, data: Path, port: int, pin: str, *more: str) -> list[str]:
    """The command line of a dashboard on 127.0.0.1:``port`` (``more``: extra options)."""
    return [
        sys.executable,
        "-m",
        "tabletop",
        "teacher",
        "--fleet",
        str(fleet),
        "--data",
        str(data),
        "--port",
        str(port),
        "--bind",
        "127.0.0.1",
        "--pin",
        pin,
        *more,
    ]


def wait_port(port: int, process: subprocess.Popen[bytes], timeout: float = 30.0) -> None:
    if not wait_listening(port, process=process, timeout=timeout):
        if process.poll() is not None:
            raise AssertionError(f"tabletop teacher stopped (exit {process.returncode})")
        raise AssertionError(f"tabletop teacher did not listen on {port}")
