"""`judge stress`: find an input on which a submission is not accepted, and shrink it to a small one.

inputs.py      where inputs come from: the problem's strategy.py (Hypothesis) or its generator.py (seeds)
trials.py      one input judged: validated, answered by the reference, judged like `judge run` judges a test
from_tests.py  first the problem's own tests, smallest first; the first that fails is simplified
search.py      the search: the tests, then Hypothesis finds and shrinks, or a generator is tried seed by seed
               (`generated_only`: no test is judged, and none is ever reported, for `judge serve`'s students)
budget.py      the clock of a run (its default bounds, a caller's stop) and what its caller is told after each trial
"""

from judge.stress.budget import DEFAULT_BUDGET_SECONDS, DEFAULT_MAX_EXAMPLES
from judge.stress.search import SearchSetup, StressReport, StressRequest, bundled_inputs, search_setup, stress

__all__ = [
    "DEFAULT_BUDGET_SECONDS",
    "DEFAULT_MAX_EXAMPLES",
    "SearchSetup",
    "StressReport",
    "StressRequest",
    "bundled_inputs",
    "search_setup",
    "stress",
]
