"""Scoring a case and a run: scorers (one behaviour each), the declared metrics, the summary."""
