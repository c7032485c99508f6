"""Problem packages (the Kattis / ICPC problem package format: legacy, 2023-07-draft, 2025-09) loaded into the same
`Problem` as our own folders, so nothing past loading knows where a problem came from.

    detect.py       which folders are packages
    spec.py         problem.yaml of a package, validated strictly
    testdata.py     data/sample and data/secret/**, with each group's settings
    submissions.py  submissions/<folder>/ and @EXPECTED_RESULTS@, as expectations
    loader.py       all of the above into a Problem
    rules.py        what only a package brings to its Problem: its time rule, its validators' arguments
"""
