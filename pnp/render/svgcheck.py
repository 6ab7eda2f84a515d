"""What a face's SVG asks of the drawing that the PDF stage would refuse or fail on: a rendered
SVG text in; the first such problem (an excerpt of the SVG to locate it by, a message, a hint)
out, or None.

The check parses every face as the PDF stage will, but does not draw it with cairo (that is
the build's work); these are the things cairosvg only meets while drawing, so the check looks
for them in the text:

- a resource loaded through CSS (`url(...)` to anything but `#id` or a `data:` URL, or
  `@import`), which the build's fetcher refuses;
- `<use>` elements that reach themselves (an element using itself or one of its ancestors,
  directly or through other uses), which cairosvg follows without end;
- a transform with a number too large to draw, not a number, or a zero scale: cairo refuses
  a matrix it cannot invert.
"""

from __future__ import annotations

import math
import re
from xml.parsers import expat

Problem = tuple[str, str, str]  # (excerpt of the SVG, message, hint)

# The largest number a transform may hold: a thousand times more than a board in mm.
MAX_TRANSFORM = 1e6

_CSS_FETCH = re.compile(r"""@import\b[^;]*|url\(\s*(["']?)(?!\s*(?:#|data:))([^)"']*)\1\s*\)""",
                        re.IGNORECASE)
# A transform attribute: inside a tag, not in text a face prints.
_TRANSFORM_ATTRIBUTE = re.compile(r"""<[^<>]*?\btransform\s*=\s*(["'])([^"'<>]*)\1""")
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|nan|inf(?:inity)?",
                     re.IGNORECASE)
_ZERO_SCALE = re.compile(r"scale\(\s*[-+]?0*\.?0+(?:[eE][-+]?\d+)?\s*(?:[,\s)])")
_HREF_NAMES = ("href", "xlink:href")


def drawing_problem(svg: str) -> Problem | None:
    """The first thing in `svg` the drawing would refuse or fail on, or None."""
    if "transform" in svg:  # numbers only: read from the text, no parse needed
        for match in _TRANSFORM_ATTRIBUTE.finditer(svg):
            problem = _transform(match.group(2))
            if problem:
                return problem
    fetches = ("url(" in svg or "@import" in svg) and _CSS_FETCH.search(svg)
    if not fetches and "<use" not in svg:
        return None  # most faces: nothing more to look for, and no second parse
    found: list[Problem] = []
    reaches: dict[str, set[str]] = {"": set()}  # an id (or "" the document) -> ids it uses
    open_ids: list[str] = [""]
    stack: list[str | None] = []
    in_style: list[bool] = [False]

    def start(name: str, attributes: dict[str, str]) -> None:
        local = name.rsplit(":", 1)[-1]
        in_style.append(local == "style")
        for value in attributes.values():
            problem = _css_fetch(value)
            if problem and not found:
                found.append(problem)
        own = attributes.get("id")
        stack.append(own)
        if own:
            open_ids.append(own)
            reaches.setdefault(own, set())
        if local == "use":
            target = next((attributes[key] for key in _HREF_NAMES if key in attributes), "")
            if target.startswith("#"):
                for holder in open_ids:  # everything that holds this <use> draws its target
                    reaches.setdefault(holder, set()).add(target[1:])

    def end(name: str) -> None:
        in_style.pop()
        if stack.pop():
            open_ids.pop()

    def text(data: str) -> None:
        if in_style[-1] and not found:
            problem = _css_fetch(data)
            if problem:
                found.append(problem)

    parser = expat.ParserCreate()
    parser.StartElementHandler, parser.EndElementHandler = start, end
    parser.CharacterDataHandler = text
    try:
        parser.Parse(svg, True)
    except expat.ExpatError:
        return None  # reported as XML that is not well-formed
    if found:
        return found[0]
    loop = _loop(reaches)
    if loop is not None:
        return (f'id="{loop}"', f"an element with id '{loop}' uses itself through <use>, "
                "which never ends", "let <use> refer only to elements that do not contain "
                "it, such as those in <defs>")
    return None


def _css_fetch(value: str) -> Problem | None:
    if "url(" not in value and "@import" not in value:
        return None
    fetch = _CSS_FETCH.search(value)
    if fetch is None:
        return None
    shown = fetch.group(0)[:60]
    return (fetch.group(0), f"loads '{shown}' through CSS, which a build refuses",
            "draw art only through image(); colours and patterns may be referred to by "
            "url(#id) within the face")


def _transform(value: str) -> Problem | None:
    numbers = [float(number) for number in _NUMBER.findall(value)]
    if any(not math.isfinite(number) or abs(number) > MAX_TRANSFORM for number in numbers) \
            or _ZERO_SCALE.search(value):
        return (f'transform="{value}"', f"has the transform '{value[:60]}', which cannot be "
                "drawn", f"use finite numbers of at most {MAX_TRANSFORM:g} and no scale of 0")
    return None


def _loop(reaches: dict[str, set[str]]) -> str | None:
    """An id that reaches itself through the uses in `reaches`, or None. Depth first, with a
    stack of its own: a long chain of uses is no reason to fail."""
    state: dict[str, int] = {"": 1}  # 1: on the path being followed, 2: done
    path = [("", iter(sorted(reaches[""])))]
    while path:
        node, targets = path[-1]
        target = next(targets, None)
        if target is None:
            state[node] = 2
            path.pop()
        elif state.get(target) == 1:
            return target
        elif target in reaches and target not in state:
            state[target] = 1
            path.append((target, iter(sorted(reaches[target]))))
    return None


__all__ = ["drawing_problem", "MAX_TRANSFORM"]
