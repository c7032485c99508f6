"""`judge stress`: find an input on which a submission is not accepted, and shrink it to a small one.

inputs.py      where inputs come from: the problem's strategy.py (Hypothesis) or its generator.py (seeds)
trials.py      one input judged: validated, answered by the reference, judged like `judge run` judges a test
from_tests.py  first the problem's own tests, smallest first; the first that fails is simplified
search.py      the search: the tests, then Hypothesis finds and shrinks, or a generator is tried seed by seed
budget.py      the clock of a run and what its caller is told after each trial
"""

from judge.stress.search import SearchSetup, StressReport, StressRequest, search_setup, stress

__all__ = ["SearchSetup", "StressReport", "StressRequest", "search_setup", "stress"]
