"""Benchmark: how long pnp takes, measured from outside, with CPU time and peak memory.

    python bench/bench_build.py                      # every section, 5 rounds (export 3)
    python bench/bench_build.py --runs 1 --sections build,watch
    python bench/bench_build.py --baseline ../pnp-old --bound 1.5

Sections (`--sections`, all unless told), each a set of cases, each case a whole process:
- build: `pnp check` on Downturn with nothing cached (no compiled templates kept from an
  earlier run), after one event's text is edited (as on every save), and again with nothing
  changed; `pnp build --sheets all` (Letter) on Downturn in one process with no cache (`-j 1
  --no-cache`) beside the default (worker processes, cache) from an empty output folder and
  with no sheets kept by a check; then again with nothing changed, and after one event's text
  is edited; `pnp build` of the plain benchmark deck in bench/poker (poker cards from CSV: a
  title, a suit colour, a value, three wrapped lines of body, a number, one shared back) at 54
  and 540 cards; two yardsticks over the same 540 cards, with no checking, no text fitting, no
  page boxes and no margin furniture: a plain loop of Jinja SVG drawn by cairosvg onto one PDF
  surface, and the cards drawn straight onto a reportlab canvas;
- watch: a running `pnp watch --game downturn` (bench/bench_watch.py): after its first build,
  one event's text saved once a round; the time from the save until the watcher notices it,
  until events-letter.pdf is replaced, and until the round's summary and last line;
- big: `pnp check --game big` on a generated game of 30,000 varied cards (bench/bigdeck.py,
  `--big-cards` to change the count) with nothing in pnp's user cache, and after one row of a
  CSV is edited; their ratio, and the CPU time of all the check's processes against its wall
  time (how much of the machine's cores it used);
- export: `pnp export --to shop` (The Game Crafter's PNGs, 300 dpi) and `--to tts` of
  Downturn's decks (EXPORT_SHEETS) beside `pnp build --no-cache` of the same sheets, each from
  an empty output folder; each export's time as a multiple of the build's, against the goal
  (EXPORT_GOAL).

Wall time is the median; CPU time (user + system of the command and every process it waited
for) the median; peak memory the largest resident set size of any of the command's processes,
its drawing processes included. The cases are measured round by round (each once per round),
so a drift in the machine's speed touches them alike.

`--baseline PATH` names a second checkout of pnp (say a `git worktree add` of an older
commit): every case runs for both, on the same inputs, one after the other within each
round, each checkout run as `PYTHON -m pnp` with PYTHONPATH set to its own folder (and its
plugins/downturn), from its own folder, with a user cache and scratch copies of its own; the
table puts them side by side with the ratio new/old, and `--bound X` lists every figure whose
ratio is above X (and exits 1 if there is one).
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
from dataclasses import dataclass, field
from pathlib import Path

import bench_watch
import bigdeck

ROOT = Path(__file__).resolve().parent.parent
POKER = Path(__file__).resolve().parent / "poker"
LARGE = 540
MM = 72 / 25.4  # points per millimetre
CARD_W, CARD_H = 63, 88
LETTER_W, LETTER_H = 215.9, 279.4
SECTIONS = ("build", "watch", "big", "export")
# The Downturn decks every shop export can make (its markers fit no product of The Game
# Crafter): an export of them is measured beside a build of the same sheets.
EXPORT_SHEETS = "events,banks,shares,cubes,aids"
EXPORT_GOAL = 2.0  # an export costs at most this many times the build of the same sheets
EXPORT_RUNS = 3  # the export section's rounds unless --runs says otherwise: under a minute

# A fresh wrapper per run: RUSAGE_CHILDREN only ever grows, so each command needs its own parent
# to report its own peak memory and CPU time. RUSAGE_CHILDREN counts only the processes waited
# for: on Linux the wrapper adopts any the command leaves behind (a subreaper) and waits for
# them too, up to 10 s, after the wall time is taken.
WRAPPER = """
import ctypes, os, resource, subprocess, sys, time
try:
    ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
except (AttributeError, OSError):
    pass
