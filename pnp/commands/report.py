"""`pnp check`, `list`, `layouts`, `diff` and `proof`: what the content holds and what is
wrong with it, printed or shown as a gallery; nothing is printed on paper."""

from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path

from .. import reads
from ..engine import answers
from ..errors import EXIT_ERRORS, EXIT_OK, UsageError
from ..compose.game import make_sheets
from ..findings import Findings, display_path, terminal_safe
from ..layout.layouts import builtin_layouts
from ..load.model import Game, load_game
from ..load.schema import suggest
from ..output import remove_stale_staging, staged_output
from ..pipeline import check_game
from ..project import PROJECT_LAYOUTS, Project, load_layouts
from . import check_with, failed, game_names, print_findings, tally

def cmd_check(args) -> int:
    project = Project(args.root)
    names, findings = game_names(project, args)
    started = time.perf_counter()
    findings.extend(check_with(project, names, args, remember=args.cache)[1])
    elapsed = time.perf_counter() - started
    if args.format == "json":
        report = {
            "version": 1,
            "games": names,
            "ok": not failed(findings, args.strict),
            "findings": [f.as_dict() for f in findings.sorted()],
        }
        sys.stdout.write(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    else:
        sys.stderr.write("".join(f"{finding.format()}\n" for finding in findings.sorted()) +
                         f"pnp check: {terminal_safe(', '.join(names)) or 'no game'}: "
                         f"{tally(findings)} ({answers.elapsed(elapsed)})\n")
    code = EXIT_ERRORS if failed(findings, args.strict) else EXIT_OK
    if args.cache:
        answers.keep(code)
    return code

def cmd_list(args) -> int:
    project = Project(args.root)
    names, findings = game_names(project, args)
    for name in names:
        game = read_game(project, name)
        print(f"{name}: {game.info.title if game else name}")
        sheets = list(make_sheets(game).values()) if game else []
        if not sheets:
            print("  (sheets unavailable until 'pnp check' is clean)")
        width = max([12, *(len(sheet.name) for sheet in sheets)])
        for sheet in sheets:
            print(f"  {sheet.name:<{width}} {sheet.describe()}")
    print_findings(findings)
    return EXIT_ERRORS if findings.errors else EXIT_OK

def read_game(project: Project, name: str) -> Game | None:
    """One game's model, read and validated as a check reads it (its reads confined to the
    project), or None when it cannot be read whole; nothing is drawn, no rule is run, and
    what is wrong is left to `pnp check` to say."""
    with reads.confined(project.root):
        game = load_game(project.content / name, project.shown, Findings(), partial=True)
    return game if game is not None and game.complete else None

def cmd_layouts(args) -> int:
    project = Project(args.root)
    own = project.root / PROJECT_LAYOUTS
    layouts, findings = load_layouts(project.root, display_path(own, Path.cwd()))
    builtin = builtin_layouts()
    for name, layout in layouts.items():
        origin = "" if builtin.get(name) == layout else " (project)"
        print(f"{name:<16} {layout.description}{origin}")
    print_findings(findings)
    return EXIT_ERRORS if findings.errors else EXIT_OK

def cmd_diff(args) -> int:
    from ..history.diff import compare, summary, write_visual_diff
    from ..history.record import NoBaseline, baseline, snapshot_of
    from ..export.proof import PROOF_DIR

    project = Project(args.root)
    names, findings = game_names(project, args)
    out_dir = args.out or project.root / "output"
    code = EXIT_OK
    for name in names:
        checked = check_game(project, name, args.paper)
        findings.extend(checked.findings)
        if checked.game is None:
            print(f"pnp diff: {name}: the content cannot be read; fix its errors first",
                  file=sys.stderr)
            code = EXIT_ERRORS
            continue
        try:
            old = baseline(project, name, out_dir, args.since, args.paper)
        except NoBaseline as exc:
            print(f"pnp diff: {exc}", file=sys.stderr)
            code = EXIT_ERRORS
            continue
        changes = compare(old, snapshot_of(checked))
        for change in changes:
            print(f"{name}: {change.describe()}" if len(names) > 1 else change.describe())
        remove_stale_staging(out_dir / name / PROOF_DIR)
        with staged_output() as staging:
            paths = write_visual_diff(checked, old, changes, out_dir, staging, args.paper)
        for path in paths:
            print(f"wrote {display_path(path, Path.cwd())}", file=sys.stderr)
        print(f"pnp diff: {name}: {summary(changes)} since {old.description}", file=sys.stderr)
    if findings.errors:  # a face that could not be drawn is not compared truly
        print_findings(findings)
        return EXIT_ERRORS
    return code

def cmd_proof(args) -> int:
    from ..export.proof import gallery_cards, proof_folder, write_proof

    project = Project(args.root)
    names, findings = game_names(project, args)
    checked_games, found = check_with(project, names, args)
    findings.extend(found)
    if args.card and not any(card.matches(args.card) for checked in checked_games
                             for card in gallery_cards(checked)):
        titles = [title for checked in checked_games for card in gallery_cards(checked)
                  for title in re.findall(r'"([^"]+)"', card.label)]
        raise UsageError(f"no card named '{args.card}'; " + (
            suggest(args.card, titles) or "cards are named by their title"))
    out_dir = args.out or project.root / "output"
    if not getattr(args, "findings_shown", False):  # `pnp watch --proof` printed them
        print_findings(findings)
    for checked in checked_games:
        remove_stale_staging(proof_folder(checked, out_dir))
    with staged_output() as staging:
        results = [write_proof(checked, checked.info.title if checked.info else checked.name,
                               out_dir, staging, card=args.card, png=args.png,
                               changed=args.changed, dpi=args.dpi,
                               simulate=getattr(args, "simulate", ""))
                   for checked in checked_games]
    for checked, result in zip(checked_games, results):
        for path in result.written:
            if path.suffix != ".ttf":
                print(f"wrote {display_path(path, Path.cwd())}")
    print(f"pnp proof: {', '.join(names)}: {sum(r.shown for r in results)} of "
          f"{sum(r.total for r in results)} cards shown; {tally(findings)}", file=sys.stderr)
    return EXIT_ERRORS if failed(findings, args.strict) else EXIT_OK
