"""The checkout's own text files hold no leftovers of an unfinished merge: a README with
``<<<<<<< HEAD`` in it tells a new user two contradicting things (one did, on main)."""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path

from tabletop import cli

ROOT = Path(__file__).resolve().parents[1]
MARKER = re.compile(r"^(<{7}|>{7}) |^={7}$", re.MULTILINE)
SKIP = {".venv", ".git", "build", "node_modules", "__pycache__"}
SUFFIXES = (".md", ".py", ".toml", ".txt", ".sh", ".cfg")


def text_files() -> list[Path]:
    """The project's text files, not walking into the venv, git's folder or builds."""
    found = []
    for folder, dirs, names in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in SKIP and not d.endswith(".egg-info")]
        found += [Path(folder, n) for n in names if n.endswith(SUFFIXES) or n == "Makefile"]
    return found


def test_repo_no_merge_conflict_markers_in_text_files() -> None:
    files = text_files()
    assert any(p.name == "README.md" for p in files)
    left = [
        str(p.relative_to(ROOT)) for p in files if MARKER.search(p.read_text("utf-8", "replace"))
    ]
    assert left == []


# -- the README's links and examples -------------------------------------------------------

README = ROOT / "README.md"
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)|<img [^>]*src=\"([^\"]+)\"")
FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)


def readme_links(text: str) -> list[str]:
    """Every link and image target in Markdown text, code blocks and spans left out."""
    prose = re.sub(r"`[^`\n]*`", "", FENCE.sub("", text))
    return [a or b for a, b in LINK.findall(prose)]


def heading_anchors(text: str) -> set[str]:
    """The anchors GitHub gives the headings: lower case, punctuation dropped, spaces to -."""
    headings = re.findall(r"^#+ (.+)$", FENCE.sub("", text), re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in headings}


def broken_links(text: str, folder: Path) -> list[str]:
    anchors = heading_anchors(text)
    broken = []
    for target in readme_links(text):
        if re.match(r"[a-z]+:", target):
            continue  # https:, mailto: ... are not the checkout's to keep
        path, _, anchor = target.partition("#")
        if not ((folder / path).exists() if path else anchor in anchors):
            broken.append(target)
    return broken


def test_repo_readme_links_and_pictures_exist() -> None:
    """Every picture and link in README.md names a file in the checkout or a heading of
    the README (the app's pictures are the UI tests' reference screenshots)."""
    text = README.read_text("utf-8")
    links = readme_links(text)
    assert any(link.startswith("tests/ui/reference/") for link in links)
    assert any(link.startswith("docs/printables/") for link in links)
    assert broken_links(text, ROOT) == []


def test_repo_readme_link_check_finds_a_broken_link(tmp_path: Path) -> None:
    (tmp_path / "there.png").write_bytes(b"")
    text = (
        "# Tabletop\n## The two commands\n"
        "![a](there.png) ![b](gone.png) [c](#the-two-commands) [d](#nowhere)\n"
        "[e](https://example.org/x.png) `![f](in-code.png)`\n```\n![g](in-block.png)\n```\n"
    )
    assert broken_links(text, tmp_path) == ["gone.png", "#nowhere"]


def test_repo_readme_check_example_is_accepted() -> None:
    """The README's ``tabletop check mathe-meister`` example is a sheet a game can make
    (MM-15): the command prints its score and exits 0, as the README says."""
    text = README.read_text("utf-8")
    example = re.search(r"echo '(\{.*?\})' \\\n\s*\| tabletop check mathe-meister -", text, re.S)
    assert example is not None
    done = subprocess.run(
        [sys.executable, "-m", "tabletop", "check", "mathe-meister", "-"],
        input=example.group(1),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, "")
    result = json.loads(done.stdout)
    assert {"rows", "columns", "total", "breakdown", "lines"} <= set(result)


# -- the README's command table and the CLI ------------------------------------------------


def subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """A parser's commands by name (empty for a command that has none)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def options(parser: argparse.ArgumentParser) -> list[str]:
    """The options a user may give (not --help, not those the help hides)."""
    return [
        max(action.option_strings, key=len)
        for action in parser._actions
        if action.option_strings and action.help != argparse.SUPPRESS
        if not isinstance(action, argparse._HelpAction)
    ]


def missing_options(text: str) -> list[str]:
    """Each option of a command in the README's command table (its row, or for ``print``,
    whose row says "below", anywhere in the README) that the README does not name."""
    rows = re.findall(r"^\| (`tabletop.*?`) \| (.*) \|$", text, re.MULTILINE)
    assert rows
    missing = []
    for usage, said in rows:
        words = usage.rsplit("`tabletop", 1)[1].strip("` ").split()
        parser, path = cli._parser(), ["tabletop"]
        while words and words[0] in subcommands(parser):  # not "deck\|sheet...": all of them
            name = words.pop(0)
            parser, path = subcommands(parser)[name], [*path, name]
        nested = list(subcommands(parser).items()) or [("", parser)]
        where = text if nested[0][0] else usage + said
        missing += [
            f"{' '.join(path)} {name} {option}".replace("  ", " ")
            for name, sub in nested
            for option in options(sub)
            if not re.search(rf"{re.escape(option)}(?![\w-])", where)
        ]
    return missing


def test_repo_readme_command_table_names_every_option() -> None:
    """Every option each command takes is in its row of the README's command table (r19-int
    left out `app --no-buttons`, `teacher --bind`, `fleet setup --port`, `bench --modes`...)."""
    assert missing_options(README.read_text("utf-8")) == []


def misbracketed_options(text: str) -> list[str]:
    """Each option in the usage of a row of the README's command table that is shown as
    required (outside ``[...]``) though the command does not need it, or the other way."""
    wrong = []
    for usage in re.findall(r"^\| `(tabletop[^`]*)` \|", text, re.MULTILINE):
        words = usage.split()[1:]
        parser = cli._parser()
        while words and words[0] in subcommands(parser):
            parser = subcommands(parser)[words.pop(0)]
        shown = {word.strip("[]") for word in usage.split()}
        bare = set(re.sub(r"\[[^\]]*\]", "", usage).split())
        wrong += [
            f"{usage.split(' -')[0]} {option}"
            for action in parser._actions
            for option in action.option_strings
            if option in shown and (option in bare) != action.required
        ]
    return wrong


def test_repo_readme_command_table_brackets_only_optional_options() -> None:
    """An option a command does not need is in ``[...]`` in its row, and one it needs is
    not (r23-int showed `fleet setup --host H` as needed; it defaults to localhost)."""
    assert misbracketed_options(README.read_text("utf-8")) == []
    row = "| `tabletop fleet setup --stations N --host H --out DIR` | x |\n"
    assert misbracketed_options(row) == ["tabletop fleet setup --host"]


def test_repo_readme_command_table_check_finds_an_option_left_out() -> None:
    row = "| `tabletop bench [--game G]` | figures; `--games` how many |\n"
    assert missing_options(row) == ["tabletop bench --modes"]
    assert missing_options(row.replace("]`", "] [--modes M]`")) == []