started = time.perf_counter()
code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL).returncode
wall = time.perf_counter() - started
give_up = time.perf_counter() + 10
while time.perf_counter() < give_up:
    try:
        if os.waitpid(-1, os.WNOHANG) == (0, 0):
            time.sleep(0.01)
    except ChildProcessError:
        break
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(code, wall, usage.ru_maxrss, usage.ru_utime + usage.ru_stime)
"""


@dataclass
class Checkout:
    """A checkout of pnp, run as `python -m pnp` from its own folder."""
    label: str
    root: Path
    python: str = sys.executable
    project: Path | None = None  # whose content and templates it runs on: its own if None

    @property
    def kits(self) -> Path:
        return self.project or self.root

    @property
    def pnp(self) -> list[str]:
        return [self.python, "-m", "pnp"]

    def env(self, cache: Path) -> dict[str, str]:
        """The environment its commands run in: its own pnp and plug-in first on the path,
        `cache` as pnp's user cache."""
        env = dict(os.environ)
        # An installed pnp runs from compiled bytecode (pip compiles it); so do the figures,
        # even where the shell asks Python not to write .pyc files.
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        paths = [self.root] + [p for p in [self.root / "plugins" / "downturn"] if p.is_dir()]
        env["PYTHONPATH"] = os.pathsep.join(str(p) for p in paths)
        env["PNP_CACHE_DIR"] = str(cache)
        return env

    def check(self, cache: Path) -> None:
        if not (self.root / "pnp" / "__main__.py").is_file():
            sys.exit(f"{self.root} is not a pnp checkout that runs as 'python -m pnp' "
                     "(no pnp/__main__.py)")
        # Compiled once, before anything is timed: the first round would otherwise pay for it.
        subprocess.run([self.python, "-m", "compileall", "-q", str(self.root / "pnp"),
                        str(self.root / "plugins")], check=True, stdout=subprocess.DEVNULL)
        version = subprocess.run(self.pnp + ["--version"], cwd=self.root, env=self.env(cache),
                                 capture_output=True, text=True)
        if version.returncode != 0:
            sys.exit(f"'python -m pnp --version' fails in {self.root}:\n{version.stderr}")


@dataclass
class Run:
    """How to run a case's command: where, with what environment, and what to do first."""
    command: list[str]
    cwd: Path
    env: dict[str, str]
    before: object = None  # a callable, untimed


@dataclass
class Figures:
    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    peak: list[float] = field(default_factory=list)


def measure(run: Run) -> tuple[float, float, float]:
    """Run a command in a fresh process (after `run.before()`, untimed); return (wall seconds,
    peak RSS in MiB of the largest process it ran, workers included, CPU seconds of all its
    processes)."""
    if run.before:
        run.before()
    completed = subprocess.run([sys.executable, "-c", WRAPPER, *run.command], cwd=run.cwd,
                               env=run.env, capture_output=True, text=True)
    code, wall, peak_kib, cpu = completed.stdout.split()
    if int(code) != 0:
        sys.exit(f"benchmark command failed: {' '.join(run.command)}\n{completed.stderr}")
    return float(wall), int(peak_kib) / 1024, float(cpu)


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

    import pnp.pdf.draw
    from pnp.fonts import use_bundled_fonts
    from pnp.pdf.draw import draw_svg

    pnp.pdf.draw.draw_text = lambda surface, node: False  # cairosvg's own text code, glyph by glyph
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


def measure_round(results: dict, name: str, runs_by: dict, round_: int) -> None:
    """One round of a case: each checkout's command once, in turn, its figures kept."""
    for label, run in in_turn(runs_by, round_):
        wall, peak, cpu = measure(run)
        figures = results.setdefault(name, {}).setdefault(label, Figures())
        figures.wall.append(wall)
        figures.peak.append(peak)
        figures.cpu.append(cpu)


def in_turn(by_label: dict, round_: int) -> list:
    """The checkouts' items, the first checkout first in even rounds, last in odd ones: neither
    always runs right after the other."""
    items = list(by_label.items())
    return items if round_ % 2 == 0 else items[::-1]


