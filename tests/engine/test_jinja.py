"""Compiled templates kept between runs by Jinja's own FileSystemBytecodeCache, in the user
cache (pnp.engine.jinja); code is reused only for the same source."""

from __future__ import annotations

import jinja2

from pnp.engine import jinja
from pnp.render.renderer import Renderer


def _no_compiling(monkeypatch) -> None:
    def no_compiling(*args, **kwargs):
        raise AssertionError("compiled again")

    monkeypatch.setattr(jinja2.Environment, "_compile", no_compiling)


def test_templates_are_kept_by_jinjas_own_bytecode_cache(tmp_path, monkeypatch, user_cache):
    folder = tmp_path / "templates"
    folder.mkdir()
    (folder / "face.svg.j2").write_text("<svg>{{ card }}</svg>", encoding="utf-8")

    def render(card: str) -> str:
        renderer = Renderer([folder], {}, {}, bytecode_cache=jinja.bytecode_cache())
        return renderer.env.get_template("face.svg.j2").render(card=card)

    assert render("a") == "<svg>a</svg>"
    kept = list(user_cache.glob("jinja-*/__jinja2_*.cache"))
    assert len(kept) == 1  # Jinja's file, in pnp's folder of the user cache
    with monkeypatch.context() as patch:
        _no_compiling(patch)
        assert render("b") == "<svg>b</svg>"  # a new renderer: the code comes from the file
    (folder / "face.svg.j2").write_text("<svg>[{{ card }}]</svg>", encoding="utf-8")
    assert render("c") == "<svg>[c]</svg>"  # an edit: compiled again, never the old code
    kept[0].write_bytes(jinja2.bccache.bc_magic + b"damaged")  # Jinja itself would raise
    assert render("d") == "<svg>[d]</svg>"  # a damaged entry is compiled again


def test_a_renderer_handed_no_bytecode_cache_keeps_nothing(tmp_path, user_cache):
    folder = tmp_path / "templates"
    folder.mkdir()
    (folder / "face.svg.j2").write_text("<svg>{{ card }}</svg>", encoding="utf-8")
    assert Renderer([folder], {}, {}).env.get_template("face.svg.j2").render(card="a") == \
        "<svg>a</svg>"
    assert not list(user_cache.glob("jinja-*/*"))
