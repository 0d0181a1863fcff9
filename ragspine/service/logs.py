"""The service's log setup: uvicorn's, plus the service's own logger, with repeated lines
collapsed so a flood of bad clients cannot flood the log."""

from __future__ import annotations

import copy
import logging
import time
from typing import Any

WINDOW = 10.0  # seconds: one line of each kind per window, then a count of the ones held back


class Repeats(logging.Filter):
    """Lets the first record of each message template through per ``WINDOW`` and holds back the
    rest; the next one let through says how many were held back. uvicorn logs one warning per
    malformed request (and asyncio one error per failed accept): under attack, one line a window
    says as much as thousands."""

    def __init__(self, name: str = "") -> None:
        super().__init__(name)
        self._seen: dict[tuple[str, object], tuple[float, int]] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < logging.WARNING:  # the access log and info lines are not repeats
            return True
        key = (record.name, record.msg)
        now = time.monotonic()
        since, held = self._seen.get(key, (float("-inf"), 0))
        if now - since < WINDOW:
            self._seen[key] = (since, held + 1)
            return False
        self._seen[key] = (now, 0)
        if held:
            record.msg = f"{record.msg} ({held} more like this held back)"
        return True


def log_config() -> dict[str, Any]:
    """uvicorn's log config, the ``ragspine.service`` logger added, repeats collapsed."""
    from uvicorn.config import LOGGING_CONFIG

    config = copy.deepcopy(LOGGING_CONFIG)
    config.setdefault("filters", {})["repeats"] = {"()": "ragspine.service.logs.Repeats"}
    for handler in config["handlers"].values():
        handler.setdefault("filters", []).append("repeats")
    config["loggers"]["ragspine.service"] = {
        "handlers": ["default"],
        "level": "INFO",
        "propagate": False,
    }
    config["loggers"]["asyncio"] = {"handlers": ["default"], "level": "WARNING", "propagate": False}
    return config
