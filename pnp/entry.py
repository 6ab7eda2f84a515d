"""The `pnp` console script: the command line in; an exit code out, and never a traceback on Ctrl-C.

Loading pnp and its libraries (cairo, reportlab, pikepdf) takes a noticeable fraction of a
second. A Ctrl-C in that time would interrupt an `import` and print Python's traceback, so the
console script starts here, in a module that imports nothing heavy, and loads the CLI inside a
handler. A reader that closes the pipe early (`pnp list | head -1`) ends the run quietly too.
"""

import atexit
import os
import sys

INTERRUPTED = 130


def run(argv: list[str] | None = None) -> int:
    try:
        from pnp.crew import start_crew, workers_wanted

        arguments = sys.argv[1:] if argv is None else argv
        # The drawing processes load cairo and pikepdf while pnp loads and checks: first,
        # as that is the longest step (stopped at exit if there is nothing to draw).
        start_crew(workers_wanted(arguments))
        from pnp.cli import main

        code = main(argv)
        sys.stdout.flush()  # a closed pipe shows up here, inside the handler
        return code
    except KeyboardInterrupt:
        sys.stderr.write("pnp: interrupted; no output was changed\n")
        return INTERRUPTED
    except BrokenPipeError:
        # Python would complain again when it flushes stdout at exit: point it at nothing.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1


def main() -> None:
    code = run()
    # Python's own teardown frees every object of the run one at a time: a tenth of a
    # check's time, for nothing. pnp has closed its files and stopped its workers by now;
    # the exit handlers still run and the output is flushed, then the process ends.
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except OSError:  # a reader that went away: nothing more can be said to it
        pass
    atexit._run_exitfuncs()
    os._exit(code)


if __name__ == "__main__":
    main()
