"""Plug-ins: a plug-in name from a game's manifest in; its rules registered, or a finding, out.

Rules that need code (a game's own arithmetic) come from an installed Python package that
declares an entry point in the group `pnp.rules`, named as the manifest's `plugin:` names it.
Loading it registers its rules with `pnp.rules.rule(id, plugin_name, summary)`. pnp never
imports code from a content folder: content can come from strangers, installed packages are
chosen by the person who installed them.
"""

from __future__ import annotations

from importlib.metadata import entry_points

GROUP = "pnp.rules"
_loaded: dict[str, str | None] = {}  # plug-in name -> None when loaded, else why it failed


def available() -> list[str]:
    return sorted(point.name for point in entry_points(group=GROUP))


def load_plugin(name: str) -> str | None:
    """Load the plug-in `name` once per process; None when its rules are registered, else a
    one-line reason it could not be loaded."""
    if name in _loaded:
        return _loaded[name]
    points = [point for point in entry_points(group=GROUP) if point.name == name]
    if not points:
        _loaded[name] = f"no installed package provides the rules plug-in '{name}'"
        return _loaded[name]
    try:
        points[0].load()
    except Exception as exc:  # a broken plug-in is reported, it does not stop the check
        _loaded[name] = (f"the rules plug-in '{name}' ({points[0].value}) failed to load: "
                         f"{type(exc).__name__}: {exc}")
    else:
        _loaded[name] = None
    return _loaded[name]
