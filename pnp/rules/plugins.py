"""Plug-ins: a plug-in name from a game's manifest in; its rules registered, or a finding, out.

Rules that need code (a game's own arithmetic) come from an installed Python package that
declares an entry point in the group `pnp.rules`, named as the manifest's `plugin:` names it.
Loading it registers its rules with `pnp.rules.registry.rule(id, plugin_name, summary)`. pnp never
imports code from a content folder: content can come from strangers, installed packages are
chosen by the person who installed them.
"""

from __future__ import annotations

import importlib

GROUP = "pnp.rules"
_loaded: dict[str, str | None] = {}  # plug-in name -> None when loaded, else why it failed


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
    one-line reason it could not be loaded."""
    if name in _loaded:
        return _loaded[name]
    values = [value for point, value in entry_points(GROUP) if point == name]
    if not values:
        _loaded[name] = f"no installed package provides the rules plug-in '{name}'"
        return _loaded[name]
    try:
        _load(values[0])
    except Exception as exc:  # a broken plug-in is reported, it does not stop the check
        _loaded[name] = (f"the rules plug-in '{name}' ({values[0]}) failed to load: "
                         f"{type(exc).__name__}: {exc}")
    else:
        _loaded[name] = None
    return _loaded[name]


def _load(value: str):
    """What an entry point's value `module.name:attribute.name [extras]` names, imported."""
    module, _, attribute = value.split("[")[0].strip().partition(":")
    target = importlib.import_module(module.strip())
    for part in filter(None, attribute.strip().split(".")):
        target = getattr(target, part)
    return target
