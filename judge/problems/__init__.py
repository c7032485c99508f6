"""Problems: a problem folder read into a `Problem`, whatever its layout, and what a problem says about grading.
Knows no submission run and no verdict policy beyond a problem's own rules (scoring); judging, verify and grading
sit above it.

- model.py: `Problem`, `ProblemSpec`, `TestCase`, and the checker keys schema and loader agree on.
- load.py: `load_problem_folder`, the one loader every command calls: a problem package, else our layout.
- scan.py: `load_problems`, which problem folders a folder holds, and the id rules (an id is its folder's name,
  no two problems given by path share one).
- folder.py: our layout (problem.yaml, tests/<name>.in and .ans, checker.py, validator.py), from the cache when
  validated before.
- schema.py: problem.yaml as pydantic validates it, and the YAML reader without aliases (imported only for a
  problem.yaml not validated before, or a package).
- files.py: which paths of a problem the judge may read (links only inside the folder, regular files only), and
  problem.yaml read safely.
- expectations.py: what a reference submission is expected to get (overall, or per test for submissions.yaml's
  test groups).
- references.py: a problem's reference submissions (a package's own, else submissions/<id>/<verdict>/).
- scoring.py: a scored problem's test groups and the default grader.
- packages/: problem packages (Kattis / ICPC format) loaded into the same `Problem`.

This file holds only a docstring: importers name the module they need.
"""
