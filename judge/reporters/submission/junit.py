"""JUnit XML: one testsuite per submission, one testcase per test, for CI dashboards.

Every string from a submission, a path or a problem passes `xml_text`, so the document is well-formed XML 1.0
whatever the program printed; ElementTree escapes `&`, `<`, `>` and quotes.
"""

from __future__ import annotations

from typing import TextIO
from xml.etree import ElementTree

from judge.inert import xml_text
from judge.judging.feedback import Shown
from judge.judging.provenance import flat_provenance
from judge.verdicts import Verdict


def report(seen: Shown, stream: TextIO) -> None:
    result = seen.result
    compile_failed = result.verdict is Verdict.CE  # the "compile" testcase below counts as a test and a failure
    failures = sum(case.verdict is not Verdict.AC for case in result.cases) + compile_failed
    suite = ElementTree.Element(
        "testsuite",
        name=xml_text(f"{result.problem_id}:{result.submission}"),
        tests=str(len(result.cases) + compile_failed),
        failures=str(failures),
        time=f"{sum(case.cpu_seconds for case in result.cases):.3f}",
    )
    if result.provenance:
        properties = ElementTree.SubElement(suite, "properties")
        for name, value in flat_provenance(result.provenance):
            ElementTree.SubElement(properties, "property", name=name, value=xml_text(value))
    if compile_failed:
        case = ElementTree.SubElement(suite, "testcase", name="compile", classname=xml_text(result.problem_id))
        ElementTree.SubElement(case, "failure", message="CE").text = xml_text(result.compile_message)
    for case_result in result.cases:
        case = ElementTree.SubElement(
            suite,
            "testcase",
            name=xml_text(case_result.name),
            classname=xml_text(result.problem_id),
            time=f"{case_result.cpu_seconds:.3f}",
        )
        if case_result.timing_note:
            properties = ElementTree.SubElement(case, "properties")
            ElementTree.SubElement(properties, "property", name="timing", value=case_result.timing_note)
        if case_result.verdict is not Verdict.AC:
            failure = ElementTree.SubElement(case, "failure", message=case_result.verdict.short)
            failure.text = xml_text(case_result.message)
    ElementTree.indent(suite)
    stream.write(ElementTree.tostring(suite, encoding="unicode"))
    stream.write("\n")
