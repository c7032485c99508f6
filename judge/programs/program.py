"""One program in its box: a submission, or a problem's own output validator or checker in any language.

Its source sits in a program folder under a scratch folder; `compile` builds it once in a writable box (the
compile limits), and `command`/`run_spec` start it confined, with paths as the sandbox shows them. Judging a
submission (judging/setup.py) and building a problem's own program (programs/build.py) both go through here;
the containment of every compile is the one the command chose, passed in.
"""

from __future__ import annotations

from pathlib import Path

import msgspec.structs
from msgspec import Struct

from judge.errors import SubmissionError
from judge.languages.catalog import MORE_SOURCES
from judge.languages.detection import main_name
from judge.languages.toolchains import Toolchain
from judge.runner import execute
from judge.runner.classify import classify
from judge.runner.containment.protocol import Containment
from judge.runner.execute import RunSpec
from judge.runner.limits import Limits
from judge.runner.sandbox import BOX, SANDBOX_ENV, Mounts, Sandbox, program_env
from judge.verdicts import Verdict

COMPILE_LIMITS = Limits(time_seconds=30, wall_seconds=60, memory_mib=2048, output_mib=16, max_processes=256)
COMPILE_MESSAGE_CHARS = 4000
UTF8_BOM = b"\xef\xbb\xbf"


class Compiled(Struct, frozen=True):
    """The outcome of the compile step: whether it succeeded, and the compiler's message (warnings on success)."""

    ok: bool
    message: str = ""


class Program(Struct, frozen=True):
    """A program folder with its source written, the toolchain that builds and runs it, and its sandbox."""

    toolchain: Toolchain
    sandbox: Sandbox
    mounts: Mounts
    scratch: Path
    source_label: str
    main: str

    @classmethod
    def write(
        cls,
        toolchain: Toolchain,
        sandbox: Sandbox,
        scratch: Path,
        folder: Path,
        source: bytes,
        source_label: str,
        *,
        boj_main: bool,
        main: str | None = None,
        beside: tuple[tuple[str, bytes, bool], ...] = (),
    ) -> Program:
        """Write `source` (without a byte order mark) into the new program folder `folder` under `scratch`;
        `boj_main`: a Java class is always Main, as BOJ runs it (languages/detection.main_name); `main`: the name
        when the caller knows it (a package's `build` or `run` script keeps its own); `beside`: the other files
        of a submission folder (languages/sources.py: SourceFiles), as (name, bytes, executable)."""
        language = toolchain.language
        text = program_text(source)
        main = main or main_name(language, text, source_label, boj=boj_main)
        folder.mkdir(parents=True, exist_ok=True)
        if any(name == language.source_file(main) for name, _, _ in beside):
            raise SubmissionError(
                f"{source_label}: judge saves it as {language.source_file(main)}, the name of another file of the "
                f"submission; rename that file"
            )
        for name, content, executable in beside:
            (folder / name).write_bytes(content)
            if executable:
                (folder / name).chmod(0o755)
        (folder / language.source_file(main)).write_bytes(text)
        return cls(
            toolchain, sandbox, Mounts(program_dir=folder, toolchain=toolchain.view), scratch, source_label, main
        )

    def command(
        self, template: tuple[str, ...], memory_mib: int, mounts: Mounts | None = None, in_box: bool = False
    ) -> list[str]:
        """A language's compile or run command, with paths as the sandbox shows them, wrapped by the sandbox
        (bare when `in_box`: a launcher inside a warm box starts it)."""
        mounts = mounts or self.mounts
        language = self.toolchain.language
        source = self.sandbox.program_path(mounts.program_dir / language.source_file(self.main), mounts)
        program = self.sandbox.program_path(mounts.program_dir, mounts)
        more_sources = self._more_sources(mounts) if MORE_SOURCES in template else ()
        argv = self.toolchain.command(
            template,
            program=program,
            source=source,
            source_label=self.source_label,
            memory_mib=memory_mib,
            main=self.main,
            more_sources=more_sources,
        )
        return argv if in_box else self.sandbox.wrap(argv, mounts)

    def _more_sources(self, mounts: Mounts) -> tuple[str, ...]:
        """The other files in the main source's language that a submission of several brought (written beside
        it), as the sandbox shows them: C files to link with the one defining main."""
        language = self.toolchain.language
        main_file = language.source_file(self.main)
        return tuple(
            self.sandbox.program_path(path, mounts)
            for path in sorted(mounts.program_dir.iterdir())
            if path.name != main_file and path.suffix.lower() in language.extensions and path.is_file()
        )

    def run_spec(
        self, argv: list[str], stdin: Path, name: str, mounts: Mounts | None = None, in_box: bool = False
    ) -> RunSpec:
        """The run of `argv` with its files; `in_box`: in the working folder and environment of a warm box."""
        mounts = mounts or self.mounts
        return RunSpec(
            argv=argv,
            cwd=BOX if in_box else mounts.program_dir,
            stdin_path=stdin,
            stdout_path=self.scratch / f"{name}.out",
            stderr_path=self.scratch / f"{name}.err",
            env=dict(SANDBOX_ENV) if in_box else program_env(mounts.program_dir),
            limit_address_space=self.toolchain.language.limit_address_space,
            signals_as_exit_codes=self.sandbox.signals_as_exit_codes,
            syscall_filter=self.sandbox.syscall_filter,
        )

    def compile(self, containment: Containment) -> Compiled:
        """Compile once in a writable box, under the judging's `containment`. Warnings are kept; they never
        make a CE."""
        language = self.toolchain.language
        if language.compile is None:
            return Compiled(ok=True)
        mounts = msgspec.structs.replace(self.mounts, writable_program_dir=True)
        self.sandbox.grant_write(mounts.program_dir)
        argv = self.command(language.compile, COMPILE_LIMITS.memory_mib, mounts)
        empty = self.scratch / "empty.in"
        empty.touch()
        spec = self.run_spec(argv, empty, "compile", mounts)
        stats = execute.run(msgspec.structs.replace(spec, limit_address_space=False), COMPILE_LIMITS, containment)
        failure = classify(stats, COMPILE_LIMITS)
        output = (spec.stdout_path.read_text(errors="replace") + spec.stderr_path.read_text(errors="replace")).strip()
        if failure is None:
            return Compiled(ok=True, message=output[-COMPILE_MESSAGE_CHARS:])
        if failure.verdict is Verdict.RE:  # the compiler said no: its own message is the reason
            return Compiled(ok=False, message=output[-COMPILE_MESSAGE_CHARS:])
        return Compiled(ok=False, message=f"{failure.message}\n{output[-COMPILE_MESSAGE_CHARS:]}".strip())


def program_text(source: bytes) -> bytes:
    """The source as the compiler gets it: without a UTF-8 byte order mark, which editors on Windows add and
    which is no part of the program (javac rejects it; BOJ's editor never sends one)."""
    return source.removeprefix(UTF8_BOM)