def build_section(checkouts: list[Checkout], scratch: Path, runs: int,
                  results: dict[str, dict[str, Figures]], notes: list[str]) -> None:
    """The figures of pnp check and build on Downturn and the poker decks, and the
    yardsticks (for the first checkout only)."""
    cases: dict[str, dict[str, Run]] = {}
    after: list = []
    for checkout in checkouts:
        folder = scratch / checkout.label / "build"
        cache = folder / "user-cache"  # pnp's cache in the user's home
        env, cwd, pnp = checkout.env(cache), checkout.root, checkout.pnp
        small = poker_project(folder / "poker-54", 54)
        large = poker_project(folder / f"poker-{LARGE}", LARGE)
        downturn = folder / "downturn"
        for name in ("content", "templates"):
            shutil.copytree(checkout.kits / name, downturn / name)
        events = downturn / "content" / "downturn" / "events.yaml"

        def forget_check(cache=cache):
            """Nothing a check keeps: cairo's compiled declarations, which no check reads,
            are left, as they are made once per installation."""
            for kept in cache.glob("*"):
                if not kept.name.startswith("cairo-ffi-"):
                    shutil.rmtree(kept, ignore_errors=True)

        def cold(output: Path, cache=cache):
            """An empty output folder, and no sheets kept by an earlier check."""
            def empty():
                shutil.rmtree(output, ignore_errors=True)
                for kept in cache.glob("sheets-*"):
                    shutil.rmtree(kept, ignore_errors=True)
            return empty

        def settled(command: list[str], cwd=cwd, env=env):
            """Run `command` once first, untimed: what follows finds nothing changed."""
            return lambda: subprocess.run(command, cwd=cwd, env=env, capture_output=True,
                                          check=True)

        def edit_one_event(events=events, edits=iter(range(10**6))):
            """One event's text changed, as a designer's save would."""
            text = events.read_text(encoding="utf-8")
            text = re.sub(r'effect: "Stability \+1\.( \(edit \d+\))?"',
                          f'effect: "Stability +1. (edit {next(edits)})"', text, count=1)
            events.write_text(text, encoding="utf-8")

        check = pnp + ["check", "--root", str(downturn), "--game", "downturn"]
        build = pnp + ["build", "--root", str(downturn), "--game", "downturn"]
        warm = build + ["--out", str(downturn / "output")]
        own = {
            "pnp check (Downturn), nothing cached": (check, forget_check),
            "pnp check (Downturn), one event edited": (check, edit_one_event),
            "pnp check (Downturn), unchanged": (check, settled(check)),
            "build --sheets all, -j 1 --no-cache": (
                build + ["-j", "1", "--no-cache", "--out", str(folder / "j1")],
                cold(folder / "j1")),
            "build --sheets all, default, cold": (
                build + ["--out", str(folder / "jn")], cold(folder / "jn")),
            "build --sheets all, warm, unchanged": (warm, settled(warm)),
            "build --sheets all, one event edited": (warm, edit_one_event),
            "poker deck, 54 cards": (pnp + ["build", "--root", str(small)],
                                     cold(small / "output")),
            f"poker deck, {LARGE}, -j 1 --no-cache": (
                pnp + ["build", "--root", str(large), "-j", "1", "--no-cache"],
                cold(large / "output")),
            f"poker deck, {LARGE} cards": (pnp + ["build", "--root", str(large)],
                                           cold(large / "output")),
        }
        if checkout is checkouts[0]:  # not pnp: the same for every checkout
            own[f"  plain Jinja -> cairosvg loop, {LARGE}"] = (
                [sys.executable, __file__, "--plain-child", str(large)], None)
            own[f"  reportlab straight, {LARGE}"] = (
                [sys.executable, __file__, "--reportlab-child", str(large)], None)
        for name, (command, before) in own.items():
            cases.setdefault(name, {})[checkout.label] = Run(command, cwd, env, before)
        subprocess.run(warm, cwd=cwd, env=env, capture_output=True,
                       check=True)  # the warm cases start from a finished build
        after.append((checkout, warm, cwd, env, edit_one_event))

    # Round by round, every case once a round: a machine whose speed drifts slows the cases
    # compared with each other alike.
    for round_ in range(runs):
        print(f"  build: round {round_ + 1} of {runs}", file=sys.stderr, flush=True)
        for name, runs_by in cases.items():
            measure_round(results, name, runs_by, round_)

    def median(name: str, label: str) -> float:
        return statistics.median(results[name][label].wall)

    for checkout, warm, cwd, env, edit_one_event in after:
        label = checkout.label
        edit_one_event()
        rewritten = subprocess.run(warm, cwd=cwd, env=env, capture_output=True, text=True,
                                   check=True).stdout.split()
        notes.append(f"{label}: one event edited rewrites: "
                     + (", ".join(Path(w).name for w in rewritten if w.endswith(".pdf"))
                        or "nothing"))
        ours = median(f"poker deck, {LARGE} cards", label)
        yardstick = checkouts[0].label
        notes.append(
            f"{label}: pnp on {LARGE} cards: "
            f"{ours / median(f'  plain Jinja -> cairosvg loop, {LARGE}', yardstick):.2f} x the "
            f"plain cairosvg loop, "
            f"{ours / median(f'  reportlab straight, {LARGE}', yardstick):.2f} x reportlab "
            "straight")
        default = median("build --sheets all, default, cold", label)
        one = median("build --sheets all, -j 1 --no-cache", label)
        notes.append(
            f"{label}: build --sheets all, default cold / -j 1 --no-cache: {default / one:.2f} x;"
            f" poker {LARGE}, default / -j 1 --no-cache: "
            f"{ours / median(f'poker deck, {LARGE}, -j 1 --no-cache', label):.2f} x")


