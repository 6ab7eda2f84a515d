"""Declarative rules: a game's `rules.yaml` and its valid model in; findings out.

A game folder may carry `content/<game>/rules.yaml`, a list of rules written as expressions over
the game's data, so a designer can state "every bank holds at least 2 shares" without Python.
Expressions are Jinja expressions evaluated in Jinja's sandbox: they read the model (attributes,
items, filters such as `length`, `sum`, `selectattr`), they cannot import, call private
attributes or touch files. Each rule is one of three forms:

- whole game: `expect` alone, one finding when it is false;
- per item: `for_each` names a collection and `expect` is checked for each item, so the finding
  points at the item's own file:line (or at its `field`);
- duplicates: `for_each` with `unique`, a key per item; an item whose key an earlier item already
  has is a finding that names the earlier one's line;
- names a text mentions: `for_each` with `mentions` (the item's text), `pattern` (a regular
  expression finding each name) and `among` (the names that exist); a name not among them is
  a finding at the item. With the `numbers` filter an `expect` rule says a title agrees with
  its value (`card.title | numbers == [card.value]`).

`message` and `hint` are Jinja templates over the same names. A broken rule (bad id, a syntax
error, an unknown name, an expression that fails on the data) is itself a finding located in
rules.yaml; the remaining rules still run. The format is documented in docs/rules.md.
"""

from __future__ import annotations

import dataclasses
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import jinja2

from .. import reads
from ..load.content import load_document
from ..findings import NOWHERE, Finding, Findings, Location, Severity
from ..load.expressions import names_used, sandbox
from ..load.model import Withheld
from .registry import REGISTRY
from ..load.schema import INVALID, Where, located, suggest, validate

RULES_FILE = "rules.yaml"
_ID = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")
_OBJECT = re.compile(r"'[\w.]+\.(\w+) object'")


@dataclass(frozen=True)
class DeclaredRule:
    """One entry of rules.yaml; the keys are documented in docs/rules.md."""

    id: str
    message: str
    expect: str = ""
    unique: str = ""
    for_each: str = ""
    item: str = "item"  # the name each item of `for_each` goes by in the expressions
    when: str = ""  # per item: check only the items for which this is true
    at: str = ""  # the object whose location the finding carries (default: the item)
    field: str = ""  # the field of that object to point at, e.g. max_shares
    hint: str = ""
    summary: str = ""
    severity: Literal["error", "warning"] = "error"
    # Names a text mentions must exist: with for_each, `mentions` gives the item's text,
    # `pattern` (a regular expression) finds each name in it (the first group that matched,
    # or the whole match) and `among` gives the names that exist; `name` is the missing one in messages.
    mentions: str = ""
    pattern: str = ""
    among: str = ""
    where: Where = located()


class RuleBroken(Exception):
    """A rule that cannot be evaluated; carries the rules.yaml location to report."""

    def __init__(self, where: Location, message: str, hint: str = ""):
        super().__init__(message)
        self.where = where
        self.message = message
        self.hint = hint


def names_of(model: Any) -> dict[str, Any]:
    """The names rules can use: `game` (the whole model), `info` and every table and deck."""
    if hasattr(model, "names"):
        return model.names()
    names = {"game": model}
    if dataclasses.is_dataclass(model):
        names.update((f.name, getattr(model, f.name)) for f in dataclasses.fields(model))
    return names


def run_declared_rules(path: Path, shown: str, model: Any, findings: Findings) -> None:
    """Load `path` if the game has one, and add the findings of every rule in it."""
    if not reads.exists(path):
        return
    declared = validate(load_document(path, shown, findings), tuple[DeclaredRule, ...],
                        "rules", findings)
    if declared is INVALID:
        return
    names = names_of(model)
    # A game only partly valid: a rule that reads a table or deck with errors is left out,
    # as its findings would be about the gap (reading one through `game` raises Withheld).
    withheld = getattr(model, "withheld", frozenset())
    seen: dict[str, DeclaredRule] = {}
    for index, declared_rule in enumerate(declared):
        if not _id_usable(declared_rule, index, seen, findings):
            continue
        if withheld and _reads(declared_rule) & withheld:
            continue
        try:
            findings.extend(list(_evaluate(declared_rule, f"rules[{index}]", names)))
        except RuleBroken as broken:
            findings.error("rule-expression", broken.where, broken.message,
                           subject=f"rule {declared_rule.id}", hint=broken.hint)
        except Withheld:
            continue


