"""Expressions: the Jinja sandbox that content-written expressions run in (a manifest's
`each` and labels, rules.yaml's rules); a source in, a compiled template or the names it reads
out. Compiled expressions and names are kept in memory for the process (`functools.lru_cache`),
for `pnp watch` and a designer's rules, which rarely change between two checks.

Expressions read the model (attributes, items, filters such as `length`, `sum`,
`selectattr`); they cannot import, call private attributes or touch files, and huge
repetitions and powers (memory and time bombs) are refused.
"""

from __future__ import annotations

import functools
import re

import jinja2
import jinja2.meta
from jinja2.sandbox import SandboxedEnvironment, SecurityError

MAX_REPEAT = 10_000  # 'x' * n and [..] * n: far above any real rule, far below a memory bomb
MAX_POWER = 64


class _Sandbox(SandboxedEnvironment):
    """Jinja's sandbox, also refusing huge repetitions and powers (memory and time bombs)."""

    intercepted_binops = frozenset({"*", "**"})

    def call_binop(self, context, operator, left, right):
        if operator == "**" and isinstance(right, (int, float)) and abs(right) > MAX_POWER:
            raise SecurityError(f"power {right} is larger than {MAX_POWER}")
        if operator == "*":
            for sequence, times in ((left, right), (right, left)):
                if isinstance(sequence, (str, list, tuple)) and isinstance(times, int) \
                        and times > MAX_REPEAT:
                    raise SecurityError(f"repetition {times} is larger than {MAX_REPEAT}")
        return super().call_binop(context, operator, left, right)

    @functools.lru_cache(maxsize=4096)
    def compile_expression(self, source: str, undefined_to_none: bool = True):
        return super().compile_expression(source, undefined_to_none)

    @functools.lru_cache(maxsize=4096)
    def _compiled(self, source: str):
        return super().from_string(source)

    def from_string(self, source, globals=None, template_class=None):
        if globals is None and template_class is None and isinstance(source, str):
            return self._compiled(source)
        return super().from_string(source, globals, template_class)


sandbox = _Sandbox(undefined=jinja2.StrictUndefined, autoescape=False)


def numbers_in(text) -> list:
    """The numbers written in a text, in order ("Gold 3M" -> [3], "-5%" -> [-5]): lets a
    rule say that a title or a card text agrees with the value the data holds."""
    found = []
    for match in _NUMBER_IN_TEXT.finditer(str(text)):
        value = float(match.group().replace("–", "-").replace("−", "-"))
        found.append(int(value) if value.is_integer() else value)
    return found


_NUMBER_IN_TEXT = re.compile(r"[-–−]?\d+(?:\.\d+)?")
sandbox.filters["numbers"] = numbers_in


@functools.lru_cache(maxsize=4096)
def names_used(source: str) -> tuple[str, ...]:
    """The names a Jinja template source reads from its context, sorted (parsing is most of
    a rule's cost, and a designer's rules rarely change between two checks)."""
    return tuple(sorted(jinja2.meta.find_undeclared_variables(sandbox.parse(source))))


__all__ = ["MAX_POWER", "MAX_REPEAT", "names_used", "sandbox"]
