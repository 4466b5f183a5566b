"""``scripts/system-packages.sh``: the Debian packages `make run` needs (the app's only)
and the ones `make test` adds (the test tools), from the script's one table."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.test_systemd import ROOT, commands, dry_run, one

SCRIPT = ROOT / "scripts" / "system-packages.sh"
TEST_TOOLS = ("chromium", "mosquitto", "shellcheck", "poppler-utils")


def packages(purpose: str) -> list[str]:
    done = subprocess.run(
        ["sh", str(SCRIPT), purpose, "--print"], capture_output=True, text=True, timeout=30
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_system_packages_run_lists_only_what_the_app_needs() -> None:
    run = packages("run")
    assert {"libzbar0", "espeak-ng", "fonts-droid-fallback"} <= set(run)
    assert not set(run) & set(TEST_TOOLS)


def test_system_packages_test_adds_the_test_tools() -> None:
    run, test = packages("run"), packages("test")
    assert test[: len(run)] == run
    assert set(test) - set(run) == set(TEST_TOOLS)


def test_system_packages_make_targets_use_their_purpose() -> None:
    for target in ("run", "test"):
        done = subprocess.run(
            ["make", "-n", "-C", str(ROOT), target], capture_output=True, text=True, timeout=30
        )
        assert done.returncode == 0, done.stderr
        assert f"sh scripts/system-packages.sh {target}\n" in done.stdout


def test_system_packages_not_root_names_the_apps_packages_in_one_line(tmp_path: Path) -> None:
    """Not root, on a machine without the packages: one line names what to install, and
    for `run` that is no test tool."""
    for name, body in (("id", "echo 1000"), ("python3", "exit 1"), ("ldconfig", "exit 0")):
        (tmp_path / name).write_text(f"#!/bin/sh\n{body}\n")
        (tmp_path / name).chmod(0o755)
    done = subprocess.run(
        ["/bin/sh", str(SCRIPT), "run"],
        capture_output=True,
        text=True,
        timeout=30,
        env={"PATH": str(tmp_path)},
    )
    assert done.returncode == 0, done.stderr
    (line,) = done.stdout.splitlines()
    assert line.startswith("Missing system packages; run: sudo apt-get install -y ")
    assert {"python3-venv", "libzbar0", "espeak-ng"} <= set(line.split())
    assert not set(line.split()) & set(TEST_TOOLS)


def test_system_packages_not_root_finds_a_library_without_sbin_on_its_path(
    tmp_path: Path,
) -> None:
    """A user's PATH on Debian has no /sbin, where ldconfig is: a library installed
    (libzbar0, here on the test machine) is still found, not named as missing."""
    ldconfig = Path("/sbin/ldconfig")
    found = (
        ldconfig.exists()
        and "libzbar.so.0"
        in subprocess.run([ldconfig, "-p"], capture_output=True, text=True, timeout=30).stdout
    )
    if not found:
        pytest.skip("libzbar0 is not installed here")
    (tmp_path / "id").write_text("#!/bin/sh\necho 1000\n")
    (tmp_path / "id").chmod(0o755)
    done = subprocess.run(
        ["/bin/sh", str(SCRIPT), "run"],
        capture_output=True,
        text=True,
        timeout=30,
        env={"PATH": f"{tmp_path}:/usr/bin:/bin"},
    )
    assert done.returncode == 0, done.stderr
    assert "libzbar0" not in done.stdout.split()


def test_system_packages_unknown_purpose_is_refused() -> None:
    done = subprocess.run(["sh", str(SCRIPT), "play"], capture_output=True, text=True, timeout=30)
    assert done.returncode == 2
    assert done.stderr == "usage: sh scripts/system-packages.sh run|test [--print]\n"


def test_system_packages_a_station_install_has_what_the_app_needs() -> None:
    """systemd/install.sh (a station) installs every package `make run` asks for."""
    done = dry_run()
    assert done.returncode == 0, done.stderr
    apt = one(commands(done.stdout), r"apt-get install").split()
    assert set(packages("run")) <= set(apt)


@pytest.mark.parametrize(("goal", "purpose"), [("run", "run"), ("test", "test"), ("lint", "test")])
def test_system_packages_come_before_the_venv_under_make_j(
    tmp_path: Path, goal: str, purpose: str
) -> None:
    """`make -j GOAL` installs the system packages before it makes the venv (which needs
    python3-venv): the Makefile in a folder whose package script is slow and whose python3
    fails unless that script has finished. Then one script run, for the goal's purpose
    (lint's is the test tools': it makes the dev venv; r23-int asked for the app's)."""
    (tmp_path / "Makefile").write_text((ROOT / "Makefile").read_text())
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "system-packages.sh").write_text(
        'sleep 1; echo "$1" >> packages-done\n'
    )
    tool = "#!/bin/sh\nexit 0\n"
    python = tmp_path / "python3"
    python.write_text(
        "#!/bin/sh\n"
        '[ -e packages-done ] || { echo "venv made before the system packages" >&2; exit 1; }\n'
        "mkdir -p .venv/bin\n"
        "for t in python pip tabletop ruff mypy lint-imports pytest; do\n"
        f"  printf '{tool}' > .venv/bin/$t; chmod +x .venv/bin/$t\n"
        "done\n"
    )
    python.chmod(0o755)
    done = subprocess.run(
        ["make", "-j4", goal, f"PYTHON={python}"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "packages-done").read_text() == f"{purpose}\n"


@pytest.mark.parametrize("goal", ["lint", "typecheck"])
def test_system_packages_lint_with_a_venv_runs_no_package_script(tmp_path: Path, goal: str) -> None:
    """`make lint` / `make typecheck` once the dev venv is made run no apt step (r23-int
    ran the app's package script on every call), as `make lint` did before the venv's
    order-only packages; `make run` / `make test` still check theirs each time."""
    (tmp_path / "Makefile").write_text((ROOT / "Makefile").read_text())
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / ".venv" / "bin").mkdir(parents=True)
    for made in (".venv/bin/python", ".venv/.run-installed", ".venv/.dev-installed"):
        (tmp_path / made).write_text("")
    for target, asks in ((goal, False), ("test", True)):
        done = subprocess.run(
            ["make", "-n", target], cwd=tmp_path, capture_output=True, text=True, timeout=30
        )
        assert done.returncode == 0, done.stderr
        assert ("scripts/system-packages.sh" in done.stdout) is asks, done.stdout
