"""Where a command is told to write (``--out``, ``--pdf``, ``--log``) and cannot: one line
on stderr, "cannot write X: why", exit status 2, checked before the work (round 28: main
raised IsADirectoryError or PermissionError tracebacks, the demo after playing the whole
game, and ``print --out /no/such/dir/x.pdf`` made the tree of folders). As ``cp`` and
``mkdir`` do, the folder a file goes into must be there. No output is a file the command
reads, the journal, or another output (round 29)."""

from __future__ import annotations

import os
import resource
import shutil
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from tabletop import cli, outfiles
from tabletop.store import FILE_NAME

PRINTS = [
    ["print", "deck", "math-arena"],
    ["print", "sheet", "mathe-meister"],
    ["print", "mats", "mecs"],
    ["print", "answer-key", "MWM25"],
    ["print", "badges", "ROSTER"],
]
A_FOLDER = "it is a folder: name a file in it"


def said(capsys: pytest.CaptureFixture[str]) -> str:
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "Traceback" not in err
    return err


@pytest.fixture
def roster(tmp_path: Path) -> str:
    path = tmp_path / "class.csv"
    path.write_text("id,name,group\nS1,Mia,4a\n", encoding="utf-8")
    return str(path)


def argv(args: list[str], roster: str, *more: str) -> list[str]:
    return [roster if a == "ROSTER" else a for a in args] + list(more)


