"""pnp proof: the gallery of every face with findings as badges, PNGs of one card, --changed,
and the page itself in a real headless Chromium."""

from __future__ import annotations

import json
import os
import re
from html import unescape
from pathlib import Path

from conftest import REPO, edit
from sameplace import project, same_place  # noqa: F401 - fixtures

EVENTS = "content/downturn/events.yaml"
PROOF = Path("output/downturn/proof")
OVERFLOWING = 'event 12 "Overnight Bail Out"'


def overflow_one_card(project: Path) -> None:
    effect = "Stability -2; Leader picks one owned bank, which takes 1 {green} from its home " \
             "region (if any)."
    edit(project / EVENTS, f'effect: "{effect}"', f'effect: "{" ".join([effect] * 5)}"')


def cards_in(html: str) -> list[str]:
    return [unescape(label) for label in
            re.findall(r'<figure class="card[^"]*" data-label="([^"]*)"', html)]


def card_html(html: str, label: str) -> str:
    escaped = label.replace('"', "&#34;")
    start = html.index(f'data-label="{escaped}"')
    return html[start:html.index("</figure>", start)]


def test_gallery_shows_every_face_with_findings_on_their_cards(project, run):
    overflow_one_card(project)
    result = run("proof")
    assert result.code == 1  # check failed, the proof was written all the same
    html = (project / PROOF / "index.html").read_text(encoding="utf-8")
    labels = cards_in(html)
    faces = json.loads((project / PROOF / "faces.json").read_text(encoding="utf-8"))["faces"]
    assert len(labels) == len({k.rsplit("/", 1)[0] for k in faces}) > 200
    assert html.count("<svg") == len(faces)
    assert '<section class="sheet" id="sheet-events">' in html
    overflowing = card_html(html, OVERFLOWING)
    assert '<li class="badge error"' in overflowing and "text-overflow</li>" in overflowing
    assert "text-overflow" not in card_html(html, 'event 16 "Credit Swap"')
    for face in ("RobotoCondensed-Regular.ttf", "NotoSerif-Bold.ttf"):
        assert (project / PROOF / "fonts" / face).is_file()


def test_proof_of_content_that_cannot_be_modelled_lists_the_findings(project, run):
    edit(project / "content/downturn/banks.yaml", "  dividend: 4\n", "  dividend: four\n")
    result = run("proof")
    assert result.code == 1
    html = (project / PROOF / "index.html").read_text(encoding="utf-8")
    assert cards_in(html) == []
    assert "No face could be drawn" in html and "(rule schema-type)" in html


def test_card_png_writes_that_cards_faces(project, run):
    result = run("proof", "--card", "Credit Swap", "--png")
    assert result.code == 0, result.err
    pngs = sorted(p.name for p in (project / PROOF / "png").iterdir())
    assert pngs == ["events-event-16-credit-swap-back.png", "events-event-16-credit-swap-front.png"]
    data = (project / PROOF / "png" / pngs[1]).read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert (width, height) == (round(63 / 25.4 * 150), round(88 / 25.4 * 150))
    assert cards_in((project / PROOF / "card.html").read_text(encoding="utf-8")) == [
        'event 16 "Credit Swap"']


def test_unknown_card_is_a_usage_error_with_a_suggestion(project, run):
    result = run("proof", "--card", "Credit Swop")
    assert result.code == 2
    assert "did you mean 'Credit Swap'?" in result.err
    assert not (project / "output").exists()


def test_changed_shows_only_cards_whose_faces_changed(project, run):
    assert run("proof").code == 0
    full = (project / PROOF / "index.html").read_bytes()
    assert run("proof", "--changed").code == 0
    assert cards_in((project / PROOF / "changed.html").read_text(encoding="utf-8")) == []
    edit(project / EVENTS, '"Fed Cuts Rates"', '"Fed Cuts Rates Again"')
    assert run("proof", "--changed").code == 0
    assert (project / PROOF / "index.html").read_bytes() == full  # the full gallery stays
    html = (project / PROOF / "changed.html").read_text(encoding="utf-8")
    assert cards_in(html) == ['event 3 "Fed Cuts Rates Again"']
    assert '<span class="changed">changed</span>' in html


def test_build_records_the_faces_for_changed(project, run):
    assert run("build", "--sheets", "banks").code == 0
    assert run("proof", "--changed").code == 0
    assert cards_in((project / PROOF / "changed.html").read_text(encoding="utf-8")) == []


def test_gallery_in_chromium(project, run, browser):
    overflow_one_card(project)
    run("proof")
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    problems = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on("requestfailed", lambda r: problems.append(f"failed: {r.url}"))
    page.goto((project / PROOF / "index.html").as_uri(), wait_until="load")
    page.evaluate("document.fonts.ready")
    assert problems == []
    assert page.evaluate("[...document.fonts].filter(f => f.status == 'loaded').length") == 3
    cards = page.locator("figure.card")
    count = cards.count()
    assert count > 200
    hidden = page.evaluate("""[...document.querySelectorAll('figure.card')].filter(card => {
        const box = card.getBoundingClientRect();
        return box.width < 20 || box.height < 20 ||
               getComputedStyle(card).visibility != 'visible';
    }).length""")
    assert hidden == 0
    overflowing = page.locator(f"figure.card[data-label='{OVERFLOWING}']")
    badge = overflowing.locator(".badge.error", has_text="text-overflow")
    badge.scroll_into_view_if_needed()
    assert badge.is_visible()
    page.check("#only-findings")
    assert page.locator("figure.card:visible").count() == 1
    page.uncheck("#only-findings")
    if os.environ.get("PNP_UPDATE_SCREENSHOT"):  # refresh docs/img/proof-gallery.png
        overflowing.scroll_into_view_if_needed()
        page.evaluate("window.scrollBy(0, -120)")
        page.screenshot(path=str(REPO / "docs" / "img" / "proof-gallery.png"))
    page.close()
