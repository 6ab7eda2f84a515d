"""Layout: counts, sizes, paper and a sheet layout in; page plans out.

Pure geometry in millimetres: placements, cut marks, tiles and the margin's
furniture; nothing here draws.
"""
