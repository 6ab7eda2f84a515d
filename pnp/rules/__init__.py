"""Rules: a loaded Game in; findings out.

The rule registry, a game's rules.yaml, and rules from installed plug-ins.
"""
