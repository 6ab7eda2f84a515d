"""Version stamps, build history, `pnp diff` and `pnp build --reprint`, read back from the
PDFs with pdfplumber and PDFium, and the visual diff in a real headless Chromium."""

from __future__ import annotations

import io
import json
import lzma
import re
import shutil
import subprocess
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path

import pdfplumber
import pytest

from conftest import REPO, Result, edit
from sameplace import project, same_place  # noqa: F401 - fixtures
from pdfread import page_texts
from pnp.cli import main
from pnp.units import PAPERS, mm_to_pt, pt_to_mm

EVENTS = "content/downturn/events.yaml"
BANKS = "content/downturn/banks.yaml"
OUT = Path("output/downturn")
STAMP = re.compile(r"v[0-9a-f]{6}")
SWAP_OLD = ("Active player (Leader during the Initial Draw) moves up to 5 permanent cubes from "
            "any owned banks to one bank they own; bank maximums are ignored.")
SWAP_NEW = "The Leader swaps the permanent cubes of two owned banks in one region."
EDITED = ['event 1 "Housing Starts Slow": effect changed',
          'event 16 "Credit Swap": effect changed',
          'bank "Dixie Bank": dividend 3 -> 4']


def build(run, *extra: str, sheets: str = "banks"):
    """A build of few sheets (quick); the history records every face all the same."""
    result = run("build", "--game", "downturn", "--sheets", sheets, *extra)
    assert result.code == 0, result.err
    return result


def edit_three_cards(project: Path) -> None:
    edit(project / EVENTS, 'effect: "Stability -1."\n  stability: -1\n  invest: {green: 2}',
         'effect: "Stability -1. Each player discards a card."\n  stability: -1\n'
         '  invest: {green: 2}')
    edit(project / EVENTS, f'effect: "{SWAP_OLD}"', f'effect: "{SWAP_NEW}"')
    edit(project / BANKS, "auction_order: 2\n  dividend: 3", "auction_order: 2\n  dividend: 4")


def records(project: Path) -> list[dict]:
    """The build records, read as any xz reader would (the .xz container, not pnp's code)."""
    folder = project / OUT / "history" / "builds"
    return [json.loads(lzma.decompress(p.read_bytes(), format=lzma.FORMAT_XZ))
            for p in sorted(folder.glob("*.json.xz"))]


def stamps_of(record: dict) -> dict[tuple[str, str, str], str]:
    return {(f["sheet"], f["label"], f["side"]): f["stamp"] for f in record["faces"]}


def pdf_stamps(path: Path) -> list[str]:
    """The stamps in a PDF's text, read by PDFium (cairo spaces some letters apart)."""
    text = "\n".join(page_texts(path))
    return STAMP.findall(re.sub(r"(?<=[0-9a-fv]) (?=[0-9a-f])", "", text))


@dataclass
class Scenario:
    """Build 1; edit two events and a bank; diff; build 2 with --reprint; the same build again,
    unchanged (which records nothing)."""

    project: Path
    diff: Result
    reprint: Result
    again: Result
    records: list[dict]


@pytest.fixture(scope="module")
def scenario(tmp_path_factory) -> Scenario:
    folder = tmp_path_factory.mktemp("scenario")
    for part in ("content", "templates"):
        shutil.copytree(REPO / part, folder / part)
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(folder)

        def run(*args: str) -> Result:
            out, err = io.StringIO(), io.StringIO()
            with redirect_stdout(out), redirect_stderr(err):
                code = main(list(args))
            return Result(code, out.getvalue(), err.getvalue())

        build(run, sheets="events,banks")
        edit_three_cards(folder)
        diff = run("diff", "--game", "downturn")
        reprint = build(run, "--reprint")
        shutil.copy(folder / OUT / "reprint-letter.pdf", folder / "reprint-of-build-2.pdf")
        again = build(run, "--reprint")
        return Scenario(folder, diff, reprint, again, records(folder))


# -- stamps ------------------------------------------------------------------------------------

def test_stamps_are_text_in_the_pdf_stable_and_change_only_for_the_edited_cards(scenario):
    first, second = scenario.records
    # The unchanged rebuild prints what build 2 did: it is build 2 again, not a third record.
    assert [r["build"] for r in scenario.records] == [1, 2]
    fronts = {k: v for k, v in stamps_of(first).items() if k[2] == "front"}
    assert len(set(fronts.values())) == len(fronts)  # one stamp per card
    events = {v for k, v in stamps_of(first).items() if k[0] == "events"}
    in_pdf = pdf_stamps(scenario.project / OUT / "events-letter.pdf")  # written by build 1
    assert set(in_pdf) == events
    assert len(in_pdf) == 2 * 42  # every front and every back carries one
    differ = sorted(k for k in stamps_of(second) if stamps_of(second)[k] != stamps_of(first)[k])
    assert differ == [("banks", 'bank "Dixie Bank"', "front"),
                      ("events", 'event 1 "Housing Starts Slow"', "front"),
                      ("events", 'event 16 "Credit Swap"', "front")]
    new = stamps_of(second)[("banks", 'bank "Dixie Bank"', "front")]
    assert new in pdf_stamps(scenario.project / OUT / "banks-letter.pdf")


