"""Checking for an editor: a file's path and the open buffers in; the game it belongs to,
and that game's findings by file, from the very check `pnp check --json` reports, out.

The buffers are laid over the disk through pnp's one reading function (pnp.reads.overlaid),
so an unsaved edit is checked as if saved, and what the check keeps between runs (the sheets
a check drew, pnp.engine.memo) is keyed on the text it read, as ever.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field
from pathlib import Path

from .. import reads
from ..commands import check_with
from ..findings import Finding
from ..pipeline import CheckedGame
from ..project import Project

COMMON = "common"  # templates/common/ serves every game


@dataclass(frozen=True)
class Place:
    """Where an open file sits: its project's root and the games it concerns."""

    root: Path
    games: tuple[str, ...]


@dataclass
class Checked:
    """One game's check: its findings by absolute file path, and what was drawn."""

    game: CheckedGame | None
    by_file: dict[Path, list[Finding]] = field(default_factory=dict)


def place_of(path: Path) -> Place | None:
    """The project and games of a file under content/<game>/ or templates/<game>/ (every
    game for templates/common/, layouts.yaml and printers/); None outside a project."""
    path = path.resolve()
    for folder in path.parents:
        if (folder / "content").is_dir() and folder != path:
            project = Project(folder)
            inside = path.relative_to(folder).parts
            games = tuple(project.games())
            if len(inside) > 2 and inside[0] in ("content", "templates") and \
                    inside[1] in games:
                return Place(folder, (inside[1],))
            if inside[:2] == ("templates", COMMON) or inside[0] in ("layouts.yaml", "printers"):
                return Place(folder, games)
    return None


def check_game(root: Path, game: str, buffers: dict[Path, str]) -> Checked:
    """`game` checked as `pnp check --game GAME --format json` checks it, with `buffers`
    (absolute path -> text) read in place of the files on disk."""
    project = Project(root)
    overlay = {str(path): text.encode("utf-8") for path, text in buffers.items()}
    with reads.overlaid(overlay):
        games, findings = check_with(project, [game], argparse.Namespace(jobs=1))
    checked = Checked(games[0] if games else None)
    for finding in findings.sorted():
        checked.by_file.setdefault(absolute(finding.where.path), []).append(finding)
    return checked


def absolute(shown: str) -> Path:
    """A finding's file (shown relative to the current folder) as an absolute path."""
    path = Path(shown)
    return (path if path.is_absolute() else Path.cwd() / path).resolve()
