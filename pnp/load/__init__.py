"""Load: a game folder in; a validated Game (records, no drawing) and findings out.

YAML and CSV with their source positions, the manifest's schema, content
expressions in Jinja's sandbox, and art checked before anything draws it.
"""
