"""Print layouts, read back: each layout's PDF as pdfplumber, PDFium and MuPDF read it, not as the
layout code that produced it says. Marks describe the piece size, boxes are the declared sizes,
short-edge backs lie under their fronts, the universal sheet fits A4 and Letter, gutterfold fronts
and backs meet at the fold, and a printer profile moves every back by its offset."""

from __future__ import annotations

from pathlib import Path

import pdfplumber
import pytest

from conftest import add_game, crop_marks, edit
from sameplace import project, same_place  # noqa: F401 - fixtures
from pdfread import page_boxes, top_down, viewer_preferences
from pnp.units import PAPERS, pt_to_mm

# A test face: a 3 x 2 mm square at the card centre and a 3 x 1 mm bar near its top edge,
# so where a face lands and which way it is turned can both be read back.
MARKED_FACE = """<svg xmlns="http://www.w3.org/2000/svg" width="63mm" height="88mm" viewBox="0 0 63 88">
<text x="31.5" y="20" text-anchor="middle" font-family="Roboto Condensed" font-size="4">#{{ card.number }}</text>
<rect x="30" y="43" width="3" height="2" fill="#000000"/>
<rect x="30" y="6" width="3" height="1" fill="#000000"/>
</svg>
"""


@pytest.fixture
def marked(project):
    templates = project / "templates" / "downturn"
    (templates / "event-front.svg.j2").write_text(MARKED_FACE)
    (templates / "event-back.svg.j2").write_text(MARKED_FACE)
    return project


def squares(page, w_mm: float, h_mm: float) -> list[tuple[float, float]]:
    """Centres (mm, from the top-left) of every filled rect of the given size, either way up."""
    found = []
    for r in page.rects:
        w, h = pt_to_mm(r["width"]), pt_to_mm(r["height"])
        if (abs(w - w_mm) < 0.02 and abs(h - h_mm) < 0.02) or \
                (abs(w - h_mm) < 0.02 and abs(h - w_mm) < 0.02):
            found.append((pt_to_mm((r["x0"] + r["x1"]) / 2),
                          pt_to_mm((r["top"] + r["bottom"]) / 2)))
    return sorted(found)


def build(run, project: Path, *args: str) -> Path:
    result = run("build", "--sheets", "events", *args)
    assert result.code == 0, result.err
    written = [line.split()[-1] for line in result.out.splitlines() if line.startswith("wrote")]
    pdfs = [p for p in written if p.endswith(".pdf") and "/events" in p]
    assert len(pdfs) == 1, result.out
    return project / pdfs[0]


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_short_edge_backs_lie_under_their_fronts_after_a_short_edge_flip(marked, run, paper):
    pdf_path = build(run, marked, "--paper", paper, "--layout", "home-short-edge")
    assert viewer_preferences(pdf_path)["/Duplex"] == "/DuplexFlipShortEdge"
    height = PAPERS[paper].height_mm
    with pdfplumber.open(pdf_path) as pdf:
        assert len(pdf.pages) == 10
        for front, back in zip(pdf.pages[::2], pdf.pages[1::2]):
            fronts, backs = squares(front, 3, 2), squares(back, 3, 2)
            assert fronts and len(fronts) == len(backs)
            # Turned over the short edge, a back at (x, y) lies behind (x, height - y).
            flipped = sorted((x, height - y) for x, y in backs)
            for (fx, fy), (bx, by) in zip(fronts, flipped):
                assert abs(fx - bx) < 0.05 and abs(fy - by) < 0.05
            # And each back is turned so its top lies behind its front's top: the same
            # card a long-edge flip makes.
            front_tops = squares(front, 3, 1)
            back_tops = sorted((x, height - y) for x, y in squares(back, 3, 1))
            for (fx, fy), (bx, by) in zip(front_tops, back_tops):
                assert abs(fx - bx) < 0.05 and abs(fy - by) < 0.05
            text = "".join((front.extract_text() + back.extract_text()).split())
            assert "shortedge" in text and "short-edge" in text
            assert "long" not in text.lower()


