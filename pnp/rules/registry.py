"""Rules: a valid model in, consistency findings out.

A rule is a function registered under a stable kebab-case id for one rules plug-in
(`pnp.rules.plugins`). It yields findings; it never raises on bad data. Ids are registered once: a second rule with the same id
is a programming error caught at import time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable, Iterator

from ..findings import Finding, Findings, Location, Severity
from ..load.model import Withheld

RuleFunction = Callable[[Any], Iterator[Finding]]
_ID = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")


@dataclass(frozen=True)
class Rule:
    id: str
    plugin: str  # the plug-in (or built-in set) the rule belongs to
    summary: str
    check: RuleFunction


REGISTRY: dict[str, Rule] = {}


def rule(rule_id: str, plugin: str, summary: str):
    """Register a rule function under `rule_id` for the rules plug-in `plugin`."""
    if not _ID.fullmatch(rule_id):
        raise ValueError(f"rule id {rule_id!r} is not kebab-case")

    def register(function: RuleFunction) -> RuleFunction:
        if rule_id in REGISTRY:
            raise ValueError(f"rule id {rule_id!r} is registered twice")
        REGISTRY[rule_id] = Rule(rule_id, plugin, summary, function)
        return function

    return register


def rules_for(plugin: str) -> list[Rule]:
    return [r for r in REGISTRY.values() if r.plugin == plugin]


def run_rules(plugin: str, model: Any, findings: Findings, where: Location | None = None
              ) -> None:
    """Run the plug-in's rules on `model`. A rule that raises (a plug-in written for another
    game, reading a table this one lacks) stops the plug-in with one finding at `where`, the
    manifest's `plugin:`, instead of ending the check. A rule that reads a table or deck
    with errors of a game only partly valid (Withheld) is left out: its findings would be
    about the gap, not the data."""
    for each in rules_for(plugin):
        try:
            findings.extend(list(each.check(model)))
        except Withheld:
            continue
        except Exception as exc:  # the plug-in's code failing on this game's data
            if isinstance(exc, AttributeError) and exc.args and isinstance(exc.args[0], str) \
                    and " " not in exc.args[0]:
                why = f"it reads '{exc.args[0]}', which this game does not declare"
            else:
                why = f"its rule '{each.id}' failed: {type(exc).__name__}: {exc}"
            findings.error("game-plugin", where or Location(""), f"the rules plug-in "
                           f"'{plugin}' does not fit this game: {why}",
                           hint="use the plug-in with the game it was written for, or "
                           "remove 'plugin:'")
            return


def problem(rule_id: str, where: Location, message: str, *, subject: str = "",
            field: str = "", hint: str = "", severity: Severity = Severity.ERROR) -> Finding:
    """The finding a rule yields; `rule_id` must be the id the rule is registered under."""
    return Finding(rule_id, severity, where, message, subject=subject, field=field, hint=hint)
