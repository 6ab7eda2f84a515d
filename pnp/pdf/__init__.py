"""PDF: page plans in; PDF bytes out. The only package that loads cairo.
"""

# How a build's worker pool (pnp.engine.workers.Drawing) draws PDFs: functions by name, each
# imported where it runs (the process that checks never loads cairo), and the modules its
# workers load once, before any is forked.
DRAWING = {"draw": "pnp.pdf.draw:draw_part", "finish": "pnp.pdf.finish:finish_document",
           "preload": ("pnp.pdf.draw",)}
