"""What an editor asks between checks: a game's checked model and a place in a file in; the
field and icon names that fit there (completion), and a card's text as it was fitted for the
data row under the cursor (hover), out. Read from the last check; nothing is drawn here."""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

from ..pipeline import CheckedGame

# Before the cursor in a template: `card.ti`, `text_box(card, "ti`, `image(card, "a`.
_FIELD = re.compile(r"(?:\bcard\.|\b(?:text_box|image)\(\s*card\s*,\s*[\"'])(\w*)$")
# An icon: `icon("co` in a template, `{co` in card text.
_ICON = re.compile(r"(?:\bicon\(\s*[\"']|\{)([a-z0-9_-]*)$")
_TEXT = re.compile(r"<text\b[^>]*>(.*?)</text>", re.S)
_TAG = re.compile(r"<[^>]+>")


def completions(checked: CheckedGame | None, before: str) -> tuple[str, list[str]]:
    """What kind of name the text `before` the cursor is writing ("field", "icon" or "")
    and the names that fit, beginning with what is written."""
    game = checked.game if checked else None
    if game is None:
        return "", []
    icon = _ICON.search(before)
    if icon:
        return "icon", sorted(n for n in game.icons if n.startswith(icon.group(1)))
    named = _FIELD.search(before)
    if named:
        return "field", sorted(n for n in field_names(game) if n.startswith(named.group(1)))
    return "", []


def field_names(game: Any) -> set[str]:
    """The fields of every table's and deck's records."""
    names: set[str] = set()
    for part in game.parts.values():
        records = part if isinstance(part, (tuple, list)) else (part,)
        for record in records[:1]:
            names.update(getattr(record, "__dataclass_fields__", ()))
    return names


def fitted_text(checked: CheckedGame | None, path: Path, line: int) -> str:
    """The printed words of the card whose data starts at or above `line` (1-based) of
    `path`, as drawn on its front, one text line a line; "" off a card."""
    if checked is None:
        return ""
    best: tuple[int, str, Any] | None = None
    for sheet in checked.sheets:
        for index, item in enumerate(getattr(sheet, "items", ())):
            at = getattr(getattr(item, "where", None), "at", None)
            if at is None or not at.line or at.line > line or \
                    Path(at.path).resolve() != path.resolve():
                continue
            fronts = getattr(sheet, "fronts", [])
            if best is None or at.line > best[0]:
                best = (at.line, getattr(item, "label", ""),
                        fronts[index] if index < len(fronts) else None)
    if best is None or best[2] is None:
        return ""
    words = [" ".join(html.unescape(_TAG.sub("", text)).split())
             for text in _TEXT.findall(best[2].svg)]
    return "\n".join([f"**{best[1]}**", ""] + [w for w in words if w])
