"""`judge stress`: find an input on which a submission is not accepted, and shrink it to a small one.

    inputs.py    where inputs come from: the problem's strategy.py (Hypothesis) or its generator.py (seeds)
    trials.py    one input judged: validated, answered by the reference, judged like `judge run` judges a test
    search.py    the search: Hypothesis finds and shrinks; a generator is tried seed by seed
"""

from judge.stress.search import StressReport, StressRequest, stress

__all__ = ["StressReport", "StressRequest", "stress"]
