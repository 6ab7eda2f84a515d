"""Compiled Jinja kept between runs: code is reused only for the same source and the same
environment settings (pnp.jinjacache)."""

from __future__ import annotations

import jinja2
import pytest

from pnp import jinjacache


def test_compiled_jinja_is_kept_between_runs_and_keyed_by_its_source(tmp_path, monkeypatch):
    class Env(jinjacache.CachedCompiling, jinja2.Environment):
        pass

    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path))
    assert Env().from_string("{{ a + 1 }}").render(a=1) == "2"
    assert Env().compile_expression("a * 2")(a=4) == 8
    assert len([p for p in tmp_path.rglob("*") if p.is_file()]) == 2

    def no_compiling(*args, **kwargs):
        raise AssertionError("compiled again")

    monkeypatch.setattr(jinja2.Environment, "_compile", no_compiling)
    fresh = Env()  # as in a new process: the code comes from the cache folder
    assert fresh.from_string("{{ a + 1 }}").render(a=2) == "3"
    assert fresh.compile_expression("a * 2")(a=5) == 10
    with pytest.raises(AssertionError, match="compiled again"):
        fresh.from_string("{{ a + 2 }}")  # other source, other code
    with pytest.raises(AssertionError, match="compiled again"):
        Env(trim_blocks=True).from_string("{{ a + 1 }}")  # other options too
