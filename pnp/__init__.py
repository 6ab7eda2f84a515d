"""pnp: print-and-play PDFs from YAML game definitions and Jinja SVG templates."""

__version__ = "0.1.0"
