"""The caches never change an answer: after any sequence of edits to a project, `pnp check` and
`pnp build` say and write what they would have with no cache at all.

A Hypothesis state machine edits a copy of a small complete game (tests/data/games/ledger: a
deck from CSV with art, a deck from YAML, templates with an include, a project layouts.yaml and
a printer profile) one edit at a time:

- a content value: a card's title, value, text or art in cards.csv, a note's name or amount in
  notes.yaml; sometimes an invalid one, so that findings appear and go again;
- a template's text: a visible word, a word read from the card, a Jinja syntax error, an
  undefined name or an include of extra.svg.j2, in a front, the shared back, the notes' front
  or the included footer;
- a template added or removed (alt-back.svg.j2 or extra.svg.j2, in the game's folder or in
  templates/common/, where a game's own wins), and the decks' `back:` naming alt-back.svg.j2,
  the usual back, or none;
- layouts.yaml: gap, margins (some too large for the paper: layout-too-large) and mark style
  of the project's own layout `prop`, and an override of the built-in `home`, added or removed;
- the printer profile printers/office.yaml: its offsets and scale (some out of range), or the
  file removed;
- the art: the bytes of art.png (other colours and sizes, one too coarse, one not an image)
  and of art.svg (one refused);
- pnp's own code changed, as an upgrade or a `git pull` changes it: what it writes into every
  PDF (the document's Producer) and, as a changed file would, what pnp's installation is
  (pnp.engine.store.installation, the one key every kept kind has for pnp's code); in-process,
  both are set on the loaded modules and put back when the example ends;
- a rules plug-in: a distribution installed into, or removed from, a folder on PYTHONPATH
  (not site-packages), the manifest's `plugin:` naming it or not, and the plug-in's own data
  file (which it declares, pnp_reads) edited;
- a PDF of the kept output folder altered in place (one byte, the same size and inode) with
  its time set back to what it was;
- two entries of the remembered answers swapped in the cache folder;
- and which layout, printer and paper the builds ask for (`prop` or `home`, `office` or none,
  A4 or Letter).

The checks are on Letter, the builds start on A4: a check keeps each sheet in the same place
of the cache as a build on the same paper, with a key that includes the layout and printer,
so a check and a build on one paper with other print options take each other's places, and
neither would ever find its own again from one step to the next.

Fonts are left out: a project cannot supply one. pnp draws and measures with its bundled files
only (pnp.fonts: FACES name files in pnp/data/fonts/, and fontconfig is given only those), so no
file in a project changes which font is used.

Each `pnp` command is a process of its own, so a plug-in that failed to load is looked for
again by the next run (pnp.rules.plugins remembers what it loaded only for one process).

After every edit, with the user's cache folder (PNP_CACHE_DIR) and the output folder kept from
step to step and SOURCE_DATE_EPOCH fixed, each command is run as the `pnp` console script runs
it (pnp.entry.run), in-process:

- `pnp check` against `pnp check` with a fresh, empty cache folder: the same exit code and the
  same output, the elapsed seconds masked;
- `pnp build --layout L [--printer P]` into the kept output folder against
  `pnp build --no-cache` with the same options, a fresh cache folder and a fresh output folder:
  the same exit code, the same findings, and when it succeeds the same PDFs, byte for byte
  (history/ and proof/ are not compared).

`pnp check` is given the layout and printer options too as soon as `pnp check --help` lists
them (CHECK_TAKES_PRINT_OPTIONS).

Every edited file's modification time is set forward explicitly (os.utime, one second per
edit, all in the past), so no edit can hide behind a coarse file clock or look like it happened
during a run.

The default run is 3 examples of 25 steps: 50 steps of random edits, and first the example
Hypothesis deems simplest (one edit, repeated). Each example makes only some kinds of edit
(Hypothesis leaves some rules out of each, to reach deeper into the others). A longer run, of
500 steps of random edits:

    PNP_PROPERTY_STEPS=500 python -m pytest tests/cache/test_cache_property.py

PNP_PROPERTY_STEPS is the number of steps of random examples wanted, in examples of 25 steps.
When a difference is found, Hypothesis looks for the shortest sequence of edits that shows
it, which can take several minutes; the sequence is printed, and kept in .hypothesis/ to be
tried first on the next run.
"""

