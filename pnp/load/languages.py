"""Languages: a game's records in the language its data is written in, and the translations
file beside each data file, in; the records of one edition out.

A game declares its languages in game.yaml (`languages: [en, de]`, the first is the language
its data files are written in). The German edition of `cards.yaml` is `cards.de.yaml` beside it
(`cards.csv` -> `cards.de.csv`): the same list of items, each named by the table's or deck's key
field (`name` unless `key:` says otherwise) and carrying the translated text fields. What is not
translated prints in the first language with a warning, or silently when game.yaml says
`fallback: en`. Translated text keeps its own file and line, so a German text that overflows
its box is reported at the German file's line.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any, Callable

from yaml.nodes import MappingNode, ScalarNode, SequenceNode

from .. import reads
from ..findings import Findings, Location
from .content import Document, location_of, printable
from .manifest import Manifest, RecordType
from .schema import INVALID, Validator, Where, suggest

# A language code as file names carry it: 'de', 'pt-br', 'zh-hant'.
LANGUAGE = re.compile(r"[a-z]{2,3}(-[a-z0-9]{2,8})*")


def edition_problem(info: Manifest, lang: str, findings: Findings) -> bool:
    """Check the manifest's `languages` and `fallback`, and that `lang` (when asked for) is
    one of them; True when the edition cannot be made."""
    where = info.where.of("languages")
    bad = False
    for code in info.languages:
        if not LANGUAGE.fullmatch(code):
            findings.error("manifest-language", where, f"'{printable(code)}' is not a "
                           "language code", field="languages",
                           hint="write lower-case codes such as en, de or pt-br")
            bad = True
    if len(set(info.languages)) < len(info.languages):
        findings.error("manifest-language", where, "a language is listed twice",
                       field="languages", hint="list each language once")
        bad = True
    if info.fallback and info.fallback != (info.languages or ("",))[0]:
        findings.error("manifest-language", info.where.of("fallback"), f"fallback "
                       f"'{printable(info.fallback)}' is not the language the data is written "
                       "in", field="fallback", hint=f"write 'fallback: {info.languages[0]}'"
                       if info.languages else "declare 'languages:' first, e.g. [en, de]")
        bad = True
    if lang and lang not in info.languages:
        known = ", ".join(info.languages)
        findings.error("manifest-language", where if info.languages else info.where.at,
                       f"the game has no '{printable(lang)}' edition", field="languages",
                       hint=(suggest(lang.lower(), info.languages) or f"languages: {known}")
                       if info.languages else f"add 'languages: [en, {printable(lang)}]' to "
                       "game.yaml and a translations file beside each data file")
        bad = True
    return bad


def translation_file(file: str, lang: str) -> str:
    """`cards.yaml` -> `cards.de.yaml`: where a data file's translation into `lang` lives."""
    path = Path(file)
    return str(path.with_name(f"{path.stem}.{lang}{path.suffix}"))


