"""Fuzzing card text: any Unicode either draws or gives a clean finding, never an exception.

Each example goes the whole way a designer's text goes: written into a YAML file, read by the
strict loader, validated as text, fitted and rendered on a real event card, then parsed as XML
and drawn by cairosvg. The game is loaded once; each example only re-renders one card, so 300
examples take a few seconds.
"""

from __future__ import annotations

import dataclasses
import io
import xml.etree.ElementTree as ET

import cairocffi as cairo
import pytest
import yaml
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st

from conftest import REPO
from pnp.render.emphasis import parse_emphasis
from pnp.load.content import load_document
from pnp.findings import Findings
from pnp.pdf.draw import draw_svg
from pnp.pipeline import Project, check_game
from pnp.load.schema import INVALID, validate
from pnp.render.textfit import printed_text



@dataclasses.dataclass(frozen=True)
class Text:
    effect: str


@pytest.fixture(scope="module")
def card():
    checked = check_game(Project(REPO), "downturn")
    assert checked.game is not None and not checked.findings.errors
    deck = checked.by_name["events"]
    return checked.renderer, deck, deck.items[0]


# Any code point, surrogates and controls included, mixed with the pieces most likely to break
# markup, tokens and line fitting.
ANY_CHAR = st.characters(codec=None, exclude_categories=())
PIECES = st.sampled_from(["{red}", "{green}", "{purple}", "{", "}", "&", "<", ">", '"', "'",
                          "]]>", "&amp;", "<!ENTITY x>", "{{ x }}", "\n", "\t", " ", "  ",
                          "\u200b", "\u202e", "\u0301", "W" * 40, "Stability -1."])
CARD_TEXT = st.lists(st.one_of(st.text(ANY_CHAR, max_size=8), PIECES), max_size=30).map("".join)


def _squashed(text: str) -> str:
    return "".join(printed_text(text).replace("-", "").split())


def _one_line(finding) -> str:
    line = finding.format()
    assert len(line.splitlines()) == 1, repr(line)
    assert finding.where.line > 0, line  # every finding points into the file
    return line


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(text=CARD_TEXT)
@example(text="*0*")  # emphasis: prints an italic 0, no asterisks
@example(text="a \\* b **c**")  # a literal asterisk, and bold
def test_any_card_text_draws_or_gives_a_clean_finding(tmp_path, card, text):
    renderer, deck, item = card
    source = tmp_path / "events.yaml"
    # ASCII-only YAML: every other character travels as an escape, lone surrogates included.
    source.write_text(yaml.safe_dump({"effect": text}, allow_unicode=False, width=1000),
                      encoding="ascii")
    findings = Findings()
    loaded = validate(load_document(source, "events.yaml", findings), Text, "", findings)
    if loaded is INVALID:
        event("refused as text")
        assert findings.errors
        for finding in findings.items:
            _one_line(finding)
        return
    assert not findings.items and loaded.effect == text

    renderer.take_findings()  # only this text's findings
    face = renderer.render(deck.front, dataclasses.replace(item, effect=loaded.effect),
                           deck=deck)
    found, _ = renderer.take_findings()
    for finding in found.items:
        _one_line(finding)
    if found.errors:
        event("refused when fitted")
        return  # a clean finding: the build stops before drawing
    root = ET.fromstring(face.svg)  # well-formed, whatever the text held
    drawn = _squashed("".join(t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text")))
    # What prints: the text without its emphasis marks (`*0*` prints an italic 0).
    shown = "".join(part for _, part in parse_emphasis(text).spans)
    words = [w for w in shown.split() if not w.startswith("{")]
    # A word may break across lines (at a hyphen, a soft hyphen, between CJK characters) and
    # marks that only allow a break print nothing: compared without spaces, hyphens or marks.
    assert all(_squashed(w.strip("{}")) in drawn or "{" in w for w in words[:3])
    draw_svg(cairo.PDFSurface(io.BytesIO(), 200, 260), face.svg, 0, 0)
    event("drawn")