from __future__ import annotations

import contextlib
import csv
import difflib
import importlib
import io
import itertools
import json
import math
import os
import re
import shutil
import struct
import sys
import tempfile
import time
import zlib
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from pnp.engine import store
from pnp.pdf import finish
from pnp.entry import run as pnp
from pnp.rules import plugins

from conftest import TESTS

GAME = "ledger"
SOURCE = TESTS / "data" / "games" / GAME
STEPS_PER_EXAMPLE = 25
STEPS = int(os.environ.get("PNP_PROPERTY_STEPS", "50"))
SOURCE_DATE_EPOCH = "1700000000"


def _help(command: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        try:
            pnp([command, "--help"])
        except SystemExit:
            pass
    return out.getvalue()


# `pnp check` is being given --layout and --printer; once it lists them, it is asked with the
# same layout and printer as the builds.
CHECK_TAKES_PRINT_OPTIONS = {"--layout", "--printer"} <= set(_help("check").split())


# -- the art ---------------------------------------------------------------------------------


def png(width: int, height: int, rgb: tuple[int, int, int]) -> bytes:
    """A plain RGB PNG of one colour."""
    raw = b"".join(b"\0" + bytes(rgb) * width for _ in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data +
                struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2,
                                                              0, 0, 0)) +
            chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def svg(body: str) -> bytes:
    return ('<svg xmlns="http://www.w3.org/2000/svg" width="20mm" height="20mm" '
            f'viewBox="0 0 20 20">{body}</svg>').encode()


PNG_ART = {
    "gold": png(130, 130, (200, 160, 40)),  # the file as shipped
    "teal": png(130, 130, (20, 140, 140)),
    "large": png(200, 180, (180, 30, 30)),
    "coarse": png(40, 40, (30, 30, 160)),  # 48 dpi at 21 mm: an art-resolution warning
    "not-an-image": b"this is not a PNG",  # an error
}
SVG_ART = {
    "circle": svg('<circle cx="10" cy="10" r="9" fill="#c9a227"/>'),  # the file as shipped
    "square": svg('<rect x="2" y="2" width="16" height="16" fill="#2e7d32"/>'),
    "doctype": b'<?xml version="1.0"?><!DOCTYPE svg>' + svg("<circle r='3'/>"),  # refused
}

# -- the content -----------------------------------------------------------------------------

CARD_VALUES = {
    "title": ["Loan", "Bond", "Share", "Note of Credit", "A title far too long to fit", ""],
    "value": ["0", "1", "3", "9", "12", "x", ""],
    "text": ["Borrow two coins.", "Safe and slow.", "Pay one coin each round or lose it.",
             " ".join(["word"] * 25)],  # more than max_words
    "art": ["art.png", "art.svg", "missing.png"],
}
NOTE_VALUES = {
    "name": ["Small note", "Large note", "Tiny", "A note name much too long"],
    "amount": [1, 5, 50, 99, 0, 100, "lots"],
}

# -- the templates ---------------------------------------------------------------------------

# Each template carries one marker word, replaced by an edit with one of these.
MARKERS = {"card-front.svg.j2": "FRONT", "card-back.svg.j2": "BACK",
           "note-front.svg.j2": "NOTE", "footer.svg.j2": "FOOTER"}
VISIBLE = ["ALPHA", "OMEGA"]
READS_CARD = {"card-front.svg.j2": "{{ card.title }}", "card-back.svg.j2": "{{ card.value }}",
              "note-front.svg.j2": "{{ card.name }}", "footer.svg.j2": "{{ card.value }}"}