def test_backs_at_the_end_come_after_every_front(marked, run):
    pdf_path = build(run, marked, "--layout", "home-stack")
    with pdfplumber.open(pdf_path) as pdf:
        sides = ["Fronts." in "".join(p.extract_text().split()) for p in pdf.pages]
    assert sides == [True] * 5 + [False] * 5


def test_gutter_layout_has_the_declared_pieces_gap_bleed_and_trim(project, run):
    """With a 5.5 mm gutter the marks stand on both edges of every piece (63 mm apart, then
    the gap); the BleedBox is the TrimBox grown by the bleed (2.75 mm: half the gap caps the
    deck's 1/8 inch)."""
    pdf_path = build(run, project, "--layout", "home-gutter")
    boxes = page_boxes(pdf_path)
    height = PAPERS["letter"].height_mm
    with pdfplumber.open(pdf_path) as pdf:
        page = pdf.pages[0]
        xs, ys, _ = crop_marks(page)
    steps = [round(b - a, 1) for a, b in zip(xs, xs[1:])]
    assert steps == [63.0, 5.5, 63.0, 5.5, 63.0]
    assert [round(b - a, 1) for a, b in zip(ys, ys[1:])] == [88.0, 5.5, 88.0]
    left, top, right, bottom = top_down(boxes[0]["TrimBox"], height)
    assert (left, top, right, bottom) == pytest.approx((xs[0], ys[0], xs[-1], ys[-1]), abs=0.02)
    bleed = top_down(boxes[0]["BleedBox"], height)
    assert bleed == pytest.approx((left - 2.75, top - 2.75, right + 2.75, bottom + 2.75), abs=0.02)


def test_print_shop_pages_are_one_face_with_its_bleed_back_first(project, run):
    pdf_path = build(run, project, "--layout", "print-shop")
    boxes = page_boxes(pdf_path)
    assert len(boxes) == 2 * 42
    bleed = 25.4 / 8
    for page in boxes:
        x0, y0, x1, y1 = page["MediaBox"]
        assert (x1 - x0, y1 - y0) == pytest.approx((63 + 2 * bleed, 88 + 2 * bleed), abs=0.01)
        assert page["TrimBox"] == pytest.approx((bleed, bleed, 63 + bleed, 88 + bleed), abs=0.01)
        assert page["BleedBox"] == pytest.approx(page["MediaBox"], abs=0.01)
    with pdfplumber.open(pdf_path) as pdf:
        first, second = (pdf.pages[i].extract_text(x_tolerance=1) for i in (0, 1))
    assert "Downturn\n" in first and "Housing Starts Slow" in second  # back 1, then front 1


def test_universal_sheet_cut_lines_lie_inside_a4_and_letter_with_the_margin(project, run):
    """One page for both papers: its cut lines keep the declared 7 mm margin on A4 and on US
    Letter, whether a printer centres the page on the paper or puts it at the top-left."""
    pdf_path = build(run, project, "--layout", "universal")
    margin = 7
    rows = []
    with pdfplumber.open(pdf_path) as pdf:
        for page in pdf.pages:
            page_w, page_h = pt_to_mm(page.width), pt_to_mm(page.height)
            xs, ys, _ = crop_marks(page)
            assert [round(b - a, 1) for a, b in zip(xs, xs[1:])] == [63.0] * (len(xs) - 1)
            for paper in PAPERS.values():
                for dx, dy in ((0, 0), ((paper.width_mm - page_w) / 2,
                                        (paper.height_mm - page_h) / 2)):
                    assert min(xs) + dx >= margin and max(xs) + dx <= paper.width_mm - margin
                    assert min(ys) + dy >= margin and max(ys) + dy <= paper.height_mm - margin
            assert len(xs) == 4  # three poker cards across, as on either paper alone
            rows.append(len(ys) - 1)
    # Three down: nine, what both papers hold; the 42 events fill four sheets, and the last
    # sheet's six (fronts and backs) lie in two rows, marked where its own pieces end.
    assert rows == [3] * 8 + [2] * 2


