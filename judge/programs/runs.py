"""How a problem's own programs start: `ProblemPrograms`, the one record every run and warm start of them goes
through, holding the sandbox and containment the command chose and the limits problem code gets.

A problem folder is not trusted: a teacher may have downloaded it. So its programs (checker.py, validator.py,
generator.py, a package's validators, a testlib checker) run in a box of their own (the same sandbox as
submissions, as the box's unprivileged user), contained as the command chose (`--containment`), under their own
limits, seeing a private copy of what they need and nothing else of the problem folder or the judge. A
misbehaving one is the judge's failure (JE, or a failed data check), never a student's verdict.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from msgspec import Struct

from judge.languages.catalog import LANGUAGES
from judge.languages.toolchains import resolve_toolchain
from judge.options import RunOptions
from judge.problems.files import read_problem_file
from judge.programs.program import Program
from judge.runner import execute
from judge.runner.containment.choice import choose_containment
from judge.runner.containment.protocol import RUN_TOKEN_VARIABLE, Containment, Run, kill_process_group
from judge.runner.execute import RunSpec, RunStats, run_limits
from judge.runner.limits import Limits
from judge.runner.sandbox import Mounts, Sandbox, choose_sandbox, program_env
from judge.runner.start import child_setup, start_process

# Per call for a checker, per test input for a validator. Generous: a checker may be slow Python, but a
# checker that needs more than this is broken, and must not hold a class's grading hostage.
PROBLEM_CODE_LIMITS = Limits(time_seconds=30, wall_seconds=60, memory_mib=1024, output_mib=16, max_processes=16)
SCRIPT_LANGUAGE = "python3"  # checker.py, validator.py and generator.py: standard library only


class ProblemPrograms(Struct, frozen=True):
    """The sandbox, containment and limits of a problem's programs for one command; every run, warm start and
    build of them goes through here, so none can miss `--sandbox` or `--containment`."""

    sandbox: Sandbox
    containment: Containment
    limits: Limits

    @classmethod
    def of(cls, sandbox: Sandbox, containment: Containment) -> ProblemPrograms:
        """The problem's programs under the judging's `sandbox` and `containment`, with PROBLEM_CODE_LIMITS."""
        return cls(sandbox, containment, PROBLEM_CODE_LIMITS)

    @classmethod
    def chosen(cls, options: RunOptions) -> ProblemPrograms:
        """For a command that judges no submission itself (verify's data check): the sandbox and containment
        `options` name."""
        return cls.of(choose_sandbox(options.sandbox), choose_containment(options.containment))

    def run(self, spec: RunSpec, limits: Limits) -> RunStats:
        """One confined run of a problem's program, contained as the command chose."""
        return execute.run(spec, limits, self.containment)

    def start_warm(self, spec: RunSpec, limits: Limits) -> WarmProcess:
        """Start `spec` as a process that stays up for many requests (checker.py's host), with pipes for its
        stdin and stdout, contained and limited as one run of `run` would be; `WarmProcess.close` ends it."""
        contained = self.containment.open(limits.memory_mib, limits.max_processes)
        try:
            setup = child_setup(
                contained.contained,
                run_limits(limits, contained.contained.guards, spec.limit_address_space),
                spec.syscall_filter,
            )
            with open(spec.stderr_path, "wb") as stderr:
                process = start_process(
                    spec.argv,
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=stderr,
                    cwd=spec.cwd,
                    env={**spec.env, RUN_TOKEN_VARIABLE: contained.contained.token},
                    preexec_fn=setup,
                )
        except BaseException:
            contained.close()
            raise
        contained.started(process.pid)
        return WarmProcess(process, contained)

    def build(self, path: Path, label: str, scratch: Path, folder: Path) -> Program:
        """The problem's program at `path` in any language, compiled once per machine (programs/build.py)."""
        from judge.programs.build import build_program  # noqa: PLC0415 -- only a problem with a program to build

        return build_program(path, label, self.sandbox, self.containment, scratch, folder)

    def script_folder(self, scratch: Path, script: Path, name: str) -> Path:
        """A private program folder under `scratch` holding a copy of `script` as `name`. `script` lies in its
        problem folder's top level (checker.py, validator.py, generator.py), so it is read as a file of that
        folder: never through a link leading out of it, never a FIFO or a device."""
        folder = scratch / f"problem-code-{script.stem}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(read_problem_file(script, script.parent, None))
        return folder

    def python_script(self, folder: Path, script: str, *arguments: str, stdin: Path, name: str) -> RunSpec:
        """The confined run of `python -I -S <folder>/<script> arguments...` (paths as the box sees them; an
        argument's `{program}` is the folder there), its output in `name`.out/.err beside the folder."""
        python = resolve_toolchain(LANGUAGES[SCRIPT_LANGUAGE])
        mounts = Mounts(program_dir=folder, toolchain=python.view)
        inside = self.sandbox.program_path(folder, mounts)
        argv = [
            python.paths["python"],
            "-I",
            "-S",
            f"{inside}/{script}",
            *(argument.replace("{program}", inside) for argument in arguments),
        ]
        return RunSpec(
            argv=self.sandbox.wrap(argv, mounts),
            cwd=folder,
            stdin_path=stdin,
            stdout_path=folder.parent / f"{name}.out",
            stderr_path=folder.parent / f"{name}.err",
            env=program_env(folder),
            limit_address_space=True,
            signals_as_exit_codes=self.sandbox.signals_as_exit_codes,
            syscall_filter=self.sandbox.syscall_filter,
        )


class WarmProcess:
    """A problem program kept running between requests, in its own run of the containment (`start_warm`).
    `close` kills it and everything it started; it may be called more than once."""

    def __init__(self, process: subprocess.Popen[bytes], contained: Run) -> None:
        assert process.stdin is not None and process.stdout is not None
        self.stdin = process.stdin
        self.stdout = process.stdout
        self._process: subprocess.Popen[bytes] | None = process
        self._contained = contained

    @property
    def running(self) -> bool:
        return self._process is not None

    def cpu_seconds(self) -> float:
        """The CPU time its whole process tree has used so far."""
        return self._contained.sample().cpu_seconds

    def close(self) -> None:
        process, self._process = self._process, None
        if process is None:
            return
        self._contained.kill()
        kill_process_group(process.pid)
        process.wait()
        self.stdin.close()
        self.stdout.close()
        self._contained.close()