BROKEN = ["{% if %}", "{{ nope }}", "{{ card.nope }}"]
EXTRA = "extra.svg.j2"  # a template a front may include; it exists only once an edit adds it
INCLUDES_EXTRA = f'{{% include "{EXTRA}" %}}'
ALT = "alt-back.svg.j2"  # a back the decks may name; it exists only once an edit adds it

# The templates an edit adds (the marker replaced) in the game's folder or templates/common/.
ADDED = {
    ALT: """<svg xmlns="http://www.w3.org/2000/svg" width="63mm" height="88mm" viewBox="0 0 63 88">
<rect x="2" y="2" width="59" height="84" fill="#f4e9d0" stroke="#8a5a00" stroke-width="1"/>
<text x="31.5" y="47" text-anchor="middle" {{ font('bold') }} font-size="7">MARK</text>
</svg>
""",
    EXTRA: """<text x="8" y="76" {{ font('body') }} font-size="3">MARK</text>
""",
}
BACKS = {"cards": ["card-back.svg.j2", ALT, "none"], "notes": ["none", ALT]}  # first: as shipped
FRONTS = {"cards": "card-front.svg.j2", "notes": "note-front.svg.j2"}

# -- layouts and the printer -----------------------------------------------------------------

GAPS = [0, 2, 4.5]
MARGINS = [7, 8, 12, 40, 120]  # 120 mm: no card fits inside (layout-too-large)
MARK_STYLES = ["ticks", "lines"]
LAYOUT = st.tuples(st.sampled_from(GAPS), st.sampled_from(MARGINS), st.sampled_from(MARK_STYLES))
OFFSETS = [-2, 0, 1.5, 25]  # 25 mm is out of range: a finding
SCALES = [0.98, 1, 1.02, 1.5]  # 1.5 is out of range


# -- a rules plug-in installed in a PYTHONPATH folder -----------------------------------------

# A plug-in per machine (its rules stay registered in this process): name, rule id, module.
PLUGINS = itertools.count(1)
PLUGIN_CODE = """from pathlib import Path

from pnp.findings import Severity
from pnp.rules.registry import problem, rule

WORDS = Path(__file__).with_suffix(".txt")


def pnp_reads():
    return [WORDS]


@rule("{rule}", "{name}", "the plug-in's own data file says a word")
def says(game):
    word = WORDS.read_text(encoding="utf-8").strip() if WORDS.exists() else ""
    if word:
        yield problem("{rule}", game.info.where.of("plugin"), f"the plug-in says {{word}}",
                      severity=Severity.WARNING)
"""
PLUGIN_WORDS = ["", "hello", "goodbye"]


