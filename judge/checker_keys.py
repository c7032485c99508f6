"""The checker keys of problem.yaml that both its schema (problem_schema.py, which validates them) and its loader
(problem.py, which follows them) must agree on; kept apart so that neither imports the other."""

from __future__ import annotations

PROGRAM_CHECKER = "program"
PROGRAM_PROTOCOLS = {"program": "package", "testlib": "testlib"}
"""problem.yaml's key for a checker program (`checker: {program: v.cpp}`), and the protocol it speaks."""
