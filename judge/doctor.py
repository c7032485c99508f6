"""`judge doctor`: what this machine offers the judge, so a teacher knows how far to trust its verdicts."""

from __future__ import annotations

import platform
from dataclasses import dataclass

from judge import __version__, execute
from judge.errors import ToolchainMissing
from judge.languages import LANGUAGES, resolve_toolchain, tool_version
from judge.sandbox import bwrap_problem


@dataclass(frozen=True)
class Finding:
    topic: str
    status: str
    detail: str


def examine() -> list[Finding]:
    """One finding per language toolchain, plus memory enforcement and the sandbox."""
    findings = [Finding("judge", "ok", f"judge {__version__} on Python {platform.python_version()}, {platform.system()} {platform.release()}")]
    for language in LANGUAGES.values():
        try:
            toolchain = resolve_toolchain(language)
        except ToolchainMissing as missing:
            findings.append(Finding(language.display, "missing", str(missing)))
            continue
        versions = "; ".join(f"{path} ({tool_version(path)})" for path in dict.fromkeys(toolchain.paths.values()))
        findings.append(Finding(language.display, "ok", versions))
    findings.append(Finding("memory", "ok", execute.memory_enforcement()))
    problem = bwrap_problem()
    if problem is None:
        findings.append(Finding("sandbox", "ok", "bwrap: namespaces, read-only system, private /box and /tmp"))
    else:
        findings.append(Finding("sandbox", "none", f"{problem}; submissions run unconfined"))
    return findings
