"""`pnp new`, `calibrate` and `cache`: a game to start from, the printer's calibration sheet
and profile, and where pnp keeps what saves time between runs."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from ..errors import EXIT_OK, UsageError
from ..findings import display_path
from ..layout.plans import DocumentInfo
from ..layout.printers import (CALIBRATION_REACH_MM, PrinterProfile, calibration_plans,
                               scale_from_readings)
from ..output import staged_output
from ..project import Project, ProfileRefused, save_profile
from ..units import PAPERS

def cmd_new(args) -> int:
    from ..scaffold import ScaffoldError, new_game

    try:
        written = new_game(args.root, args.name)
    except ScaffoldError as exc:
        raise UsageError(str(exc)) from None
    for path in written:
        print(f"wrote {display_path(path, Path.cwd())}")
    game, templates = written[0].parent, written[-1].parent
    shown = lambda path: display_path(path, Path.cwd())  # noqa: E731
    print(f"""
Next:
  1. Put your cards in {shown(game / 'cards.csv')} (one row each; 'copies' repeats a row).
  2. Name your game, its designer and licence in {shown(game / 'game.yaml')}.
  3. Draw your cards in {shown(templates)}/ (SVG in millimetres).
  4. Run 'pnp check --game {args.name}' after each edit, then 'pnp build --game {args.name}'.
See docs/your-own-game.md for a walk-through.""")
    return EXIT_OK

def cmd_calibrate(args) -> int:
    from ..pdf.draw import render_pdf

    project = Project(args.root)
    if args.save:
        if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,60}", args.save):
            raise UsageError(f"--save {args.save!r}: a profile name is letters, digits, "
                             "'-', '_' and '.'")
        if (args.left_x is None) != (args.right_x is None):
            raise UsageError("give both --left-x and --right-x, or neither")
        for name, value in (("--x", args.x), ("--y", args.y), ("--left-x", args.left_x),
                            ("--right-x", args.right_x)):
            if value is not None and not abs(value) <= CALIBRATION_REACH_MM:  # NaN too
                raise UsageError(f"{name} {value:g}: the scales read up to "
                                 f"{CALIBRATION_REACH_MM} mm either way")
        scale = 1.0 if args.left_x is None else scale_from_readings(
            args.left_x, args.right_x, PAPERS[args.paper])
        try:
            path = save_profile(project.root, args.save, PrinterProfile(
                args.description, args.x, args.y, scale))
        except ProfileRefused as exc:
            raise UsageError(f"profile not saved: {exc}; read the calibration sheet's "
                             "scales again") from None
        print(f"wrote {display_path(path, Path.cwd())}")
        print(f"pnp calibrate: use it with: pnp build --printer {args.save}", file=sys.stderr)
        return EXIT_OK
    out_dir = args.out or project.root / "output"
    destination = out_dir / f"calibration-{args.paper}.pdf"
    document = DocumentInfo(title="pnp printer calibration", author="pnp",
                            subject="Two-sided sheet to measure how far a printer shifts the "
                                    "back of a page", duplex=args.duplex)
    with staged_output() as staging:
        staging.write(destination, render_pdf(calibration_plans(args.paper, args.duplex),
                                              document))
    print(f"wrote {display_path(destination, Path.cwd())}")
    return EXIT_OK

def cmd_cache(args) -> int:
    from ..engine import store

    home = store.cache_home()
    if args.action == "clear":
        freed = store.clear(home)
        print(f"pnp cache: removed {home} ({_mib(freed)})", file=sys.stderr)
        return EXIT_OK
    print(home)
    kinds = store.usage(home)
    for used in kinds:
        print(f"  {used.kind:<14} {_mib(used.bytes):>10} {used.files:>6} files")
    total = sum(used.bytes for used in kinds)
    print(f"pnp cache: {_mib(total)} in {sum(used.files for used in kinds)} files, capped "
          f"at {_mib(store.STORE_MAX_BYTES)}; 'pnp cache clear' removes it",
          file=sys.stderr)
    return EXIT_OK

def _mib(size: int) -> str:
    return f"{size / (1024 * 1024):.1f} MiB"