def test_gutterfold_fronts_and_backs_meet_at_the_fold(marked, run):
    pdf_path = build(run, marked, "--layout", "gutterfold")
    with pdfplumber.open(pdf_path) as pdf:
        assert len(pdf.pages) == 11  # 42 cards, 4 a sheet, single-sided
        page = pdf.pages[0]
        width = pt_to_mm(page.width)
        folds = [line for line in page.lines if abs(line["x0"] - line["x1"]) < 0.01
                 and line.get("dash") and abs(pt_to_mm(line["x0"]) - width / 2) < 0.01]
        fold = width / 2
        assert folds, "no dashed fold line at the centre"
        assert "layoutgutterfold" in "".join(page.extract_text().split())
        centres = squares(page, 3, 2)
        tops = squares(page, 3, 1)
    fronts = [c for c in centres if c[0] < fold]
    backs = [c for c in centres if c[0] > fold]
    assert len(fronts) == len(backs) == 4
    for (fx, fy), (bx, by) in zip(sorted(fronts, key=lambda c: c[1]),
                                  sorted(backs, key=lambda c: c[1])):
        assert abs((fold - fx) - (bx - fold)) < 0.05 and abs(fy - by) < 0.05
        assert abs(fold - fx - 44) < 0.05  # a card turned on its side: its centre 44 mm off
    # The top of every front points away from the fold, and so does its back: folded, they
    # agree.
    for x, y in tops:
        assert abs(abs(x - fold) - (88 - 6.5)) < 0.05


def test_a_printer_profile_moves_every_back_by_its_offset(marked, run):
    result = run("calibrate", "--save", "office", "--x", "1.5", "--y", "-0.7",
                 "--description", "test printer")
    assert result.code == 0, result.err
    plain = build(run, marked)
    moved_path = marked / "output" / "downturn" / "events-letter.moved.pdf"
    plain.rename(moved_path.with_name("events-letter.plain.pdf"))
    shifted = build(run, marked, "--printer", "office")
    plain = moved_path.with_name("events-letter.plain.pdf")
    with pdfplumber.open(plain) as a, pdfplumber.open(shifted) as b:
        for number, (pa, pb) in enumerate(zip(a.pages, b.pages)):
            before, after = squares(pa, 3, 2), squares(pb, 3, 2)
            assert before and len(before) == len(after)
            dx, dy = (1.5, -0.7) if number % 2 else (0, 0)
            for (x0, y0), (x1, y1) in zip(before, after):
                assert abs(x1 - x0 - dx) < 0.05 and abs(y1 - y0 - dy) < 0.05
        assert "Printerprofile:office" in "".join(b.pages[1].extract_text().split())
    trims = [top_down(p["TrimBox"], PAPERS["letter"].height_mm) for p in page_boxes(shifted)]
    plain_trims = [top_down(p["TrimBox"], PAPERS["letter"].height_mm) for p in page_boxes(plain)]
    for number, (t1, t0) in enumerate(zip(trims, plain_trims)):
        dx, dy = (1.5, -0.7) if number % 2 else (0, 0)
        assert t1 == pytest.approx((t0[0] + dx, t0[1] + dy, t0[2] + dx, t0[3] + dy), abs=0.01)


def test_an_unknown_printer_profile_is_a_located_error(project, run):
    result = run("build", "--sheets", "events", "--printer", "nosuch")
    assert result.code == 1
    assert "printers/nosuch.yaml: error: no printer profile 'nosuch'" in result.err


def test_calibration_sheet_has_a_scale_behind_every_crosshair(project, run):
    result = run("calibrate", "--paper", "a4")
    assert result.code == 0, result.err
    path = project / "output" / "calibration-a4.pdf"
    width = PAPERS["a4"].width_mm
    with pdfplumber.open(path) as pdf:
        assert len(pdf.pages) == 2
        front, back = pdf.pages
        # Crosshair arms are 12 mm lines; their crossings are the points.
        arms = [ln for ln in front.lines
                if abs(pt_to_mm(max(abs(ln["x1"] - ln["x0"]), abs(ln["bottom"] - ln["top"])))
                       - 12) < 0.01]
        points = sorted({(round(pt_to_mm((ln["x0"] + ln["x1"]) / 2), 2),
                          round(pt_to_mm((ln["top"] + ln["bottom"]) / 2), 2)) for ln in arms})
        assert len(points) == 5
        zeros = [w for w in back.extract_words() if w["text"] == "0"]
        # Each point's "0" on the back's x scale stands under the mirrored crosshair.
        for x, y in points:
            assert any(abs(pt_to_mm((w["x0"] + w["x1"]) / 2) - (width - x)) < 0.3
                       for w in zeros), (x, y)
    assert viewer_preferences(path)["/PrintScaling"] == "/None"


