"""Declarative rules (content/<game>/rules.yaml): findings point at the content's items, and a
broken rule is itself a finding in rules.yaml."""

from __future__ import annotations

import json

import pytest

from conftest import edit, line_of
from sameplace import project, same_place  # noqa: F401 - fixtures

RULES = "content/downturn/rules.yaml"
BANKS = "content/downturn/banks.yaml"


def add_rules(project, text: str) -> int:
    """Append rules to rules.yaml; return the line the first appended rule starts on."""
    path = project / RULES
    before = path.read_text(encoding="utf-8")
    path.write_text(before + "\n" + text, encoding="utf-8")
    return before.count("\n") + 2


def findings_of(run, *args) -> list[dict]:
    return json.loads(run("check", "--format", "json", *args).out)["findings"]


def test_moved_rule_points_at_the_banks_field(project, run):
    edit(project / BANKS, "  max_shares: 3\n\n- name: Sunshine",
         "  max_shares: 1\n\n- name: Sunshine")
    [finding] = findings_of(run)
    assert finding["rule"] == "bank-max-shares"
    assert (finding["file"], finding["line"]) == (BANKS, line_of(project / BANKS, "max_shares: 1"))
    assert finding["subject"] == 'bank "Liberty Trust"' and finding["field"] == "max_shares"
    assert finding["message"] == "max shares 1, expected at least 2"


def test_whole_game_rule_without_at_points_at_the_rule(project, run):
    start = add_rules(project, "- id: few-banks\n  severity: warning\n"
                               "  expect: banks | length < 5\n"
                               "  message: \"{{ banks | length }} banks\"\n")
    result = run("check")
    assert result.code == 0  # a warning
    assert f"{RULES}:{start}:3: warning: 10 banks (rule few-banks)" in result.err
    assert run("check", "--strict").code == 1


def test_when_limits_the_items_and_at_moves_the_location(project, run):
    add_rules(project, "- id: northeast-banks-small\n  for_each: banks\n  item: bank\n"
                       "  when: bank.home_region == 'Northeast'\n"
                       "  expect: bank.max_shares < 4\n  field: max_shares\n"
                       "  message: \"{{ bank.name }} holds {{ bank.max_shares }}\"\n")
    findings = findings_of(run)
    assert [f["message"] for f in findings] == ["Empire Savings holds 5"]
    assert findings[0]["line"] == line_of(project / BANKS, "max_shares: 5")


def test_unique_names_the_first_line(project, run):
    edit(project / BANKS, "- name: Liberty Trust", "- name: Dixie Bank")
    add_rules(project, "- id: bank-name-once\n  for_each: banks\n  unique: item.name\n"
                       "  field: name\n"
                       "  message: \"'{{ item.name }}' again (first at line {{ first_line }})\"\n")
    findings = [f for f in findings_of(run) if f["rule"] == "bank-name-once"]
    first = line_of(project / BANKS, "- name: Dixie Bank")
    assert len(findings) == 1
    assert findings[0]["message"] == f"'Dixie Bank' again (first at line {first})"
    assert findings[0]["line"] > first


@pytest.mark.parametrize("rule, line_in_rule, fragment", [
    ("- id: Bad_Id\n  expect: true\n  message: m\n", 0, "rule-definition"),
    ("- id: bank-count\n  expect: true\n  message: m\n", 0, "already used at line"),
    ("- id: bank-name-unique-x\n  message: m\n", 0, "exactly one of 'expect', 'unique' or 'mentions'"),
    ("- id: lone-unique\n  unique: banks\n  message: m\n", 0, "'unique' needs 'for_each'"),
    ("- id: broken\n  expect: banks | length ==\n  message: m\n", 1, "syntax error"),
    ("- id: broken\n  for_each: bankz\n  expect: true\n  message: m\n", 1,
     "unknown name 'bankz'; did you mean 'banks'?"),
    ("- id: broken\n  expect: true\n  message: \"{{ nope }}\"\n", 2, "unknown name 'nope'"),
    ("- id: broken\n  expect: true\n  message: \"{{ nope \"\n", 2, "syntax error"),
    ("- id: broken\n  for_each: banks\n  expect: item.dividend\n  message: m\n", 2,
     "must be true or false, got 4 on bank \"Empire Savings\""),
    ("- id: broken\n  for_each: banks\n  expect: item.nope > 1\n  message: m\n", 2,
     "Bank has no attribute 'nope'"),
    ("- id: broken\n  for_each: info.title\n  expect: true\n  message: m\n", 1,
     "for_each must be a list"),
    ("- id: broken\n  expect: ('x' * 100000000) | length > 0\n  message: m\n", 1,
     "repetition 100000000 is larger than"),
    ("- id: broken\n  expect: 2 ** 100000000 > 1\n  message: m\n", 1, "power"),
])
def test_a_broken_rule_is_a_finding_in_rules_yaml(project, run, rule, line_in_rule, fragment):
    start = add_rules(project, rule)
    result = run("check")
    assert result.code == 1
    prefix = f"{RULES}:{start + line_in_rule}:"
    located = [line for line in result.lines if line.startswith(prefix)]
    assert len(located) == 1 and fragment in located[0], result.err
    assert "Traceback" not in result.err


def test_the_sandbox_hides_private_attributes(project, run):
    add_rules(project, "- id: peek\n  expect: game.__class__ is defined\n  message: reached\n")
    [finding] = findings_of(run)
    assert finding["rule"] == "peek"  # the expression saw no __class__, so it is false


def test_a_game_without_rules_yaml_checks_clean(project, run):
    (project / RULES).unlink()
    assert run("check", "--strict").code == 0