_EXPRESSIONS = ("expect", "unique", "for_each", "when", "at", "mentions", "among")


def _reads(declared: DeclaredRule) -> set[str]:
    """The names a rule's expressions and templates read (those that can be parsed)."""
    names: set[str] = set()
    for key in (*_EXPRESSIONS, "message", "hint"):
        source = getattr(declared, key)
        if source:
            try:
                names.update(names_used("{{ (" + source + ") }}" if key in _EXPRESSIONS
                                        else source))
            except jinja2.TemplateSyntaxError:
                pass  # reported when the rule is evaluated
    return names


def _id_usable(declared: DeclaredRule, index: int, seen: dict, findings: Findings) -> bool:
    where, path = declared.where.of("id"), f"rules[{index}].id"
    if not _ID.fullmatch(declared.id):
        findings.error("rule-definition", where, f"rule id '{declared.id}' is not kebab-case",
                       field=path, hint="use lower-case words joined by '-', e.g. bank-max-shares")
        return False
    if declared.id in seen:
        findings.error("rule-definition", where, f"rule id '{declared.id}' is already used at "
                       f"line {seen[declared.id].where.of('id').line}", field=path,
                       hint="give each rule its own id")
        return False
    if declared.id in REGISTRY:
        findings.error("rule-definition", where, f"rule id '{declared.id}' is already a "
                       "built-in rule", field=path,
                       hint="pick another id, or remove the built-in rule it replaces")
        return False
    seen[declared.id] = declared
    forms = [key for key in ("expect", "unique", "mentions") if getattr(declared, key)]
    problem = ""
    if len(forms) != 1:
        problem = "a rule needs exactly one of 'expect', 'unique' or 'mentions'"
    elif declared.mentions and not (declared.for_each and declared.pattern and declared.among):
        problem = "'mentions' needs 'for_each', 'pattern' and 'among'"
    elif declared.unique and not declared.for_each:
        problem = "'unique' needs 'for_each', the items whose keys must differ"
    elif declared.when and not declared.for_each:
        problem = "'when' needs 'for_each', the items it chooses from"
    elif declared.pattern:
        try:
            re.compile(declared.pattern)
        except re.error as exc:
            findings.error("rule-definition", declared.where.of("pattern"),
                           f"pattern '{declared.pattern}' is not a regular expression: {exc}",
                           field=f"rules[{index}].pattern", hint="e.g. '\"([^\"]+)\"' for a "
                           "quoted name")
            return False
    if problem:
        findings.error("rule-definition", declared.where.at, problem, field=f"rules[{index}]",
                       hint="see docs/rules.md for the forms a rule can take")
        return False
    return True


class _Compiled:
    """A rule's expressions and templates compiled, with every name they use checked."""

    def __init__(self, declared: DeclaredRule, known: set[str]):
        self.declared = declared
        self.known = known

    def expression(self, key: str):
        source = getattr(self.declared, key)
        if not source:
            return None
        where = self.declared.where.of(key)
        try:
            compiled = sandbox.compile_expression(source, undefined_to_none=False)
            self._check_names(key, "{{ (" + source + ") }}", where)
        except jinja2.TemplateSyntaxError as exc:
            raise RuleBroken(where, f"{key}: syntax error in '{source}': {exc.message}",
                             "write a Jinja expression, e.g. bank.max_shares >= 2") from None
        return compiled

    def template(self, key: str):
        source = getattr(self.declared, key)
        where = self.declared.where.of(key)
        try:
            self._check_names(key, source, where)
            return sandbox.from_string(source)
        except jinja2.TemplateSyntaxError as exc:
            raise RuleBroken(where, f"{key}: syntax error: {exc.message}",
                             "values go in {{ ... }}, e.g. {{ bank.max_shares }}") from None

    def _check_names(self, key: str, source: str, where: Location) -> None:
        for name in names_used(source):
            if name not in self.known:
                raise RuleBroken(where, f"{key}: unknown name '{name}'",
                                 suggest(name, self.known) or
                                 f"names: {', '.join(sorted(self.known))}")


