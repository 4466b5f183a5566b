"""The CLI contract's parser, for ``tabletop`` and every ``python -m ...`` tool below it
(they sit under ``tabletop.cli`` in the layers, so it lives here)."""

from __future__ import annotations

import argparse
from collections.abc import Iterable
from typing import Any, NoReturn

# Where a command's parser leaves its name for the parsers above it, with arguments it
# does not know (argparse hands them up and the top parser refuses them).
EXTRAS_OF = "_extras_of"


class OneLineParser(argparse.ArgumentParser):
    """A parser (and, through ``add_subparsers``, each command's) whose errors keep the
    CLI contract: one line on stderr, what is wrong and where the options are listed,
    exit status 2 (argparse's own puts its usage lines above). An argument no parser
    knows is told by the command it was given to: ``tabletop demo: unrecognized
    arguments: --nope; see tabletop demo --help``."""

    def parse_known_args(
        self, args: Iterable[str] | None = None, namespace: Any = None
    ) -> tuple[Any, list[str]]:
        self.told_by = self.prog
        namespace, extras = super().parse_known_args(args, namespace)
        if extras:  # the innermost command's parser returns first
            self.told_by = vars(namespace).setdefault(EXTRAS_OF, self.prog)
        return namespace, extras

    def error(self, message: str) -> NoReturn:
        said = " ".join(message.split("\n"))
        prog = getattr(self, "told_by", self.prog)
        self.exit(2, f"{prog}: {said}; see {prog} --help\n")
