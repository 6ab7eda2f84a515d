"""Compiled Jinja kept between runs: templates by Jinja's own FileSystemBytecodeCache, what
it cannot keep (labels, expressions, templates from strings) by pnp; code is reused only for
the same source and the same environment settings (pnp.cache.jinja)."""

from __future__ import annotations

import jinja2
import pytest

from pnp.cache import jinja
from pnp.render.renderer import Renderer


def _no_compiling(monkeypatch) -> None:
    def no_compiling(*args, **kwargs):
        raise AssertionError("compiled again")

    monkeypatch.setattr(jinja2.Environment, "_compile", no_compiling)


def test_compiled_jinja_is_kept_between_runs_and_keyed_by_its_source(tmp_path, monkeypatch):
    class Env(jinja.CachedCompiling, jinja2.Environment):
        pass

    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path))
    assert Env().from_string("{{ a + 1 }}").render(a=1) == "2"
    assert Env().compile_expression("a * 2")(a=4) == 8
    assert len([p for p in tmp_path.rglob("*") if p.is_file()]) == 2

    _no_compiling(monkeypatch)
    monkeypatch.setattr(jinja, "_MEMORY", jinja._Memory())  # as in a new process
    fresh = Env()  # the code comes from the cache folder
    assert fresh.from_string("{{ a + 1 }}").render(a=2) == "3"
    assert fresh.compile_expression("a * 2")(a=5) == 10
    with pytest.raises(AssertionError, match="compiled again"):
        fresh.from_string("{{ a + 2 }}")  # other source, other code
    with pytest.raises(AssertionError, match="compiled again"):
        Env(trim_blocks=True).from_string("{{ a + 1 }}")  # other options too


def test_templates_are_kept_by_jinjas_own_bytecode_cache(tmp_path, monkeypatch, user_cache):
    folder = tmp_path / "templates"
    folder.mkdir()
    (folder / "face.svg.j2").write_text("<svg>{{ card }}</svg>", encoding="utf-8")

    def render(card: str) -> str:
        return Renderer([folder], {}, {}).env.get_template("face.svg.j2").render(card=card)

    monkeypatch.setattr(jinja, "_MEMORY", jinja._Memory())
    assert render("a") == "<svg>a</svg>"
    kept = list(user_cache.glob("jinja-*/__jinja2_*.cache"))
    assert len(kept) == 1  # Jinja's file, in pnp's folder of the user cache
    monkeypatch.setattr(jinja, "_MEMORY", jinja._Memory())  # a new process
    with monkeypatch.context() as patch:
        _no_compiling(patch)
        assert render("b") == "<svg>b</svg>"
    (folder / "face.svg.j2").write_text("<svg>[{{ card }}]</svg>", encoding="utf-8")
    assert render("c") == "<svg>[c]</svg>"  # an edit: compiled again, never the old code
    kept[0].write_bytes(jinja2.bccache.bc_magic + b"damaged")  # Jinja itself would raise
    monkeypatch.setattr(jinja, "_MEMORY", jinja._Memory())
    assert render("d") == "<svg>[d]</svg>"  # a damaged entry is compiled again
