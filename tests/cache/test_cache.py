"""Build speed without surprises: `-j N` gives the bytes `-j 1` gives, and the build cache
skips a PDF only while nothing it depends on has changed."""

from __future__ import annotations

import concurrent.futures
import dataclasses
import hashlib
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pdfplumber
import pytest

import pnp.cache.pdfs
import pnp.fonts
import pnp.layout.layouts
import pnp.engine.workers
import pnp.pdf.draw
from pnp.pdf import DRAWING
from conftest import REPO

POKER = REPO / "bench" / "poker"
PDF = Path("output/poker/cards-letter.pdf")


@pytest.fixture
def poker(tmp_path, monkeypatch) -> Path:
    """The 54-card benchmark deck in a temporary project, which is the cwd."""
    for folder in ("content", "templates"):
        shutil.copytree(POKER / folder, tmp_path / folder)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    return tmp_path


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _no_drawing(monkeypatch) -> None:
    def refuse(*args, **kwargs):
        raise AssertionError("a PDF was drawn")

    monkeypatch.setattr(pnp.pdf.draw, "draw_pages", refuse)


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


# -- workers -----------------------------------------------------------------------------------

def test_two_processes_write_the_bytes_one_process_writes(poker, run, monkeypatch):
    monkeypatch.setattr(pnp.engine.workers, "PART_PAGES", 4)  # 12 pages: drawn in 3 parts
    assert [len(r) for r in pnp.engine.workers.split(12)] == [4, 4, 4]
    here, real = [], pnp.pdf.draw.draw_pages

    def drawn_here(plans):
        here.append(len(plans))
        return real(plans)

    monkeypatch.setattr(pnp.pdf.draw, "draw_pages", drawn_here)
    one = run("build", "-j", "1", "--no-cache", "--out", "one")
    assert here == [4, 4, 4]  # one process: every part drawn in it
    here.clear()
    sent = []

    class Pool(concurrent.futures.ProcessPoolExecutor):
        def submit(self, function, *args):
            if args and args[0] == DRAWING["draw"]:
                sent.append(len(args[1]))
            return super().submit(function, *args)

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", Pool)
    two = run("build", "-j", "2", "--no-cache", "--out", "two")
    assert one.code == 0 and two.code == 0, one.err + two.err
    assert sent == [4, 4, 4] and here == []  # the same parts, none drawn in this process
    first, second = (poker / name / "poker/cards-letter.pdf" for name in ("one", "two"))
    assert first.read_bytes() == second.read_bytes()
    with pdfplumber.open(second) as pdf:  # the parts were joined, every page kept
        assert len(pdf.pages) == 12
        fronts = "".join(pdf.pages[n].extract_text() for n in range(0, 12, 2))
        # (a deck with a shared back is laid in its seeded shuffle: any page may hold a card)
        assert all(f"{rank} of {suit}" in fronts for rank in ("A", "10", "K")
                   for suit in ("Spades", "Clubs"))


def test_every_pdf_of_a_kit_is_the_same_from_workers_as_from_one_process(project):
    """Two processes side by side; a worker draws sheets in another order than one process
    does, so nothing a sheet draws may depend on what its process drew before (text once
    came out a little different after other sheets: cairo kept the first font settings)."""
    builds = [subprocess.Popen([sys.executable, "-m", "pnp", "build", "--no-cache", "-j", jobs,
                                "--out", f"j{jobs}"], cwd=project, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True) for jobs in ("1", "2")]
    for build in builds:
        assert build.wait(timeout=120) == 0, build.stderr.read()
    one, two = ({p.name: p.read_bytes() for p in (project / f"j{jobs}/downturn").glob("*.pdf")}
                for jobs in ("1", "2"))
    assert len(one) == 9 and sorted(one) == sorted(two)  # 8 sheets and the cover
    assert [name for name in one if one[name] != two[name]] == []


def test_parts_keep_a_fronts_page_with_its_backs_page():
    for pages in (2, 10, 64, 66, 130, 200):
        parts = pnp.engine.workers.split(pages)
        assert sum(len(p) for p in parts) == pages
        assert [p.start for p in parts] == sorted({p.start for p in parts})
        assert all(p.start % 2 == 0 for p in parts)


