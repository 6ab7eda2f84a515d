"""Scaffold: a game name in; a small, working game (content and templates) on disk out.

`pnp new NAME` writes one deck from CSV with a quantity column, a shared back, a rules.yaml and
the two templates, which `pnp check` and `pnp build` accept as they are. The files are the ones
in `pnp/data/scaffold/`, with the game's name and title filled in.
"""

from __future__ import annotations

import re
import string
import time
from importlib import resources
from pathlib import Path

GAME_NAME = re.compile(r"[a-z][a-z0-9_-]{0,39}")
CONTENT_FILES = ("game.yaml", "cards.csv", "rules.yaml")
TEMPLATE_FILES = ("card-front.svg.j2", "card-back.svg.j2")


class ScaffoldError(Exception):
    """Why the game cannot be created; the CLI prints it as one line."""


def new_game(root: Path, name: str) -> list[Path]:
    """Write the new game `name` under `root`; the paths written, content first."""
    if not GAME_NAME.fullmatch(name):
        raise ScaffoldError(f"'{name}' cannot name a game: use lower-case letters, digits, - "
                            "and _, starting with a letter (e.g. my-game)")
    content, templates = root / "content" / name, root / "templates" / name
    for folder in (content, templates):
        if folder.exists() or folder.is_symlink():  # a link to nothing is in the way too
            raise ScaffoldError(f"{folder} already exists; pick another name or remove it")
    title = " ".join(part.capitalize() for part in re.split(r"[-_]+", name))
    values = {"name": name, "title": title, "year": time.gmtime().tm_year}
    written = []
    source = resources.files("pnp").joinpath("data", "scaffold")
    for folder, files in ((content, CONTENT_FILES), (templates, TEMPLATE_FILES)):
        folder.mkdir(parents=True)
        for file_name in files:
            text = source.joinpath(file_name).read_text(encoding="utf-8")
            if file_name.endswith(".yaml"):
                text = string.Template(text).substitute(values)
            (folder / file_name).write_text(text, encoding="utf-8")
            written.append(folder / file_name)
    return written
