"""Check on several processes: a game's sheets are shared between processes forked from this one
(pnp.engine.workers.run_tasks), and the findings and page plans are the same as from one process."""

from __future__ import annotations

import json
import shutil

from conftest import REPO
from pnp.pipeline import Project, check_game


def plain(checked):
    """What a check hands on: findings as printed, and every page plan of every output."""
    findings = sorted(f.format() for f in checked.findings)
    outputs = {name: [(o.file_name, o.plans, o.document) for o in outs]
               for name, outs in checked.outputs.items()}
    faces = {s.name: s.gallery() for s in checked.sheets}
    return findings, outputs, faces


def test_a_check_on_two_cores_hands_on_what_one_process_does(project):
    # A broken margin template shows on every deck's pages: it is reported once, for the
    # first sheet, whichever process drew which sheet.
    target = project / "templates/common/sheet.svg.j2"
    target.parent.mkdir(parents=True, exist_ok=True)
    source = (REPO / "pnp/data/templates/sheet.svg.j2").read_text(encoding="utf-8")
    target.write_text(source.replace("{{", "{{ no_such_name ~ ", 1), encoding="utf-8")
    one = check_game(Project(project), "downturn", jobs=1)
    two = check_game(Project(project), "downturn", jobs=2)
    assert [f.rule for f in one.findings].count("template-error") == 1
    assert plain(one) == plain(two)


def test_the_json_report_is_the_same_on_one_and_two_cores(project, run, monkeypatch):
    events = project / "content/downturn/events.yaml"
    events.write_text(events.read_text(encoding="utf-8").replace(
        'effect: "Stability +1."', 'effect: "Stability +1. {no-such-icon}"', 1),
        encoding="utf-8")
    reports = []
    for jobs in ("1", "2"):
        monkeypatch.setenv("PNP_JOBS", jobs)
        result = run("check", "--format", "json")
        assert result.code == 1
        reports.append(json.loads(result.out))
    assert reports[0] == reports[1]
    assert any(f["rule"] == "text-unknown-token" for f in reports[0]["findings"])


def test_a_large_deck_is_drawn_in_parts_with_the_whole_deck_in_view(tmp_path, monkeypatch):
    """54 cards in parts of 10, shared between two processes: the same faces, in order, and
    the same pages as drawn in one piece; a template that counts the deck counts all of it."""
    import pnp.compose.deck

    for folder in ("content", "templates"):
        shutil.copytree(REPO / "bench/poker" / folder, tmp_path / folder)
    front = tmp_path / "templates/poker/card-front.svg.j2"
    front.write_text(front.read_text(encoding="utf-8").replace(
        "</svg>", "<text>of {{ deck.items | length }}</text></svg>"), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    whole = check_game(Project(tmp_path), "poker", jobs=1)
    monkeypatch.setattr(pnp.compose.deck, "PART_ITEMS", 10)
    deck = whole.sheets[0]
    assert len(deck.parts(whole.renderer)) == 6
    parted = check_game(Project(tmp_path), "poker", jobs=2)
    assert plain(parted) == plain(whole)
    fronts = parted.sheets[0].fronts
    assert [face.label for face in fronts] == [item.label for item in deck.items]
    assert len(fronts) == 54 and all("of 54</text>" in face.svg for face in fronts)
