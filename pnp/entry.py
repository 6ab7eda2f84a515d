"""The `pnp` console script: the command line in; an exit code out, and never a traceback on Ctrl-C.

Loading pnp and its libraries (cairo, reportlab, pikepdf) takes a noticeable fraction of a
second. A Ctrl-C in that time would interrupt an `import` and print Python's traceback, so the
console script starts here, in a module that imports nothing heavy, and loads the CLI inside a
handler; SIGTERM and SIGHUP are raised as Ctrl-C is (pnp.libraries.stop_on_signals), with
their own exit codes (143 for SIGTERM). A reader that closes the pipe early (`pnp list | head -1`) ends the run quietly too.
"""

import os
import sys

# What a run says when a signal comes after it has written everything (pnp.cli says it too).
FINISHED = "pnp: interrupted after its files were written in full\n"

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
    """The console script. Python runs no handler of pnp's once it begins to shut down, so a
    signal in that time would be lost (exit 0) or end the process unannounced: from the end
    of the run on, a stopping signal is noted (by a handler, whichever thread the system
    hands it to) or waits, blocked, while the exit handlers run (a pool's workers are joined
    there), and is then answered as the interrupt it is, of a run whose files were all
    written."""
    import atexit
    import signal

    from pnp.libraries import STOPPING, exit_code

    taken: set[int] = set()
    try:
        code = run()
        if not hasattr(signal, "pthread_sigmask"):  # no signal masks (Windows)
            sys.exit(code)
        stopping = {signum for signum in STOPPING if signal.getsignal(signum) != signal.SIG_IGN}
        for signum in stopping:
            signal.signal(signum, lambda number, frame: taken.add(number))
        signal.pthread_sigmask(signal.SIG_BLOCK, stopping)
    except KeyboardInterrupt as interrupt:  # a signal as the run returned
        sys.stderr.write(FINISHED)
        sys.exit(exit_code(interrupt))
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a reader gone, or the stream closed
            pass
    late = taken | (signal.sigpending() & stopping)
    if late:
        sys.stderr.write(FINISHED)
        sys.stderr.flush()
        code = 128 + min(late)
    os._exit(code)


if __name__ == "__main__":
    main()
