"""The print-safety checks read a face as cairosvg draws it, whatever SVG idiom wrote it: each
idiom Inkscape writes (style=, <use> of a symbol, nested transforms, tspans) is checked by
`pnp check` on a small game as its attribute twin is, and what the checks cannot read is a
warning at its line, never a pass."""

from __future__ import annotations

import pytest

from tinygame import write_game

CARDS = "- title: One\n  text: A card.\n  copies: 1\n"
TOP = ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
       'xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd" width="63mm" '
       'height="88mm" viewBox="0 0 63 88">\n'
       '<rect x="-5" y="-5" width="73" height="98" fill="#ffffff"/>\n')
FAMILY = "font-family:'Roboto Condensed'"
SMALL = "0.882"  # mm: 2.50 pt, under the 6 pt rules text must print at
HINT = "prints at 2.50 pt, under 6 pt"


@pytest.fixture
def checked(run, monkeypatch):
    """The findings of `pnp check` on a game in `root` whose card front is TOP + `body`."""

    def check(root, body: str) -> list[str]:
        write_game(root, CARDS, TOP + body + "\n</svg>\n")
        monkeypatch.chdir(root)
        result = run("check")
        assert "Traceback" not in result.err and "internal error" not in result.err, \
            result.err
        return [line for line in result.lines if "(rule " in line]

    return check


def strict_code(root, run, monkeypatch, body: str) -> int:
    write_game(root, CARDS, TOP + body + "\n</svg>\n")
    monkeypatch.chdir(root)
    return run("check", "--strict").code


def at(findings: list[str], rule: str) -> list[str]:
    """The front template's `rule` findings, as 'line: message'."""
    prefix = "templates/tiny/front.svg.j2:"
    return [f[len(prefix):] for f in findings if f.startswith(prefix) and f"(rule {rule})" in f]


def line_in(body: str, needle: str) -> int:
    """The template line holding `needle` (TOP has two lines)."""
    return 3 + next(i for i, line in enumerate(body.splitlines()) if needle in line)


IDIOMS = {
    # Inkscape's own: every font and paint property in style=.
    "style": f'<text x="6" y="40" style="font-size:{SMALL}px;line-height:1.25;{FAMILY};'
             '-inkscape-font-specification:\'Roboto Condensed\';fill:#000000;stroke:none">'
             'TINY</text>',
    # A symbol defined once and drawn through <use> (xlink:href, as Inkscape writes it).
    "use-symbol": f'<defs>\n<symbol id="tiny"><text style="font-size:{SMALL}px;{FAMILY}">'
                  'TINY</text></symbol>\n</defs>\n<use xlink:href="#tiny" x="6" y="40"/>',
    # A group of <defs> drawn through <use href> with attributes only: the text is read where
    # the <use> puts it.
    "use-group": f'<defs><g id="tiny"><text font-family="Roboto Condensed" font-size="{SMALL}"'
                 ' fill="#000000">TINY</text></g></defs>\n<use href="#tiny" x="6" y="40"/>',
    # A layer's transform, a group scaled by half that sets the size for what it holds.
    "nested-transforms": '<g transform="translate(-12,-30)">\n<g transform="matrix(0.5,0,0,0.5,'
                         f'18,70)" style="font-size:{float(SMALL) * 2:g}px;{FAMILY}">\n'
                         '<text x="0" y="0">TINY</text>\n</g>\n</g>',
    # A text whose line (a tspan, as Inkscape writes every line) sets its own size.
    "tspan": f'<text x="6" y="40" style="font-size:4px;{FAMILY}" xml:space="preserve">'
             f'<tspan sodipodi:role="line" x="6" y="40" style="font-size:{SMALL}px">TINY'
             '</tspan></text>',
    # A group's size inherited by its text, whose tspan sets its own.
    "inherited-tspan": f'<g style="font-size:4px;{FAMILY}">\n<text x="6" y="30">BIG '
                       f'<tspan font-size="{SMALL}">tiny</tspan></text>\n</g>',
}
NEEDLE = {"use-symbol": "<use", "use-group": "<use", "nested-transforms": "<text",
          "inherited-tspan": "<text"}


@pytest.mark.parametrize("idiom", sorted(IDIOMS))
def test_small_text_is_found_at_its_line_whatever_idiom_draws_it(tmp_path, checked, idiom):
    body = IDIOMS[idiom]
    found = at(checked(tmp_path, body), "print-text-size")
    line = line_in(body, NEEDLE.get(idiom, "TINY"))
    assert len(found) == 1 and found[0].startswith(f"{line}:") and HINT in found[0], found