def test_layouts_are_listed_and_a_project_may_add_its_own(project, run):
    (project / "layouts.yaml").write_text(
        "two-by-two:\n  description: four big cards a sheet\n  grid: {cols: 2, rows: 2}\n"
        "  marks: {style: ticks, length_mm: 5, offset_mm: 2}\n")
    result = run("layouts")
    assert result.code == 0, result.err
    names = [line.split()[0] for line in result.out.splitlines()]
    assert {"home", "gutterfold", "universal", "print-shop", "two-by-two"} <= set(names)
    pdf_path = build(run, project, "--layout", "two-by-two")
    with pdfplumber.open(pdf_path) as pdf:
        xs, ys, _ = crop_marks(pdf.pages[0])
        assert len(pdf.pages) == 2 * 11
    assert len(xs) == 3 and len(ys) == 3


def test_unknown_layout_is_a_usage_error_with_a_suggestion(project, run):
    result = run("build", "--sheets", "events", "--layout", "gutterfolds")
    assert result.code == 2
    assert "no layout named 'gutterfolds'; did you mean 'gutterfold'?" in result.err


def test_a_bad_project_layout_is_a_located_error(project, run):
    (project / "layouts.yaml").write_text("mine:\n  description: x\n  gap_mm: wide\n")
    result = run("build", "--sheets", "events", "--layout", "mine")
    assert result.code == 1
    assert "layouts.yaml:3:11: error:" in result.err and "nothing was written" in result.err


def test_a_deck_declares_its_bleed_and_the_boxes_say_so(project, run):
    """bleed_mm in the manifest is the bleed of the print-shop pages (and of gutter sheets, up
    to half the gap): MediaBox = BleedBox = trim + 2 x bleed, TrimBox the card."""
    edit(project / "content" / "downturn" / "game.yaml",
         "    front: event-front.svg.j2\n", "    front: event-front.svg.j2\n    bleed_mm: 2\n")
    boxes = page_boxes(build(run, project, "--layout", "print-shop"))
    for page in boxes[:4]:
        x0, y0, x1, y1 = page["MediaBox"]
        assert (x1 - x0, y1 - y0) == pytest.approx((67, 92), abs=0.01)
        assert page["TrimBox"] == pytest.approx((2, 2, 65, 90), abs=0.01)
        assert page["BleedBox"] == pytest.approx(page["MediaBox"], abs=0.01)
    gutter = page_boxes(build(run, project, "--layout", "home-gutter"))[0]
    trim, bleed = gutter["TrimBox"], gutter["BleedBox"]
    assert bleed == pytest.approx((trim[0] - 2, trim[1] - 2, trim[2] + 2, trim[3] + 2), abs=0.01)


def test_a_layout_of_slots_places_and_turns_each_piece_where_it_says(marked, run):
    """Two cards upright and one on its side (turned 90 degrees clockwise: its top points
    right), as a project's layouts.yaml lists them; the backs mirror them for a long-edge flip
    with the turned card's back turned the other way, so its top lies behind the front's."""
    (marked / "layouts.yaml").write_text(
        "three:\n  description: two upright, one on its side\n  kind: slots\n"
        "  slots:\n    - {x_mm: 20, y_mm: 20}\n    - {x_mm: 90, y_mm: 20}\n"
        "    - {x_mm: 20, y_mm: 120, rotate: 90}\n")
    pdf_path = build(run, marked, "--layout", "three")
    width = PAPERS["letter"].width_mm
    with pdfplumber.open(pdf_path) as pdf:
        assert len(pdf.pages) == 2 * 14
        front, back = pdf.pages[0], pdf.pages[1]
        centres = squares(front, 3, 2)
        expected = [(20 + 31.5, 20 + 44), (20 + 44, 120 + 31.5), (90 + 31.5, 20 + 44)]
        assert _flat(centres) == pytest.approx(_flat(expected), abs=0.05)
        turned = [x for x, y in squares(front, 3, 1) if abs(y - (120 + 31.5)) < 0.05]
        assert turned == pytest.approx([20 + 88 - 6.5], abs=0.05)  # turned: top to the right
        mirrored = sorted((width - x, y) for x, y in squares(back, 3, 1))
        assert _flat(mirrored) == pytest.approx(_flat(squares(front, 3, 1)), abs=0.05)