class CacheMachine(RuleBasedStateMachine):
    """A project, a kept cache folder and a kept output folder; edits, and after each the
    cached answers compared with fresh ones."""

    def __init__(self) -> None:
        super().__init__()
        self.base = Path(tempfile.mkdtemp(prefix="pnp-prop-"))
        self.root = self.base / "project"
        shutil.copytree(SOURCE, self.root)
        self.cache = self.base / "cache"
        self.out = self.base / "out"
        self.clock = time.time_ns() - 10**15  # about 11 days ago; one second more per edit
        for path in self.root.rglob("*"):
            os.utime(path, ns=(self.clock, self.clock))
        self.game = self.root / "content" / GAME
        self.templates = self.root / "templates" / GAME
        self.original = {name: (self.templates / name).read_text(encoding="utf-8")
                         for name in MARKERS}
        self.manifest = (self.game / "game.yaml").read_text(encoding="utf-8")
        with open(self.game / "cards.csv", newline="", encoding="utf-8") as file:
            self.cards = list(csv.DictReader(file))
        self.notes = [{"name": "Small note", "amount": 5}, {"name": "Large note", "amount": 50}]
        self.backs = {"cards": "card-back.svg.j2", "notes": "none"}
        self.layouts = {"prop": (2, 8, "ticks"), "home": None}
        self.layout, self.printer, self.paper = "prop", "office", "a4"
        self.saved_env = {name: os.environ.get(name)
                          for name in ("PNP_CACHE_DIR", "SOURCE_DATE_EPOCH", "PNP_JOBS")}
        os.environ.update(PNP_CACHE_DIR=str(self.cache), SOURCE_DATE_EPOCH=SOURCE_DATE_EPOCH,
                          PNP_JOBS="1")
        self.code = (finish.PRODUCER, store.installation)
        self.upgrades = 0
        # The plug-in: its module and data file in a folder on PYTHONPATH, where `pip install
        # --target` would put it; installed (its metadata there) or not, named by the game or not.
        number = next(PLUGINS)
        self.plugin = f"ledgerplug{number}"
        self.site = self.base / "site"
        self.site.mkdir()
        self.write(self.site / f"{self.plugin}.py",
                   PLUGIN_CODE.format(name=self.plugin, rule=f"ledger-plug-{number}"))
        self.write(self.site / f"{self.plugin}.txt", "hello")
        self.plugin_named = False
        self.saved_env["PYTHONPATH"] = os.environ.get("PYTHONPATH")
        os.environ["PYTHONPATH"] = str(self.site)
        sys.path.append(str(self.site))

    def teardown(self) -> None:
        finish.PRODUCER, store.installation = self.code
        sys.path.remove(str(self.site))
        importlib.invalidate_caches()
        for name, value in self.saved_env.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        shutil.rmtree(self.base, ignore_errors=True)

    # -- writing files -------------------------------------------------------------------

    def touch(self, path: Path) -> None:
        """The file's time set one second after the last edit's."""
        self.clock += 10**9
        os.utime(path, ns=(self.clock, self.clock))

    def write(self, path: Path, data: str | bytes) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(data, str):
            path.write_text(data, encoding="utf-8")
        else:
            path.write_bytes(data)
        self.touch(path)

    def write_cards(self) -> None:
        text = io.StringIO()
        writer = csv.DictWriter(text, fieldnames=["title", "value", "text", "art"],
                                lineterminator="\n")
        writer.writeheader()
        writer.writerows(self.cards)
        self.write(self.game / "cards.csv", text.getvalue())

    def write_notes(self) -> None:
        self.write(self.game / "notes.yaml", "".join(
            f"- name: {json.dumps(note['name'])}\n  amount: {note['amount']}\n"
            for note in self.notes))

    def write_manifest(self) -> None:
        text = self.manifest
        for deck, now in self.backs.items():
            front = FRONTS[deck]
            old = f"    front: {front}\n    back: {BACKS[deck][0]}\n"
            assert text.count(old) == 1, old
            text = text.replace(old, f"    front: {front}\n    back: {now}\n", 1)
        if self.plugin_named:
            assert text.count("\nyear: ") == 1
            text = text.replace("\nyear: ", f"\nplugin: {self.plugin}\nyear: ", 1)
        self.write(self.game / "game.yaml", text)

    def write_layouts(self) -> None:
        text = "# The project's own layouts, edited by the cache property test.\n"
        for name, value in self.layouts.items():
            if value is None:
                continue
            gap, margin, style = value
            text += (f"{name}:\n  description: {name} as the test set it\n  gap_mm: {gap}\n"
                     f"  min_margin_mm: {margin}\n"
                     f"  marks: {{style: {style}, length_mm: 5, offset_mm: 1.5, width_pt: 0.3}}\n"
                     "  duplex: long-edge\n  backs: after-fronts\n")
        self.write(self.root / "layouts.yaml", text)

    # -- the edits -----------------------------------------------------------------------

    @rule()
    def upgrade_pnp(self):
        """pnp's code changes: it writes another Producer, and its installation is another."""
        self.upgrades += 1
        producer, installation = self.code
        finish.PRODUCER = f"{producer} {self.upgrades}"
        upgraded = f"{installation()} upgraded {self.upgrades}"
        store.installation = lambda: upgraded

    @rule(installed=st.booleans())
    def install_plugin(self, installed):
        """The plug-in's distribution installed into the PYTHONPATH folder, or removed."""
        info = self.site / f"{self.plugin}-1.0.dist-info"
        if installed:
            self.write(info / "METADATA",
                       f"Metadata-Version: 2.1\nName: {self.plugin}\nVersion: 1.0\n")
            self.write(info / "entry_points.txt",
                       f"[{plugins.GROUP}]\n{self.plugin} = {self.plugin}\n")
        else:
            shutil.rmtree(info, ignore_errors=True)
        importlib.invalidate_caches()

    @rule(named=st.booleans())
    def name_plugin(self, named):
        """game.yaml's `plugin:` names the plug-in, or nothing."""
        self.plugin_named = named
        self.write_manifest()

    @rule(word=st.sampled_from(PLUGIN_WORDS))
    def edit_plugin_data(self, word):
        """The plug-in's own data file, which it declares it reads (pnp_reads), edited."""
        self.write(self.site / f"{self.plugin}.txt", word)

    @rule(which=st.integers(0, 7))
    def alter_output(self, which):
        """One byte of a kept PDF changed in place, its size, inode and time kept."""
        pdfs = sorted((self.out / GAME).glob("*.pdf"))
        if not pdfs:
            return
        path = pdfs[which % len(pdfs)]
        info = path.stat()
        with open(path, "r+b") as file:
            file.seek(info.st_size // 2)
            byte = file.read(1)
            file.seek(info.st_size // 2)
            file.write(bytes([byte[0] ^ 0x20]))
        os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))

    @rule()
    def swap_answers(self):
        """The first two entries of the remembered answers swapped in the cache folder, as
        a person tidying it or a copy from another machine might leave them."""
        entries = sorted(path for folder in self.cache.glob("answers-*")
                         for path in folder.iterdir() if not path.name.startswith("."))
        if len(entries) < 2:
            return
        first, second = entries[:2]
        held = first.with_name(first.name + ".swap")
        os.replace(first, held)
        os.replace(second, first)
        os.replace(held, second)

    @rule(row=st.integers(0, 2), field=st.sampled_from(sorted(CARD_VALUES)), data=st.data())
    def edit_card(self, row, field, data):
        self.cards[row][field] = data.draw(st.sampled_from(CARD_VALUES[field]), label="value")
        self.write_cards()

    @rule(index=st.integers(0, 1), field=st.sampled_from(sorted(NOTE_VALUES)), data=st.data())
    def edit_note(self, index, field, data):
        self.notes[index][field] = data.draw(st.sampled_from(NOTE_VALUES[field]), label="value")
        self.write_notes()

    @rule(name=st.sampled_from(sorted(MARKERS)), data=st.data())
    def edit_template(self, name, data):
        words = [MARKERS[name], *VISIBLE, READS_CARD[name], *BROKEN, INCLUDES_EXTRA]
        word = data.draw(st.sampled_from(words), label="text")
        original = self.original[name]
        assert original.count(MARKERS[name]) == 1
        self.write(self.templates / name, original.replace(MARKERS[name], word))

    @rule(name=st.sampled_from(sorted(ADDED)), where=st.sampled_from([GAME, "common"]),
          word=st.none() | st.sampled_from(["ALTERNATIVE", "OTHER", "{{ card.value }}",
                                            "{{ nope }}"]))
    def add_or_remove_template(self, name, where, word):
        """A template written with `word` for its marker, or with None removed."""
        path = self.root / "templates" / where / name
        if word is None:
            path.unlink(missing_ok=True)
        else:
            self.write(path, ADDED[name].replace("MARK", word))

    @rule(deck=st.sampled_from(sorted(BACKS)), data=st.data())
    def choose_back(self, deck, data):
        self.backs[deck] = data.draw(st.sampled_from(BACKS[deck]), label="back")
        self.write_manifest()

    @rule(edit=st.tuples(st.just("prop"), LAYOUT) | st.tuples(st.just("home"),
                                                               st.none() | LAYOUT))
    def edit_layouts(self, edit):
        """The project's layout `prop` changed, or its own `home` (which wins over the
        built-in one) changed, added or removed."""
        name, value = edit
        self.layouts[name] = value
        self.write_layouts()

    @rule(value=st.none() | st.tuples(st.sampled_from(OFFSETS), st.sampled_from(OFFSETS),
                                      st.sampled_from(SCALES)))
    def edit_printer(self, value):
        """The printer profile's offsets and scale, or with None the profile removed."""
        path = self.root / "printers" / "office.yaml"
        if value is None:
            path.unlink(missing_ok=True)
            return
        x, y, scale = value
        self.write(path, f'description: "test printer"\noffset_x_mm: {x}\noffset_y_mm: {y}\n'
                         f"scale: {scale}\n")

    @rule(art=st.sampled_from([("art.png", name) for name in sorted(PNG_ART)] +
                              [("art.svg", name) for name in sorted(SVG_ART)]))
    def edit_art(self, art):
        name, variant = art
        self.write(self.game / name, (PNG_ART if name == "art.png" else SVG_ART)[variant])

    @rule(layout=st.sampled_from(["prop", "home"]), printer=st.sampled_from(["office", None]),
          paper=st.sampled_from(["a4", "letter"]))
    def choose_build_options(self, layout, printer, paper):
        self.layout, self.printer, self.paper = layout, printer, paper

    # -- the comparison ------------------------------------------------------------------

    def print_options(self) -> list[str]:
        """The builds' options; `home` is the default, left unsaid, as a user would."""
        return (["--layout", self.layout] if self.layout != "home" else []) + \
            (["--printer", self.printer] if self.printer else [])

    def run(self, argv: list[str], cache: Path) -> tuple[int, str, str]:
        """`pnp ARGV` as the console script runs it, in the project, with this cache folder."""
        out, err = io.StringIO(), io.StringIO()
        here = os.getcwd()
        os.environ["PNP_CACHE_DIR"] = str(cache)
        plugins._loaded.clear()  # a new process looks for its plug-ins afresh
        try:
            os.chdir(self.root)
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                code = pnp(argv)
        finally:
            os.chdir(here)
            os.environ["PNP_CACHE_DIR"] = str(self.cache)
        return code, out.getvalue(), err.getvalue()

    @invariant()
    def cached_answers_are_fresh_answers(self):
        self.compare_checks()
        self.compare_builds()

    def compare_checks(self) -> None:
        check = ["check", *(self.print_options() if CHECK_TAKES_PRINT_OPTIONS else [])]
        fresh = Path(tempfile.mkdtemp(prefix="fresh-", dir=self.base))
        try:
            cached = _masked(self.run(check, self.cache))
            uncached = _masked(self.run(check, fresh / "cache"))
            # Each kind of difference fails at a line of its own, so that Hypothesis tells
            # them apart and shrinks a sequence for each.
            differs = _difference(f"pnp {' '.join(check)}", cached, uncached)
            assert differs is None, differs
        finally:
            shutil.rmtree(fresh, ignore_errors=True)

    def compare_builds(self) -> None:
        build = ["build", *self.print_options(), *(["--paper", "a4"] if self.paper == "a4" else [])]
        fresh = Path(tempfile.mkdtemp(prefix="fresh-", dir=self.base))
        try:
            cached = self.run([*build, "--out", str(self.out)], self.cache)
            uncached = self.run([*build, "--no-cache", "--out", str(fresh / "out")],
                                fresh / "cache")
            differs = _difference(f"pnp {' '.join(build)}", _findings(cached),
                                  _findings(uncached))
            assert differs is None, differs
            if cached[0] == 0:
                # The kept folder also holds the PDFs of earlier builds with other options.
                kept = _pdfs(self.out / GAME, self.paper, self.layout)
                made = _pdfs(fresh / "out" / GAME, self.paper, self.layout)
                assert sorted(kept) == sorted(made), \
                    f"pnp {' '.join(build)}: PDFs {sorted(kept)}, without the cache {sorted(made)}"
                differ = [name for name in sorted(made) if kept[name] != made[name]]
                assert not differ, (f"pnp {' '.join(build)}: {', '.join(differ)} differ from "
                                    "the same PDFs built without the cache")
        finally:
            shutil.rmtree(fresh, ignore_errors=True)


