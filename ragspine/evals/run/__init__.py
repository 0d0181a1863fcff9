"""Running a golden set: options, the runner and its workers, records on disk, cost, progress."""
