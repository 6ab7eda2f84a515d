"""Template helpers: what a template calls (`text_box`, `image`, `icon`, `font`, `line_count`) in;
SVG markup out, and findings on the card for what it drew.

Text boxes are declared by the template with `text_box(...)`: the box, the font role, the
preferred and minimum size. Fitting happens here, with the same metrics the PDF is drawn with,
and anything that had to shrink, does not fit or cannot be drawn becomes a finding on the card.
"""

from __future__ import annotations

import base64
import math
import re
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup, escape

from .. import reads
from ..fonts import BUNDLED, FontTable, characters_named, metrics
from ..load.content import printable
from ..units import MM_PER_PT, Size
from .emphasis import BOLD, ITALIC, STYLE_NAMES, parse_emphasis
from .environment import number
from .safety import MIN_SMALL_PT, MIN_TEXT_PT, SMALL_ROLE_NAMES
from .sourcelines import Report, calling_line
from .textfit import (DEFAULT_LANGUAGE, ICON_RISE_EM, TOKEN, fit_text, printed_text,
                      styled_metrics, wrap)

ICONS_TEMPLATE = "icons.svg.j2"
# Content files, which the model reads: never embedded as art.
DATA_SUFFIXES = (".yaml", ".yml", ".csv", ".xlsx")
_IMAGE_TYPES = {b"\x89PNG": "image/png", b"\xff\xd8": "image/jpeg"}