def watch_section(checkouts: list[Checkout], scratch: Path, runs: int,
                  results: dict[str, dict[str, Figures]], notes: list[str]) -> None:
    """A running `pnp watch` per checkout, each started (and its first build awaited) in turn,
    then one event saved per round, in each watcher in turn."""
    watchers = {}
    try:
        for checkout in checkouts:
            project = scratch / checkout.label / "watch"
            for name in ("content", "templates"):
                shutil.copytree(checkout.kits / name, project / name)
            print(f"  watch: starting {checkout.label}", file=sys.stderr, flush=True)
            watcher = bench_watch.Watcher(checkout.pnp, project, checkout.root,
                                          checkout.env(project / "user-cache"))
            watchers[checkout.label] = watcher
            results.setdefault("pnp watch: start to first build done", {})[
                checkout.label] = Figures(wall=[watcher.first_build()])
        for round_ in range(runs):
            print(f"  watch: round {round_ + 1} of {runs}", file=sys.stderr, flush=True)
            for label, watcher in in_turn(watchers, round_):
                for name, seconds in watcher.round().items():
                    results.setdefault(f"pnp watch: save to {name}", {}).setdefault(
                        label, Figures()).wall.append(seconds)
    finally:
        for watcher in watchers.values():
            watcher.stop()
    for label, watcher in watchers.items():
        if watcher.extra_rounds:
            notes.append(f"{label}: pnp watch ran {watcher.extra_rounds} extra round(s): a save "
                         "noticed twice")
    notes.append("pnp watch: every figure after a save includes the watcher's own wait "
                 "(watchfiles: 10 ms without an event, at most 300 ms)")


def big_section(checkouts: list[Checkout], scratch: Path, runs: int, count: int,
                results: dict[str, dict[str, Figures]], notes: list[str]) -> None:
    """`pnp check --game big` on bench/bigdeck.py's game: with an empty user cache, then
    after one row of a CSV is edited."""
    project = scratch / "big-source"
    deck = bigdeck.make_game(project, count)
    cold_name = f"pnp check ({count} cards), nothing cached"
    edited_name = f"pnp check ({count} cards), one row edited"
    cases: dict[str, dict[str, Run]] = {cold_name: {}, edited_name: {}}
    for checkout in checkouts:
        folder = scratch / checkout.label / "big"
        shutil.copytree(project, folder)
        cache = folder / "user-cache"
        env = checkout.env(cache)
        check = checkout.pnp + ["check", "--root", str(folder), "--game", bigdeck.GAME]

        def empty_cache(cache=cache):
            shutil.rmtree(cache, ignore_errors=True)

        def edit_row(folder=folder, edits=iter(range(10**6))):
            bigdeck.edit_row(folder, deck, next(edits))

        cases[cold_name][checkout.label] = Run(check, checkout.root, env, empty_cache)
        cases[edited_name][checkout.label] = Run(check, checkout.root, env, edit_row)
    for round_ in range(runs):
        print(f"  big: round {round_ + 1} of {runs}", file=sys.stderr, flush=True)
        for name, runs_by in cases.items():  # cold first: the edited check follows it
            measure_round(results, name, runs_by, round_)
    cores = os.cpu_count() or 1
    for checkout in checkouts:
        label = checkout.label
        cold, edited = results[cold_name][label], results[edited_name][label]
        ratio = statistics.median(edited.wall) / statistics.median(cold.wall)
        notes.append(f"{label}: big deck, one row edited / nothing cached: {ratio:.2f} "
                     f"(goal: at most 0.2){'' if ratio <= 0.2 else ' -- above the goal'}")
        for name, figures in (("nothing cached", cold), ("one row edited", edited)):
            used = statistics.median(figures.cpu) / statistics.median(figures.wall)
            notes.append(f"{label}: big deck, {name}: CPU / wall {used:.2f} "
                         f"(of {cores} cores; {cores:.2f} would be every core busy)")