def test_strict_fails_on_text_drawn_small_through_use(tmp_path, run, monkeypatch):
    assert strict_code(tmp_path, run, monkeypatch, IDIOMS["use-group"]) == 1


PAINT = [
    # (attribute form, style form, the findings both give)
    ('<g fill="none"><rect x="0" y="0" width="63" height="20" fill="#223344"/></g>',
     '<g fill="none"><rect x="0" y="0" width="63" height="20" style="fill:#223344"/></g>',
     {"print-bleed"}),
    ('<rect x="0" y="0" width="63" height="20" fill="#ffffff"/>',
     '<rect x="0" y="0" width="63" height="20" style="fill:#ffffff;stroke:none"/>', set()),
    ('<text x="5" y="20" font-family="Roboto Condensed" font-size="4">FIRST LABEL</text>\n'
     '<text x="6" y="21" font-family="Roboto Condensed" font-size="4">SECOND LABEL</text>',
     f'<text x="5" y="20" style="{FAMILY};font-size:4px">FIRST LABEL</text>\n'
     f'<text x="6" y="21" style="{FAMILY};font-size:4px">SECOND LABEL</text>',
     {"print-text-overlap"}),
    ('<rect x="10" y="10" width="20" height="8" fill="none" stroke="#000" stroke-width="0.3"/>'
     '\n<text x="12" y="16" font-family="Roboto Condensed" font-size="4">A LONG LABEL</text>',
     '<rect x="10" y="10" width="20" height="8" style="fill:none;stroke:#000;stroke-width:0.3"'
     f'/>\n<text x="12" y="16" style="{FAMILY};font-size:4px">A LONG LABEL</text>',
     {"print-text-overflow"}),
]


@pytest.mark.parametrize("attributes, styled, rules", PAINT)
def test_style_paints_as_the_same_attributes_do(tmp_path, checked, attributes, styled,
                                                rules):
    def found(body: str, root) -> set[tuple[str, str]]:
        findings = checked(root, body)
        return {(rule, finding.split(":")[0]) for rule in ("print-bleed", "print-text-overlap",
                                                           "print-text-overflow",
                                                           "print-text-size")
                for finding in at(findings, rule)}

    as_attributes = found(attributes, tmp_path / "attributes")
    assert {rule for rule, _ in as_attributes} == rules
    assert found(styled, tmp_path / "styled") == as_attributes


UNREAD = [
    ("<style>\ntext { font-size: 0.5px }\n</style>", "<style>",
     "CSS in a <style> element"),
    (f'<text x="6" y="40" style="font:0.5px sans-serif;{FAMILY}">TINY</text>', "TINY",
     "the font shorthand"),
    ('<defs><path id="curve" d="M 5 40 C 20 20 40 20 58 40"/></defs>\n<text style="font-size:'
     f'3px;{FAMILY}"><textPath href="#curve">ON A PATH</textPath></text>', "ON A PATH",
     "<textPath>"),
    ('<path d="M 5 40 L 40 40" stroke="#000" style="marker-end:url(#arrow)"/>', "marker-end",
     "markers"),
]


@pytest.mark.parametrize("body, needle, what", UNREAD)
def test_what_the_checks_cannot_read_is_a_warning_at_its_line(tmp_path, run, monkeypatch,
                                                              checked, body, needle, what):
    found = at(checked(tmp_path, body), "print-svg-unread")
    assert len(found) == 1 and found[0].startswith(f"{line_in(body, needle)}:"), found
    assert what in found[0]
    assert strict_code(tmp_path / "strict", run, monkeypatch, body) == 1


def test_paint_clipped_at_the_trim_stops_short_of_the_bleed(tmp_path, checked):
    """Inkscape's "clip to the page": the background is drawn into the bleed, and cut at the
    trim by a clip path, so it prints no bleed."""
    body = ('<defs><clipPath id="page"><rect x="0" y="0" width="63" height="88"/></clipPath>'
            '</defs>\n<g clip-path="url(#page)">\n<rect x="-5" y="-5" width="73" height="30" '
            'style="fill:#223344"/>\n</g>')
    found = at(checked(tmp_path, body), "print-bleed")
    assert len(found) == 1 and found[0].startswith(f"{line_in(body, 'fill:#223344')}:"), found
    assert "stops 0.00 mm past it" in found[0]
