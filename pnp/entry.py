"""The `pnp` console script: the command line in; an exit code out, and never a traceback on Ctrl-C.

Loading pnp and its libraries (cairo, reportlab, pikepdf) takes a noticeable fraction of a
second. A Ctrl-C in that time would interrupt an `import` and print Python's traceback, so the
console script starts here, in a module that imports nothing heavy, and loads the CLI inside a
handler; SIGTERM and SIGHUP are raised as Ctrl-C is (pnp.libraries.stop_on_signals), with
their own exit codes (143 for SIGTERM). A reader that closes the pipe early (`pnp list | head -1`) ends the run quietly too.
"""

import os
import sys



def run(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    from pnp.libraries import exit_code, stop_on_signals

    stop_on_signals()
    try:
        from pnp.engine import answers

        code = answers.replay(argv)
        if code is not None:
            return code
        from pnp.cli import main

        with answers.remembering(argv):
            code = main(argv)
        sys.stdout.flush()  # a closed pipe shows up here, inside the handler
        return code
    except KeyboardInterrupt as interrupt:
        sys.stderr.write("pnp: interrupted; no output was changed\n")
        return exit_code(interrupt)
    except BrokenPipeError:
        # Python would complain again when it flushes stdout at exit: point it at nothing.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1


def main() -> None:
    sys.exit(run())


if __name__ == "__main__":
    main()