def test_stamps_false_prints_no_stamps_but_still_records_them(project, run):
    edit(project / "content/downturn/game.yaml", "plugin: downturn\n",
         "plugin: downturn\nstamps: false\n")
    build(run)
    assert pdf_stamps(project / OUT / "banks-letter.pdf") == []
    assert all(STAMP.fullmatch(f["stamp"]) for f in records(project)[0]["faces"])


def test_a_template_without_a_stamp_gets_one_in_the_corner(project, run):
    template = project / "templates/downturn/bank-front.svg.j2"
    text = template.read_text(encoding="utf-8")
    template.write_text(re.sub(r".*\{\{ stamp \}\}.*\n", "", text), encoding="utf-8")
    build(run)
    with pdfplumber.open(project / OUT / "banks-letter.pdf") as pdf:
        page = pdf.pages[0]
        words = page.extract_words()
    found = [w for w in words if STAMP.fullmatch(w["text"])]
    assert len(found) == 9  # the nine banks of a sheet, each stamped once
    # Each card's background runs 5 mm past its trim (a bleed has something in it).
    card_rects = [{"x0": r["x0"] + mm_to_pt(5), "x1": r["x1"] - mm_to_pt(5),
                   "top": r["top"] + mm_to_pt(5), "bottom": r["bottom"] - mm_to_pt(5)}
                  for r in page.rects if abs(pt_to_mm(r["width"]) - 73) < 0.05
                  and abs(pt_to_mm(r["height"]) - 98) < 0.05]
    assert len(card_rects) == 9
    for word in found:  # bottom right of its 63 x 88 mm card, inside the 3 mm safe zone
        card = next(r for r in card_rects if r["x0"] <= word["x0"] <= r["x1"]
                    and r["top"] <= word["top"] <= r["bottom"])
        assert 3 <= pt_to_mm(card["x1"] - word["x1"]) <= 6
        assert 3 <= pt_to_mm(card["bottom"] - word["bottom"]) <= 4.5


# -- history and diff --------------------------------------------------------------------------

def test_diff_names_exactly_the_edited_cards_and_fields(scenario):
    assert scenario.diff.code == 0, scenario.diff.err
    assert scenario.diff.out.splitlines() == EDITED
    assert "3 changed, 0 added, 0 removed since build 1" in scenario.diff.err
    text = "\n".join(page_texts(scenario.project / OUT / "proof/diff.pdf"))
    for line in EDITED:
        assert line.split(":")[0] in text
    assert "Jobs Report Beats Forecast" not in text  # an unchanged card is not shown


def test_the_proof_gallery_links_to_the_visual_diff(scenario, run, monkeypatch):
    monkeypatch.chdir(scenario.project)
    assert run("proof", "--game", "downturn").code == 0
    gallery = (scenario.project / OUT / "proof/index.html").read_text(encoding="utf-8")
    assert '<a href="diff.html">' in gallery


def test_diff_of_added_and_removed_cards(project, run):
    build(run)
    text = (project / BANKS).read_text(encoding="utf-8")
    edit(project / BANKS, "- name: Cascade Home Loan", "- name: Harbor Home Loan")
    result = run("diff", "--game", "downturn")
    assert result.out.splitlines() == ['bank "Harbor Home Loan": added',
                                       'bank "Cascade Home Loan": removed',
                                       "board: board changed"], result.err  # it names banks
    (project / BANKS).write_text(text, encoding="utf-8")
    assert run("diff", "--game", "downturn").out == ""


def test_first_build_and_no_git_give_one_line(project, run, monkeypatch):
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(project.parent))  # no repository above
    result = run("diff", "--game", "downturn")
    assert result.code == 1
    assert result.lines == ["pnp diff: downturn has no build history yet: run 'pnp build' "
                            "once, edit, then diff (or give --since GIT-REF)"]
    build(run)
    result = run("diff", "--game", "downturn", "--since", "main")
    assert result.code == 1
    assert len(result.lines) == 1
    assert "not a git repository" in result.lines[0] and "builds: 1" in result.lines[0]
    assert run("diff", "--game", "downturn", "--since", "1").code == 0