_ELAPSED = re.compile(r"\(\d+\.\d+ s\)$", re.MULTILINE)
_BUILT = re.compile(r"^pnp build: \d+ PDFs? in \d+\.\d+ s(; \d+ unchanged)?$", re.MULTILINE)


def _masked(result: tuple[int, str, str]) -> tuple[int, str, str]:
    code, out, err = result
    return code, out, _ELAPSED.sub("(N s)", err)


def _findings(result: tuple[int, str, str]) -> tuple[int, str, str]:
    """A build's exit code and what it said, without which PDFs it wrote (a cached build
    writes fewer) or how long it took."""
    code, _, err = result
    return code, "", _BUILT.sub("pnp build: PDFs written", err)


def _difference(command: str, cached: tuple[int, str, str],
                uncached: tuple[int, str, str]) -> str | None:
    """None when the cached run answered as the uncached one did, else how it differs."""
    if cached == uncached:
        return None
    diff = "\n".join(difflib.unified_diff(
        f"exit {uncached[0]}\n{uncached[1]}{uncached[2]}".splitlines(),
        f"exit {cached[0]}\n{cached[1]}{cached[2]}".splitlines(),
        "without the cache", "with the cache", lineterm=""))
    return f"{command}: the cached answer differs\n{diff}"


def _pdfs(folder: Path, paper: str, layout: str) -> dict[str, bytes]:
    """The PDFs a build on this paper with this layout writes: SHEET-PAPER.pdf with `home`,
    else SHEET-PAPER-LAYOUT.pdf."""
    ending = f"-{paper}.pdf" if layout == "home" else f"-{paper}-{layout}.pdf"
    return {path.name: path.read_bytes() for path in folder.glob(f"*{ending}")}


