"""pnp: print-and-play PDFs from YAML game definitions and Jinja SVG templates."""

from . import cairoload

__version__ = "0.1.0"

cairoload.install()  # cairocffi loads from declarations compiled once (see pnp.cairoload)
