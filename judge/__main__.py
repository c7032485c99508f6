"""`python -m judge` and the `judge` console script (`console`, named in pyproject.toml): the same entry.

The command line's modules (click and judge/cli/) are imported with the cyclic garbage collector paused, and
frozen once loaded (`gc.freeze`): they live as long as the process, and the collector, which ran about ten times
during their import and found nothing to free, never walks them again. A command's own modules are loaded the
same way (judge/cli/lazy_group.py). Together about 6 ms of the CPU of every `judge run` (issue 45).

The process then ends as the interpreter's own exit would, less its teardown (`exit_without_teardown`).
"""

import atexit
import os
import sys
import threading

from judge.lazy import frozen_once_loaded


def console() -> int:
    """The process's entry: the command line's exit status, which ends the process at once where nothing is
    left to wind down, else is returned for the interpreter's exit."""
    code = command_line()
    exit_without_teardown(code)
    return code


def command_line() -> int:
    """Load the command line (with the collector paused, then frozen) and run it: its exit status."""
    with frozen_once_loaded("judge.cli"):
        from judge.cli import console_main  # noqa: PLC0415 -- loaded here, under the pause
    return console_main()


def exit_without_teardown(code: int) -> None:
    """End the process with `code` after what the interpreter's exit does that anyone can see, in its order: the
    threads waited for, the exit functions run, the streams flushed; but without its teardown: freeing every
    module and object of a process about to end took 6-8 ms of each `judge run` here (issue 45).

    A thread is waited for to its very end, not only until `threading` forgets it: a pool's manager thread
    drops the pool's last references after that, so the pool's semaphores are unlinked in its last moments, and
    ending the process then left multiprocessing's resource tracker to warn of a leak. Returns, leaving the exit
    to the interpreter, while a daemon thread runs (the interpreter lets it run on while it tears down) or when
    the output cannot be flushed (the interpreter reports that as it always has)."""
    if not _flushed():
        return
    threading._shutdown()  # type: ignore[attr-defined]  # the interpreter's exit waits for the threads so; idempotent
    if threading.active_count() > 1:
        return
    atexit._run_exitfuncs()  # the interpreter's exit runs them next; none runs twice (it clears the list)
    if _flushed():
        os._exit(int(code))


def _flushed() -> bool:
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):  # a closed pipe, a full disk, a stream closed or None
        return False
    return True


if __name__ == "__main__":
    raise SystemExit(console())
