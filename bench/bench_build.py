"""Benchmark: how long pnp takes, measured from outside, with peak memory.

    python bench/bench_build.py            # all figures, 5 runs each, medians
    python bench/bench_build.py --runs 5

Figures, each a whole process:
- `pnp check` on Downturn with nothing cached (no compiled templates kept from an earlier
  run), after one event's text is edited (as on every save), and again with nothing changed;
- `pnp build --sheets all` (Letter) on Downturn in one process with no cache (`-j 1
  --no-cache`) beside the default (worker processes, cache) from an empty output folder and
  with no sheets kept by a check; then again with nothing changed, and after one event's text
  is edited;
- `pnp build` of the plain benchmark deck in bench/poker (poker cards from CSV: a title, a suit
  colour, a value, three wrapped lines of body, a number, one shared back) at 54 and 540 cards;
- two yardsticks over the same 540 cards, with no checking, no text fitting, no page boxes and
  no margin furniture: a plain loop of Jinja SVG drawn by cairosvg onto one PDF surface, and the
  cards drawn straight onto a reportlab canvas.
Wall time is the median; peak memory is the largest resident set size of any of the
command's processes, its drawing processes included. The cases are measured round by round
(each once per round), so a drift in the machine's speed touches them alike.
"""

from __future__ import annotations

import argparse
import csv
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
POKER = Path(__file__).resolve().parent / "poker"
LARGE = 540
MM = 72 / 25.4  # points per millimetre
CARD_W, CARD_H = 63, 88
LETTER_W, LETTER_H = 215.9, 279.4

# A fresh wrapper per run: RUSAGE_CHILDREN only ever grows, so each command needs its own parent
# to report its own peak memory.
WRAPPER = """
import resource, subprocess, sys, time
started = time.perf_counter()
code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL).returncode
wall = time.perf_counter() - started
print(code, wall, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


def measure(command: list[str], before=None) -> tuple[float, float]:
    """Run a command in a fresh process (after `before()`, untimed); return (wall seconds,
    peak RSS in MiB of the largest process it ran, workers included)."""
    if before:
        before()
    completed = subprocess.run([sys.executable, "-c", WRAPPER, *command], cwd=ROOT,
                               capture_output=True, text=True)
    code, wall, peak_kib = completed.stdout.split()
    if int(code) != 0:
        sys.exit(f"benchmark command failed: {' '.join(command)}\n{completed.stderr}")
    return float(wall), int(peak_kib) / 1024


def poker_project(folder: Path, count: int) -> Path:
    """A copy of bench/poker whose deck holds `count` cards (its rows repeated, renumbered)."""
    shutil.copytree(POKER, folder)
    path = folder / "content" / "poker" / "cards.csv"
    with path.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        for n in range(count):
            writer.writerow({**rows[n % len(rows)], "number": n + 1})
    return folder


def cards(project: Path) -> list[dict[str, str]]:
    with (project / "content" / "poker" / "cards.csv").open(encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def slots(count: int):
    """(page, side, x_mm, y_mm, card index) of a 3 x 3 Letter grid, fronts then backs."""
    left, top = (LETTER_W - 3 * CARD_W) / 2, (LETTER_H - 3 * CARD_H) / 2
    for start in range(0, count, 9):
        for side in ("front", "back"):
            for slot in range(min(9, count - start)):
                column = slot % 3 if side == "front" else 2 - slot % 3
                yield side, left + CARD_W * column, top + CARD_H * (slot // 3), start + slot
            yield side, None, None, None  # end of page


PLAIN_FRONT = """<svg xmlns="http://www.w3.org/2000/svg" width="63mm" height="88mm" viewBox="0 0 63 88">
<rect x="0" y="0" width="63" height="88" fill="#ffffff"/>
<rect x="2.5" y="2.5" width="58" height="83" rx="2.5" fill="none" stroke="{{ c.colour }}" stroke-width="0.6"/>
<text x="6" y="11" font-family="Roboto Condensed" font-weight="bold" font-size="7" fill="{{ c.colour }}">{{ c.value }}</text>
<text x="57" y="80" text-anchor="end" font-family="Roboto Condensed" font-weight="bold" font-size="7" fill="{{ c.colour }}">{{ c.value }}</text>
<text x="31.5" y="11" text-anchor="middle" font-family="Noto Serif" font-weight="bold" font-size="3.9" fill="{{ c.colour }}">{{ c.title }}</text>
{% for line in lines %}<text x="7" y="{{ 33.5 + loop.index0 * 4.2 }}" font-family="Roboto Condensed" font-size="3.5">{{ line }}</text>
{% endfor %}<text x="31.5" y="82" text-anchor="middle" font-family="Roboto Condensed" font-size="2.4" fill="#555555">{{ c.number }}</text>
</svg>"""
PLAIN_BACK = """<svg xmlns="http://www.w3.org/2000/svg" width="63mm" height="88mm" viewBox="0 0 63 88">
<rect x="0" y="0" width="63" height="88" fill="#1f2a44"/>
<rect x="4" y="4" width="55" height="80" rx="3" fill="none" stroke="#ffffff" stroke-width="0.6"/>
<text x="31.5" y="46" text-anchor="middle" font-family="Noto Serif" font-weight="bold" font-size="3.2" fill="#ffffff">Benchmark Poker</text>
</svg>"""


def plain_loop(project: Path) -> None:
    """Child process, yardstick 1: each card's Jinja SVG drawn by cairosvg onto one surface."""
    import cairocffi as cairo
    import jinja2

    import pnp.pdf
    from pnp.fonts import use_bundled_fonts
    from pnp.pdf import draw_svg

    pnp.pdf.draw_text = lambda surface, node: False  # cairosvg's own text code, glyph by glyph
    use_bundled_fonts()
    deck = cards(project)
    front = jinja2.Environment(autoescape=True).from_string(PLAIN_FRONT)
    surface = cairo.PDFSurface(str(project / "plain.pdf"), LETTER_W * MM, LETTER_H * MM)
    context = cairo.Context(surface)
    for side, x, y, index in slots(len(deck)):
        if x is None:
            context.show_page()
            continue
        card = deck[index]
        svg = front.render(c=card, lines=textwrap.wrap(card["body"], 40)) if side == "front" \
            else PLAIN_BACK
        draw_svg(surface, svg, x, y)
    surface.finish()


