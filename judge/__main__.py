"""`python -m judge` is the same as the `judge` console script."""

from judge.cli import console_main

raise SystemExit(console_main())
