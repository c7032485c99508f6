"""`judge grade`: judge a whole class of submissions and keep a gradebook.

The flow, one module per step (the class folder itself is read by judge/class_folder.py, shared with similarity):

    session.py       problems + class folder -> tasks; runs the stale ones on the batch engine (judge/batch/),
                     storing each result as it arrives, and hands the gradebook to the command; holds the
                     --out folder's lock throughout (one run at a time: judge/output_folder.py)
    results_db.py    results.sqlite: one row per pair; tells which pairs are missing or stale
    gradebook.py     the stored rows as a student x problem table; its views (grades.csv, grades.json,
                     report.html, canvas.csv, moodle.csv) are in judge/reporters/gradebook/, written by the
                     command (judge/cli/grade.py)
    course_grading.py  the gradebook as a course: the roster's students, each problem in an assignment (one of its
                     own without assignments.yaml), points after late credit from the files' modification times;
                     serve's export comes through it too
    stress_pairs.py  `--stress`: the smallest failing input of every WA pair, through judge.stress's package API

Every pair is judged by `judge.judging.submission.judge_submission`, the engine behind `judge run`, so verdicts agree.
Grading imports no view and no other feature except stress, through `judge.stress` (tests/test_import_graph.py).
This file holds only a docstring: importers name the module they need.
"""
