"""The SVG reader of the print-safety checks (pnp.render.drawn), on its own: sizes, units,
the cascade, hidden elements, tspans and the cursor, reference bombs, XML it cannot parse.
Each idiom through `pnp check` is in test_svg_idioms."""

from __future__ import annotations

import pytest

from pnp.render.drawn import MAX_REFERENCED, read_drawing
from pnp.render.safety import face_problems

FAMILY = "font-family:'Roboto Condensed'"

SVG = ('<svg xmlns="http://www.w3.org/2000/svg" width="63mm" height="88mm" '
       'viewBox="0 0 63 88">\n{}\n</svg>')


def sizes_pt(body: str) -> list[tuple[str, float]]:
    return [(m.text, round(m.size_pt, 2)) for m in read_drawing(SVG.format(body)).marks
            if m.kind == "text"]


@pytest.mark.parametrize("body, expected", [
    # style= wins over the attribute, !important over both
    (f'<text font-size="4" style="font-size:1px;{FAMILY}">A</text>', [("A", 2.83)]),
    (f'<text style="font-size:1px !important;font-size:4px;{FAMILY}">A</text>', [("A", 2.83)]),
    # units at 96 px to the inch, em from the parent's size, inherit
    (f'<text style="font-size:1mm;{FAMILY}">A</text>', [("A", 10.71)]),
    (f'<g font-size="2"><text style="font-size:1.5em;{FAMILY}">A</text></g>', [("A", 8.5)]),
    (f'<g font-size="2"><text font-size="inherit" style="{FAMILY}">A</text></g>',
     [("A", 5.67)]),
    # a symbol's viewBox scaled into the <use>'s width and height
    (f'<defs><symbol id="s" viewBox="0 0 10 10"><text y="5" font-size="4" style="{FAMILY}">'
     'A</text></symbol></defs><use href="#s" width="5" height="5"/>', [("A", 5.67)]),
    # <use> of an element with its own transform, and of a group scaled by the <use>'s own
    (f'<defs><text id="t" transform="scale(0.5)" font-size="2" style="{FAMILY}">A</text>'
     '</defs><use href="#t" x="5" y="5"/>', [("A", 2.83)]),
    (f'<defs><g id="g"><text font-size="2" style="{FAMILY}">A</text></g></defs>'
     '<use xlink:href="#g" transform="scale(2)" xmlns:xlink="http://www.w3.org/1999/xlink"/>',
     [("A", 11.34)]),
    # the <use>'s properties reach what it draws, not those of the element's own parents
    (f'<defs><g font-size="1"><text id="t" style="{FAMILY}">A</text></g></defs>'
     '<use href="#t" font-size="3"/>', [("A", 8.5)]),
    # hidden: in <defs>, display:none (not drawn), visibility:hidden, opacity:0
    (f'<defs><text font-size="1" style="{FAMILY}">A</text></defs>', []),
    (f'<text font-size="1" style="display:none;{FAMILY}">A</text>', []),
    (f'<text font-size="1" style="visibility:hidden;{FAMILY}">A</text>', []),
    (f'<g style="opacity:0"><text font-size="1" style="{FAMILY}">A</text></g>', []),
])
def test_text_is_read_at_the_size_cairosvg_draws_it(body, expected):
    assert sizes_pt(body) == expected


def test_tspans_continue_from_the_cursor_each_aligned_on_its_own():
    marks = [m for m in read_drawing(SVG.format(
        f'<text x="10" y="20" style="font-size:4px;{FAMILY}">AB <tspan dy="5">CD</tspan> '
        'EF</text>')).marks]
    assert [m.text for m in marks] == ["AB", "CD", "EF"]
    first, second, third = (m.box for m in marks)
    # "CD" starts where "AB " (its space included) ends, as the cursor left it
    assert first[0] == pytest.approx(10) and second[0] == pytest.approx(first[2])
    assert second[1] == pytest.approx(first[1] + 5)  # moved down by dy, and stays there
    assert third[1] == pytest.approx(second[1]) and third[0] == pytest.approx(second[2])


def test_a_reference_bomb_is_refused_not_expanded():
    levels = ['<g id="l0"><rect x="1" y="1" width="1" height="1" fill="#000"/></g>']
    for n in range(1, 16):
        levels.append(f'<g id="l{n}"><use href="#l{n - 1}"/><use href="#l{n - 1}"/></g>')
    drawing = read_drawing(SVG.format("<defs>" + "".join(levels) + '</defs><use href="#l15"/>'))
    assert len(drawing.marks) <= MAX_REFERENCED
    assert [u.what for u in drawing.unread] == \
        [f"more than {MAX_REFERENCED:,} elements drawn through <use>"]


def test_xml_that_does_not_parse_is_unread_not_passed():
    problems = face_problems('<svg xmlns="http://www.w3.org/2000/svg">\n<text>', 63, 88)
    assert [(p.rule, p.line) for p in problems] == [("print-svg-unread", 2)]


@pytest.mark.parametrize("clip, box", [
    ('<rect x="0" y="0" width="63" height="88"/>', (0, 0, 63, 25)),
    ('<g transform="translate(10 10)"><rect width="5" height="5"/></g>', (10, 10, 15, 15)),
    ('<rect x="70" y="0" width="5" height="5"/>', None),  # clips everything away
])
def test_a_clip_path_keeps_what_it_cuts_within_its_box(clip, box):
    marks = read_drawing(SVG.format(
        f'<defs><clipPath id="c">{clip}</clipPath></defs>'
        '<rect x="-5" y="-5" width="73" height="30" fill="#223344" clip-path="url(#c)"/>')).marks
    assert [m.box for m in marks] == ([pytest.approx(box)] if box else [])
