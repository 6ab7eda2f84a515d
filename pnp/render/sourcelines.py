"""Source lines: a template and a line of the SVG it wrote in; the template line that most likely
wrote it out, and the findings reported there, each once.

Jinja keeps no map from its output to the template's lines, so a problem in a drawn face is
placed by searching the template's source: the line written out as it is, else a line whose
literal parts match around its expressions (in the template or one it takes macros from),
else the most similar line.
"""

from __future__ import annotations

import difflib
import functools
import inspect
import posixpath
import re
import sys

from typing import Any

import jinja2

from ..findings import Findings, Location

_EXPRESSION = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}")


class Report:
    """The findings of one renderer's faces, each template problem reported once however
    many faces show it, at the template line that wrote it."""

    def __init__(self, env: jinja2.Environment):
        self.env = env
        self.findings = Findings()
        # What was reported once: (location, message), and (location, rule) for a
        # print-safety warning.
        self.once: set[tuple[Location, str]] = set()
        self._lines: dict[tuple[str, str], Location] = {}  # each written line's template line

    def take(self) -> tuple[Findings, set[tuple[Location, str]]]:
        """The findings gathered since the last call, and the keys of those reported once;
        both start afresh."""
        taken = self.findings, self.once
        self.findings, self.once = Findings(), set()
        return taken

    def error(self, where: Location, message: str, label: str, rule: str = "template-error",
              hint: str = "fix the template; the content was not at fault") -> None:
        """An error at `where`, once per template problem, not per card."""
        if (where, message) not in self.once:
            self.once.add((where, message))
            self.findings.error(rule, where, message, subject=label, hint=hint)

    def source_line(self, template: str, rendered: str) -> Location:
        """The template line that most likely wrote `rendered`, looked for once: a problem
        of a deck's template shows on most of its faces."""
        if (template, rendered) not in self._lines:
            self._lines[template, rendered] = find_source_line(self.env, template, rendered)
        return self._lines[template, rendered]


def find_source_line(env: jinja2.Environment, template: str, rendered: str) -> Location:
    """The line of `template` (or of a template beside it) that most likely wrote the SVG
    line `rendered`."""
    try:
        source, filename, _ = env.loader.get_source(env, template)
    except jinja2.TemplateNotFound:
        return Location(template)
    lines = source.splitlines()
    wanted = rendered.strip()
    exact = next((n for n, text in enumerate(lines, start=1) if wanted and wanted in text), 0)
    if exact:
        return Location(filename, exact, 1)
    # A line with expressions: its literal parts around them, in this template or one it
    # imports macros from.
    folder = posixpath.dirname(filename)
    imported = set(re.findall(r"\{%-?\s*(?:from|import|include)\s+[\"']([^\"']+)", source))
    others = sorted(((name, text) for name, text in env.loader.shown_sources.items()
                     if name != filename and posixpath.dirname(name) == folder),
                    key=lambda pair: posixpath.basename(pair[0]) not in imported)
    for name, text in [(filename, source)] + others:
        for number, pattern in _line_patterns(text):
            if pattern.fullmatch(wanted):
                return Location(name, number, 1)

    best, score = 0, 0.0
    for number, text in enumerate(lines, start=1):
        ratio = difflib.SequenceMatcher(None, wanted[:200], text.strip()[:200]).ratio()
        if ratio > score:
            best, score = number, ratio
    return Location(filename, best, 1) if best else Location(filename)


@functools.lru_cache(maxsize=256)
def _line_patterns(source: str) -> tuple[tuple[int, re.Pattern], ...]:
    """Each template line that writes markup with expressions, as a pattern its output
    matches (the expressions may print anything)."""
    patterns = []
    for number, line in enumerate(source.splitlines(), start=1):
        text = line.strip()
        parts = _EXPRESSION.split(text)
        if len(parts) < 2 or "<" not in "".join(parts):
            continue
        literal = [re.escape(part) for part in parts]
        patterns.append((number, re.compile(".*?".join(literal), re.S)))
    return tuple(patterns)


def calling_line() -> Location | None:
    """The template line whose code is running now (a helper it called asks), or None
    outside a template: Jinja's compiled code maps its own lines back to the template's."""
    frame = sys._getframe(1)
    while frame is not None:
        template = frame.f_globals.get("__jinja_template__")
        if template is not None:
            line = template.get_corresponding_lineno(frame.f_lineno)
            return Location(template.filename or template.name or "", line, 1)
        frame = frame.f_back
    return None


def template_location(template: str, exc: Exception) -> Location:
    """The template file and line where rendering failed, as precisely as Jinja knows."""
    name, line = getattr(exc, "filename", None), getattr(exc, "lineno", None)
    if name is None:
        trace = exc.__traceback__
        while trace is not None:
            if trace.tb_frame.f_code.co_filename.endswith(".j2"):
                name, line = trace.tb_frame.f_code.co_filename, trace.tb_lineno
            trace = trace.tb_next
    if name is None:
        return Location(template)
    return Location(name, line or 0, 1 if line else 0)


_NO_ATTRIBUTE = re.compile(r"'(?:[\w.]+\.)?(\w+) object' has no attribute '([^']*)'")
_CALL = re.compile(r"^(?:\w+\.)?(\w+)\(\) (.*)$", re.S)


def explained(exc: Exception, item: Any, names: dict[str, Any]) -> str:
    """A template failure in the words of the template: a field that the item lacks with the
    field it likely meant, a helper called wrongly with how it is called; else the error."""
    detail = str(exc.message if isinstance(exc, jinja2.TemplateError) else exc)
    missing = _NO_ATTRIBUTE.search(detail)
    if isinstance(exc, jinja2.UndefinedError) and missing:
        owner, name = missing.groups()
        fields = list(getattr(item, "__dataclass_fields__", ()))
        if fields and type(item).__name__ == owner:
            close = difflib.get_close_matches(name, fields, n=1)
            return (f"the card has no field '{name}' " +
                    (f"(did you mean '{close[0]}'?)" if close else
                     f"(its fields: {', '.join(fields)})"))
        return f"{owner} has no attribute '{name}'"
    call = _CALL.match(detail)
    if isinstance(exc, TypeError) and call and callable(names.get(call.group(1))):
        helper = call.group(1)
        try:
            signature = inspect.signature(names[helper])
            shape = str(signature.replace(return_annotation=inspect.Signature.empty, parameters=[
                p.replace(annotation=inspect.Parameter.empty)
                for p in signature.parameters.values()]))
        except (TypeError, ValueError):
            shape = "(...)"
        return f"{helper}(): {call.group(2)}; it is called as {helper}{shape}"
    if isinstance(exc, jinja2.TemplateSyntaxError):
        return f"template syntax: {detail}"
    return f"{type(exc).__name__}: {detail}"


def excerpt(line: str, column: int) -> str:
    """The 40 characters of `line` around `column`, to show where it goes wrong."""
    start = max(column - 20, 0)
    text = line[start:column + 20].strip()
    return text if len(text) <= 40 else text[:40]