def export_section(checkouts: list[Checkout], scratch: Path, runs: int,
                   results: dict[str, dict[str, Figures]], notes: list[str]) -> None:
    """`pnp export --to shop` and `--to tts` of Downturn's decks beside `pnp build` of the same
    sheets, every command from an empty output folder (the sheets a check keeps stay: the three
    commands check the same content, and each finds them alike)."""
    build_name = "build --no-cache (Downturn's decks)"
    names = {"shop": "export --to shop (the same decks)",
             "tts": "export --to tts (the same decks)"}
    cases: dict[str, dict[str, Run]] = {build_name: {}, **{name: {} for name in names.values()}}
    for checkout in checkouts:
        folder = scratch / checkout.label / "export"
        for name in ("content", "templates"):
            shutil.copytree(checkout.kits / name, folder / name)
        env = checkout.env(folder / "user-cache")
        common = ["--root", str(folder), "--game", "downturn", "--sheets", EXPORT_SHEETS]

        def empty(output: Path):
            return lambda: shutil.rmtree(output, ignore_errors=True)

        out = folder / "out-build"
        cases[build_name][checkout.label] = Run(
            checkout.pnp + ["build", *common, "--no-cache", "--out", str(out)], checkout.root,
            env, empty(out))
        for to, name in names.items():
            out = folder / f"out-{to}"
            cases[name][checkout.label] = Run(
                checkout.pnp + ["export", "--to", to, *common, "--out", str(out)],
                checkout.root, env, empty(out))
        # Compiled templates and the check's kept sheets exist before the first timed run.
        subprocess.run(checkout.pnp + ["check", "--root", str(folder), "--game", "downturn"],
                       cwd=checkout.root, env=env, capture_output=True, check=True)
    for round_ in range(runs):
        print(f"  export: round {round_ + 1} of {runs}", file=sys.stderr, flush=True)
        for name, runs_by in cases.items():
            measure_round(results, name, runs_by, round_)
    for checkout in checkouts:
        label = checkout.label
        build = results[build_name][label]
        for to, name in names.items():
            export = results[name][label]
            wall = statistics.median(export.wall) / statistics.median(build.wall)
            cpu = statistics.median(export.cpu) / statistics.median(build.cpu)
            notes.append(f"{label}: export --to {to} / build of the same sheets: {wall:.2f} x "
                         f"wall, {cpu:.2f} x CPU (goal: at most {EXPORT_GOAL:g} x)"
                         f"{'' if wall <= EXPORT_GOAL else ' -- above the goal'}")


