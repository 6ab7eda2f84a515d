"""Engine: how fast, never what. Stage calls in; the same results out, sooner.

The stages (load, rules, render, compose, layout, pdf, output) are plain functions over
values; this package makes them fast by wrapping their calls, and no stage imports it (a
structure test fails on such an import). What it owns:

- `store`: the user cache (where it is, caps, pruning), one serializer (pickle) and one key
  for pnp's own code, its whole installation;
- `memo`: a check's sheets kept by what they were handed and what they read;
- `jinja`: compiled templates kept (Jinja's own bytecode cache, in the store);
- `reads`: what a call read (records attached to pnp.reads, whose reads every stage makes);
- `workers`: the process pool, serial and parallel behind one interface;
- `answers`: remembered whole-command answers;
- `runtime`: Python's collector paused and frozen around what a check keeps.

Each module's docstring gives the measured gain it is kept for (> 1.5x on something a
person waits for).
"""
