"""The data files in ``tabletop/assets/`` (the engines themselves do no I/O): fonts, the
Mathe-Meister sheet, the M.E.C.S. cards and the demo's sample photos. They are package
data, so a wheel carries them; this package finds them with :mod:`importlib.resources`."""

from __future__ import annotations

import importlib.resources
import os
import tomllib
from functools import cache
from pathlib import Path
from typing import Any

from tabletop.engine.errors import BadInput
from tabletop.games.mathe_meister import Layout


def assets_dir() -> Path:
    """``$TABLETOP_ASSETS``, or this package's own folder (its data files)."""
    override = os.environ.get("TABLETOP_ASSETS")
    return Path(override) if override else package_folder(__name__)


def package_folder(package: str) -> Path:
    """The folder of an installed ``package`` (``tabletop.assets``, ``vision``), found with
    :mod:`importlib.resources`: a wheel, an editable install or a checkout alike. Its files
    are read by path (OpenCV, pygame and fpdf2 open files by name), so a package kept in a
    zip file is refused with a sentence."""
    folder = importlib.resources.files(package)
    if not isinstance(folder, Path):
        raise BadInput(
            "assets.zip",
            f"the package {package} is not installed as files ({folder}): install it with pip",
        )
    return folder


def load_toml(relative: str) -> dict[str, Any]:
    return read_toml(assets_dir() / relative)


def read_toml(path: Path) -> dict[str, Any]:
    """A TOML data file; a missing or broken one is a :class:`BadInput` naming the file."""
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
