"""PDF: page plans in; PDF bytes out. The only package that loads cairo.
"""
