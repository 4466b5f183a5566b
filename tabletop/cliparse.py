"""The CLI contract's parser, for ``tabletop`` and every ``python -m ...`` tool below it
(they sit under ``tabletop.cli`` in the layers, so it lives here)."""

from __future__ import annotations

import argparse
from typing import NoReturn


class OneLineParser(argparse.ArgumentParser):
    """A parser (and, through ``add_subparsers``, each command's) whose errors keep the
    CLI contract: one line on stderr, what is wrong and where the options are listed,
    exit status 2 (argparse's own puts its usage lines above)."""

    def error(self, message: str) -> NoReturn:
        said = " ".join(message.split("\n"))
        self.exit(2, f"{self.prog}: {said}; see {self.prog} --help\n")
