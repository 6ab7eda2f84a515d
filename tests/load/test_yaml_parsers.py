"""Load: libyaml's parser (the fast path) and PyYAML's give the same node trees.

A file that libyaml parses is composed from its events; anything else is read again by PyYAML,
whose messages the findings explain. These tests hold the two to the same trees, styles and
source positions, on every content file in the repository and on generated text.
"""

from __future__ import annotations

import string

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import REPO
from pnp.load.content import StrictLoader, _compose_fast, load_document
from pnp.findings import Findings

CONTENT_FILES = sorted(p for folder in ("content", "tests/data", "bench", "plugins")
                       for p in (REPO / folder).rglob("*.yaml"))


def compose(loader_class, text: str):
    """(root, findings) or the name of the exception the loader raised."""
    found = Findings()
    try:
        loader = loader_class(text, "t.yaml", found)
        root = loader.get_single_node()
    except Exception as exc:  # noqa: BLE001 - both loaders' failures are compared by kind
        return type(exc).__name__
    return root, [f.format() for f in found] + [f.format() for f in loader.runaways]


def position(mark) -> tuple[int, int, int]:
    return mark.line, mark.column, mark.index


def shape(node):
    """A node tree as plain tuples of what pnp reads: kind, tag, a scalar's style and value,
    where every node starts and ends. Not compared: a block list's flow style, which pnp
    never reads (libyaml says False where PyYAML says None), and the column of an empty value
    (`key:` with nothing after it), which libyaml may place a character or two on, at the next
    token: a finding on it names the same line."""
    if node is None:
        return None
    marks = (position(node.start_mark), position(node.end_mark))
    if isinstance(node, yaml.ScalarNode) and node.value == "" and node.style is None:
        marks = (node.start_mark.line, node.end_mark.line)
    if isinstance(node, yaml.ScalarNode):
        return ("scalar", node.tag, node.style, node.value, marks)
    if isinstance(node, yaml.MappingNode):
        return ("map", node.tag, marks,
                tuple((shape(k), shape(v)) for k, v in node.value))
    return ("seq", node.tag, marks, tuple(shape(v) for v in node.value))


def compose_fast(text: str):
    """What load_document's fast path gives: (root, findings), or None for PyYAML's path."""
    composed = _compose_fast(text, "t.yaml")
    return None if composed is None else (composed[0], [f.format() for f in composed[1]])


def assert_same_or_refused(text: str) -> None:
    fast = compose_fast(text)
    if fast is None:
        return  # the file goes to PyYAML's parser, whose answer is the one reported
    slow = compose(StrictLoader, text)
    assert not isinstance(slow, str), f"libyaml read what PyYAML refuses ({slow}): {text!r}"
    assert shape(fast[0]) == shape(slow[0])
    assert fast[1] == slow[1]


def test_content_files_take_the_fast_path():
    taken = [p for p in CONTENT_FILES if compose_fast(p.read_text(encoding="utf-8",
                                                                    errors="replace"))]
    assert len(taken) > 0.8 * len(CONTENT_FILES)


@pytest.mark.parametrize("text", ["n\tull\n", "a: 1\n? ", "a:\n- b", "\ufeffa: b\n"])
def test_where_the_parsers_part_pyyaml_reads_the_file(text):
    assert compose_fast(text) is None


@pytest.mark.parametrize("path", CONTENT_FILES, ids=lambda p: str(p.relative_to(REPO)))
def test_every_content_file_composes_the_same_with_both_parsers(path):
    text = path.read_bytes().decode("utf-8", errors="replace")
    assert_same_or_refused(text)


def test_the_repository_holds_the_files_compared():
    assert len(CONTENT_FILES) > 150


values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.text(string.printable + "éü€ ", max_size=30)),
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(st.text(string.ascii_letters + "_-", min_size=1,
                                                    max_size=8), inner, max_size=4)),
    max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(values, st.sampled_from([None, '"', "'", "|"]), st.booleans(), st.integers(0, 200),
       st.sampled_from(['"', "'", ":", "- ", "? ", "[", "]", "{", "}", ",", "\n", "\r\n", "  ",
                        "\t", "#", "&a ", "*a", "!!str ", "---\n", "...\n", "|", ">", "\\",
                        "\ufeff", "%YAML 1.1\n---\n"]))
def test_generated_yaml_composes_the_same_or_falls_back(value, style, flow, cut, insert):
    text = yaml.safe_dump(value, default_style=style, default_flow_style=flow,
                          allow_unicode=True)
    assert_same_or_refused(text)
    broken = text[:cut] + insert + text[cut:]  # a stray quote, colon or bracket, as edits make
    assert_same_or_refused(broken)


def test_a_file_libyaml_refuses_is_explained_by_pyyaml(tmp_path):
    """The fast parser's failure never reaches the user: the finding is PyYAML's, located."""
    path = tmp_path / "bad.yaml"
    path.write_text('title: "Downturn\nplayers: 4\n', encoding="utf-8")
    findings = Findings()
    document = load_document(path, "bad.yaml", findings)
    assert document.root is None
    [finding] = [f.format() for f in findings]
    assert finding.startswith("bad.yaml:1:8: error:")
    assert "quote" in finding


def test_a_quote_that_runs_on_is_still_a_warning_on_the_fast_path(tmp_path):
    path = tmp_path / "runaway.yaml"
    path.write_text('- title: "Boom\n  effect: ok"\n', encoding="utf-8")
    assert compose_fast(path.read_text()) is not None
    findings = Findings()
    load_document(path, "runaway.yaml", findings)
    assert [f.rule for f in findings] == ["yaml-runaway-quote"]
