"""Print-safety checks: each one fires, at the template or data line, on a small mistake made in
a copy of Downturn (a warning: `--strict` fails), and stays quiet on the kit as shipped."""

from __future__ import annotations

import pytest

from conftest import edit, line_of
from sameplace import project, same_place  # noqa: F401 - fixtures
from pnp.render.safety import face_problems

TEMPLATES = ("templates", "downturn")


def warned(result, rule: str) -> list[str]:
    return [line for line in result.lines if f"(rule {rule})" in line]


@pytest.mark.parametrize("template, old, new, rule, fragment", [
    # text size: a rules text, then a credit line (5 pt allowed), set too small
    ("bank-front.svg.j2", 'font-size="2.15" fill="{{ band }}">players</text>',
     'font-size="1.9" fill="{{ band }}">players</text>', "print-text-size",
     "text 'players' prints at 5.39 pt, under 6 pt"),
    ("event-front.svg.j2", 'font-size="1.8" fill="#555555">{{ info.licence.attribution }}',
     'font-size="1.5" fill="#555555">{{ info.licence.attribution }}', "print-text-size",
     "credit text 'Downturn © 2009 Jack Neal"),
    # bleed: a background that stops at the trim
    ("share-front.svg.j2", '<rect x="-5" y="-5" width="35.4" height="35.4" fill="{{ p.fill }}"/>',
     '<rect x="0" y="0" width="25.4" height="25.4" fill="{{ p.fill }}"/>', "print-bleed",
     "reaches the left, right, top, bottom edge of the 25.4 x 25.4 mm piece"),
    # overlap: a label moved onto the title
    ("event-back.svg.j2", 'y="60" text-anchor="middle" {{ font(\'bold\') }} font-size="4"',
     'y="51" text-anchor="middle" {{ font(\'bold\') }} font-size="4"', "print-text-overlap",
     "text 'EVENT' is drawn over 'Downturn'"),
    # overflow: a label pushed off the piece
    ("event-back.svg.j2", '<text x="31.5" y="60" text-anchor="middle" {{ font(\'bold\') }}',
     '<text x="58" y="60" text-anchor="middle" {{ font(\'bold\') }}', "print-text-overflow",
     "text 'EVENT' runs off the 63 x 88 mm piece"),
])
def test_each_check_fires_at_the_template_line(project, run, template, old, new, rule,
                                               fragment):
    path = project.joinpath(*TEMPLATES, template)
    edit(path, old, new)
    result = run("check")
    found = warned(result, rule)
    assert found, result.err
    line = line_of(path, new)
    assert found[0].startswith(f"templates/downturn/{template}:{line}:"), found
    assert fragment in found[0]
    assert run("check", "--strict").code == 1


def test_a_warning_shows_once_per_sheet_however_many_parts_draw_it(project, run):
    """Each event's stamp differs, so only the template line and rule tie the warnings
    together: the events, drawn in several parts (pnp.compose.deck.PART_ITEMS), warn once, as a
    sheet drawn whole does, with or without kept parts."""
    from pnp.compose.deck import PART_ITEMS

    events = (project / "content/downturn/events.yaml").read_text(encoding="utf-8")
    assert events.count("\n- number: ") > 2 * PART_ITEMS  # three parts at least
    path = project.joinpath(*TEMPLATES, "event-front.svg.j2")
    edit(path, 'font-size="1.8" fill="#8a8a8a">{{ stamp }}',
         'font-size="1.2" fill="#8a8a8a">{{ stamp }}')
    line = line_of(path, "{{ stamp }}")
    for args in (("check", "--no-cache"), ("check",), ("check",)):
        found = [f for f in warned(run(*args), "print-text-size")
                 if f.startswith(f"templates/downturn/event-front.svg.j2:{line}:")]
        assert len(found) == 1 and "event 1 " in found[0] and "stamp text" in found[0], found


