"""Judging: one submission on one problem, from its source to a `SubmissionResult`. Every command that judges
(run, grade, verify, stress, answers) goes through setup.py and case.py, so verdicts agree. Imports runner, languages,
problems, programs, checkers and the shared modules below them; none of those imports judging.

- submission.py: the entry point (`judge_submission`) and the test loop.
- open_judging.py: a submission compiled once and run on any inputs: `open_judging` (stress), `reference_runs`
  (answers).
- setup.py: `JudgingSetup`, what every run of one submission shares (scratch folder, sandbox, containment, checker,
  limits), and the starter its tests share (a launcher, or a warm box).
- case.py: one test case: run, classify, check, the diff shown, and the boundary where a failure of the judge
  becomes that case's JE.
- provenance.py: what a result's times were measured under (containment, sandbox, versions, the host's timing
  conditions, the load), the record every result carries.
- pinning.py: with -j N and a core for each, a judging pinned to a core no other judging holds.
- measuring.py: whether a test runs again before its time decides (near the limit; a wall TLE whose waiting for a
  CPU no one measured), and which run decides.
- limit_policy.py: the limits a submission gets (the problem's, with its language's allowance) and how they were
  derived, in one line.
- interactive.py: one test of an interactive problem, the submission and the problem's validator run together.
- failures.py: where a failure of the judge becomes JE, and each command's policy for a missing toolchain.
- results.py: `CaseResult`, `SubmissionResult`, the finished records reporters present and the gradebook stores.
- hints.py: one line for the student when a verdict has a well-known cause outside the code.
- feedback.py: what a person is shown of a judged submission (the `boj` and `full` policies): the one rule every
  view goes through.
- runtime_causes.py: an RE's cause as BOJ shows it for a hidden test (`non-zero exit code: ZeroDivisionError`), with no
  text the program chose.

This file holds only a docstring: importers name the module they need.
"""
