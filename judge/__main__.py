"""`python -m judge` is the same as the `judge` console script."""

from judge.cli import main

raise SystemExit(main())