def test_a_layout_with_narrow_margins_is_a_finding_at_the_deck(project, run):
    assert run("check", "--strict").code == 0  # the kit as shipped: nothing to say
    (project / "layouts.yaml").write_text(
        "tight:\n  description: a card 3 mm from the edge\n  kind: slots\n"
        "  slots: [{x_mm: 3, y_mm: 40}, {x_mm: 100, y_mm: 40}]\n  marks: {style: none}\n", encoding="utf-8")
    found = warned(run("check", "--layout", "tight"), "print-edge")
    assert found and found[0].startswith("content/downturn/game.yaml:")
    assert "inside the 6.35 mm most home printers leave blank" in found[0]  # a quarter inch
    # A layout for a printer that prints to 3 mm from the edge says so, and is clean.
    (project / "layouts.yaml").write_text(
        "tight:\n  description: a card 3 mm from the edge\n  kind: slots\n"
        "  slots: [{x_mm: 3, y_mm: 40}, {x_mm: 100, y_mm: 40}]\n  printable_margin_mm: 3\n"
        "  marks: {style: none}\n", encoding="utf-8")
    assert not warned(run("check", "--layout", "tight"), "print-edge")


def test_a_printer_profile_may_print_closer_to_the_edge(project, run):
    (project / "layouts.yaml").write_text(
        "tight:\n  description: a card 3 mm from the edge\n  kind: slots\n"
        "  slots: [{x_mm: 3, y_mm: 40}, {x_mm: 100, y_mm: 40}]\n  marks: {style: none}\n", encoding="utf-8")
    (project / "printers").mkdir()
    (project / "printers" / "borderless.yaml").write_text(
        "description: prints to 2 mm\nprintable_margin_mm: 2\n", encoding="utf-8")
    assert warned(run("check", "--layout", "tight"), "print-edge")
    assert not warned(run("check", "--layout", "tight", "--printer", "borderless"),
                      "print-edge")


SVG = ('<svg xmlns="http://www.w3.org/2000/svg" width="63mm" height="88mm" '
       'viewBox="0 0 63 88">\n{}\n</svg>')
FONT = 'font-family="Roboto Condensed" font-weight="bold"'


@pytest.mark.parametrize("body, rule, line", [
    (f'<text x="5" y="20" {FONT} font-size="2">small</text>', "print-text-size", 2),
    (f'<g data-role="credit"><text x="5" y="20" {FONT} font-size="1.7">© credit</text></g>',
     "print-text-size", 2),
    (f'<g transform="scale(0.5)"><text x="5" y="40" {FONT} font-size="4">halved</text></g>',
     "print-text-size", 2),
    ('<rect x="0" y="0" width="63" height="20" fill="#223344"/>', "print-bleed", 2),
    (f'<rect x="10" y="10" width="20" height="8" fill="none" stroke="#000" '
     f'stroke-width="0.3"/>\n<text x="12" y="16" {FONT} font-size="4">A LONG LABEL</text>',
     "print-text-overflow", 3),
    (f'<text x="5" y="20" {FONT} font-size="4">ONE</text>\n'
     f'<text x="6" y="21" {FONT} font-size="4">TWO</text>', "print-text-overlap", 3),
    (f'<text x="60" y="20" {FONT} font-size="4">OFF THE CARD</text>', "print-text-overflow", 2),
])
def test_face_checks_name_the_line_that_drew_the_problem(body, rule, line):
    problems = face_problems(SVG.format(body), 63, 88, bleed_mm=3)
    assert [(p.rule, p.line) for p in problems] == [(rule, line)]


@pytest.mark.parametrize("body", [
    f'<text x="5" y="20" {FONT} font-size="2.15">six points</text>',
    f'<g data-role="stamp"><text x="5" y="20" {FONT} font-size="1.8">v123abc</text></g>',
    '<rect x="-5" y="-5" width="73" height="25" fill="#223344"/>',  # paints into the bleed
    '<rect x="-5" y="-5" width="73" height="98" fill="#ffffff"/>\n'
    '<rect x="1" y="1" width="61" height="86" fill="#ffffff"/>',  # white needs no bleed
    f'<rect x="10" y="10" width="30" height="8" fill="#ddd"/>\n'
    f'<text x="12" y="16" {FONT} font-size="4">IN ITS BOX</text>',
])
def test_face_checks_leave_good_drawing_alone(body):
    assert face_problems(SVG.format(body), 63, 88, bleed_mm=3) == []


def test_a_page_printed_at_home_keeps_its_edge_band_clear():
    page = ('<svg xmlns="http://www.w3.org/2000/svg" width="210mm" height="297mm" '
            'viewBox="0 0 210 297">\n<line x1="3" y1="100" x2="3" y2="110" stroke="#000"'
            ' stroke-width="0.1"/>\n</svg>')
    problems = face_problems(page, 210, 297, edge_mm=5)
    assert [(p.rule, p.line) for p in problems] == [("print-edge", 2)]
    assert face_problems(page, 210, 297, edge_mm=2) == []
