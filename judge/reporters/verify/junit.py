"""A `judge verify` report as JUnit XML, which CI systems read: a testsuite per problem, in it a testcase per
test's data check and one per reference submission (a mismatch is a failure, a skip is skipped); a time limit
verify derived is the suite's `derived_time_limit` property and its system-out says how.

Every path, test name and message passes `xml_text`, so the document is well-formed XML 1.0 whatever a
submission or a problem folder holds; ElementTree escapes `&`, `<`, `>` and quotes.
"""

from __future__ import annotations

from typing import TextIO
from xml.etree import ElementTree

from judge.inert import xml_text
from judge.verify.report import SubmissionCheck, TestDataCheck, VerifyReport


def report(verified: VerifyReport, stream: TextIO) -> None:
    problems = list(
        dict.fromkeys(
            [check.problem_id for check in verified.data_checks] + [check.problem_id for check in verified.submissions]
        )
    )
    root = ElementTree.Element("testsuites", name="judge verify")
    for problem_id in problems:
        data = [check for check in verified.data_checks if check.problem_id == problem_id]
        submissions = [check for check in verified.submissions if check.problem_id == problem_id]
        suite = ElementTree.SubElement(
            root,
            "testsuite",
            name=xml_text(problem_id),
            tests=str(len(data) + len(submissions)),
            failures=str(sum(not check.ok for check in data) + sum(not check.ok for check in submissions)),
            skipped=str(sum(bool(check.skipped) for check in data) + sum(bool(check.skipped) for check in submissions)),
        )
        derived = [limit for limit in verified.derived_limits if limit.problem_id == problem_id]
        for limit in derived:  # properties come first in a testsuite, system-out last
            properties = ElementTree.SubElement(suite, "properties")
            ElementTree.SubElement(properties, "property", name="derived_time_limit", value=f"{limit.seconds:g}")
        for data_check in data:
            _data_case(suite, data_check)
        for submission_check in submissions:
            _submission_case(suite, submission_check)
        for limit in derived:
            ElementTree.SubElement(suite, "system-out").text = xml_text(limit.text)
    if verified.judged_nothing:  # else CI would show a verification that proved nothing as green
        suite = ElementTree.SubElement(root, "testsuite", name="reference submissions", tests="1", failures="1")
        case = ElementTree.SubElement(suite, "testcase", name="judged nothing", classname="verify")
        ElementTree.SubElement(case, "failure", message="nothing was judged").text = xml_text(verified.judged_nothing)
    root.set("tests", str(sum(int(suite.get("tests", "0")) for suite in root)))
    root.set("failures", str(sum(int(suite.get("failures", "0")) for suite in root)))
    ElementTree.indent(root)
    stream.write(ElementTree.tostring(root, encoding="unicode"))
    stream.write("\n")


def _data_case(suite: ElementTree.Element, check: TestDataCheck) -> None:
    case = ElementTree.SubElement(
        suite, "testcase", classname=xml_text(f"{check.problem_id}.data"), name=xml_text(check.test)
    )
    if check.skipped:
        ElementTree.SubElement(case, "skipped", message=xml_text(check.skipped))
    elif not check.ok:
        ElementTree.SubElement(case, "failure", message="invalid test data").text = xml_text(check.detail)
    elif check.note:
        ElementTree.SubElement(case, "system-out").text = xml_text(f"{check.note}: {check.detail}")


def _submission_case(suite: ElementTree.Element, check: SubmissionCheck) -> None:
    case = ElementTree.SubElement(
        suite,
        "testcase",
        classname=xml_text(f"{check.problem_id}.submissions"),
        name=xml_text("/".join(check.path.parts[-2:])),
        time=f"{check.result.slowest_cpu_seconds:.3f}" if check.result is not None else "0.000",
    )
    if check.skipped:
        ElementTree.SubElement(case, "skipped", message=xml_text(check.skipped))
    elif not check.ok:
        got = check.got.short if check.got is not None else "nothing"
        failure = ElementTree.SubElement(
            case, "failure", message=xml_text(f"expected {check.expected.short}, got {got}")
        )
        failure.text = xml_text(check.mismatch)
    elif check.warning:
        ElementTree.SubElement(case, "system-out").text = xml_text(f"warning: {check.warning}")
