"""The machine's findings for `judge doctor`: its toolchains, memory limiting and sandbox."""

from __future__ import annotations

import os
import platform

from msgspec import Struct

from judge import __version__
from judge.errors import ToolchainMissing
from judge.languages.catalog import LANGUAGES
from judge.languages.shims import forget_launchers
from judge.languages.toolchains import Toolchain, resolve_toolchain, tool_version
from judge.runner.containment import cgroups
from judge.runner.containment.choice import available_containments, choose_containment, describe
from judge.runner.sandbox import BOX_UID, bwrap_problem, choose_sandbox, sandbox_gaps
from judge.runner.starter_choice import shares_one_box


class Finding(Struct, frozen=True):
    topic: str
    status: str
    detail: str


def examine() -> list[Finding]:
    """One finding per language toolchain, plus memory enforcement and the sandbox. Launcher scripts (pyenv
    shims) are asked afresh, so a changed `pyenv global` shows here and holds for the judges that follow."""
    forget_launchers()
    findings = [
        Finding(
            "judge",
            "ok",
            f"judge {__version__} on Python {platform.python_version()}, {platform.system()} {platform.release()}",
        )
    ]
    for language in LANGUAGES.values():
        try:
            toolchain = resolve_toolchain(language)
        except ToolchainMissing as missing:
            findings.append(Finding(language.display, "missing", str(missing)))
            continue
        findings.append(_toolchain_finding(toolchain))
    findings.append(_memory_finding())
    findings.append(Finding("containment", "ok", f"available here: {', '.join(available_containments())}"))
    findings.append(_sandbox_finding())
    return findings


def _memory_finding() -> Finding:
    """The containment runs get, and where it is not a control group: why not, and the command that fixes it
    (the fallback enforces CPU time less exactly and bounds processes per user, not per run)."""
    containment = choose_containment()
    found = cgroups.availability()
    if found.mechanism != "none":
        return Finding("memory", "ok", f"{describe(containment)}; {found.detail}")
    if platform.system() != "Linux":
        return Finding("memory", "warn", describe(containment))
    return Finding(
        "memory",
        "warn",
        f"{describe(containment)}, because no control group could be made: {found.detail}; to fix: {found.fix}",
    )


def _sandbox_finding() -> Finding:
    """What the box guarantees here, or each thing it cannot (then `--require-sandbox` refuses to run)."""
    problem = bwrap_problem(fresh=True)
    if problem is not None:
        return Finding("sandbox", "none", f"{problem}; submissions run unconfined")
    gaps = sandbox_gaps()
    if gaps:
        return Finding("sandbox", "warn", f"bwrap, but: {'; '.join(gaps)}; --require-sandbox refuses to run")
    who = f"as uid {BOX_UID}" if os.geteuid() == 0 else "as your uid, behind a user namespace"
    warm = shares_one_box(choose_sandbox("bwrap"), choose_containment())
    boxes = "one warm box per submission, emptied between tests" if warm else "a fresh box per test"
    return Finding(
        "sandbox",
        "ok",
        f"bwrap: runs {who}, never host root; read-only /usr and /proc; no network; "
        "no keyrings or new user namespaces (seccomp); private /box, /tmp, /dev/shm; "
        f"{boxes}",
    )


def _toolchain_finding(toolchain: Toolchain) -> Finding:
    """A language's tools with their versions, where Python submissions run, and whether C and C++ link
    statically as on BOJ ("warn" where this machine cannot)."""
    language = toolchain.language
    notes = [f"{path} ({tool_version(path)})" for path in dict.fromkeys(toolchain.paths.values())]
    notes += [f"submissions run on {python}, a venv with nothing installed" for python in toolchain.venvs.values()]
    static_packages = [tool.static for tool in language.tools.values() if tool.static is not None]
    if static_packages and toolchain.static_linking:
        notes.append("links statically, as BOJ")
    elif static_packages:
        packages = " ".join(static_packages)
        notes.append(f"links dynamically, unlike BOJ: -static fails here (Debian: apt-get install {packages})")
        return Finding(language.display, "warn", "; ".join(notes))
    return Finding(language.display, "ok", "; ".join(notes))