def _flat(points) -> list[float]:
    return [v for point in points for v in point]


def test_check_warns_when_text_reaches_into_the_safe_margin(project, run):
    assert "0 warnings" in run("check").err  # the kit keeps its text 3 mm inside the trim
    edit(project / "content" / "downturn" / "game.yaml",
         "    front: event-front.svg.j2\n", "    front: event-front.svg.j2\n    safe_mm: 8\n")
    result = run("check")
    assert result.code == 0  # a warning: --strict makes it fail
    warned = [line for line in result.lines if "(rule text-in-safe-margin)" in line]
    assert warned and all(line.startswith("content/downturn/events.yaml:") for line in warned)
    assert "8 mm safe margin of its 63 x 88 mm piece" in warned[0]
    assert run("check", "--strict").code == 1


def test_a_printer_profile_scale_is_read_from_the_side_crosshairs_and_applied(marked, run):
    """Readings of -0.5 mm at the left crosshair and +0.5 mm at the right one mean the printer
    prints the back 1 mm too small over the 165.9 mm between them: the backs are enlarged
    about the page centre by that much, and shifted by the centre reading."""
    result = run("calibrate", "--save", "small", "--x", "0.2", "--y", "0",
                 "--left-x", "-0.5", "--right-x", "0.5")
    assert result.code == 0, result.err
    profile = (marked / "printers" / "small.yaml").read_text()
    span = PAPERS["letter"].width_mm - 50
    assert f"scale: {1 + 1 / span:.5g}" in profile
    plain = build(run, marked)
    plain = plain.rename(plain.with_name("plain.pdf"))
    scaled = build(run, marked, "--printer", "small")
    cx, cy = PAPERS["letter"].width_mm / 2, PAPERS["letter"].height_mm / 2
    scale = float(profile.split("scale: ")[1])
    with pdfplumber.open(plain) as a, pdfplumber.open(scaled) as b:
        before, after = squares(a.pages[1], 3, 2), squares(b.pages[1], 3, 2)
        assert before and len(after) == len(before)  # sizes grow by 0.6%: still within 0.02
        for (x0, y0), (x1, y1) in zip(before, after):
            assert abs(x1 - (cx + (x0 - cx) * scale + 0.2)) < 0.05
            assert abs(y1 - (cy + (y0 - cy) * scale)) < 0.05
        assert squares(a.pages[0], 3, 2) == squares(b.pages[0], 3, 2)  # fronts untouched


def test_calibrate_refuses_half_a_scale_reading(project, run):
    result = run("calibrate", "--save", "x", "--left-x", "1")
    assert result.code == 2
    assert "give both --left-x and --right-x" in result.err
    assert not (project / "printers").exists()


def test_build_says_when_a_sheet_gives_up_room_for_the_ruler_and_notes(project, run):
    """18 mm tokens fill Letter to within its margins: a sheet holds a row fewer so the ruler
    and notes fit, and build says so; check stays clean, as nothing is wrong with the game."""
    add_game(project, "banking")
    with (project / "content" / "banking" / "tokens.csv").open("a", encoding="utf-8") as csv:
        csv.write("credit,1,300\n")
    assert "0 warnings" in run("check", "--game", "banking").err
    result = run("build", "--game", "banking", "--sheets", "tokens")
    assert result.code == 0, result.err
    assert ("pnp build: tokens-letter.pdf: note: the ruler and print notes do not fit the "
            "margins of a full sheet of 18 x 18 mm pieces; each sheet holds 143 instead of 154"
            in result.err)
    with pdfplumber.open(project / "output" / "banking" / "tokens-letter.pdf") as pdf:
        text = "".join(pdf.pages[0].extract_text().split())
    assert "50mm:measuretochecktheprintscale" in text and "Printat100%" in text
