"""JUnit XML: one testsuite per submission, one testcase per test, for CI dashboards."""

from __future__ import annotations

from typing import TextIO
from xml.etree import ElementTree

from judge.results import SubmissionResult
from judge.verdicts import Verdict


def report(result: SubmissionResult, stream: TextIO) -> None:
    failures = sum(case.verdict is not Verdict.AC for case in result.cases)
    suite = ElementTree.Element(
        "testsuite",
        name=f"{result.problem_id}:{result.submission}",
        tests=str(len(result.cases)),
        failures=str(failures),
        time=f"{sum(case.cpu_seconds for case in result.cases):.3f}",
    )
    if result.verdict is Verdict.CE:
        case = ElementTree.SubElement(suite, "testcase", name="compile", classname=result.problem_id)
        ElementTree.SubElement(case, "failure", message="CE").text = result.compile_message
    for case_result in result.cases:
        case = ElementTree.SubElement(
            suite, "testcase", name=case_result.name, classname=result.problem_id, time=f"{case_result.cpu_seconds:.3f}"
        )
        if case_result.verdict is not Verdict.AC:
            failure = ElementTree.SubElement(case, "failure", message=case_result.verdict.short)
            failure.text = case_result.message
    ElementTree.indent(suite)
    stream.write(ElementTree.tostring(suite, encoding="unicode"))
    stream.write("\n")