def report(results: dict[str, dict[str, Figures]], labels: list[str]) -> list[tuple]:
    """Print the table; return (ratio, case) for every case with both checkouts."""
    ratios = []
    if len(labels) == 1:
        print(f"{'case':<48} {'wall':>8} {'CPU':>8} {'peak RSS':>9}")
    else:
        print(f"{'case':<48} {labels[0]:>8} {labels[1]:>8} {'ratio':>7}   "
              f"{'CPU ' + labels[0]:>8} {'CPU ' + labels[1]:>8}   "
              f"{'peak ' + labels[0]:>9} {'peak ' + labels[1]:>9}")
    for name, by in results.items():
        walls, cpus, peaks = [], [], []
        for label in labels:
            figures = by.get(label)
            walls.append(f"{statistics.median(figures.wall):6.2f} s" if figures else "-")
            cpus.append(f"{statistics.median(figures.cpu):6.2f} s"
                        if figures and figures.cpu else "-")
            peaks.append(f"{max(figures.peak):5.0f} MiB" if figures and figures.peak else "-")
        if len(labels) == 1:
            print(f"{name:<48} {walls[0]:>8} {cpus[0]:>8} {peaks[0]:>9}")
            continue
        ratio = "-"
        if all(label in by for label in labels):
            value = statistics.median(by[labels[0]].wall) / statistics.median(by[labels[1]].wall)
            ratios.append((value, name))
            ratio = f"{value:5.2f} x"
        print(f"{name:<48} {walls[0]:>8} {walls[1]:>8} {ratio:>7}   {cpus[0]:>8} {cpus[1]:>8}"
              f"   {peaks[0]:>9} {peaks[1]:>9}")
    return ratios


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=None,
                        help=f"rounds (medians over them): 5, and {EXPORT_RUNS} for the export "
                             "section, unless told")
    parser.add_argument("--sections", default=",".join(SECTIONS),
                        help=f"which, comma-separated: {', '.join(SECTIONS)} (all unless told)")
    parser.add_argument("--big-cards", type=int, default=bigdeck.CARDS,
                        help="cards in the big section's generated game")
    parser.add_argument("--baseline", type=Path, metavar="PATH",
                        help="another checkout of pnp: every case runs for both, side by side")
    parser.add_argument("--baseline-python", default=sys.executable, metavar="PYTHON",
                        help="the Python the baseline runs with (this one unless told)")
    parser.add_argument("--project", type=Path, metavar="PATH",
                        help="the project (content/ and templates/) every checkout's Downturn "
                        "cases run on (each checkout's own unless told)")
    parser.add_argument("--bound", type=float, metavar="X",
                        help="with --baseline: list every figure whose new/old is above X "
                             "and exit 1 if there is one")
    parser.add_argument("--plain-child", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--reportlab-child", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.plain_child:
        plain_loop(args.plain_child)
        return
    if args.reportlab_child:
        reportlab_direct(args.reportlab_child)
        return
    sections = [s.strip() for s in args.sections.split(",") if s.strip()]
    if not sections or set(sections) - set(SECTIONS):
        parser.error(f"--sections: choose among {', '.join(SECTIONS)}")
    if args.bound is not None and not args.baseline:
        parser.error("--bound is for --baseline")
    project = args.project.resolve() if args.project else None
    checkouts = [Checkout("new", ROOT, project=project)]
    if args.baseline:
        baseline = args.baseline.resolve()
        if baseline == ROOT:
            parser.error("--baseline is this checkout")
        checkouts.append(Checkout("old", baseline, args.baseline_python, project))
    labels = [checkout.label for checkout in checkouts]
    print(f"pnp benchmark: {args.runs or 5} runs each"
          f"{'' if args.runs else f' ({EXPORT_RUNS} for export)'}, median wall time; "
          f"{os.cpu_count()} CPUs; Python {sys.version.split()[0]}")
    for checkout in checkouts:
        print(f"  {checkout.label}: {checkout.root} ({checkout.python} -m pnp)")
    if project:
        print(f"  project: {project} (content and templates, for every checkout)")
    ratios = []
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        for checkout in checkouts:
            checkout.check(scratch / checkout.label / "user-cache")
        for section in sections:
            results: dict[str, dict[str, Figures]] = {}
            notes: list[str] = []
            print(f"{section} section ...", file=sys.stderr, flush=True)
            if section == "build":
                build_section(checkouts, scratch, args.runs or 5, results, notes)
            elif section == "watch":
                watch_section(checkouts, scratch, args.runs or 5, results, notes)
            elif section == "export":
                export_section(checkouts, scratch, args.runs or EXPORT_RUNS, results, notes)
            else:
                big_section(checkouts, scratch, args.runs or 5, args.big_cards, results, notes)
            print()
            ratios += report(results, labels)
            for note in notes:
                print(note)
            sys.stdout.flush()
    if len(checkouts) > 1 and ratios:
        worst, name = max(ratios)
        print(f"\nworst new/old: {worst:.2f} x ({name.strip()})")
        if args.bound is not None:
            above = [(value, name) for value, name in ratios if value > args.bound]
            for value, name in sorted(above, reverse=True):
                print(f"  above {args.bound:g} x: {name.strip()} {value:.2f} x")
            print(f"{len(above) or 'no'} figure{'s' * (len(above) > 1)} above "
                  f"{args.bound:g} x")
            if above:
                sys.exit(1)


if __name__ == "__main__":
    main()