def _evaluate(declared: DeclaredRule, path: str, names: dict[str, Any]):
    known = set(names) | ({declared.item, "first", "first_line"} if declared.for_each else set())
    if declared.mentions:
        known.add("name")
    compiled = _Compiled(declared, known)
    expect, unique = compiled.expression("expect"), compiled.expression("unique")
    collection, when = compiled.expression("for_each"), compiled.expression("when")
    mentions, among = compiled.expression("mentions"), compiled.expression("among")
    at = compiled.expression("at")
    message, hint = compiled.template("message"), compiled.template("hint")
    severity = Severity(declared.severity)

    def run(key: str, function, scope: dict[str, Any], on: str = "") -> Any:
        try:
            value = function(**scope)
        except Withheld:
            raise
        except Exception as exc:  # any failure of content-written code is a located finding
            detail = exc.message if isinstance(exc, jinja2.TemplateError) and exc.message \
                else str(exc)
            detail = _OBJECT.sub(r"\1", detail)  # 'types.Bank object' -> Bank
            raise RuleBroken(declared.where.of(key), f"{key}: {type(exc).__name__}"
                             f"{' on ' + on if on else ''}: {detail}") from None
        if isinstance(value, jinja2.Undefined):
            raise RuleBroken(declared.where.of(key), f"{key}: {value._undefined_message}"
                             f"{' on ' + on if on else ''}")
        return value

    def finding(scope: dict[str, Any], on: str):
        target = run("at", at, scope, on) if at else scope.get(declared.item)
        where, subject = _place(target, declared.field)
        return Finding(declared.id, severity, where if where is not NOWHERE else
                       declared.where.at, run("message", message.render, scope, on).strip(),
                       subject=subject, field=declared.field,
                       hint=run("hint", hint.render, scope, on).strip())

    def boolean(key: str, function, scope: dict[str, Any], on: str) -> bool:
        value = run(key, function, scope, on)
        if not isinstance(value, bool):
            raise RuleBroken(declared.where.of(key), f"{key} must be true or false, got "
                             f"{_short(value)}{' on ' + on if on else ''}",
                             "compare the value, e.g. bank.max_shares >= 2")
        return value

    if not declared.for_each:
        if not boolean("expect", expect, names, ""):
            yield finding(names, "")
        return
    items = run("for_each", collection, names)
    if isinstance(items, (str, bytes)) or not hasattr(items, "__iter__"):
        raise RuleBroken(declared.where.of("for_each"),
                         f"for_each must be a list, got {_short(items)}",
                         "name a collection, e.g. banks or events")
    first: dict[Any, tuple[Any, int]] = {}
    known_names: set[str] | None = None
    for item in items:
        scope = {**names, declared.item: item}
        on = _describe(item)
        if when and not boolean("when", when, scope, on):
            continue
        if expect is not None:
            if not boolean("expect", expect, scope, on):
                yield finding(scope, on)
            continue
        if mentions is not None:
            if known_names is None:
                known_names = {str(n) for n in run("among", among, names)}
            text = str(run("mentions", mentions, scope, on))
            for match in re.finditer(declared.pattern, text):
                name = next((g for g in match.groups() if g), match.group())
                if name not in known_names:
                    yield finding({**scope, "name": name}, on)
            continue
        key = _hashable(run("unique", unique, scope, on))
        if key in first:
            earlier, line = first[key]
            yield finding({**scope, "first": earlier, "first_line": line}, on)
        else:
            first[key] = (item, _place(item, declared.field)[0].line)


def _place(target: Any, field: str) -> tuple[Location, str]:
    """Where a finding about `target` points, and the subject it names."""
    where = getattr(target, "where", None)
    label = getattr(target, "label", "")
    subject = label if isinstance(label, str) else ""
    if not isinstance(where, Where):
        return NOWHERE, subject
    return (where.of(field) if field else where.at), subject


def _describe(item: Any) -> str:
    label = getattr(item, "label", None)
    return label if isinstance(label, str) and label else _short(item)


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _hashable(key: Any) -> Any:
    if isinstance(key, float) and math.isnan(key):
        return "nan"
    try:
        hash(key)
    except TypeError:
        return repr(key)
    return key