class TemplateHelpers:
    """The helpers one renderer gives its templates, reporting what they find on the card."""

    def __init__(self, env: jinja2.Environment, report: Report, icons: dict[str, dict[str, str]],
                 fonts: FontTable = BUNDLED, art_folder: Path | None = None):
        self.env = env
        self.report = report
        self.icons = icons
        self.fonts = fonts
        self.art_folder = art_folder
        # The face being drawn: its size and the deck's safe margin, when it has both.
        self.safe: tuple[Size, float] | None = None
        self._icon_macro = None
        self._icon_template = None

    def font_attributes(self, role: str) -> Markup:
        """SVG attributes selecting a font by role: `<text {{ font('title') }}>`."""
        return face_attributes(self.fonts, role)

    def image(self, card: Any, field: str, box_mm: tuple[float, float, float, float], *,
              fit: str = "meet") -> Markup:
        """Draw the art named by `card.<field>` (an `image` field, checked by the model stage)
        into the box (x, y, width, height in mm), embedded in the face. Raster art too coarse
        for the box it prints in is a warning on the card, with its effective dpi."""
        if self.art_folder is None:
            raise ValueError("this game has no art folder")
        path = str(getattr(card, field))
        file = (self.art_folder / path).resolve()
        if not file.is_relative_to(self.art_folder.resolve()):
            raise ValueError(f"'{path}' is outside the game folder")
        if file.suffix.lower() in DATA_SUFFIXES:
            raise ValueError(f"'{path}' is a content file, not art")
        data = reads.read_file(file, inside=self.art_folder)
        x, y, width, height = box_mm
        where = card.where.of(field) if hasattr(card, "where") else None
        if where is not None:
            from ..load.art import resolution_finding

            finding = resolution_finding(data, (width, height), where, shown=path,
                                         subject=getattr(card, "label", ""), field=field,
                                         fit=fit)
            if finding is not None and (where, finding.message) not in self.report.once:
                self.report.once.add((where, finding.message))
                self.report.findings.add(finding)
        kind = next((t for magic, t in _IMAGE_TYPES.items() if data.startswith(magic)),
                    "image/svg+xml")
        encoded = base64.b64encode(data).decode("ascii")
        aspect = "xMidYMid slice" if fit == "slice" else "xMidYMid meet"
        return Markup(f'<image x="{number(x)}" y="{number(y)}" width="{number(width)}" '
                      f'height="{number(height)}" preserveAspectRatio="{aspect}" '
                      f'href="data:{kind};base64,{encoded}"/>')

    def icon(self, name: str, x_mm: float, y_mm: float, size_mm: float) -> Markup:
        """Draw the icon `name` in a square of `size_mm` from its top-left corner."""
        spec = self.icons[name]
        if spec.get("href"):  # the designer's own symbol, checked when the game was loaded
            return Markup(f'<image x="{number(x_mm)}" y="{number(y_mm)}" '
                          f'width="{number(size_mm)}" height="{number(size_mm)}" '
                          f'preserveAspectRatio="xMidYMax meet" href="{spec["href"]}"/>')
        # Asked for at every use, so the work drawing the icon notes the template's reads.
        template = self.env.get_template(ICONS_TEMPLATE)
        if template is not self._icon_template:
            self._icon_template, self._icon_macro = template, template.module.icon
        return self._icon_macro(spec, x_mm, y_mm, size_mm)

    def text_box(self, card: Any, field: str, box_mm: tuple[float, float, float, float], *,
                 font: str = "body", size_pt: float = 9, min_pt: float | None = None,
                 leading: float = 1.2, align: str = "left", valign: str = "top",
                 fill: str = "#000000", policy: str = "shrink", text: str | None = None,
                 role: str = "") -> Markup:
        """Fit `card.<field>` into the box (x, y, width, height in mm) and draw it.

        policy 'shrink' may go down to `min_pt` (a warning below `size_pt`); 'fail' may not.
        `text` draws other words (a title with its number) checked at the field's location.
        `role` "credit" (or "stamp") marks text that may print at MIN_SMALL_PT.
        """
        text = str(getattr(card, field) if text is None else text)
        x, y, width, height = box_mm
        if self.fonts.face(font) is None:
            raise ValueError(f"no font role '{font}'; the game's roles are "
                             f"{', '.join(self.fonts.roles)}")
        face = metrics(font, self.fonts)
        where = card.where.of(field) if hasattr(card, "where") else None
        label = getattr(card, "label", "")
        if where is not None and not _holds_field(text, getattr(card, field, None)):
            # Words that are not the field's (a credit line): found where the template
            # gives them, once, not at every card's field.
            shown = " ".join(text.split())
            where, field = calling_line() or where, ""
            label = f"text '{shown if len(shown) <= 30 else shown[:27] + '...'}'"
            if (where, "text=") in self.report.once:
                where = None
            else:
                self.report.once.add((where, "text="))
        smallest = size_pt if policy == "fail" or min_pt is None else min_pt
        self._check_tokens(text, where, label, field)
        emphasis = parse_emphasis(text)
        self._check_characters(emphasis, face, where, label, field)
        text = emphasis.marked
        fit = fit_text(text, face, width, height, size_pt, smallest, leading, align,
                       self._language())
        if where is not None:
            if not fit.fits:
                self._report_overflow(fit, text, box_mm, smallest, where, label, field)
            elif fit.size_pt < size_pt:
                self.report.findings.warning(
                    "text-shrunk", where,
                    f"text shrunk from {size_pt:g} pt to {fit.size_pt:g} pt to fit its box",
                    subject=label, field=field,
                    hint="shorten it a little if it should print at the designed size")
        if where is not None and fit.fits:
            self._check_safe_zone(fit, x, y, height, valign, where, label, field)
        least = MIN_SMALL_PT if role in SMALL_ROLE_NAMES else MIN_TEXT_PT
        if where is not None and fit.size_pt < least - 0.005 and fit.lines:
            self.report.findings.warning(
                "print-text-size", where, f"text prints at {fit.size_pt:g} pt, under "
                f"{least:g} pt", subject=label, field=field,
                hint=f"shorten it, or give the template's text box a minimum of "
                     f"{least:g} pt or more")
        return self._draw(fit, face, x, y, width, height, valign, fill)

    def _check_safe_zone(self, fit, x, y, height, valign, where, label, field) -> None:
        """A warning when the drawn text (not its box) reaches into the deck's safe margin,
        where a slightly misaligned cut would trim it."""
        if not self.safe or not self.safe[1]:
            return
        size, safe = self.safe
        runs = [run for line in fit.lines for run in line]
        if not runs:
            return
        offset = {"top": 0.0, "middle": (height - fit.height_mm) / 2,
                  "bottom": height - fit.height_mm}[valign]
        left = x + min(run.x_mm for run in runs)
        right = x + max(run.x_mm + run.width_mm for run in runs)
        top = y + max(offset, 0.0)
        bottom = top + fit.height_mm
        if (left < safe - 0.01 or top < safe - 0.01 or right > size.width_mm - safe + 0.01
                or bottom > size.height_mm - safe + 0.01):
            self.report.findings.warning(
                "text-in-safe-margin", where,
                f"text reaches into the {safe:g} mm safe margin of its "
                f"{size.width_mm:g} x {size.height_mm:g} mm piece", subject=label, field=field,
                hint="keep text inside the safe area (the deck's safe_mm), where a cut that "
                     "wanders cannot trim it")

    def _check_tokens(self, text, where, label, field) -> None:
        """Anything written like a token that names no icon is an error, so it never prints
        as typed; the hint names the icons that can be drawn, the closest first."""
        if where is None or "{" not in text:
            return
        for match in _TOKEN_LIKE.finditer(text):
            name = match.group(1)
            if TOKEN.fullmatch(match.group(0)) and name in self.icons:
                continue
            known = _closest_first(name, self.icons)
            hint = ("known tokens: " + ", ".join("{" + n + "}" for n in known)) if known else \
                "declare it under 'icons:' in game.yaml, or remove the braces"
            self.report.findings.error("text-unknown-token", where,
                                f"unknown icon token {{{printable(name)}}}", subject=label,
                                field=field, hint=hint)

    def _check_characters(self, emphasis, face, where, label, field) -> None:
        """Emphasis and every character, each in the face that draws it."""
        if where is None:
            return
        if emphasis.problem:
            self.report.findings.error("text-emphasis", where, emphasis.problem, subject=label,
                                field=field, hint="close it with the same mark, or write \\* "
                                "for an asterisk")
        for style in sorted({style for style, _ in emphasis.spans}):
            drawing = styled_metrics(face, style)
            # fontconfig would draw the nearest face it has: a family without an italic
            # prints `*italic*` upright, so that is said, not left to be found in print.
            if (style & ITALIC and drawing.face.style != "italic") or \
                    (style & BOLD and drawing.face.weight != "bold"):
                self.report.findings.error(
                    "font-no-style", where, f"{STYLE_NAMES[style]} text, but the font "
                    f"{face.face.family} has no {STYLE_NAMES[style]} face", subject=label,
                    field=field, hint="give the font role that face in game.yaml (fonts:), "
                    "or drop the emphasis")
            used = "".join(part for s, part in emphasis.spans if s == style)
            lacking = drawing.missing(_strip_tokens(used))
            if lacking:  # one finding per text, however many characters it lacks
                self.report.findings.error(
                    "glyph-missing", where,
                    f"{characters_named(lacking, used)} {'is' if len(lacking) == 1 else 'are'} not "
                    f"in the font {drawing.face.family} ({_face_name(drawing.face)})",
                    subject=label,
                    field=field, hint="it would print as an empty box; replace it, or give "
                    "the game a font that has it (fonts: in game.yaml)")

    def _language(self) -> str:
        """The edition's language, for hyphenation; English when the game names none."""
        return str(self.env.globals.get("lang") or DEFAULT_LANGUAGE)

    def _report_overflow(self, fit, text, box_mm, smallest, where, label, field) -> None:
        _, _, width, height = box_mm
        if fit.too_wide:
            message = (f"the word '{fit.too_wide}' is wider than its {width:g} mm box even at "
                       f"{smallest:g} pt")
            hint = _too_wide_hint(fit)
        else:
            message = (f"text overflows its {width:g} x {height:g} mm box by "
                       f"{_shown_mm(fit.overflow_mm)} mm ({fit.overflow_lines} line"
                       f"{'s' if fit.overflow_lines != 1 else ''}) even at {smallest:g} pt")
            cut = _words_to_cut(fit)
            hint = f"shorten it by about {cut} word{'s' if cut != 1 else ''}"
            if fit.overflow_lines == 1:  # its last line only: a little more room would do
                hint += (f", or give the template's text box {_shown_mm(fit.overflow_mm)} mm "
                         "more height")
        self.report.findings.error("text-overflow", where, message, subject=label, field=field,
                            hint=hint)

    def _run_texts(self, font, run, x_mm: float, baseline: float, size_pt: float) -> list[str]:
        """A text run's `<text>` elements: one, in the face its emphasis names, or one per
        piece where a fallback face draws characters that face lacks."""
        drawing = styled_metrics(font, run.style)
        pieces = drawing.segments(run.text)
        out = []
        for face, text in pieces:
            attributes = ""
            if face != font.face:
                attributes = (f' font-family="{escape(face.family)}" font-weight="{face.weight}"'
                              f' font-style="{face.style}"')
            out.append(f'<text x="{number(x_mm)}" y="{number(baseline)}"{attributes}>'
                       f"{escape(text)}</text>")
            x_mm += drawing.width_mm(text, size_pt)
        return out

    def _draw(self, fit, font, x, y, width, height, valign, fill) -> Markup:
        face = font.face
        size_mm = fit.size_pt * MM_PER_PT
        offset = {"top": 0.0, "middle": (height - fit.height_mm) / 2,
                  "bottom": height - fit.height_mm}[valign]
        baseline = y + max(offset, 0.0) + fit.vertical[0] * size_mm
        # The box the text was fitted to (x y width height, mm) goes with it, so what prints
        # can be compared with what was measured.
        box = " ".join(number(v) for v in (x, y, width, height))
        parts = [f'<g data-fit="text" data-box="{box}" font-family="{face.family}" '
                 f'font-weight="{face.weight}" font-size="{number(size_mm)}" '
                 f'fill="{escape(fill)}">']
        for runs in fit.lines:
            for run in runs:
                if run.icon:
                    if run.icon in self.icons:
                        # A square sits a little below the baseline, as a capital's box
                        # would; a designer's symbol stands on it, as its letters do.
                        image = bool(self.icons[run.icon].get("href"))
                        top = baseline - (run.width_mm if image else ICON_RISE_EM * size_mm)
                        parts.append(self.icon(run.icon, x + run.x_mm, top, run.width_mm))
                else:
                    parts += self._run_texts(font, run, x + run.x_mm, baseline, fit.size_pt)
            baseline += fit.leading * size_mm
        parts.append("</g>")
        return Markup("".join(str(p) for p in parts))


