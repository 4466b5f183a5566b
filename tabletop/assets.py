"""Loading the data files in ``assets/`` (the engines themselves do no I/O)."""

from __future__ import annotations

import os
import tomllib
from functools import cache
from pathlib import Path
from typing import Any

from tabletop.engine.errors import BadInput
from tabletop.games.mathe_meister import Layout


def assets_dir() -> Path:
    """``$TABLETOP_ASSETS``, or the ``assets/`` folder beside the package."""
    override = os.environ.get("TABLETOP_ASSETS")
    return Path(override) if override else Path(__file__).resolve().parent.parent / "assets"


def load_toml(relative: str) -> dict[str, Any]:
    path = assets_dir() / relative
    try:
        with path.open("rb") as f:
            return tomllib.load(f)
    except FileNotFoundError:
        raise BadInput("assets.missing", f"asset file {path} is missing") from None
    except tomllib.TOMLDecodeError as exc:
        raise BadInput("assets.toml", f"asset file {path} is not valid TOML: {exc}") from None


@cache
def mathe_meister_layout(relative: str = "mathe_meister/sheet.toml") -> Layout:
    """The tracking sheet's layout (MM-1, MM-2, MM-5, MM-6) from its TOML file."""
    return Layout.from_mapping(load_toml(relative))
