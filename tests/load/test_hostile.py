"""Hostile input: markup in card text, paths that escape the game folder, fetches, bombs.

Card text is drawn as text whatever it holds. A path from content is used only if it stays inside
the game folder. Drawing fetches nothing, neither files nor the network, and an asset's bytes are
refused (an SVG reference bomb among them) long before cairosvg would have spent minutes drawing
them.
"""

from __future__ import annotations

import re

import gzip
import io
import json
import os
import shutil
import struct
import subprocess
import sys
import textwrap
import time
import xml.etree.ElementTree as ET
import zlib
from dataclasses import dataclass
from pathlib import Path

import pdfplumber
import pytest
from defusedxml import EntitiesForbidden

import pnp.load.assets
from conftest import REPO
from pnp.load.assets import (
    MAX_SVG_ELEMENTS,
    check_asset_bytes,
    check_svg_asset,
    resolve_asset,
)
from pnp.load.content import load_document
from pnp.findings import Findings, Location
from pnp.load.assets import RefusedFetch
from pnp.pdf.draw import draw_svg
from pnp.pipeline import Project, check_game
from pnp.load.schema import Colour, validate

SVG_NS = 'xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"'
# (an asterisk would be emphasis markup: {{ 7+7 }} is the same attempt at running a template)
INJECTED = 'Fish & Chips <b>"Q"</b> ]]> {{ 7+7 }}'


# -- markup in card text ---------------------------------------------------------------------------

def _set_title(project: Path, title: str) -> None:
    events = project / "content/downturn/events.yaml"
    text = events.read_text(encoding="utf-8")
    old = 'title: "Housing Starts Slow"'
    assert old in text
    escaped = title.replace("\\", "\\\\").replace('"', '\\"')
    events.write_text(text.replace(old, f'title: "{escaped}"', 1), encoding="utf-8")


