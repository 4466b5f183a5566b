"""Waiting for `tabletop teacher` (a real process on loopback, started with
:func:`tabletop.teacher.cli.teacher_command`) in the tests that talk to it over the network
(the browser's and the HTTPS one)."""

from __future__ import annotations

import subprocess

from tabletop.classroom.fleet.config import wait_listening


def wait_port(port: int, process: subprocess.Popen[bytes], timeout: float = 30.0) -> None:
    if not wait_listening(port, process=process, timeout=timeout):
        if process.poll() is not None:
            raise AssertionError(f"tabletop teacher stopped (exit {process.returncode})")
        raise AssertionError(f"tabletop teacher did not listen on {port}")