@dataclasses.dataclass
class Translator:
    """Puts one language's text into the records of one data file."""

    info: Manifest
    lang: str
    findings: Findings
    read: Callable[[str, Location], Document | None]  # a data file by name, as the loader reads
    folder: Path

    def translate(self, records: Any, file: str, where: Location, record: RecordType,
                  key: str, shown: Callable[[Path], str]) -> Any:
        """`records` (a tuple of items, or one record) in this edition's language."""
        if records is INVALID:
            return records
        texts = [name for name, spec in record.fields.items()
                 if spec.kind == "text" and name != key]
        if not texts:
            return records
        single = not isinstance(records, tuple)
        name = translation_file(file, self.lang)
        path = self.folder / name
        quiet = bool(self.info.fallback)
        if reads.kind(path) != reads.FILE:
            if not quiet:
                self.findings.warning("translation-missing", where, f"'{file}' has no "
                                      f"'{self.lang}' translation: {shown(path)} does not "
                                      f"exist, so its text prints in {self.info.languages[0]}",
                                      field="file", hint=f"create {name} (a copy of {file} "
                                      "with each item's key and translated text), or set "
                                      f"'fallback: {self.info.languages[0]}' in game.yaml")
            return records
        if not single and key not in record.fields:
            self.findings.error("translation-key", where, f"'{file}' cannot be translated: "
                                f"its items have no '{key}' field to name them by", field="key",
                                hint=f"name the field that tells its items apart, e.g. 'key: "
                                f"{next(iter(record.fields))}', beside 'file:'")
            return records
        document = self.read(name, where)
        if document is None or document.root is None:
            return records
        items = (records,) if single else records
        entries = self._entries(document, key, texts, record, single)
        if entries is None:
            return records
        by_key: dict[Any, list[int]] = {}
        for index, item in enumerate(items):
            by_key.setdefault(str(getattr(item, key, "")) if not single else "", []).append(index)
        translated = list(items)
        for entry_key, (entry_where, values) in entries.items():
            if entry_key not in by_key:
                self.findings.warning("translation-unknown", entry_where, f"'{entry_key}' is "
                                      f"not an item of {file}", field=key,
                                      hint=suggest(entry_key, by_key) or
                                      "remove it, or fix its key to match the data")
                continue
            for index in by_key[entry_key]:
                translated[index] = _with(translated[index], values)
        for index, item in enumerate(items):
            entry = entries.get(str(getattr(item, key, "")) if not single else "")
            have = entry[1] if entry else {}
            missing = [n for n in texts if getattr(item, n, None) and n not in have]
            if missing and not quiet:
                self.findings.warning(
                    "translation-missing", item.where.of(missing[0]),
                    f"no '{self.lang}' translation of {', '.join(missing)}: it prints in "
                    f"{self.info.languages[0]}", subject=getattr(item, "label", ""),
                    field=missing[0], hint=f"add it to {name}, or set 'fallback: "
                    f"{self.info.languages[0]}' in game.yaml")
        return translated[0] if single else tuple(translated)

    def _entries(self, document: Document, key: str, texts: list[str], record: RecordType,
                 single: bool) -> dict[str, tuple[Location, dict]] | None:
        """Each translated item's key -> (its location, {field: (text, location)})."""
        root = document.root
        validator = Validator(document.shown, self.findings)
        nodes = [root] if single and isinstance(root, MappingNode) else \
            root.value if isinstance(root, SequenceNode) and not single else None
        if nodes is None:
            shape = "one mapping of fields" if single else f"a list of items, each with its '{key}'"
            self.findings.error("translation-shape", location_of(document.shown, root),
                                f"a translation of this data is {shape}", hint="copy the data "
                                "file's shape, keep the keys, translate the text")
            return None
        entries: dict[str, tuple[Location, dict]] = {}
        for node in nodes:
            if not isinstance(node, MappingNode):
                self.findings.error("translation-shape", location_of(document.shown, node),
                                    "expected an item: a mapping of fields",
                                    hint=f"e.g. {{{key}: ..., {texts[0]}: ...}}")
                continue
            fields = {k.value: v for k, v in node.value if isinstance(k, ScalarNode)}
            if single:
                name = ""
            elif key not in fields or not isinstance(fields[key], ScalarNode):
                self.findings.error("translation-shape", location_of(document.shown, node),
                                    f"a translated item names its item by '{key}'", field=key,
                                    hint=f"add '{key}:' with the item's {key} as the data "
                                    "file has it")
                continue
            else:
                name = fields.pop(key).value
            values = {}
            for field_name, value in fields.items():
                if field_name not in texts:
                    found = record.fields.get(field_name)
                    why = "is not translated: only text fields are" if found else \
                        "is not a field"
                    self.findings.error("translation-field", location_of(document.shown, value),
                                        f"'{printable(field_name)}' {why}", field=field_name,
                                        hint=suggest(field_name, texts) or
                                        f"translated fields: {', '.join(texts)}")
                    continue
                text = validator.structure(value, str, field_name)
                if text is not INVALID:
                    values[field_name] = (text, location_of(document.shown, value))
            entries[name] = (location_of(document.shown, node), values)
        return entries


def _with(item: Any, values: dict[str, tuple[str, Location]]) -> Any:
    """A copy of `item` holding the translated texts, each located where it was written."""
    if not values:
        return item
    where = Where(item.where.at, {**item.where.fields,
                                  **{name: at for name, (_, at) in values.items()}})
    return dataclasses.replace(item, where=where, **{name: text for name, (text, _) in
                                                     values.items()})
