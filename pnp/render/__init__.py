"""Render: items and Jinja SVG templates in; fitted, checked SVG faces out.
"""
