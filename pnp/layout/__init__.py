"""Layout: counts, sizes, paper and a sheet layout in; pages out.

Pure geometry in millimetres, nothing drawn: the sheet layouts as data (layouts.py), where
each piece sits on each page (impose.py), crop marks (marks.py), the margin furniture's boxes
(furniture.py), a kit packed on the fewest sheets (kit.py), board tiles (tiling.py), tuck box
dielines (tuckbox.py), cutting machines' marks and cut files (cutter.py), printer profiles'
corrections (printers.py), and the page plans pdf/ draws (plans.py).
"""