def line_count(text: str, width_mm: float, *, font: str = "body", size_pt: float = 9,
               fonts: FontTable = BUNDLED) -> int:
    """How many lines `text` wraps to in a box `width_mm` wide at `size_pt`: lets a template
    give each text box the height it needs before `text_box` fits and checks it."""
    marked = parse_emphasis(str(text)).marked
    return len(wrap(marked, metrics(font, fonts), size_pt, width_mm)[0])


# Single braces around a few words, as a token is written, whether or not they name an icon
# (`{Coin}`, `{elder sign}`, `{}`); not `{{ 7*7 }}` or `{x: 1}`, which are plainly text.
_TOKEN_LIKE = re.compile(r"(?<!\{)\{([\w '.-]{0,40})\}(?!\})")


def _closest_first(name: str, known) -> list[str]:
    """The names in `known`, the most like `name` first."""
    import difflib  # only for a token that names no icon

    wanted = name.strip().lower().replace(" ", "_")
    return sorted(known, key=lambda n: -difflib.SequenceMatcher(None, wanted, n).ratio())


def _strip_tokens(text: str) -> str:
    """The characters a text prints: no icon tokens, no marks that only allow a break."""
    return printed_text(TOKEN.sub("", text))


def _words_to_cut(fit) -> int:
    """The words on the lines whose ink is past the box."""
    over = fit.lines[len(fit.lines) - fit.overflow_lines:] if fit.overflow_lines else ()
    return max(1, sum(len(run.text.split()) + (1 if run.icon else 0)
                      for line in over for run in line))


