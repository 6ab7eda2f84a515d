"""Cache: what is kept between runs, where, and how it is pruned.

Deleting any of it is safe: a run then only takes longer. Nothing here imports
a stage; a stage hands a cache what it read.
"""