@pytest.mark.parametrize("args", PRINTS, ids=lambda a: a[1])
def test_cli_outputs_print_to_a_folder_is_one_line(
    args: list[str], roster: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(argv(args, roster, "--out", str(tmp_path))) == 2
    assert (
        said(capsys)
        == f"tabletop print: cannot write {tmp_path}: it is a folder: name a file in it\n"
    )


@pytest.mark.parametrize("args", PRINTS, ids=lambda a: a[1])
def test_cli_outputs_print_into_no_such_folder_makes_none(
    args: list[str], roster: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "no" / "such" / "x.pdf"
    assert cli.main(argv(args, roster, "--out", str(out))) == 2
    assert f"the folder {tmp_path / 'no' / 'such'} does not exist" in said(capsys)
    assert not (tmp_path / "no").exists()


def never_plays(monkeypatch: pytest.MonkeyPatch) -> None:
    """The demos (math-attack's, which takes --data) fail the test if they play."""

    def played(*, seed: object, out_dir: object, out: object, data: object = None) -> None:
        pytest.fail("the demo played")

    monkeypatch.setattr("tabletop.ui.games.math_attack.demo.run_demo", played)


@pytest.fixture
def read_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder the system refuses writes in (as a read-only mount: tests run as root,
    for whom a chmod refuses nothing)."""
    folder = tmp_path / "ro"
    folder.mkdir()
    real = outfiles.os.access
    monkeypatch.setattr(outfiles.os, "access", lambda p, mode: Path(p) != folder and real(p, mode))
    return folder


@pytest.mark.parametrize(
    "args",
    [
        *PRINTS,
        ["demo", "--seed", "1", "--log", "LOG"],
        ["demo", "--terminal", "--seed", "1", "--log", "LOG"],
        ["demo", "--seed", "1", "--out", "SHOTS"],
        ["demo", "--game", "math-attack", "--seed", "1", "--data", "DATA"],
        ["fleet", "setup", "--stations", "2", "--host", "h", "--no-tls", "--out", "SHOTS"],
    ],
    ids=lambda a: "-".join(a[:2]),
)
def test_cli_outputs_a_read_only_place_is_one_line_before_the_work(
    args: list[str],
    roster: str,
    read_only: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The demo is refused before it plays (main: a traceback after the whole game)."""
    never_plays(monkeypatch)  # --data is checked in run_demo_command, before the game
    monkeypatch.setattr("tabletop.terminal.demo", pytest.fail)
    names = {"LOG": "game.log", "SHOTS": "shots", "DATA": "data"}
    args = [str(read_only / names[a]) if a in names else a for a in args]
    if args[0] == "print":
        args += ["--out", str(read_only / "x.pdf")]
    assert cli.main(argv(args, roster)) == 2
    assert f"the folder {read_only} is read-only" in said(capsys)


def test_cli_outputs_demo_log_to_a_folder_is_refused_before_playing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("tabletop.ui.commands.run_demo_command", pytest.fail)
    assert cli.main(["demo", "--seed", "1", "--log", str(tmp_path)]) == 2
    assert (
        said(capsys)
        == f"tabletop demo: cannot write {tmp_path}: it is a folder: name a file in it\n"
    )


@pytest.mark.parametrize(
    ("data", "why"),
    [
        ("afile/data", "{tmp}/afile is a file, not a folder: name another place"),
        ("afile", "it is a file, not a folder: name a folder"),
        ("ro", "the folder is read-only"),
        ("/proc/x", ""),  # the system's words, as the user who runs it gets them
    ],
)
def test_cli_outputs_demo_data_that_cannot_be_written_is_refused_before_playing(
    data: str,
    why: str,
    tmp_path: Path,
    read_only: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``demo --data`` in a folder that cannot be made or written played the whole game,
    then said the game was not in the journal (r40-keep 2): now one line before it."""
    never_plays(monkeypatch)  # --data is checked in run_demo_command, before the game
    (tmp_path / "afile").write_text("")
    where = Path(data) if data.startswith("/") else tmp_path / data
    assert cli.main(["demo", "--game", "math-attack", "--seed", "1", "--data", str(where)]) == 2
    err = said(capsys)
    assert err.startswith(f"tabletop demo: cannot write {where}: ")
    assert err.endswith(f"{why.format(tmp=tmp_path)}\n")


def test_cli_outputs_demo_data_that_does_not_apply_makes_no_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The bubble game's demo is not saved: --data is refused, and no folder is made for it."""
    where = tmp_path / "data"
    assert cli.main(["demo", "--game", "bubbles", "--seed", "1", "--data", str(where)]) == 2
    assert "the bubbles demo is not saved, so --data does not apply" in said(capsys)
    assert not where.exists()


@pytest.mark.parametrize(
    "command", [["demo"], ["fleet", "setup", "--stations", "2", "--host", "h"]]
)
def test_cli_outputs_a_folder_named_by_a_file_is_one_line(
    command: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``demo --out`` and ``fleet setup --out`` name a folder: an existing file is not one
    (main: NotADirectoryError / FileExistsError tracebacks)."""
    afile = tmp_path / "afile"
    afile.write_text("keep me")
    assert cli.main([*command, "--out", str(afile)]) == 2
    assert "it is a file, not a folder" in said(capsys)
    assert afile.read_text() == "keep me"


def test_cli_outputs_report_pdf_into_no_such_folder_makes_none(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``report --pdf`` did as every command now does, but made missing folders; its
    outputs are checked before the journal is read (here: a folder with no games)."""
    out = tmp_path / "no" / "r.pdf"
    assert cli.main(["report", "--data", str(tmp_path), "--all", "--pdf", str(out)]) == 2
    assert f"the folder {tmp_path / 'no'} does not exist" in said(capsys)
    assert not (tmp_path / "no").exists()


@pytest.mark.parametrize(
    "args",
    [
        ["print", "deck", "math-arena", "--out", "LONG.pdf"],
        ["demo", "--seed", "1", "--log", "LONG.log"],
        ["demo", "--seed", "1", "--out", "LONG"],
        ["report", "--all", "--pdf", "LONG/r.pdf"],
    ],
    ids=lambda a: a[0] + a[-2],
)
def test_cli_outputs_a_name_too_long_is_one_line(
    args: list[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A name the system refuses to look at (longer than 255 letters) is the one line too
    (it raised OSError: File name too long, a traceback, from the checks themselves)."""
    monkeypatch.setattr("tabletop.ui.commands.run_demo_command", pytest.fail)
    long = str(tmp_path / ("a" * 300))
    args = [a.replace("LONG", long) for a in args]
    if args[0] == "report":
        args += ["--data", str(tmp_path)]
    assert cli.main(args) == 2
    assert f"cannot write {long}" in said(capsys)


# -- an output over an input (round 29) ------------------------------------------------------


@pytest.fixture(scope="module")
def lesson(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from tests.classroom.lesson import build

    folder = tmp_path_factory.mktemp("lesson")
    build(folder)
    return folder


@pytest.fixture
def data(lesson: Path, tmp_path: Path) -> Path:
    """A copy of a data folder whose journal has games to report (main overwrote it)."""
    return Path(shutil.copytree(lesson, tmp_path / "data"))


@pytest.mark.parametrize(
    ("option", "name", "why"),
    [
        ("--csv", "DATA/tabletop.sqlite3", "it is the game journal"),
        ("--pdf", "DATA/../data/tabletop.sqlite3-wal", "it is part of the game journal JOURNAL"),
        ("--skills", "LINK/tabletop.sqlite3-journal", "it is part of the game journal JOURNAL"),
        ("--csv", "HARD", "it is the game journal"),
    ],
    ids=["journal", "wal", "through-a-link", "hard-link"],
)
def test_cli_outputs_report_over_the_journal_is_refused(
    option: str,
    name: str,
    why: str,
    data: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The journal, its SQLite files beside it, by any name (main: ``report --csv
    D/tabletop.sqlite3`` replaced the journal with the CSV, exit status 0)."""
    journal = data / FILE_NAME
    before = journal.read_bytes()
    (tmp_path / "link").symlink_to(data)
    os.link(journal, tmp_path / "HARD")
    names = {"DATA": str(data), "LINK": str(tmp_path / "link"), "HARD": str(tmp_path / "HARD")}
    out = "/".join(names.get(part, part) for part in name.split("/"))
    assert cli.main(["report", "--data", str(data), "--all", option, out]) == 2
    why = why.replace("JOURNAL", str(journal))
    assert said(capsys) == f"tabletop report: cannot write {out}: {why}: name another file\n"
    assert journal.read_bytes() == before
    assert sorted(p.name for p in data.iterdir()) == [FILE_NAME]


def test_cli_outputs_demo_log_over_its_journal_is_refused_before_playing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Main played the game, journaled it, then wrote the log over the journal."""
    monkeypatch.setattr("tabletop.ui.commands.run_demo_command", pytest.fail)
    log = tmp_path / FILE_NAME
    assert cli.main(["demo", "--data", str(tmp_path), "--log", str(log)]) == 2
    assert said(capsys) == (
        f"tabletop demo: cannot write {log}: it is the game journal: name another file\n"
    )


def test_cli_outputs_badges_over_their_class_list_is_refused(
    roster: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Main replaced the class list with the PDF of its badges."""
    before = Path(roster).read_bytes()
    assert cli.main(["print", "badges", roster, "--out", roster]) == 2
    assert said(capsys) == (
        f"tabletop print: cannot write {roster}: this command reads it: name another file\n"
    )
    assert Path(roster).read_bytes() == before


@pytest.mark.parametrize(
    "args",
    [
        ["report", "--data", "DATA", "--all", "--csv", "X", "--pdf", "X"],
        ["report", "--data", "DATA", "--all", "--csv", "X", "--skills", "./X"],
        ["demo", "--seed", "1", "--out", "X", "--log", "X"],
    ],
    ids=["csv-pdf", "csv-skills", "demo-out-log"],
)
def test_cli_outputs_two_outputs_in_one_place_are_refused(
    args: list[str],
    data: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Main wrote the CSV, then the PDF over it (exit 0), or made the folder X for the
    screenshots and played the game before the log could not be written there."""
    monkeypatch.setattr("tabletop.ui.commands.run_demo_command", pytest.fail)
    monkeypatch.chdir(tmp_path)
    args = [str(data) if a == "DATA" else a for a in args]
    assert cli.main(args) == 2
    second = Path(args[-1])  # the later one: ./X is X
    assert said(capsys) == (
        f"tabletop {args[0]}: cannot write {second}: another output of this command goes "
        "there too: name another file\n"
    )
    assert not (tmp_path / "X").exists()


# -- a write that fails partway (round 29) ---------------------------------------------------


def tabletop_writing_at_most(
    size: int, args: list[str], cwd: Path
) -> subprocess.CompletedProcess[str]:
    """``tabletop ARGS`` in a process whose writes stop at ``size`` bytes a file (EFBIG),
    as a full USB stick stops them: partway through a file."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))

    env = {**os.environ, "PYTHONPATH": str(Path(cli.__file__).parents[1])}
    return subprocess.run(
        [sys.executable, "-B", "-m", "tabletop", *args],
        cwd=cwd,
        env=env,
        preexec_fn=limit,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_cli_outputs_print_badges_by_default_over_their_class_list_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """With no ``--out`` the badges go to ``badges.pdf``, which was not checked: a class
    list of that name was replaced by its badges (r40-keep 3)."""
    monkeypatch.chdir(tmp_path)
    Path("badges.pdf").write_text("id,name,group\nS1,Mia,4a\n", encoding="utf-8")
    assert cli.main(["print", "badges", "badges.pdf"]) == 2
    assert said(capsys) == (
        "tabletop print: cannot write badges.pdf: this command reads it: name another file\n"
    )
    assert Path("badges.pdf").read_text(encoding="utf-8").startswith("id,name,group")


@pytest.mark.parametrize(
    ("args", "name"),
    [
        (
            ["deck", "math-wars-meta", "--edition", "MWM100", "--army", "3"],
            "math-wars-meta-mwm100-army3-deck.pdf",
        ),
        (["deck", "mecs"], "mecs-deck.pdf"),
        (["sheet", "mathe-meister"], "mathe-meister-sheet.pdf"),
        (["mats", "math-attack"], "math-attack-mats.pdf"),
        (["answer-key", "MWM25"], "answer-key-mwm25.pdf"),
    ],
)
def test_cli_outputs_print_default_names_are_checked_before_the_work(
    args: list[str],
    name: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The file written with no ``--out`` is checked as a named one, before the work (a
    folder of that name was found only when the PDF was made), and still written there."""
    monkeypatch.chdir(tmp_path)
    Path(name).mkdir()
    monkeypatch.setattr("tabletop.printables.pdf.new_pdf", pytest.fail)
    monkeypatch.setattr("tabletop.printables.pdf.save", pytest.fail)
    assert cli.main(["print", *args]) == 2
    assert said(capsys) == f"tabletop print: cannot write {name}: {A_FOLDER}\n"
    monkeypatch.undo()
    monkeypatch.chdir(tmp_path)
    Path(name).rmdir()
    assert cli.main(["print", *args]) == 0
    assert capsys.readouterr().out.startswith(f"wrote {name} (")
    assert Path(name).read_bytes().startswith(b"%PDF")


def test_cli_outputs_report_by_default_over_its_journal_is_refused(
    data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """With no file named, the report goes to ``report-<session>.csv`` and ``.pdf``, which
    were not checked: a link of that name to the journal had the journal replaced by the
    CSV (r40-keep 3). Now refused as a named one, before the report is made."""
    journal = data / FILE_NAME
    before = journal.read_bytes()
    monkeypatch.chdir(tmp_path)
    Path("report-all.csv").symlink_to(journal)
    monkeypatch.setattr("tabletop.classroom.report.read_report", pytest.fail)
    assert cli.main(["report", "--data", str(data), "--all"]) == 2
    assert said(capsys) == (
        "tabletop report: cannot write report-all.csv: it is the game journal: name another file\n"
    )
    assert journal.read_bytes() == before


def test_cli_outputs_a_write_that_fails_keeps_the_old_file(tmp_path: Path) -> None:
    """Main opened the file itself to write: a full stick left a broken PDF where the
    good one was. The new file is written beside it, and only a whole one takes its
    place; the half-written one is removed."""
    old = tmp_path / "deck.pdf"
    old.write_bytes(b"the good old deck")
    done = tabletop_writing_at_most(
        4096, ["print", "deck", "math-arena", "--out", "deck.pdf"], tmp_path
    )
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == "tabletop print: cannot write deck.pdf: File too large\n"
    assert old.read_bytes() == b"the good old deck"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deck.pdf"]


def test_cli_outputs_report_writes_both_files_or_neither(data: Path, tmp_path: Path) -> None:
    """Main wrote the CSV, said "wrote r.csv", then failed on the PDF (status 2): the
    teacher could not tell what was made. Now neither is, and the line says so."""
    args = ["report", "--data", str(data), "--all", "--csv", "r.csv", "--pdf", "r.pdf"]
    done = tabletop_writing_at_most(4096, args, tmp_path)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == "tabletop report: cannot write r.pdf: File too large (none written)\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data"]


def test_cli_outputs_a_link_or_a_pipe_is_written_through(tmp_path: Path) -> None:
    """A new file takes the old one's place: a link's target's (the link stays), with the
    old file's mode; a pipe (``report --csv /dev/stdout``) is written as it is."""
    target = tmp_path / "target.csv"
    target.write_text("old")
    target.chmod(0o640)
    link = tmp_path / "link.csv"
    link.symlink_to(target)
    outfiles.write_file(link, "new")
    assert link.is_symlink() and target.read_text() == "new"
    assert target.stat().st_mode & 0o777 == 0o640
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    outfiles.write_file(fifo, b"through")
    reader.join(10)
    assert got == [b"through"] and stat.S_ISFIFO(fifo.stat().st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fifo", "link.csv", "target.csv"]


def test_cli_outputs_terminal_demo_log_that_fails_is_one_line(tmp_path: Path) -> None:
    """The text demo wrote its log move by move into the file itself: a full stick was a
    traceback (OSError from its flush) and a broken log where the old one was. It now
    writes the whole log at the end, as the app's demo does, through the one writer."""
    old = tmp_path / "game.log"
    old.write_text("the old log\n")
    args = ["demo", "--terminal", "--seed", "1", "--log", "game.log"]
    done = tabletop_writing_at_most(1000, args, tmp_path)
    assert done.returncode == 2 and "final score" in done.stdout.lower()
    assert done.stderr == "tabletop demo: cannot write game.log: File too large\n"
    assert old.read_text() == "the old log\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.log"]