def test_jobs_must_be_a_positive_whole_number(poker, run):
    result = run("build", "-j", "0")
    assert result.code == 2
    assert "expected a whole number of processes >= 1, got '0'" in result.err


# -- the cache ---------------------------------------------------------------------------------

def test_a_warm_build_with_nothing_changed_draws_nothing(poker, run, monkeypatch):
    assert run("build").code == 0
    before = (_digest(poker / PDF), (poker / PDF).stat().st_mtime_ns)
    _no_drawing(monkeypatch)
    result = run("build")
    assert result.code == 0, result.err
    assert "0 PDFs" in result.err and "1 unchanged" in result.err
    assert "wrote" not in result.out
    assert (_digest(poker / PDF), (poker / PDF).stat().st_mtime_ns) == before


def _rebuilt(run, poker) -> bool:
    before = _digest(poker / PDF)
    result = run("build")
    assert result.code == 0, result.err
    rewritten = "cards-letter.pdf" in result.out
    if not rewritten:
        assert _digest(poker / PDF) == before  # not written means not touched
    return rewritten


def test_a_template_edit_rebuilds(poker, run):
    assert run("build").code == 0
    _edit(poker / "templates/poker/card-back.svg.j2", 'stroke="#ffffff"', 'stroke="#ff0000"')
    assert _rebuilt(run, poker)
    assert not _rebuilt(run, poker)


def test_a_data_edit_rebuilds(poker, run):
    assert run("build").code == 0
    _edit(poker / "content/poker/cards.csv", "A of Spades", "Ace of Spades")
    assert _rebuilt(run, poker)
    with pdfplumber.open(poker / PDF) as pdf:
        assert "Ace of Spades" in "".join(page.extract_text() for page in pdf.pages)


def test_a_font_edit_rebuilds(poker, run, monkeypatch, tmp_path_factory):
    fonts = tmp_path_factory.mktemp("fonts")
    for face in pnp.fonts.BUNDLED.every_face():
        shutil.copy(pnp.fonts.font_dir() / face.file, fonts / face.file)
    monkeypatch.setattr(pnp.fonts, "font_dir", lambda: fonts)
    assert run("build").code == 0
    assert not _rebuilt(run, poker)
    with (fonts / pnp.fonts.FACES["title"].file).open("ab") as handle:
        handle.write(b"\0\0\0\0")  # a different file, as a font update would be
    assert _rebuilt(run, poker)


def test_a_layout_edit_rebuilds(poker, run, monkeypatch):
    assert run("build").code == 0
    real = pnp.layout.layouts.builtin_layouts

    def wider_gaps():
        layouts = real()
        return {**layouts, "home": dataclasses.replace(layouts["home"], gap_mm=2)}

    monkeypatch.setattr(pnp.layout.layouts, "builtin_layouts", wider_gaps)
    assert _rebuilt(run, poker)
    assert not _rebuilt(run, poker)


def test_the_paper_and_the_date_stamp_are_inputs(poker, run, monkeypatch):
    assert run("build").code == 0
    result = run("build", "--paper", "a4")
    assert "cards-a4.pdf" in result.out
    assert not _rebuilt(run, poker)  # the Letter PDF is still current
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    assert _rebuilt(run, poker)


def test_a_new_pnp_version_rebuilds(poker, run, monkeypatch):
    assert run("build").code == 0
    monkeypatch.setattr(pnp.cache.pdfs, "__version__", "99.0")
    assert _rebuilt(run, poker)


def test_a_pdf_changed_by_hand_is_rebuilt(poker, run):
    assert run("build").code == 0
    good = _digest(poker / PDF)
    (poker / PDF).write_bytes(b"%PDF-1.7 not what pnp wrote")
    assert _rebuilt(run, poker)
    assert _digest(poker / PDF) == good


def test_no_cache_draws_everything(poker, run):
    assert run("build").code == 0
    result = run("build", "--no-cache")
    assert "wrote output/poker/cards-letter.pdf" in result.out