CacheMachine.TestCase.settings = settings(
    max_examples=1 + math.ceil(STEPS / STEPS_PER_EXAMPLE),
    stateful_step_count=STEPS_PER_EXAMPLE,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                           HealthCheck.data_too_large],
)
TestCachedAnswersAreFreshAnswers = CacheMachine.TestCase


# -- the steps above that once gave a remembered answer other than a fresh one, each run once
# in the order that showed it (the state machine reaches them only by chance) ----------------


@contextlib.contextmanager
def _machine():
    machine = CacheMachine()
    try:
        yield machine
    finally:
        machine.teardown()


def test_a_plugin_installed_on_pythonpath_after_a_check_is_found():
    with _machine() as machine:
        machine.name_plugin(True)
        machine.compare_checks()  # the plug-in is not installed: an error
        machine.install_plugin(True)
        machine.compare_checks()


def test_an_edit_of_a_plugins_own_data_file_is_seen():
    with _machine() as machine:
        machine.install_plugin(True)
        machine.name_plugin(True)
        machine.compare_checks()
        machine.edit_plugin_data("goodbye")
        machine.compare_checks()


def test_a_pdf_altered_with_its_time_set_back_is_built_again():
    with _machine() as machine:
        machine.choose_build_options("prop", None, "a4")
        machine.compare_builds()
        machine.alter_output(0)
        machine.compare_builds()