def _shown_mm(length_mm: float) -> str:
    """A small length shown so that it never reads as 0.0 (rounded up to 0.01 mm)."""
    if length_mm >= 0.095:
        return f"{length_mm:.1f}"
    return f"{math.ceil(length_mm * 100) / 100:.2f}"


def _too_wide_hint(fit) -> str:
    """What can be done about a word no break opportunity narrows enough."""
    piece = fit.unbreakable
    if len(piece) <= 1:
        return "widen the text box: it is narrower than one character at this size"
    middle = len(piece) // 2
    return (f"shorten it, or write a soft hyphen where it may break (\"{piece[:middle]}"
            f"\\u00ad{piece[middle:]}\" in a double-quoted YAML string): it prints as a "
            "hyphen only where the line breaks")


def face_attributes(fonts: FontTable, role: str) -> Markup:
    """SVG attributes selecting the face `fonts` give a role."""
    face = fonts.face(role)
    if face is None:
        raise ValueError(f"no font role '{role}'; the game's roles are "
                         f"{', '.join(fonts.roles)}")
    return Markup(f'font-family="{escape(face.family)}" font-weight="{face.weight}"'
                  + (f' font-style="{face.style}"' if face.style != "normal" else ""))


def _face_name(face) -> str:
    return "bold italic" if face.weight == "bold" and face.style == "italic" else \
        face.style if face.style == "italic" else face.weight if face.weight == "bold" \
        else "regular"


def _holds_field(text: str, value: Any) -> bool:
    """Whether the words drawn hold the field's own value (a title with its number does)."""
    shown = " ".join(str(value if value is not None else "").split())
    return not shown or shown in " ".join(text.split())
