"""Downturn's rules plug-in for pnp: the checks that need arithmetic, not just comparisons.

Installing this package registers the entry point `downturn` in the group `pnp.rules`;
`plugin: downturn` in content/downturn/game.yaml runs these rules. Everything else about the game
(its components, data, sheets and simple rules) is YAML and templates.
"""

from . import rules  # noqa: F401  (registers the rules)
from . import printed  # noqa: F401  (registers the rules about printed words, after)