def test_diff_since_a_git_commit(project, run):
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    git = ["git", "-c", "user.name=Tester", "-c", "user.email=t@example.org"]
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    subprocess.run([*git, "add", "content", "templates"], cwd=project, check=True)
    subprocess.run([*git, "commit", "-qm", "start"], cwd=project, check=True)
    edit(project / BANKS, "auction_order: 2\n  dividend: 3", "auction_order: 2\n  dividend: 4")
    result = run("diff", "--game", "downturn", "--since", "HEAD")
    assert result.code == 0, result.err
    assert result.out.splitlines() == ['bank "Dixie Bank": dividend 3 -> 4']
    assert "since git HEAD" in result.err
    result = run("diff", "--game", "downturn", "--since", "no-such-ref")
    assert result.code == 1 and "neither a build of downturn" in result.err


def test_a_failed_build_records_no_history(project, run):
    build(run)
    edit(project / BANKS, "  dividend: 4\n", "  dividend: -4\n")
    assert run("build", "--game", "downturn", "--sheets", "banks").code == 1
    assert [r["build"] for r in records(project)] == [1]


# -- reprint -----------------------------------------------------------------------------------

def _cards(page) -> dict[tuple[float, float], str]:
    """Every poker card on a page: its top-left corner (mm) and the words drawn on it. A card's
    background runs 5 mm past its trim (a bleed has something in it)."""
    past = mm_to_pt(5)
    rects = [{"x0": r["x0"] + past, "x1": r["x1"] - past, "top": r["top"] + past,
              "bottom": r["bottom"] - past} for r in page.rects
             if abs(pt_to_mm(r["width"]) - 73) < 0.05 and abs(pt_to_mm(r["height"]) - 98) < 0.05]
    words = page.extract_words()
    cards = {}
    for r in rects:
        inside = [w["text"] for w in words if r["x0"] <= w["x0"] < r["x1"]
                  and r["top"] <= w["top"] < r["bottom"]]
        cards[(round(pt_to_mm(r["x0"]), 1), round(pt_to_mm(r["top"]), 1))] = " ".join(inside)
    return cards


def test_reprint_holds_exactly_the_changed_cards_with_backs_that_line_up(scenario):
    assert "reprint of 3 cards changed since build 1" in scenario.reprint.err
    assert "wrote output/downturn/reprint-letter.pdf" in scenario.reprint.out
    assert scenario.reprint.err.splitlines()[-1].startswith("pnp build: 2 PDFs in ")
    path = scenario.project / "reprint-of-build-2.pdf"
    width = PAPERS["letter"].width_mm
    events = (scenario.project / EVENTS).read_text(encoding="utf-8")
    titles = re.findall(r'title: "([^"]+)"', events)
    with pdfplumber.open(path) as pdf:
        cover = pdf.pages[0].extract_text().replace(" ", "")
        assert pdf.pages[1].extract_text().strip() == ""  # the cover's back stays empty
        pages = pdf.pages[2:]
        assert len(pages) == 4
        fronts_seen, backs_seen = [], []
        for front, back in zip(pages[::2], pages[1::2]):
            front_cards, back_cards = _cards(front), _cards(back)
            assert len(front_cards) == len(back_cards) > 0
            for (x, y), words in front_cards.items():
                mirrored = (width - x - 63, y)  # turned over on the long edge
                behind = [w for (bx, by), w in back_cards.items()
                          if abs(bx - mirrored[0]) < 0.2 and abs(by - y) < 0.2]
                assert len(behind) == 1, f"no back behind the card at {x}, {y} mm"
                fronts_seen.append(words)
                backs_seen.append(behind[0])
    squeezed = [w.replace(" ", "") for w in fronts_seen]
    printed = [t for t in titles if any(t.replace(" ", "") in w for w in squeezed)]
    assert printed == ["Housing Starts Slow", "Credit Swap"]
    assert sum("DixieBank" in w for w in squeezed) == 1 and len(fronts_seen) == 3
    assert ["EVENT" in w.replace(" ", "") for w in backs_seen] == [True, True, False]
    assert "BANK" in backs_seen[2].replace(" ", "")
    for label in ('event 1 "Housing Starts Slow"', 'event 16 "Credit Swap"',
                  'bank "Dixie Bank"'):
        assert label.replace(" ", "") in cover
    old = stamps_of(scenario.records[0])
    assert old[("banks", 'bank "Dixie Bank"', "front")] in cover  # the card to pull


def test_reprint_with_nothing_changed_writes_none(scenario):
    assert "nothing changed since build 2; no reprint needed" in scenario.again.err
    assert not (scenario.project / OUT / "reprint-letter.pdf").exists()  # none out of date


def test_since_without_reprint_is_a_usage_error(project, run):
    assert run("build", "--game", "downturn", "--since", "1").code == 2


# -- the visual diff in Chromium ---------------------------------------------------------------

