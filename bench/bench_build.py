"""Benchmark: how long pnp takes, measured from outside, with peak memory.

    python bench/bench_build.py            # all figures, 3 runs each, medians
    python bench/bench_build.py --runs 5

Figures:
- `pnp check` on the shipped games (what a designer waits for on every save);
- `pnp build --sheets all` (Letter), the whole command as a user runs it;
- a synthetic 540-card deck (the 42 Downturn events repeated under new numbers) through the same
  render -> layout -> PDF stages, in a child process so its memory is its own;
- the yardstick: the same cards' Jinja SVG drawn by cairosvg onto one PDF surface in a plain
  loop, with no checking, page boxes or margin furniture. pnp should not be slower than this.
Wall time is the median; peak memory is the child's maximum resident set size.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SYNTHETIC_CARDS = 540


# A fresh wrapper per run: RUSAGE_CHILDREN only ever grows, so each command needs its own parent
# to report its own peak memory.
WRAPPER = """
import resource, subprocess, sys, time
started = time.perf_counter()
code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL).returncode
wall = time.perf_counter() - started
print(code, wall, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


def measure(command: list[str]) -> tuple[float, float]:
    """Run a command in a fresh process; return (wall seconds, peak RSS in MiB)."""
    completed = subprocess.run([sys.executable, "-c", WRAPPER, *command], cwd=ROOT,
                               capture_output=True, text=True)
    code, wall, peak_kib = completed.stdout.split()
    if int(code) != 0:
        sys.exit(f"benchmark command failed: {' '.join(command)}\n{completed.stderr}")
    return float(wall), int(peak_kib) / 1024


def synthetic_deck(out_dir: Path) -> None:
    """Child process: 540 event cards through render, imposition and PDF writing."""
    from dataclasses import replace

    from pnp.games import Deck
    from pnp.output import staged_output
    from pnp.pipeline import Project, build_game, check_game

    checked = check_game(Project(ROOT), "downturn")
    events = checked.model.events
    cards = tuple(replace(events[i % len(events)], number=i + 1,
                          title=f"{events[i % len(events)].title} {i + 1}")
                  for i in range(SYNTHETIC_CARDS))
    deck = Deck("synthetic", "Synthetic cards", cards, checked.decks[0].size,
                "event-front.svg.j2", "event-back.svg.j2")
    started = time.perf_counter()
    renderer = checked.renderer
    checked.faces[deck.name] = ([renderer.render(deck.front, c, deck=deck) for c in cards],
                                [renderer.render(deck.back, c, deck=deck) for c in cards])
    rendered = time.perf_counter()
    with staged_output() as staging:
        build_game(checked, [deck], "letter", out_dir, staging)
    done = time.perf_counter()
    print(f"  templates+fit {rendered - started:.2f} s, layout+PDF {done - rendered:.2f} s",
          file=sys.stderr)


def plain_loop(out_dir: Path) -> None:
    """Child process, the yardstick: the same 540 cards' Jinja SVG drawn by cairosvg onto one
    PDF surface in a plain loop: no checking, no imposition data, no page boxes."""
    import cairocffi as cairo

    from pnp.fonts import use_bundled_fonts
    from pnp.pdf import draw_svg
    from pnp.pipeline import Project, check_game

    use_bundled_fonts()
    checked = check_game(Project(ROOT), "downturn")
    events = checked.model.events
    deck = checked.decks[0]
    surface = cairo.PDFSurface(str(out_dir / "plain.pdf"), 612, 792)
    context = cairo.Context(surface)
    for start in range(0, SYNTHETIC_CARDS, 9):
        for side in (deck.front, deck.back):
            for slot in range(min(9, SYNTHETIC_CARDS - start)):
                card = events[(start + slot) % len(events)]
                svg = checked.renderer.render(side, card, deck=deck).svg
                draw_svg(surface, svg, 13.45 + 63 * (slot % 3), 7.7 + 88 * (slot // 3))
            context.show_page()
    surface.finish()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--synthetic-child", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--plain-child", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.synthetic_child:
        synthetic_deck(args.synthetic_child)
        return
    if args.plain_child:
        plain_loop(args.plain_child)
        return
    pnp = [sys.executable, "-m", "pnp"]
    with tempfile.TemporaryDirectory() as scratch:
        cases = {
            "pnp check (all games)": pnp + ["check"],
            "pnp build --sheets all (letter)": pnp + ["build", "--sheets", "all",
                                                      "--out", scratch],
            f"synthetic {SYNTHETIC_CARDS}-card deck": [
                sys.executable, __file__, "--synthetic-child", scratch],
            f"  yardstick: plain cairosvg loop, {SYNTHETIC_CARDS} cards": [
                sys.executable, __file__, "--plain-child", scratch],
        }
        print(f"pnp benchmark: {args.runs} runs each, median wall time; "
              f"{os.cpu_count()} CPUs; Python {sys.version.split()[0]}")
        for name, command in cases.items():
            walls, peaks = zip(*(measure(command) for _ in range(args.runs)))
            print(f"{name:<36} {statistics.median(walls):6.2f} s   "
                  f"peak RSS {max(peaks):6.0f} MiB")


if __name__ == "__main__":
    main()
