"""pnp's shape: stage packages in the data's order, each importing nothing from a later one.

load -> rules -> render -> layout -> compose -> pdf -> output. layout is pure geometry (counts,
sizes, a paper and a sheet layout in; pages out) and compose puts a game's drawn faces on those
pages: compose imports layout, layout imports nothing of compose. The modules every stage
shares (errors, findings, units, fonts, reads) and the cache import no stage; no stage nor
shared module imports the engine, and the engine imports no stage; only pdf/ loads cairo. The
imports are read from the source (function-level ones included), so a lazy import cannot hide
an edge.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO

PNP = REPO / "pnp"
STAGES = ["load", "rules", "render", "layout", "compose", "pdf", "output"]
SHARED = {"errors", "findings", "units", "fonts", "libraries", "progress", "reads"}
CAIRO = ("cairo", "cairocffi", "cairosvg")


def _module(path: Path) -> str:
    return ".".join(("pnp", *path.relative_to(PNP).with_suffix("").parts)).removesuffix(
        ".__init__")


def _imports(path: Path) -> set[str]:
    """The modules a file imports, absolute (`pnp.load.model`, `cairosvg.surface`)."""
    module = _module(path)
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - node.level + 1]
                stem = ".".join([*base, node.module] if node.module else base)
            else:
                stem = node.module
            found.add(stem)
            found.update(f"{stem}.{alias.name}" for alias in node.names)
    return found


def _graph() -> dict[str, set[str]]:
    return {_module(path): _imports(path) for path in PNP.rglob("*.py")}


def _top(module: str) -> str:
    """The first name under pnp: the stage, shared module or package a module belongs to."""
    return module.split(".")[1] if module.count(".") else ""


def _known(graph: dict[str, set[str]], name: str) -> bool:
    return name in graph


def test_the_stage_packages_are_there():
    for stage in STAGES[:-1]:
        init = PNP / stage / "__init__.py"
        assert init.is_file(), f"pnp/{stage}/ is not a package"
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
        assert doc and " in" in doc and " out" in doc, f"pnp/{stage}/__init__.py: say what " \
            "comes in and what goes out"


def test_no_stage_imports_a_later_one():
    graph = _graph()
    wrong = []
    for module, imported in graph.items():
        here = _top(module)
        if here not in STAGES:
            continue
        for name in imported:
            there = _top(name) if name.startswith("pnp.") else ""
            if there in STAGES and STAGES.index(there) > STAGES.index(here) and \
                    _known(graph, name):
                wrong.append(f"{module} imports {name}")
    assert not wrong, "an earlier stage imports a later one:\n" + "\n".join(sorted(wrong))


def test_shared_modules_and_the_cache_import_no_stage():
    graph = _graph()
    wrong = []
    for module, imported in graph.items():
        if _top(module) not in SHARED | {"cache"}:
            continue
        for name in imported:
            if name.startswith("pnp.") and _top(name) in STAGES and _known(graph, name):
                wrong.append(f"{module} imports {name}")
    assert not wrong, "\n".join(sorted(wrong))


# What must never import the engine (pnp.engine, how fast): every stage, and the modules the
# stages share. The engine is handed to the stages' callers, never imported by a stage.
ENGINE_FREE = set(STAGES) | {"compose"} | SHARED | {"files"}


def test_no_stage_nor_shared_module_imports_the_engine():
    wrong = sorted(f"{module} imports {name}" for module, imported in _graph().items()
                   if _top(module) in ENGINE_FREE for name in imported
                   if name == "pnp.engine" or name.startswith("pnp.engine."))
    assert not wrong, "the engine is handed in, never imported by a stage:\n" + \
        "\n".join(wrong)


def test_the_engine_imports_no_stage():
    wrong = sorted(f"{module} imports {name}" for module, imported in _graph().items()
                   if _top(module) == "engine" for name in imported
                   if name.startswith("pnp.") and _top(name) in set(STAGES) | {"compose"})
    assert not wrong, "the engine is handed what to run:\n" + "\n".join(wrong)


def test_only_pdf_loads_cairo():
    wrong = sorted(f"{module} imports {name}" for module, imported in _graph().items()
                   for name in imported
                   if name.split(".")[0] in CAIRO and _top(module) != "pdf")
    assert not wrong, "\n".join(wrong)


def test_no_import_cycle_between_packages():
    """Within pnp, no two packages or top-level modules import each other."""
    graph = _graph()
    edges = {(_top(m), _top(n)) for m, names in graph.items() for n in names
             if n.startswith("pnp.") and _known(graph, n) and _top(m) != _top(n)}
    both = sorted(f"{a} <-> {b}" for a, b in edges if (b, a) in edges and a < b)
    assert not both, "\n".join(both)


@pytest.mark.parametrize("module, loads_cairo", [
    ("pnp", False), ("pnp.load.model", False), ("pnp.rules.declarative", False),
    ("pnp.cli", False), ("pnp.commands", True), ("pnp.pipeline", True)])
def test_importing_pnp_changes_nothing_outside_it(module, loads_cairo):
    """No import-time side effects: the import system is left as it was, and the stages
    before pdf/ do not load cairo."""
    code = (f"import sys; before = list(sys.meta_path); import {module}; "
            "assert sys.meta_path == before, sys.meta_path; "
            "loaded = sorted(m for m in sys.modules if m.split('.')[0] in "
            f"{CAIRO!r}); assert {loads_cairo} or not loaded, loaded")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=REPO)
