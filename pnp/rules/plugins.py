"""Plug-ins: a plug-in name from a game's manifest in; its rules registered, or a finding, out.

Rules that need code (a game's own arithmetic) come from an installed Python package that
declares an entry point in the group `pnp.rules`, named as the manifest's `plugin:` names it.
Loading it registers its rules with `pnp.rules.registry.rule(id, plugin_name, summary)`. pnp never
imports code from a content folder: content can come from strangers, installed packages are
chosen by the person who installed them.

A plug-in that reads files of its own (a table shipped in its package) names them in a
function `pnp_reads()` of what its entry point names, returning their paths: pnp reads them
through pnp.reads each time the plug-in is used, so a remembered answer (pnp.engine.answers)
holds only while they are unchanged. See docs/rules.md.
"""

from __future__ import annotations

import importlib
import os

from .. import reads

GROUP = "pnp.rules"
READS = "pnp_reads"  # what a plug-in names its function giving the files it reads
_loaded: dict[str, str | None] = {}  # plug-in name -> None when loaded, else why it failed
_targets: dict[str, object] = {}  # plug-in name -> what its entry point names, once loaded


def entry_points(group: str) -> list[tuple[str, str]]:
    """(name, value) of the installed entry points in `group`, as importlib.metadata finds
    them (the first of a name on sys.path wins). Imported here, not with this module: it
    costs more to load than a check of a game without a plug-in spends on plug-ins."""
    from importlib.metadata import entry_points as installed

    found: dict[str, str] = {}
    for point in installed(group=group):
        found.setdefault(point.name, point.value)
    return sorted(found.items())


def available() -> list[str]:
    return [name for name, _ in entry_points(GROUP)]


def load_plugin(name: str) -> str | None:
    """Load the plug-in `name` once per process; None when its rules are registered, else a
    one-line reason it could not be loaded. The files it declares it reads are read (noted)
    each time."""
    if name not in _loaded:
        _loaded[name] = _first_load(name)
    if _loaded[name] is None:
        problem = _note_reads(name)
        if problem:
            return problem
    return _loaded[name]


def _first_load(name: str) -> str | None:
    values = [value for point, value in entry_points(GROUP) if point == name]
    if not values:
        return f"no installed package provides the rules plug-in '{name}'"
    try:
        _targets[name] = _load(values[0])
    except Exception as exc:  # a broken plug-in is reported, it does not stop the check
        return (f"the rules plug-in '{name}' ({values[0]}) failed to load: "
                f"{type(exc).__name__}: {exc}")
    return None


def _note_reads(name: str) -> str | None:
    """Read every file the plug-in declares (`pnp_reads()`), so that what the run read
    includes them; a reason when the declaration itself fails."""
    declared = getattr(_targets.get(name), READS, None)
    if declared is None:
        return None
    try:
        paths = [os.path.abspath(os.fspath(path)) for path in declared()]
    except Exception as exc:  # noqa: BLE001 - the plug-in's code, reported like its rules
        return (f"the rules plug-in '{name}' failed to name the files it reads ({READS}): "
                f"{type(exc).__name__}: {exc}")
    for path in paths:
        reads.look(path, inside=os.path.dirname(os.path.realpath(path)))
    return None


def _load(value: str):
    """What an entry point's value `module.name:attribute.name [extras]` names, imported."""
    module, _, attribute = value.split("[")[0].strip().partition(":")
    target = importlib.import_module(module.strip())
    for part in filter(None, attribute.strip().split(".")):
        target = getattr(target, part)
    return target
