"""Golden sets: the strict models a suite file validates against, and loading them."""

from ragspine.evals.golden.spec import GoldenCase
from ragspine.evals.golden.suite import GoldenScan, load_golden, scan_golden

__all__ = ["GoldenCase", "GoldenScan", "load_golden", "scan_golden"]
