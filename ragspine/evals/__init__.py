"""The eval harness: golden sets, scorers, run records, reports, diffs and the CI gate.

The engine never imports this package; it drives the engine through ``answer_question`` as a
user would.
"""
