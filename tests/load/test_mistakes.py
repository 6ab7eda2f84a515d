"""Content mistakes, one per file under tests/data/mistakes/: each yields exactly its rule id at
its line, and the JSON report of every one of them matches docs/findings.schema.json.

A mistake file is YAML:

    file: content/downturn/banks.yaml      # the file to break, in a copy of the project
    replace: "  max_shares: 3\\n"           # an edit: this text (exactly once) ...
    with: "  max_shares: 1\\n"              # ... becomes this; then_replace/then_with: a second
    # or  append: |  ...                    # text added at the end of the file
    # or  content: |  ...                   # the whole file replaced
    rule: bank-max-shares                  # the one rule id the check must report
    line: "max_shares: 1"                  # the last line holding this text, or a line number
                                           # (0: the finding is about the whole file)

A mistake in a game's content folder is checked with `--game` that game only (the other games'
content is untouched, so it cannot add findings); any other file is checked over the project's
games.
"""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
import yaml

from conftest import REPO, TESTS, add_game, edit
from sameplace import project, same_place  # noqa: F401 - fixtures

MISTAKES = TESTS / "data" / "mistakes"
SCHEMA = json.loads((REPO / "docs" / "findings.schema.json").read_text(encoding="utf-8"))
CASES = sorted(MISTAKES.glob("*.yaml"))


def apply_mistake(project: Path, case: dict) -> Path:
    target = project / case["file"]
    if "content" in case:
        target.write_text(case["content"], encoding="utf-8")
    elif "append" in case:
        target.write_text(target.read_text(encoding="utf-8") + case["append"], encoding="utf-8")
    else:
        edit(target, case["replace"], case["with"])
        if "then_replace" in case:
            edit(target, case["then_replace"], case["then_with"])
    return target


def games_checked(case: dict) -> list[str]:
    """`--game NAME` for a mistake inside content/NAME/, nothing (every game) otherwise."""
    parts = Path(case["file"]).parts
    return ["--game", parts[1]] if len(parts) > 2 and parts[0] == "content" else []


def expected_line(target: Path, line) -> int:
    if isinstance(line, int):
        return line
    numbers = [n for n, text in enumerate(target.read_text(encoding="utf-8").splitlines(), 1)
               if line in text]
    assert numbers, f"{line!r} is not in {target}: the mistake's patch did not apply"
    return numbers[-1]


def test_there_are_at_least_twenty_distinct_mistakes():
    cases = [yaml.safe_load(path.read_text(encoding="utf-8")) for path in CASES]
    assert len(CASES) >= 20
    assert len({(c["file"], c["rule"], str(c.get("with", c.get("append", ""))))
                for c in cases}) == len(cases)


PRINTED = {"cover-deal-matches-setup", "cover-face-up-workforce", "aid-reveal-cost",
           "asset-name-is-its-value", "counter-card-names-its-target", "printed-land-value",
           "printed-first-property", "printed-bank-tower", "cover-setup-figures",
           "cover-cube-counts", "printed-readings", "workforce-overhead-paid",
           "workforce-capacity-below-next-risk", "interest-defaults-rise",
           "no-card-takes-last-workforce", "event-names-a-company", "colour-has-markers"}


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_mistake_yields_exactly_its_rule_at_its_line(path, project, run):
    case = yaml.safe_load(path.read_text(encoding="utf-8"))
    games = games_checked(case)
    if games:
        add_game(project, games[1])
    target = apply_mistake(project, case)
    line = expected_line(target, case["line"])
    result = run("check", "--format", "json", "--strict", *games)
    report = json.loads(result.out)
    jsonschema.validate(report, SCHEMA)
    findings = report["findings"]
    # Content that breaks a rule may also draw badly (a Joker with a suit draws both): the
    # print-safety warnings that follow are not the mistake's own finding.
    findings = [f for f in findings
                if not (f["rule"].startswith("print-") and f["severity"] == "warning")]
    # Nor are the findings of the rules that hold printed words to the data: a number changed
    # alone in the data no longer matches the text that prints it, which they rightly report.
    findings = [f for f in findings if f["rule"] == case["rule"] or f["rule"] not in PRINTED]
    assert {f["rule"] for f in findings} == {case["rule"]}, json.dumps(findings, indent=1)
    at_rule = [f for f in findings if f["rule"] == case["rule"]]
    assert line in {f["line"] for f in at_rule}, json.dumps(at_rule, indent=1)
    assert {f["file"] for f in at_rule} == {case["file"]}
    assert result.code == 1 and report["ok"] is False


def test_clean_content_reports_ok_in_the_schema(project, run):
    result = run("check", "--format", "json")
    report = json.loads(result.out)
    jsonschema.validate(report, SCHEMA)
    assert "downturn" in report["games"]  # beside any other game the project ships
    assert report["ok"] is True and report["findings"] == []
    assert result.code == 0


def test_schema_rejects_a_report_that_breaks_it():
    finding = {"rule": "bank-dividend", "severity": "error", "file": "x.yaml", "line": 3,
               "column": 1, "subject": "", "field": "", "message": "m", "hint": ""}
    good = {"version": 1, "games": ["g"], "ok": False, "findings": [finding]}
    jsonschema.validate(good, SCHEMA)
    for broken in ({**finding, "severity": "fatal"}, {**finding, "line": -1},
                   {**finding, "rule": "Bank Dividend"}, {k: v for k, v in finding.items()
                                                          if k != "hint"}):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate({**good, "findings": [broken]}, SCHEMA)