def test_an_interrupted_cached_build_leaves_a_usable_cache_and_the_old_pdfs(project, run,
                                                                            monkeypatch):
    sheets = ("--sheets", "events,banks", "-j", "1")
    folder = project / "output/downturn"
    assert run("build", *sheets).code == 0
    old = {p.name: p.read_bytes() for p in folder.glob("*.pdf")}
    record = (folder / pnp.cache.pdfs.CACHE_FILE).read_bytes()
    _edit(project / "content/downturn/game.yaml", "title: Downturn", "title: Downturn Revised")
    real, calls = pnp.pdf.draw.draw_pages, []

    def fail_second(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(pnp.pdf.draw, "draw_pages", fail_second)
    assert run("build", *sheets).code == 130
    assert {p.name: p.read_bytes() for p in folder.glob("*.pdf")} == old
    assert (folder / pnp.cache.pdfs.CACHE_FILE).read_bytes() == record
    monkeypatch.setattr(pnp.pdf.draw, "draw_pages", real)
    result = run("build", *sheets)  # the content changed: both are drawn again ...
    assert result.out.count("wrote") == 2, result.err
    files = json.loads((folder / pnp.cache.pdfs.CACHE_FILE).read_text())["files"]
    assert set(files) == {"events-letter.pdf", "banks-letter.pdf"}
    _no_drawing(monkeypatch)
    result = run("build", *sheets)  # ... and then neither
    assert result.code == 0 and "wrote" not in result.out, result.err


def test_the_key_covers_every_field_of_a_plan():
    from pnp.units import Rect
    from pnp.fonts import font_files
    from pnp.layout.plans import DocumentInfo, PagePlan, Placement
    from pnp.units import Size

    def key(**changes):
        placed = Placement(1, 2, "<svg/>", **changes.pop("placement", {}))
        plan = PagePlan(**{"paper": Size(100, 50), "trim": Rect(0, 0, 100, 50),
                           "furniture": "<svg/>", "placements": (placed,), **changes})
        return pnp.cache.pdfs.output_key([plan], DocumentInfo("t", "a", "s"), font_files())

    keys = [key(), key(paper=Size(100, 51)), key(trim=Rect(0, 0, 99, 50)),
            key(furniture="<svg />"), key(placement={"clip": Rect(0, 0, 1, 1)}),
            key(placement={"scale": 0.5}), key(placements=())]
    assert len(set(keys)) == len(keys)
    assert key() == key()


HOME_LAYOUT = """\
home:
  description: home, with a 2 mm gap
  gap_mm: 2
  min_margin_mm: 7
  marks: {style: ticks, length_mm: 5, offset_mm: 1.5, width_pt: 0.3}
  duplex: long-edge
  backs: after-fronts
"""


def test_a_project_layouts_edit_between_builds_prints_what_no_cache_prints(project, capsys,
                                                                             monkeypatch):
    """The console command, start to end: an edit of the project's layouts.yaml is an input
    of the next build, whose PDF is then byte for byte the one `--no-cache` writes; a layout
    the pieces no longer fit fails both alike."""
    from pnp.entry import run as console

    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    layouts = project / "layouts.yaml"
    layouts.write_text(HOME_LAYOUT, encoding="utf-8")
    build = ["build", "--game", "downturn", "--sheets", "events", "-j", "1"]
    pdf = project / "output/downturn/events-letter.pdf"
    assert console(build) == 0
    before = _digest(pdf)
    _edit(layouts, "gap_mm: 2", "gap_mm: 5")
    assert console(build) == 0
    assert console([*build, "--no-cache", "--out", "fresh"]) == 0
    assert _digest(pdf) == _digest(project / "fresh/downturn/events-letter.pdf") != before
    _edit(layouts, "min_margin_mm: 7", "min_margin_mm: 80")
    capsys.readouterr()
    assert console(build) == 1
    cached = capsys.readouterr().err
    assert console([*build, "--no-cache"]) == 1
    assert "layout-too-large" in cached and cached == capsys.readouterr().err