def reportlab_direct(project: Path) -> None:
    """Child process, yardstick 2: the same cards drawn straight onto a reportlab canvas."""
    from reportlab.lib.colors import HexColor
    from reportlab.lib.utils import simpleSplit
    from reportlab.pdfbase.pdfmetrics import registerFont
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen.canvas import Canvas

    from pnp.fonts import font_dir

    for name, file in (("body", "RobotoCondensed-Regular.ttf"),
                       ("bold", "RobotoCondensed-Bold.ttf"), ("title", "NotoSerif-Bold.ttf")):
        registerFont(TTFont(name, str(font_dir() / file)))
    deck = cards(project)
    canvas = Canvas(str(project / "reportlab.pdf"), pagesize=(LETTER_W * MM, LETTER_H * MM))
    for side, x, y, index in slots(len(deck)):
        if x is None:
            canvas.showPage()
            continue
        canvas.saveState()
        canvas.translate(x * MM, (LETTER_H - y - CARD_H) * MM)
        canvas.scale(MM, MM)  # millimetres from here, y up
        if side == "back":
            canvas.setFillColor(HexColor("#1f2a44"))
            canvas.rect(0, 0, CARD_W, CARD_H, stroke=0, fill=1)
            canvas.setStrokeColor(HexColor("#ffffff"))
            canvas.setLineWidth(0.6)
            canvas.roundRect(4, 4, 55, 80, 3)
            canvas.setFillColor(HexColor("#ffffff"))
            canvas.setFont("title", 3.2)
            canvas.drawCentredString(31.5, 42, "Benchmark Poker")
        else:
            card = deck[index]
            colour = HexColor(card["colour"])
            canvas.setStrokeColor(colour)
            canvas.setLineWidth(0.6)
            canvas.roundRect(2.5, 2.5, 58, 83, 2.5)
            canvas.setFillColor(colour)
            canvas.setFont("bold", 7)
            canvas.drawString(6, CARD_H - 11, card["value"])
            canvas.drawRightString(57, CARD_H - 80, card["value"])
            canvas.setFont("title", 3.9)
            canvas.drawCentredString(31.5, CARD_H - 11, card["title"])
            canvas.setFillColor(HexColor("#000000"))
            canvas.setFont("body", 3.5)
            for n, line in enumerate(simpleSplit(card["body"], "body", 3.5, 49)):
                canvas.drawString(7, CARD_H - 33.5 - n * 4.2, line)
            canvas.setFont("body", 2.4)
            canvas.drawCentredString(31.5, CARD_H - 82, card["number"])
        canvas.restoreState()
    canvas.save()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--plain-child", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--reportlab-child", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.plain_child:
        plain_loop(args.plain_child)
        return
    if args.reportlab_child:
        reportlab_direct(args.reportlab_child)
        return
    pnp = [sys.executable, "-m", "pnp"]
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        small = poker_project(scratch / "poker-54", 54)
        large = poker_project(scratch / f"poker-{LARGE}", LARGE)
        downturn = scratch / "downturn"
        for folder in ("content", "templates"):
            shutil.copytree(ROOT / folder, downturn / folder)
        events = downturn / "content" / "downturn" / "events.yaml"
        edits = iter(range(10**6))

        os.environ["PNP_CACHE_DIR"] = str(scratch / "user-cache")  # pnp's cache in the user's home
        # An installed pnp runs from compiled bytecode (pip compiles it); so do the figures,
        # even where the shell asks Python not to write .pyc files.
        os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

        def forget_check():
            shutil.rmtree(scratch / "user-cache", ignore_errors=True)

        def cold(folder: Path):
            """An empty output folder, and no sheets kept by an earlier check."""
            def empty():
                shutil.rmtree(folder, ignore_errors=True)
                for kept in (scratch / "user-cache").glob("sheets-*"):
                    shutil.rmtree(kept, ignore_errors=True)
            return empty

        def settled(command: list[str]):
            """Run `command` once first, untimed: what follows finds nothing changed."""
            return lambda: subprocess.run(command, cwd=ROOT, capture_output=True, check=True)

        def edit_one_event():
            """One event's text changed, as a designer's save would."""
            text = events.read_text(encoding="utf-8")
            text = re.sub(r'effect: "Stability \+1\.( \(edit \d+\))?"',
                          f'effect: "Stability +1. (edit {next(edits)})"', text, count=1)
            events.write_text(text, encoding="utf-8")

        check = pnp + ["check", "--root", str(downturn), "--game", "downturn"]
        build = pnp + ["build", "--root", str(downturn), "--game", "downturn"]
        warm_out = downturn / "output"
        cases = {
            "pnp check (Downturn), nothing cached": (check, forget_check),
            "pnp check (Downturn), one event edited": (check, edit_one_event),
            "pnp check (Downturn), unchanged": (check, settled(check)),
            "build --sheets all, -j 1 --no-cache": (
                build + ["-j", "1", "--no-cache", "--out", str(scratch / "j1")],
                cold(scratch / "j1")),
            "build --sheets all, default, cold": (
                build + ["--out", str(scratch / "jn")], cold(scratch / "jn")),
            "build --sheets all, warm, unchanged": (build + ["--out", str(warm_out)],
                                                    settled(build + ["--out", str(warm_out)])),
            "build --sheets all, one event edited": (
                build + ["--out", str(warm_out)], edit_one_event),
            "poker deck, 54 cards": (pnp + ["build", "--root", str(small)],
                                     cold(small / "output")),
            f"poker deck, {LARGE}, -j 1 --no-cache": (
                pnp + ["build", "--root", str(large), "-j", "1", "--no-cache"],
                cold(large / "output")),
            f"poker deck, {LARGE} cards": (pnp + ["build", "--root", str(large)],
                                           cold(large / "output")),
            f"  plain Jinja -> cairosvg loop, {LARGE}": (
                [sys.executable, __file__, "--plain-child", str(large)], None),
            f"  reportlab straight, {LARGE}": (
                [sys.executable, __file__, "--reportlab-child", str(large)], None),
        }
        subprocess.run(build + ["--out", str(warm_out)], cwd=ROOT, capture_output=True,
                       check=True)  # the warm cases start from a finished build
        print(f"pnp benchmark: {args.runs} runs each, median wall time; "
              f"{os.cpu_count()} CPUs; Python {sys.version.split()[0]}")
        # Round by round, every case once a round: a machine whose speed drifts slows the
        # cases compared with each other alike.
        walls = {name: [] for name in cases}
        peaks = {name: [] for name in cases}
        for _ in range(args.runs):
            for name, (command, before) in cases.items():
                wall, peak = measure(command, before)
                walls[name].append(wall)
                peaks[name].append(peak)
        medians = {}
        for name in cases:
            medians[name] = statistics.median(walls[name])
            print(f"{name:<40} {medians[name]:6.2f} s   peak RSS {max(peaks[name]):6.0f} MiB")
        edit_one_event()
        rewritten = subprocess.run(build + ["--out", str(warm_out)], cwd=ROOT,
                                   capture_output=True, text=True, check=True).stdout.split()
        print("one event edited rewrites:",
              ", ".join(Path(w).name for w in rewritten if w.endswith(".pdf")) or "nothing")
        ours = medians[f"poker deck, {LARGE} cards"]
        print(f"pnp on {LARGE} cards: {ours / medians[f'  plain Jinja -> cairosvg loop, {LARGE}']:.2f}"
              f" x the plain cairosvg loop, {ours / medians[f'  reportlab straight, {LARGE}']:.2f}"
              " x reportlab straight")
        print("build --sheets all, default cold / -j 1 --no-cache: "
              f"{medians['build --sheets all, default, cold'] / medians['build --sheets all, -j 1 --no-cache']:.2f} x")
        print(f"poker {LARGE}, default / -j 1 --no-cache: "
              f"{ours / medians[f'poker deck, {LARGE}, -j 1 --no-cache']:.2f} x")


if __name__ == "__main__":
    main()
