"""`judge doctor`'s timing checks (issue 43, item 5), pointed at a fake sysfs/procfs tree so that each finding
can be forced: its status, its effect and its fix, and the exit status that says whether the host is fit for
official grading."""

from __future__ import annotations

import functools

import pytest

from judge.cli import doctor as doctor_command
from judge.cli import main
from judge.doctor.timing import fit_for_official_grading, timing_findings

QUIET = {
    "sys/devices/system/cpu/smt/control": "off\n",
    "sys/devices/system/cpu/cpu0/cpufreq/scaling_governor": "performance\n",
    "sys/devices/system/cpu/cpufreq/boost": "0\n",
    "sys/kernel/mm/transparent_hugepage/enabled": "always madvise [never]\n",
    "proc/swaps": "Filename Type Size Used Priority\n",
    "proc/sys/kernel/randomize_va_space": "0\n",
    "proc/cpuinfo": "processor\t: 0\nflags\t\t: fpu sse2\n",
    "proc/loadavg": "0.10 0.20 0.30 1/300 4242\n",
}
FORCED = {  # one unfit condition each: (file, its text, the finding's topic, a word of its fix)
    "smt": ("sys/devices/system/cpu/smt/control", "on\n", "timing: SMT", "smt/control"),
    "governor": ("sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "powersave\n", "timing: governor",
                 "scaling_governor"),
    "boost": ("sys/devices/system/cpu/cpufreq/boost", "1\n", "timing: boost", "cpufreq/boost"),
    "thp": ("sys/kernel/mm/transparent_hugepage/enabled", "[always] madvise never\n", "timing: THP", "madvise"),
    "swap": ("proc/swaps", "Filename Type Size Used Priority\n/swapfile file 100 0 -2\n", "timing: swap", "swapoff"),
}


def tree(tmp_path, files):
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return tmp_path


def test_a_quiet_host_is_fit(tmp_path):
    findings = timing_findings(tree(tmp_path, QUIET))
    assert fit_for_official_grading(findings), findings
    assert {finding.status for finding in findings} == {"ok"}


@pytest.mark.parametrize("forced", sorted(FORCED))
def test_each_unfit_condition_is_a_warning_with_its_effect_and_fix(tmp_path, forced):
    name, text, topic, fix = FORCED[forced]
    findings = timing_findings(tree(tmp_path, {**QUIET, name: text}))
    [finding] = [finding for finding in findings if finding.status != "ok"]
    assert finding.topic == topic and finding.status == "warn"
    assert ": " in finding.detail and "fix: " in finding.detail and fix in finding.detail.split("fix: ")[1]
    assert not fit_for_official_grading(findings)


@pytest.mark.parametrize(
    ("name", "text", "topic"),
    [("proc/cpuinfo", "flags\t\t: fpu hypervisor\n", "timing: VM"),
     ("proc/sys/kernel/randomize_va_space", "2\n", "timing: ASLR"),
     ("proc/loadavg", "64.0 60.0 50.0 70/300 4242\n", "timing: load")],
)
def test_notes_are_said_but_leave_the_host_fit(tmp_path, name, text, topic):
    findings = timing_findings(tree(tmp_path, {**QUIET, name: text}))
    [finding] = [finding for finding in findings if finding.status != "ok"]
    assert (finding.topic, finding.status) == (topic, "note")
    assert fit_for_official_grading(findings)


@pytest.mark.parametrize(("forced", "code"), [(None, 0), ("smt", 1)])
def test_the_exit_status_says_whether_the_host_is_fit(tmp_path, monkeypatch, capsys, forced, code):
    files = dict(QUIET) if forced is None else {**QUIET, FORCED[forced][0]: FORCED[forced][1]}
    monkeypatch.setattr(doctor_command, "timing_findings", functools.partial(timing_findings, tree(tmp_path, files)))
    assert main(["doctor"]) == code
    said = capsys.readouterr().out
    assert ("not fit for official grading" in said) == bool(code)
