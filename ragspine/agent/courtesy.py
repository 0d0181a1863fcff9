"""What a question says around what it asks: a greeting, a sign-off, a scene-setting clause.

People write questions as messages: "Hi, hope you're well! … Many thanks.", "刚开完收入复盘会,
顺便问一下:香港2024年的经营利润率是多少?". The words around the question name nothing asked:
read as subjects they decline a plain question ("Many" is no name), read as metrics they answer
another one (收入 of 收入复盘会). So they are blanked (spaces, the text's length kept) before the
question is parsed:

- a greeting at the start (hi, hello, dear team, good morning, hope you're well, 你好, 您好);
- a sign-off after the last question mark (many thanks, thank you, best regards, 谢谢, 辛苦了),
  with a signature of one or two words after it;
- a scene-setting clause before a hand-over (顺便问一下, 请问, 我想知道, quick question, by the
  way), ending in a clause mark, when it asks nothing itself (no question mark, no 多少 / how
  much / what) and names no entity and no period of the profile (在香港,请问… keeps its
  place: there the clause says what is asked of), and what follows names a quantity of its own.
"""

from __future__ import annotations

import re
from datetime import date

from ragspine.profile import DomainProfile
from ragspine.profile.glossary import glossary_for
from ragspine.profile.periods import find_periods
from ragspine.text import fold_with_index

_END = r"[\s,,!！.。~～:：;；—-]*"
_GREETING = re.compile(
    r"^\s*(?:(?:(?:hi|hello|hey|dear|greetings|good\s+(?:morning|afternoon|evening))"
    r"(?:\s+(?:there|team|all|everyone|folks|guys))?|你好|您好|大家好|各位好|嗨|哈喽|早上好|上午好|"
    rf"下午好|晚上好){_END})+"
    r"(?:(?:i\s+)?hope\s+(?:you(?:['’]re|\s+are)\s+(?:well|doing\s+well|keeping\s+well)|"
    rf"all\s+is\s+well|this\s+finds\s+you\s+well|you(?:['’]ve|\s+have)\s+had\s+a\s+good\s+\w+)"
    rf"{_END})?"
)
_SIGN_OFF = re.compile(
    r"(?:(?:many\s+|a\s+lot\s+of\s+)?thanks(?:\s+(?:a\s+lot|so\s+much|in\s+advance))?|"
    r"thank\s+you(?:\s+(?:so\s+much|very\s+much|in\s+advance))?|cheers|"
    r"(?:best|kind|warm|warmest)(?:\s+regards|\s+wishes)?|regards|much\s+appreciated|"
    r"appreciate\s+it|谢谢(?:你|您|啦|了)?|多谢|感谢|辛苦了|辛苦|麻烦了)"
    rf"{_END}(?:[a-z][a-z.'’-]*(?:\s+[a-z][a-z.'’-]*)?{_END})?$"
)
_HAND_OVER = re.compile(
    r"顺便问一下|顺便问下|顺便问问|顺便问|另外问一下|再问一下|想问一下|想问下|问一下|请问一下|请问|"
    r"我想知道|我想了解|想了解一下|请教一下|麻烦问一下|"
    r"(?<![a-z])(?:quick\s+question|one\s+question|by\s+the\s+way|btw|i\s+was\s+wondering|"
    r"i['’]d\s+like\s+to\s+know|i\s+would\s+like\s+to\s+know|could\s+you\s+tell\s+me|"
    r"can\s+you\s+tell\s+me)(?![a-z])"
)
_CLAUSE_END = re.compile(r"[,,!！.。:：;；—-]\s*$")
_ASKS = re.compile(
    r"[??]|多少|几|是否|吗|(?<![a-z])(?:what|how\s+much|how\s+many|which|whether)(?![a-z])"
)


def asked_part(question: str, profile: DomainProfile) -> str:
    """``question`` with its greeting, sign-off and scene-setting clause blanked to spaces (its
    length and every other character kept)."""
    text, index = fold_with_index(question)
    blank: list[tuple[int, int]] = []
    greeting = _GREETING.match(text)
    if greeting and greeting.end() > 0 and greeting.end() < len(text):
        blank.append((0, greeting.end()))
    last = max(text.rfind("?"), text.rfind("?"))
    sign_off = _SIGN_OFF.match(text, last + 1 + _spaces(text, last + 1)) if last >= 0 else None
    if sign_off:
        blank.append((sign_off.start(), len(text)))
    start = blank[0][1] if blank and blank[0][0] == 0 else 0
    cue = next((m for m in _HAND_OVER.finditer(text, start) if _handed(text, start, m)), None)
    if cue and (not text[start : cue.start()].strip() or _scene(text, start, cue, profile)):
        after = re.compile(_END).match(text, cue.end())  # 顺便问一下: … its mark too
        blank.append((start, after.end() if after else cue.end()))  # the hand-over asks nothing
    if not blank:
        return question
    chars = list(question)
    for s, e in blank:
        for i in range(index[s], index[e - 1] + 1 if e > s else index[s]):
            chars[i] = " "
    return "".join(chars)


def _spaces(text: str, at: int) -> int:
    return len(text[at:]) - len(text[at:].lstrip())


def _handed(text: str, start: int, cue: re.Match[str]) -> bool:
    """A hand-over starts the question, or follows a clause's end."""
    before = text[start : cue.start()]
    return not before.strip() or _CLAUSE_END.search(before) is not None


def _scene(text: str, start: int, cue: re.Match[str], profile: DomainProfile) -> bool:
    """Whether a clause before a hand-over only sets the scene: it asks nothing, names no entity
    and no period, and the question after it names a quantity of its own."""
    before, after = text[start : cue.start()], text[cue.end() :]
    if _ASKS.search(before):
        return False
    if any(k == "entities" for k, _ in glossary_for(profile).scan(before)):
        return False
    if find_periods(before, date(2000, 1, 1)):
        return False
    return any(k in ("metrics", "quantity") for k, _ in glossary_for(profile).scan(after))
