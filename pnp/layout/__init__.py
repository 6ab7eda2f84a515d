"""Layout: counts, sizes, paper and a sheet layout in; pages out.

Pure geometry in millimetres. Nothing of a project is read here and nothing is written: the
project's layouts and printer profiles come from pnp.project as values. The sheet layouts as
data (layouts.py), where each piece sits on each page (impose.py), crop marks (marks.py), the
margin furniture's boxes (furniture.py), a kit packed on the fewest sheets (pack.py), board
tiles (tiling.py), tuck box dielines (dieline.py), cutting machines' marks and cut files
(cutter.py), printer profiles' corrections and the calibration sheet (printers.py), and the
page plans pdf/ draws (plans.py).
"""
