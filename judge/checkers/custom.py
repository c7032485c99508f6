"""`checker.py`: a problem's own checker, for answers the built-ins cannot judge (several right answers, 2580).

The file must define a function with the built-ins' contract:

    from judge.checkers.base import CheckResult, accepted, wrong

    def check(*, input: bytes, output: bytes, answer: bytes) -> CheckResult:
        return accepted() if output.split() == answer.split() else wrong("the board is not solved")

It never runs in the judge's process: `CustomChecker` starts it once per submission as a warm process of
`ProblemPrograms` (programs/runs.py: the command's sandbox and containment; host.py inside the box imports it
and answers one request per test case), so a problem folder from a stranger cannot touch the machine. Its box
holds a copy of checker.py, host.py and the two judge modules a checker imports (SHARED_MODULES); each request
gets the case's three files in a folder only the checker box sees. A file that cannot be imported is a SpecError
before any submission runs; a crash, a hang, a bad return value or a limit hit while judging is the problem
author's fault, not the student's: JudgeFailure (verdict JE) naming the file.
"""

from __future__ import annotations

import json
import os
import select
import shutil
import time
from pathlib import Path

import msgspec.structs

from judge.checkers.base import CheckResult
from judge.errors import JudgeFailure, SpecError
from judge.programs.runs import ProblemPrograms, WarmProcess
from judge.verdicts import Verdict

REPLY_BYTES = 64 * 1024
# The checker process lives for a whole submission; its CPU over all cases is bounded by the rlimit backstop.
LIFETIME_SECONDS = 300
JUDGE_PACKAGE = Path(__file__).resolve().parents[1]
# The judge's modules a checker.py may import (`from judge.checkers.base import CheckResult, accepted, wrong`).
SHARED_MODULES = ("checkers/base.py", "verdicts.py")


class CustomChecker:
    """A problem's checker.py, running confined and warm for one submission. Use it as a context manager (or
    call `close`): the box is torn down at the end, so nothing of it outlives the submission."""

    def __init__(self, *, path: Path, programs: ProblemPrograms, scratch: Path) -> None:
        self.path = path
        self._programs = programs
        self._folder = programs.script_folder(scratch, path, "checker.py")
        (self._folder / "judge" / "checkers").mkdir(parents=True, exist_ok=True)
        for module in SHARED_MODULES:
            shutil.copyfile(JUDGE_PACKAGE / module, self._folder / "judge" / module)
        shutil.copyfile(JUDGE_PACKAGE / "checkers" / "host.py", self._folder / "host.py")
        self._case = self._folder / "case"
        self._case.mkdir()
        self._spec = programs.python_script(
            self._folder,
            "host.py",
            "{program}",
            "{program}/checker.py",
            "{program}/case",
            stdin=self._folder / "host.py",
            name="checker",
        )
        self._process: WarmProcess | None = None
        reply = self._start()
        if "error" in reply:
            self.close()
            raise SpecError(f"{path}: {reply['error']}")

    def __enter__(self) -> CustomChecker:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __call__(self, *, input: bytes, output: bytes, answer: bytes) -> CheckResult:
        if self._process is None:
            reply = self._start()  # the previous request killed it
            if "error" in reply:
                raise JudgeFailure(f"{self.path}: {reply['error']}")
        for name, data in (("input", input), ("output", output), ("answer", answer)):
            (self._case / name).write_bytes(data)
        try:
            reply = self._request()
        finally:
            for name in ("input", "output", "answer"):
                (self._case / name).unlink(missing_ok=True)
        if "error" in reply:
            raise JudgeFailure(f"{self.path}: {reply['error']}")
        try:
            return CheckResult(Verdict.from_short(str(reply["verdict"])), str(reply.get("message", "")))
        except KeyError:
            self.close()
            raise JudgeFailure(f"{self.path}: the checker box answered nonsense: {str(reply)[:80]}") from None

    def close(self) -> None:
        """Kill the checker box and everything in it."""
        process, self._process = self._process, None
        if process is not None:
            process.close()

    def _start(self) -> dict[str, object]:
        limits = msgspec.structs.replace(self._programs.limits, time_seconds=LIFETIME_SECONDS)
        self._process = self._programs.start_warm(self._spec, limits)
        return self._reply()

    def _request(self) -> dict[str, object]:
        assert self._process is not None
        try:
            self._process.stdin.write(b"check\n")
            self._process.stdin.flush()
        except BrokenPipeError:
            return self._died()
        return self._reply()

    def _reply(self) -> dict[str, object]:
        """One JSON line from the box within the wall limit, else the box is killed and the reason returned."""
        assert self._process is not None
        limits = self._programs.limits
        cpu_before = self._process.cpu_seconds()
        deadline = time.monotonic() + limits.wall_seconds
        line = b""
        descriptor = self._process.stdout.fileno()
        while not line.endswith(b"\n"):
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([descriptor], [], [], remaining)[0]:
                self.close()
                return {"error": f"no answer within {limits.wall_seconds:g} s"}
            chunk = os.read(descriptor, REPLY_BYTES)
            if not chunk:
                return self._died()
            line += chunk
            if len(line) > REPLY_BYTES:
                self.close()
                return {"error": "answered more than 64 KiB"}
        if self._process.cpu_seconds() - cpu_before > limits.time_seconds:
            self.close()
            return {"error": f"used more than {limits.time_seconds:g} s of CPU on one test"}
        try:
            reply = json.loads(line)
        except ValueError:
            reply = None
        if not isinstance(reply, dict):
            self.close()
            return {"error": f"the checker box answered nonsense: {line[:80]!r}"}
        return reply

    def _died(self) -> dict[str, object]:
        self.close()
        tail = self._spec.stderr_path.read_bytes()[-500:].decode(errors="replace").strip().splitlines()
        return {"error": f"stopped: {tail[-1] if tail else 'no message'}"}
