"""A problem's own programs: the one path that builds, starts, boxes and limits every program a problem brings
(checker.py and its warm host, validator.py, generator.py, a package's input and output validators, testlib
checkers), in any language. Each runs in the sandbox and containment the command chose (`--sandbox`,
`--containment`), passed down from the judging's setup, never chosen here. Imports runner, languages and problems;
checkers and judging import it, and it imports neither (what a checker's answer means is checkers/' business).

- runs.py: `ProblemPrograms`, the record (sandbox, containment, limits) every run, warm start and build goes
  through, and `WarmProcess`, a program kept running for a submission (checker.py's host).
- program.py: `Program`, one program folder in its box, compiled once (`Compiled`); a submission is one too.
- build.py: `build_program`, a problem's program in any language compiled once per machine (the build cache).
- validators.py: `validator.py` (exit 0 legal) and a package's input validators (exit 42 valid, 43 invalid).
- generators.py: `generator.py`, run seed after seed by `judge stress`.

This file holds only a docstring: importers name the module they need.
"""
