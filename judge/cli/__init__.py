"""The command line: `judge run`, `verify`, `grade`, `stress`, `similarity`, `answers`, `doctor`, `cluster`,
`serve`, `submit`, one module each, imported only when its command runs (`COMMANDS`), so `judge run` never pays
for the gradebook, Dask, Hypothesis, copydetect, cryptography, the web server or `doctor`. The options the commands
share are decoded once, by options.py (a `RunOptions`, the report format) and executor_options.py (an
`ExecutorChoice`), which refuse a contradiction among them before the command starts.

`main` is the one place where whatever a command raises becomes a line on stderr and an `ExitCode`: bad input
from a person exits 2, a failure of the judge (judge/judging/failures.py) or a bug in it exits 3. Never a traceback.
"""

from __future__ import annotations

import gc

import click

from judge import __version__
from judge.cli.exit_codes import ExitCode
from judge.cli.lazy_group import LazyGroup
from judge.errors import JudgeError
from judge.inert import for_terminal
from judge.judging.failures import JUDGE_FAILURES, reason

__all__ = ["ExitCode", "cli", "console_main", "main"]

COMMANDS: dict[str, str] = {
    "run": "judge.cli.run:run_command",
    "verify": "judge.cli.verify:verify_command",
    "grade": "judge.cli.grade:grade_command",
    "stress": "judge.cli.stress:stress_command",
    "similarity": "judge.cli.similarity:similarity_command",
    "doctor": "judge.cli.doctor:doctor_command",
    "answers": "judge.cli.answers:answers_command",
    "cluster": "judge.cli.cluster:cluster_command",
    "serve": "judge.cli.serve:serve_command",
    "submit": "judge.cli.submit:submit_command",
}
"""Every command, as `"module:attribute"` of its click command (judge/cli/lazy_group.py imports it when used)."""


@click.group(cls=LazyGroup, lazy_commands=COMMANDS, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="judge")
def cli() -> None:
    """Grade programs the way Baekjoon Online Judge does."""


def main(argv: list[str] | None = None) -> int:
    """Entry point: runs the command; a JudgeError is one line on stderr and exit 2, a failure of the judge
    (judge/judging/failures.py) or any bug one line and exit 3. Never a traceback."""
    try:
        code = cli.main(args=argv, prog_name="judge", standalone_mode=False)
    except JudgeError as error:
        click.echo(for_terminal(f"judge: {error}"), err=True)  # messages quote paths, which may hold escapes
        return ExitCode.USAGE
    except JUDGE_FAILURES as error:  # the judge failed before any test (compiling, a full temp folder, ...)
        click.echo(for_terminal(f"judge: judge error: {reason(error)}"), err=True)
        return ExitCode.JUDGE_FAILED
    except click.exceptions.Abort:
        click.echo("judge: interrupted", err=True)
        return ExitCode.INTERRUPTED
    except click.UsageError as error:
        command = error.ctx.command_path if error.ctx else "judge"
        click.echo(f"judge: {error.format_message()} (see '{command} --help')", err=True)
        return ExitCode.USAGE
    except click.ClickException as error:
        click.echo(f"judge: {error.format_message()}", err=True)
        return ExitCode.USAGE
    except Exception as error:  # noqa: BLE001 -- the last resort: a bug in the judge, told in one line
        click.echo(
            for_terminal(
                f"judge: internal error (a bug in the judge; please report it): "
                f"{type(error).__name__}: {' '.join(str(error).split())}"
            ),
            err=True,
        )
        return ExitCode.JUDGE_FAILED
    return int(code) if isinstance(code, int) else ExitCode.ACCEPTED


def console_main() -> int:
    """The `judge` console script and `python -m judge` (both through judge/__main__.py): `main`, whose code
    becomes the exit status. What the command leaves is frozen first, so the interpreter's exit frees it without
    the cycle collector walking every object again: about 10 ms of `judge run`'s start-up. Tests call `main`,
    whose process goes on."""
    code = main()
    gc.freeze()
    return code
