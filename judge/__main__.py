"""`python -m judge` and the `judge` console script (`console`, named in pyproject.toml): the same entry.

The command line's modules (click and judge/cli/) are imported with the cyclic garbage collector paused, and
frozen once loaded (`gc.freeze`): they live as long as the process, and the collector, which ran about ten times
during their import and found nothing to free, never walks them again. A command's own modules are loaded the
same way (judge/cli/lazy_group.py). Together about 6 ms of the CPU of every `judge run` (issue 45).
"""

from judge.lazy import frozen_once_loaded


def console() -> int:
    """Load the command line (with the collector paused, then frozen) and run it: its exit status."""
    with frozen_once_loaded("judge.cli"):
        from judge.cli import console_main  # noqa: PLC0415 -- loaded here, under the pause
    return console_main()


if __name__ == "__main__":
    raise SystemExit(console())
