"""pnp's own printed words: an English message and an edition's language in; the message in
that language out, from pnp's catalogue (pnp/data/locale/<lang>.po), or the English with a
`pnp-translation-missing` warning when the catalogue lacks it.

The catalogues are gettext's .po files, read as they are (no compiled .mo to keep in step): a
`msgid` and its `msgstr`, each a run of quoted strings. Templates write `{{ _("Print at 100%")
}}`; the English is the message id, so an English edition needs no catalogue, and a sentence
the layout stage composed (a sheet's notes) is looked up whole.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

from ..findings import Location

LOCALE_DIR = Path(__file__).parent.parent / "data" / "locale"
LANGUAGE_NAMES = {"de": "German", "fr": "French"}


@cache
def catalogue(lang: str) -> dict[str, str]:
    """The translations of one language (empty for English, or a language pnp has none of)."""
    path = LOCALE_DIR / f"{lang}.po"
    if not lang or not path.is_file():
        return {}
    return read_po(path.read_text(encoding="utf-8"))


def read_po(text: str) -> dict[str, str]:
    """The msgid -> msgstr pairs of a .po file (its header and untranslated entries left out)."""
    entries: dict[str, str] = {}
    key, parts = None, {"msgid": [], "msgstr": []}

    def close() -> None:
        msgid, msgstr = "".join(parts["msgid"]), "".join(parts["msgstr"])
        if msgid and msgstr:
            entries[msgid] = msgstr

    for line in text.splitlines():
        line = line.strip()
        if line.startswith("msgid "):
            close()
            parts = {"msgid": [], "msgstr": []}
            key, line = "msgid", line[len("msgid "):]
        elif line.startswith("msgstr "):
            key, line = "msgstr", line[len("msgstr "):]
        if key and line.startswith('"'):
            parts[key].append(ast.literal_eval(line))  # a C-style quoted string
    close()
    return entries


class Words:
    """The `_` of pnp's templates for one edition: each message in its language; a message the
    catalogue lacks prints in English and is warned about once (`report`, the renderer's)."""

    def __init__(self, lang: str, report):
        base = lang.split("-")[0].lower()  # 'de-at' prints pnp's German
        self.lang = base if base in LANGUAGE_NAMES else ""
        self.report = report

    def __call__(self, message: str) -> str:
        if not self.lang or not message:
            return message
        translated = catalogue(self.lang).get(message)
        if translated is None:
            where = Location(f"pnp/data/locale/{self.lang}.po")
            key = (where, message)
            if key not in self.report.once:
                self.report.once.add(key)
                self.report.findings.warning(
                    "pnp-translation-missing", where,
                    f"pnp has no {LANGUAGE_NAMES[self.lang]} for '{message}': it prints in "
                    "English", hint="add the message to pnp's catalogue")
            return message
        return translated