def test_visual_diff_marks_the_changed_area_of_the_right_card(scenario, browser):
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    problems = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on("requestfailed", lambda r: problems.append(f"failed: {r.url}"))
    page.goto((scenario.project / OUT / "proof/diff.html").as_uri(), wait_until="load")
    page.evaluate("document.fonts.ready")
    assert problems == []
    assert page.locator("section.change").count() == 3

    def boxes(label: str, side: str, selector: str) -> list[dict]:
        section = page.locator(f"section.change[data-label='{label}']")
        section.scroll_into_view_if_needed()
        return section.locator(f"figure.{side} {selector}").evaluate_all(
            "els => els.map(e => { const b = e.getBoundingClientRect(); "
            "return {x: b.x, y: b.y, w: b.width, h: b.height, text: e.textContent}; })")

    def overlaps(a: dict, b: dict) -> bool:
        return a["x"] < b["x"] + b["w"] and b["x"] < a["x"] + a["w"] and \
            a["y"] < b["y"] + b["h"] and b["y"] < a["y"] + a["h"]

    for label, changed, unchanged in (
            ('event 16 "Credit Swap"', "swaps", "Credit"),
            ('bank "Dixie Bank"', "4", "Dixie")):
        marks = boxes(label, "new", "rect.mark")
        texts = boxes(label, "new", "svg text")
        assert marks and all(m["w"] > 0 and m["h"] > 0 for m in marks)
        target = [t for t in texts if changed in t["text"].split()]
        assert target, f"no text {changed!r} on the new face of {label}"
        assert any(overlaps(m, t) for m in marks for t in target)
        title = [t for t in texts if t["text"].startswith(unchanged)]
        assert title and not any(overlaps(m, t) for m in marks for t in title)
        assert len(boxes(label, "old", "rect.mark")) == len(marks)  # the old face too
    page.close()


def test_reprint_of_a_deck_without_backs_keeps_fronts_on_the_front_of_a_sheet(tmp_path, run):
    """Debtors: a card printed twice (a quantity column) and round tokens with no backs."""
    shutil.copytree(REPO / "tests/data/games/debtors", tmp_path, dirs_exist_ok=True)
    root = ["--root", str(tmp_path)]
    assert run("build", *root).code == 0
    edit(tmp_path / "content/debtors/cards.csv", "Every other player pays you one coin.",
         "Every other player pays you two coins.")
    edit(tmp_path / "templates/debtors/token-front.svg.j2", '"red": "#c62828"',
         '"red": "#b71c1c"')
    result = run("diff", *root)
    lines = result.out.splitlines()
    assert lines[:2] == ['card "Debt Collector": text changed',
                         'card "Debt Collector"#2: text changed']
    assert lines[2:] == [f"{colour} token {n}: front changed"
                         for colour in ("red", "blue", "green") for n in range(1, 11)]
    result = run("build", *root, "--reprint")
    assert "reprint of 32 cards" in result.err, result.err
    with pdfplumber.open(tmp_path / "output/debtors/reprint-letter.pdf") as pdf:
        texts = [page.extract_text().replace(" ", "") for page in pdf.pages]
    sides = ["fronts" if "·fronts" in t else "backs" if "·backs" in t else "" for t in texts]
    assert sides[0] == "" and texts[0].startswith("Debtors")  # the cover
    assert sides[1:] == ["", "fronts", "backs", "fronts", ""]
    assert texts[2].count("DebtCollector") == 2
    stamps = pdf_stamps(tmp_path / "output/debtors/reprint-letter.pdf")
    assert len(stamps) == 2 * 32 + 2 + 2 + 30  # old and new on the cover, then every face


@pytest.mark.parametrize("root, transform", [
    ('viewBox="0 0 63 88"', None),  # mm from the top-left: no transform
    ('viewBox="0 0 630 880"', "translate(0 0) scale(10 10)"),
    ('viewBox="-31.5 -44 63 88"', "translate(-31.5 -44) scale(1 1)"),
    ("", "translate(0 0) scale(3.77953 3.77953)"),  # no viewBox: CSS pixels
])
def test_an_added_stamp_sits_in_mm_whatever_the_template_units(root, transform):
    import xml.etree.ElementTree as ET

    from pnp.render.stamps import add_stamp
    from pnp.units import Size

    svg = f'<svg xmlns="http://www.w3.org/2000/svg" width="63mm" height="88mm" {root}></svg>'
    tree = ET.fromstring(add_stamp(svg, "v123abc", Size(63, 88)))
    text = tree.find(".//{http://www.w3.org/2000/svg}text")
    assert text.text == "v123abc"
    assert (float(text.get("x")), float(text.get("y"))) == (58.5, 84.4)
    group = tree.find("{http://www.w3.org/2000/svg}g")
    assert (group.get("transform") if group is not None else None) == transform
    round_tree = ET.fromstring(add_stamp(svg, "v123abc", Size(20, 20), round_piece=True))
    centred = round_tree.find(".//{http://www.w3.org/2000/svg}text")
    assert centred.get("text-anchor") == "middle" and float(centred.get("x")) == 10
