"""pnp check: the shipped content is clean, and each kind of mistake comes back as one line."""

from __future__ import annotations

import json
import re

from conftest import edit, line_of
from sameplace import project, same_place  # noqa: F401 - fixtures

EVENTS = "content/downturn/events.yaml"


def test_shipped_content_is_clean(project, run):
    result = run("check", "--strict")
    assert result.code == 0, result.err
    assert "0 errors, 0 warnings" in result.err


def test_text_five_times_too_long_is_one_located_error(project, run):
    events = project / EVENTS
    effect = ("Active player (Leader during the Initial Draw) moves up to 5 permanent cubes "
              "from any owned banks to one bank they own; bank maximums are ignored.")
    edit(events, f'effect: "{effect}"', f'effect: "{" ".join([effect] * 5)}"')
    line = line_of(events, "Active player (Leader during the Initial Draw)")
    result = run("check")
    assert result.code == 1
    errors = [line for line in result.lines if ": error:" in line]
    assert len(errors) == 1, result.err
    assert errors[0].startswith(f"{EVENTS}:{line}:11: error: ")
    assert 'event 16 "Credit Swap"' in errors[0]
    assert re.search(r"overflows its [\d.]+ x [\d.]+ mm box by [\d.]+ mm \(\d+ lines?\)",
                     errors[0])
    assert "(rule text-overflow)" in errors[0]


def test_slightly_long_text_shrinks_with_a_warning_and_fails_only_when_strict(project, run):
    events = project / EVENTS
    edit(events, 'effect: "Stability -1."',
         'effect: "Stability -1. ' + "Every region shivers a little as the news spreads. " * 8
         + '"')
    result = run("check")
    assert result.code == 0
    warnings = [line for line in result.lines if ": warning:" in line]
    assert len(warnings) == 1 and "(rule text-shrunk)" in warnings[0]
    assert warnings[0].startswith(f"{EVENTS}:{line_of(events, 'shivers')}:")
    assert run("check", "--strict").code == 1


def test_broken_yaml_is_one_line_with_its_location_and_no_traceback(project, run):
    banks = project / "content/downturn/banks.yaml"
    edit(banks, "  home_region: Midwest\n", "  home_region: [Midwest\n")
    result = run("check")
    assert result.code == 1
    assert len(result.lines) == 2, result.err  # the finding and the summary
    assert re.match(r"content/downturn/banks\.yaml:\d+:\d+: error: YAML syntax error",
                    result.lines[0])
    assert "Traceback" not in result.err


def test_unknown_key_warns_and_suggests_the_nearest_known_key(project, run):
    events = project / EVENTS
    edit(events, '  title: "Fed Cuts Rates"', '  titel: "Fed Cuts Rates"')
    result = run("check")
    assert result.code == 1  # the title is now missing, which is an error
    unknown = [line for line in result.lines if "unknown key 'titel'" in line]
    assert len(unknown) == 1
    assert ": warning:" in unknown[0] and "did you mean 'title'?" in unknown[0]
    assert unknown[0].startswith(f"{EVENTS}:{line_of(events, 'titel')}:3:")


def test_character_outside_the_font_is_named_with_its_code_point(project, run):
    edit(project / EVENTS, '"Fed Cuts Rates"', '"Fed Cuts Rates 漢"')
    result = run("check")
    assert result.code == 1
    assert any("U+6F22" in line and "(rule glyph-missing)" in line for line in result.lines)


def test_unknown_icon_token_is_an_error(project, run):
    edit(project / EVENTS, "discards 1 {yellow} (Leader sets order)",
         "discards 1 {purple} (Leader sets order)")
    result = run("check")
    assert result.code == 1
    assert any("unknown icon token {purple}" in line for line in result.lines)


def test_json_output_lists_findings_with_their_locations(project, run):
    edit(project / EVENTS, "- number: 42", "- number: 41")
    result = run("check", "--format", "json")
    assert result.code == 1
    report = json.loads(result.out)
    assert report["ok"] is False
    rules = {f["rule"] for f in report["findings"]}
    assert "event-numbers" in rules
    first = report["findings"][0]
    assert set(first) >= {"rule", "severity", "file", "line", "column", "message"}


def test_check_writes_nothing(project, run):
    assert run("check").code == 0
    assert not (project / "output").exists()


def test_unclosed_bracket_points_back_to_where_it_opened(project, run):
    banks = project / "content/downturn/banks.yaml"
    edit(banks, "  home_region: Midwest\n", "  home_region: [Midwest\n")
    opened = line_of(banks, "[Midwest")
    result = run("check")
    assert result.code == 1
    assert result.lines[0].startswith(f"content/downturn/banks.yaml:{opened}:16: error: ")
    assert "the [ that opens here is never closed" in result.lines[0]
