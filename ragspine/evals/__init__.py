"""The eval harness: golden sets, scorers, run records, reports, diffs and the CI gate.

The engine never imports this package; it drives the engine through ``Engine`` as a user
would, and reads the answers with its own, separate code.
"""