def test_markup_in_card_text_is_escaped_in_the_svg(project):
    _set_title(project, INJECTED)
    checked = check_game(Project(Path(".")), "downturn")
    assert not checked.findings.errors, [f.format() for f in checked.findings.errors]
    fronts = checked.by_name["events"].fronts
    svg = next(face.svg for face in fronts if "Fish" in face.svg)
    # The title wraps (at a space, or after the '/' of '</b>'): its lines are read joined.
    lines = "".join(re.findall(r"<text [^>]*>([^<]*)</text>", svg))
    for escaped in ("Fish&amp;Chips", "&lt;b&gt;&#34;Q&#34;&lt;/b&gt;", "]]&gt;", "{{7+7}}"):
        assert escaped in "".join(lines.split())
    assert "<b>" not in svg
    root = ET.fromstring(svg)  # still well-formed XML
    drawn = "".join(t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text"))
    assert "".join(INJECTED.split()) in "".join(drawn.split())


def test_markup_in_card_text_prints_as_text_in_the_pdf(project, run):
    _set_title(project, INJECTED)
    result = run("build", "--sheets", "events")
    assert result.code == 0, result.err
    with pdfplumber.open(project / "output/downturn/events-letter.pdf") as pdf:
        # Event cards share a back: laid in a seeded shuffle, the card is on one fronts page.
        (text,) = [text for text in (page.extract_text(x_tolerance=1) for page in pdf.pages[::2])
                   if "Fish" in text]
    # The title wraps onto two lines (after '</' of '</b>', as Unicode line breaking allows),
    # and a line reads on into the next card's title: each line's own part is looked for.
    joined = "".join(text.split())
    assert 'Fish&Chips<b>"Q"</' in joined and "b>]]>{{7+7}}" in joined
    # {{7+7}} evaluated would print 14 as a word of its own (a version stamp's commit may hold
    # the digits 14, inside a longer word)
    assert not re.search(r"(?<![0-9a-z])14(?![0-9a-z])", text)


def test_a_colour_from_content_must_be_a_hex_colour(tmp_path):
    @dataclass(frozen=True)
    class Styled:
        fill: Colour

    source = tmp_path / "style.yaml"
    results = {}
    for value in ("'#1F2A44'", "'#abc'", "'red\" onload=\"alert(1)'", "'url(#x)'", "red",
                  "'#12345g'"):
        source.write_text(f"fill: {value}\n", encoding="utf-8")
        findings = Findings()
        results[value] = validate(load_document(source, "style.yaml", findings), Styled, "",
                                  findings)
        assert bool(findings.errors) == (value not in ("'#1F2A44'", "'#abc'")), value
    assert results["'#1F2A44'"] == Styled("#1f2a44")


# -- paths named by content ------------------------------------------------------------------------

@pytest.fixture
def game(tmp_path) -> Path:
    """A game folder with one good asset, and a secret file just outside it."""
    folder = tmp_path / "game"
    (folder / "art").mkdir(parents=True)
    (folder / "art" / "ok.png").write_bytes(_png(4, 4))
    (tmp_path / "secret.png").write_bytes(_png(4, 4))
    (folder / "art" / "escape.png").symlink_to(tmp_path / "secret.png")
    (folder / "art" / "outside").symlink_to(tmp_path)
    (folder / "art" / "inside.png").symlink_to(folder / "art" / "ok.png")
    (folder / "art" / "loop.png").symlink_to(folder / "art" / "loop.png")
    return folder


PATHS = [
    ("/etc/passwd", "asset-path", "is an absolute path"),
    ("~/secret.png", "asset-path", "is an absolute path"),
    ("file:///etc/passwd", "asset-path", "is a URL"),
    ("http://127.0.0.1:9/x.png", "asset-path", "is a URL"),
    ("data:image/png;base64,AAAA", "asset-path", "is a URL"),
    ("C:\\art\\x.png", "asset-path", "is a URL or drive path"),
    ("../secret.png", "asset-path", "goes up out of its folder"),
    ("art/../../secret.png", "asset-path", "goes up out of its folder"),
    ("art\\ok.png", "asset-path", "contains '\\\\'"),
    ("art/ok.png\x00.svg", "asset-path", "contains '\\x00'"),
    ("%2e%2e/secret.png", "asset-path", "contains '%'"),
    ("", "asset-path", "is empty"),
    ("art/escape.png", "asset-outside", "leads outside the game folder"),
    ("art/outside/secret.png", "asset-outside", "leads outside the game folder"),
    ("art/loop.png", "asset-path", "cannot be resolved"),
    ("art/nothing.png", "asset-missing", "does not exist"),
    ("art", "asset-path", "is not an ordinary file"),
    ("art/ok.png", None, None),
    ("art/inside.png", None, None),
]


@pytest.mark.parametrize("relative, rule, fragment", PATHS, ids=[repr(p[0]) for p in PATHS])
def test_asset_paths_stay_inside_the_game_folder(game, relative, rule, fragment):
    findings = Findings()
    where = Location("content/game/cards.yaml", 7, 10)
    resolved = resolve_asset(game, relative, findings, where, subject='card "A"', field="art")
    if rule is None:
        assert resolved == (game / "art" / "ok.png").resolve() and not findings.items
        return
    assert resolved is None
    [finding] = findings.items
    line = finding.format()
    assert line.startswith('content/game/cards.yaml:7:10: error: card "A": art: '), line
    assert finding.rule == rule and fragment in line, line
    assert line.isprintable(), repr(line)


def test_an_asset_of_the_wrong_kind_is_refused(game):
    findings = Findings()
    assert resolve_asset(game, "art/ok.png", findings, Location("x.yaml", 1, 1),
                         suffixes=(".svg",)) is None
    assert "is not one of: .svg" in findings.items[0].message


# -- the confined fetcher --------------------------------------------------------------------------

def _png(width: int, height: int) -> bytes:
    """A grey PNG. A huge one is only claimed by its header: the check must not decode it."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
    rows = b"" if width * height > 1_000_000 else (b"\0" + b"\x80" * width) * height
    return (b"\x89PNG\r\n\x1a\n" + header + chunk(b"IDAT", zlib.compress(rows))
            + chunk(b"IEND", b""))


def _with_image(href: str) -> str:
    return f'<svg {SVG_NS} width="10mm" height="10mm"><image href="{href}" width="5" height="5"/></svg>'


def _use_bomb(levels: int = 6, fan: int = 10) -> bytes:
    parts = ['<g id="l0"><rect width="1" height="1"/></g>']
    for i in range(1, levels + 1):
        parts.append(f'<g id="l{i}">' + f'<use xlink:href="#l{i - 1}"/>' * fan + "</g>")
    return (f'<svg {SVG_NS} width="10" height="10"><defs>{"".join(parts)}</defs>'
            f'<use xlink:href="#l{levels}"/></svg>').encode()


@pytest.mark.parametrize("name, data, fragment", [
    ("bomb.svg", _use_bomb(), f"more than {MAX_SVG_ELEMENTS} elements"),
    ("doctype.svg", (b'<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM '
                     b'"file:///etc/hostname">]><svg xmlns="http://www.w3.org/2000/svg">&x;</svg>'),
     "DOCTYPE"),
    ("cycle.svg", f'<svg {SVG_NS}><g id="a"><use href="#a"/></g></svg>'.encode(), "cycle"),
    ("remote.svg", f'<svg {SVG_NS}><use href="other.svg#a"/></svg>'.encode(),
     "assets must be self-contained"),
    ("pattern.svg", f'<svg {SVG_NS}><pattern id="p"/></svg>'.encode(), "patterns"),
    ("zipped.svgz", gzip.compress(b"<svg " + b" " * 1_000_000 + b"/>"), "gzip"),
    ("huge.png", _png(100_000, 100_000), "100000 x 100000 pixels"),
    ("broken.svg", b"<svg", "not well-formed"),
])
def test_hostile_asset_files_are_refused_quickly(name, data, fragment):
    started = time.perf_counter()
    problem = check_asset_bytes(data)  # what the model asks of every art and icon file
    assert problem is not None and fragment in problem, problem
    # a few milliseconds here; drawn, the bomb alone would take cairosvg about 30 s
    assert time.perf_counter() - started < 5


def test_a_million_element_use_bomb_is_refused_in_milliseconds(monkeypatch):
    bomb = _use_bomb()  # 10**6 rectangles from 1.6 KB: cairosvg alone draws for ~30 s
    assert len(bomb) < 2000
    # The work is counted, not timed: each element of the file is weighed once (and looked up
    # once more per reference to it), never once per copy its references would draw.
    weighed = []
    weigh = pnp.load.assets._weight

    def counted(element, *args):
        weighed.append(element)
        return weigh(element, *args)

    monkeypatch.setattr(pnp.load.assets, "_weight", counted)
    problem = check_svg_asset(bomb)
    assert problem and "reference bomb" in problem
    elements = bomb.count(b"<") - bomb.count(b"</")
    assert 0 < len(weighed) <= 2 * elements, (len(weighed), elements)
    assert check_svg_asset(_use_bomb(levels=2)) is None  # 100 references are fine
    assert check_asset_bytes(_png(300, 300)) is None


def test_our_templates_may_not_fetch_anything():
    import cairocffi as cairo

    surface = cairo.PDFSurface(io.BytesIO(), 100, 100)
    for href in ("http://127.0.0.1:9/x.png", "/etc/hostname", "art/x.png"):
        with pytest.raises(RefusedFetch):
            draw_svg(surface, _with_image(href), 0, 0)
    entity = ('<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/hostname">]>'
              f'<svg {SVG_NS}><text>&x;</text></svg>')
    with pytest.raises(EntitiesForbidden):
        draw_svg(surface, entity, 0, 0)


# -- proof from the outside: audit hooks in a fresh interpreter -------------------------------------

AUDITED = textwrap.dedent('''
    import io, json, os, sys
    from pathlib import Path
    import cairocffi as cairo
    from pnp.load.assets import resolve_asset
    from pnp.load.content import load_document
    from pnp.findings import Findings, Location
    from pnp.pdf.draw import draw_svg
    from pnp.pipeline import Project, check_game

    game = Path(sys.argv[1])
    ns = 'xmlns="http://www.w3.org/2000/svg"'
    hrefs = ["http://127.0.0.1:9/x.png", "https://example.invalid/x.png", "file://" + sys.argv[2],
             sys.argv[2], "../secret.png", "art/escape.png", "art/outside/secret.png",
             "art/ok.png"]

    def image(href):
        return f'<svg {ns} width="10mm" height="10mm"><image href="{href}" width="5" height="5"/></svg>'

    def attempt(action):
        try:
            action()
        except Exception as exc:
            return type(exc).__name__
        return "ok"

    surface = cairo.PDFSurface(io.BytesIO(), 100, 100)
    attempt(lambda: draw_svg(surface, image("art/ok.png"), 0, 0))  # every lazy import first
    attempt(lambda: check_game(Project(game.parent / "project"), "downturn"))

    events = []
    def hook(event, args):
        if event == "open" and args[0] is not None and not isinstance(args[0], int):
            events.append(["open", os.fsdecode(args[0])])
        elif event.startswith(("socket.", "urllib.", "subprocess.", "os.system", "os.exec",
                               "os.posix_spawn", "ctypes.")):
            events.append([event, repr(args)[:200]])
    sys.addaudithook(hook)

    results = {}
    for href in hrefs:
        results["default " + href] = attempt(lambda: draw_svg(surface, image(href), 0, 0))
        findings = Findings()
        results["resolve " + href] = str(resolve_asset(game, href, findings, Location("x", 1, 1)))
    checked = check_game(Project(game.parent / "project"), "downturn")
    results["yaml"] = [f.format() for f in checked.findings.errors]
    sys.stdout.write(json.dumps({"events": events, "results": results}))
''')


def test_no_socket_and_no_file_outside_the_game_is_opened(game, tmp_path):
    project = tmp_path / "project"
    for folder in ("content", "templates"):
        shutil.copytree(REPO / folder, project / folder)
    game_file = project / "content/downturn/game.yaml"
    game_file.write_text(game_file.read_text(encoding="utf-8").replace(
        "title: Downturn", 'title: !!python/object/apply:os.system ["touch pwned"]', 1),
        encoding="utf-8")
    secret = tmp_path / "secret.png"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-c", AUDITED, str(game), str(secret)], check=False,
                          capture_output=True, text=True, timeout=60, env=env, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    results = report["results"]
    assert all(results[f"default {h}"] == "RefusedFetch" for h in
               ("http://127.0.0.1:9/x.png", "../secret.png", "art/ok.png"))
    assert [key for key in results if key.startswith("resolve ") and results[key] != "None"] \
        == ["resolve art/ok.png"]
    assert len(results["yaml"]) == 1 and "is not allowed" in results["yaml"][0]
    assert not (tmp_path / "pwned").exists()

    others = [event for event in report["events"] if event[0] != "open"]
    assert others == [], others  # no socket, no URL request, no process, no ctypes
    opened = [Path(event[1]) for event in report["events"] if event[0] == "open"]
    assert (project / "content/downturn/game.yaml").resolve() in [p.resolve() for p in opened]
    assert secret not in [p.resolve() for p in opened]
    allowed = (game, project)
    outside = [p for p in opened if not any(p.resolve().is_relative_to(a) for a in allowed)]
    assert outside == [], outside
