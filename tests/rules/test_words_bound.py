"""Words bound to data: rules.yaml says that a name a text mentions exists (`mentions`) and that
a title agrees with its value (the `numbers` filter); each fires at the item's line."""

from __future__ import annotations

import json

from conftest import edit, line_of

EVENTS = "content/downturn/events.yaml"
RULES = "content/downturn/rules.yaml"


def findings_of(run, rule: str) -> list[dict]:
    found = json.loads(run("check", "--format", "json").out)["findings"]
    return [f for f in found if f["rule"] == rule]


def test_a_region_the_text_names_must_be_on_the_board(project, run):
    assert not findings_of(run, "event-text-regions-exist")
    edit(project / EVENTS, "into the Northeast (up to its max",
         "into the Norteast (up to its max")
    edit(project / EVENTS, "into the Mountain region", "into the Highland region")
    found = findings_of(run, "event-text-regions-exist")
    assert [f["message"] for f in found] == [
        "the text names the region 'Highland', which is not on the board"]
    assert found[0]["line"] == line_of(project / EVENTS, "Highland region")
    # The misspelt Northeast (and the lost Mountain) are caught by the rule that an event
    # names its own region.
    named = findings_of(run, "event-text-names-its-region")
    assert sorted(f["line"] for f in named) == sorted(
        line_of(project / EVENTS, text) for text in ("Norteast", "Highland region"))
    assert "the event's region is Northeast, but its text does not name it" in [
        f["message"] for f in named]


def test_a_title_agrees_with_its_value(project, run):
    path = project / RULES
    path.write_text(path.read_text(encoding="utf-8") + """
- id: bank-title-dividend
  for_each: banks
  item: bank
  expect: (bank.name ~ " pays " ~ bank.dividend) | numbers == [bank.dividend]
  message: "dividend {{ bank.dividend }}"
- id: numbers-read-signs-and-decimals
  expect: ("Gold 3M, -5% and 2.5" | numbers) == [3, -5, 2.5]
  message: numbers misread
""", encoding="utf-8")
    assert not findings_of(run, "bank-title-dividend")
    assert not findings_of(run, "numbers-read-signs-and-decimals")


def test_a_mentions_rule_needs_its_pattern_and_names(project, run):
    path = project / RULES
    path.write_text(path.read_text(encoding="utf-8") + """
- id: half-a-mentions-rule
  for_each: events
  mentions: item.effect
  message: x
- id: bad-pattern
  for_each: events
  mentions: item.effect
  pattern: "(unclosed"
  among: regions
  message: x
""", encoding="utf-8")
    found = json.loads(run("check", "--format", "json").out)["findings"]
    broken = [f["message"] for f in found if f["rule"] == "rule-definition"]
    assert "'mentions' needs 'for_each', 'pattern' and 'among'" in broken
    assert any(m.startswith("pattern '(unclosed' is not a regular expression") for m in broken)
