"""Compiled Jinja kept between runs: templates by Jinja's own FileSystemBytecodeCache, what
it cannot keep (labels, expressions, templates from strings) by pnp; code is reused only for
the same source and the same environment settings (pnp.cache.jinja)."""

from __future__ import annotations

import marshal

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


def _sources() -> list[tuple[str, str]]:
    """Every Jinja template the project ships or tests with, by path and source."""
    from conftest import REPO

    found = []
    for pattern in ("templates/**/*.j2", "pnp/data/templates/**/*.j2", "pnp/data/scaffold/**/*.j2",
                    "tests/**/*.j2", "bench/**/*.j2"):
        found += [(str(path.relative_to(REPO)), path.read_text(encoding="utf-8"))
                  for path in sorted(REPO.glob(pattern))]
    return found


@pytest.mark.parametrize("env_kind", ["renderer", "rules"])
def test_one_parse_answers_what_three_did(env_kind, user_cache, monkeypatch, tmp_path):
    """A template is parsed once, for what it reads, what it names and its code; each answer
    is the one Jinja's own three parses give (`find_undeclared_variables`, a walk of the
    tree, `compile`), whichever is asked first."""
    import jinja2.meta

    from pnp.load.expressions import sandbox

    env = Renderer([str(tmp_path)], {}, {}).env if env_kind == "renderer" else sandbox
    sources = _sources()
    assert len(sources) > 40
    for path, source in sources:
        try:
            reads = tuple(sorted(jinja2.meta.find_undeclared_variables(
                jinja2.Environment.parse(env, source))))
        except jinja2.TemplateError as exc:  # a broken template, or a filter of another env
            with pytest.raises(type(exc)):
                jinja.names_read(env, source)
            continue
        tree = jinja2.Environment.parse(env, source)
        loads = (tuple(sorted({n.name for n in tree.find_all(jinja2.nodes.Name)
                               if n.ctx == "load"})),
                 tuple(jinja2.meta.find_referenced_templates(tree)))
        code = jinja2.Environment.compile(env, source, path, path)
        for first in ("compile", "read"):  # each order, as in a new process
            monkeypatch.setattr(jinja, "_MEMORY", jinja._Memory())
            monkeypatch.setattr(jinja, "_FOUND", jinja._Memory())
            monkeypatch.setattr(jinja, "_PARSED", jinja._Memory(entries=64))
            for kept in user_cache.glob("jinja-*/*"):
                kept.unlink()
            parses = []
            real_parse = jinja2.Environment._parse
            monkeypatch.setattr(jinja2.Environment, "_parse",
                                lambda self, *args: parses.append(1) or real_parse(self, *args))
            if first == "compile":
                ours = env.compile(source, path, path)
            assert jinja.names_read(env, source) == reads, path
            assert jinja.template_reads(env, source) == loads, path
            if first == "read":
                ours = env.compile(source, path, path)
            monkeypatch.setattr(jinja2.Environment, "_parse", real_parse)
            assert marshal.dumps(ours) == marshal.dumps(code), path
            assert len(parses) == 1, (path, first)
