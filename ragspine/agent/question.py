"""Questions are untrusted input: checked once, at the edge of the engine."""

from __future__ import annotations

import unicodedata

from ragspine.errors import InvalidQuestionError

MAX_QUESTION_CHARS = 2000
_ALLOWED_CONTROLS = {"\t", "\n", "\r"}


def validate_question(question: object) -> str:
    """The question, stripped; or InvalidQuestionError saying what is wrong with it."""
    if not isinstance(question, str):
        raise InvalidQuestionError(f"question must be text, got {type(question).__name__}")
    text = question.strip()
    if not text:
        raise InvalidQuestionError("question is empty")
    if len(text) > MAX_QUESTION_CHARS:
        raise InvalidQuestionError(
            f"question is too long ({len(text)} characters; the limit is {MAX_QUESTION_CHARS})"
        )
    for pos, char in enumerate(text):
        if unicodedata.category(char) == "Cc" and char not in _ALLOWED_CONTROLS:
            raise InvalidQuestionError(
                f"question contains a control character (U+{ord(char):04X} at position {pos})"
            )
    return text
