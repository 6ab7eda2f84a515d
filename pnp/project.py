"""A project folder in; its games, its sheet layouts and its printer profiles, read and
checked once, out.

A project is a folder: `content/<game>/game.yaml` for each game and `templates/`, and, when it
has them, `layouts.yaml` (sheet layouts beside the built-in ones, overriding them by name) and
`printers/NAME.yaml` (printer profiles, written by `pnp calibrate --save NAME`). Everything a
build reads of the project's configuration is read here and handed to the stages as values:
pnp.layout works out pages from the layouts and profiles it is given and reads nothing.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, replace
from pathlib import Path

from . import reads
from .errors import UsageError
from .findings import Findings, Location, display_path
from .layout.layouts import PrintOptions, SheetLayout, builtin_layouts, read_layouts
from .layout.printers import PrinterProfile, profile_problem
from .load.content import load_document
from .load.model import GAME_FILE
from .load.schema import INVALID, suggest, validate

PROJECT_LAYOUTS = "layouts.yaml"
PRINTERS_DIR = "printers"
PROFILE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,60}")  # a file name in printers/


@dataclass
class Project:
    """The folders a project is made of; by default the current directory."""

    root: Path

    @property
    def content(self) -> Path:
        return self.root / "content"

    @property
    def templates(self) -> Path:
        return self.root / "templates"

    def games(self) -> list[str]:
        return [name for name in reads.listing(self.content)
                if reads.kind(self.content / name / GAME_FILE) == reads.FILE]

    def shown(self, path: Path) -> str:
        """How a path is printed in findings: relative to where the user runs pnp."""
        return display_path(path, Path.cwd())


def load_layouts(root: Path | None = None, shown: str = PROJECT_LAYOUTS
                 ) -> tuple[dict[str, SheetLayout], Findings]:
    """The built-in layouts, plus (overriding by name) those in the project's layouts.yaml."""
    layouts = dict(builtin_layouts())
    findings = Findings()
    if root is not None and reads.kind(root / PROJECT_LAYOUTS) == reads.FILE:
        with reads.confined(root):
            layouts.update(read_layouts(root / PROJECT_LAYOUTS, shown, findings))
    return layouts, findings


def profiles(root: Path) -> list[str]:
    folder = root / PRINTERS_DIR
    return [name[:-len(".yaml")] for name in reads.listing(folder) if name.endswith(".yaml")]


def load_profile(root: Path, name: str, shown: str | None = None
                 ) -> tuple[PrinterProfile | None, Findings]:
    """The profile `printers/NAME.yaml`, or None with a finding saying what is wrong."""
    findings = Findings()
    if not PROFILE_NAME.fullmatch(name):
        findings.error("printer-unknown", Location(PRINTERS_DIR), f"{name!r} is not a "
                       "profile name", hint="a profile is printers/NAME.yaml, NAME made of "
                       "letters, digits, '-', '_' and '.'")
        return None, findings
    path = root / PRINTERS_DIR / f"{name}.yaml"
    shown = shown or f"{PRINTERS_DIR}/{name}.yaml"
    if reads.kind(path) != reads.FILE:
        known = profiles(root)
        findings.error("printer-unknown", Location(shown),
                       f"no printer profile '{name}'",
                       hint=suggest(name, known) or (
                           f"profiles: {', '.join(known)}" if known else
                           "make one with 'pnp calibrate', then 'pnp calibrate --save NAME'"))
        return None, findings
    with reads.confined(root):
        profile = validate(load_document(path, shown, findings), PrinterProfile, "",
                           findings)
    if profile is INVALID or findings.errors:
        return None, findings
    return replace(profile, name=name), findings


class ProfileRefused(ValueError):
    """A profile `save_profile` will not write: `pnp build --printer` would refuse it."""


def save_profile(root: Path, name: str, profile: PrinterProfile) -> Path:
    """Write printers/NAME.yaml, and read it back as `pnp build --printer NAME` will: a
    profile it would refuse, or read differently, is not written (ProfileRefused)."""
    problem = profile_problem(profile)
    if problem or not PROFILE_NAME.fullmatch(name):
        raise ProfileRefused(problem or f"{name!r} is not a profile name")
    folder = root / PRINTERS_DIR
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.yaml"
    # Fixed-point numbers (YAML reads '1e-05' as text) and a JSON string, which is a valid
    # YAML double-quoted scalar whatever the description holds.
    text = (f"# Printer profile, from a reading of the pnp calibration sheet.\n"
            f"# Used by: pnp build --printer {name}\n"
            f"description: {json.dumps(profile.description, ensure_ascii=False)}\n"
            f"offset_x_mm: {profile.offset_x_mm:.3f}\n"
            f"offset_y_mm: {profile.offset_y_mm:.3f}\n"
            f"scale: {profile.scale:.6f}\n"
            + (f"printable_margin_mm: {profile.printable_margin_mm:.3f}\n"
               if profile.printable_margin_mm is not None else ""))
    tmp = folder / f".{name}.yaml.tmp"
    tmp.write_text(text, encoding="utf-8")
    try:
        findings = Findings()
        with reads.confined(root):
            read = validate(load_document(tmp, name, findings), PrinterProfile, "", findings)
        if read is INVALID or findings.errors:
            raise ProfileRefused(findings.errors[0].message if findings.errors else
                                 "it does not read back")
        if read.description != profile.description:
            raise ProfileRefused("its description does not read back as written")
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    return path


def print_options(project: Project, layout: str = "home", printer_name: str | None = None,
                  ink_saver: bool = False) -> tuple[PrintOptions, Findings]:
    """The layout (built-in or the project's), the printer profile and the ink-saver switch
    asked for, and findings for a project layouts file or printer profile with problems."""
    own = project.root / PROJECT_LAYOUTS
    has_own = reads.kind(own) == reads.FILE
    layouts, findings = load_layouts(project.root, project.shown(own)
                                     if has_own else PROJECT_LAYOUTS)
    if findings.errors:
        return PrintOptions(), findings
    if layout not in layouts:
        raise UsageError(f"no layout named '{layout}'; " + (
            suggest(layout, layouts) or f"layouts: {', '.join(layouts)}"))
    printer = None
    if printer_name:
        printer, problems = load_profile(project.root, printer_name, project.shown(
            project.root / PRINTERS_DIR / f"{printer_name}.yaml"))
        findings.extend(problems)
    own_layouts = layouts if has_own else None  # None: the built-in ones, looked up late
    return PrintOptions(layout, own_layouts, printer, ink_saver), findings
