"""Citations as the audit reads them: only a well-formed one is skipped by the reader.

``(来源:DOC LOCATOR[、DOC LOCATOR…])`` where DOC is a document file name and LOCATOR exactly a
locator form (section=…,para=… · page=… · slide=…,table=…,row=…,col=… · sheet=…), or a document
alone; a citation marker ``[n]`` is a label. Anything else inside the parentheses (a figure, a
phrase) makes it no citation: it is read as text.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from functools import lru_cache

from ragspine.evals.audit.claims import read_claims

_PAREN = re.compile(r"[((](?:来源|出处|sources?)\s*[::]([^()()]*)[))]", re.I)
# a document's file name (spaces allowed: doc ids are file names) and a locator of known keys
_DOC = r"[^\s·、;()=,][^·、;()=,]*?\.(?:md|markdown|txt|pdf|pptx?|xlsx?|xlsm|docx?|csv|html?|json)"
_PAIR = (
    r"(?:section=\d+(?:\.\d+)*|(?:para|page|slide|table)=\d+|year=\d{4}"
    r"|(?:row|col|sheet)=[^\s,=()、;·]+)"
)
_ENTRY = re.compile(rf"\s*(?P<doc>{_DOC})(?:(?:\s*·\s*|\s+)(?P<loc>{_PAIR}(?:,{_PAIR})*))?\s*")


@dataclass(frozen=True)
class Citation:
    start: int
    end: int
    entries: tuple[tuple[str, str], ...]  # (doc, locator); locator "" for a document alone


def citations(line: str, known: Collection[tuple[str, str]] = ()) -> list[Citation]:
    """The well-formed citations of a line, in order. An entry naming exactly one of the
    ``known`` sources (a found fact's document and locator, whatever its locator's form: a
    user's facts file may write any) is well formed too."""
    out = []
    for m in _PAREN.finditer(line):
        entries = []
        for part in _parts(m.group(1), known):
            exact = _known(part, known)
            if exact is not None:
                entries.append(exact)
                continue
            e = _ENTRY.fullmatch(part)
            named = re.findall(r"(?:row|col|sheet)=([^,]*)", e.group("loc") or "") if e else []
            if e is None or not all(_plain(x) for x in [e.group("doc"), *named]):
                break
            entries.append((e.group("doc"), e.group("loc") or ""))
        else:
            if entries:
                out.append(Citation(m.start(), m.end(), tuple(entries)))
    return out


def _parts(body: str, known: Collection[tuple[str, str]]) -> list[str]:
    """The entries of a citation, split at 、 and ;, except where a run of pieces together
    names one known source: a found fact's locator may hold the separator itself (a column
    named 处置固定资产、无形资产…), and is still one entry."""
    pieces = re.split(r"([、;])", body)  # text, separator, text, …
    out, i = [], 0
    while i < len(pieces):
        whole = next(
            (j for j in range(len(pieces), i + 1, -2) if _known("".join(pieces[i:j]), known)),
            i + 1,
        )
        out.append("".join(pieces[i:whole]))
        i = whole + 1  # past the separator after it
    return out


def _known(part: str, known: Collection[tuple[str, str]]) -> tuple[str, str] | None:
    text = " ".join(part.split())
    for doc, locator in known:
        if text in (f"{doc} · {locator}", f"{doc} {locator}"):
            return doc, locator
    return None


@lru_cache(maxsize=4096)  # the same document names come back in every answer citing them
def _plain(text: str) -> bool:
    """No figure hides in a document name or a locator value: digits there are integers (a
    year, a stock code, a page), never a percentage, a scale word or a numeral word."""
    return all(
        c.kind == "number" and c.scale == 1 and c.text.isdigit() for *_, c in read_claims(text)
    )


def blank(line: str, cites: list[Citation]) -> str:
    """The line with its citations blanked, every other character where it was."""
    for c in cites:
        line = line[: c.start] + " " * (c.end - c.start) + line[c.end :]
    return line


# A markdown footnote marker ([^1]) and a footnote's own opening ([^1]:) name no figure.
_FOOTNOTE = re.compile(r"\[\^[^\]\s]{1,12}\]:?")
_URL = re.compile(r"(?<![A-Za-z])(?:https?://|www\.)[^\s()<>()]+[^\s()<>().,;:!?。,;:]", re.I)


def unmarked(line: str) -> str:
    """The line with footnote markers blanked, and in each URL only the figures written with a
    unit (cut-18-percent): a year, an id or a path segment in a link is no claim, and lends the
    sentence no period."""
    line = _FOOTNOTE.sub(lambda m: " " * len(m.group()), line)
    return _URL.sub(_url_figures, line)


def _url_figures(m: re.Match[str]) -> str:
    url = m.group()
    words = re.sub(r"[-_/.=?&+#%]", " ", url)
    kept = [" "] * len(words)
    for start, end, claim in read_claims(words):
        if claim.kind != "number" or claim.scale != 1:
            kept[start:end] = url[start:end]  # as written: 18-percent
    return "".join(kept)


_QUOTED = re.compile(r"「([^「」\n]{1,80})」|“([^“”\n]{1,80})”")


def unquote(line: str, question: str) -> str:
    """The user's own words quoted back in 「」 or “” (无法识别参数 period「2024Q5」, “trailing-
    twelve-month revenue” is not in the fact table) blanked: a mention of what the user wrote,
    verbatim, not a claim. Anything else the question says is no source."""
    if not question or ("「" not in line and "“" not in line):
        return line
    return _QUOTED.sub(
        lambda m: " " * len(m.group()) if _words(m).strip() in question else m.group(), line
    )


def _words(m: re.Match[str]) -> str:
    return m.group(1) if m.group(1) is not None else m.group(2)


def whole_clause_of(body: str, passage: str) -> bool:
    """Is ``body`` in the passage with nothing glued on either side that would change a number
    (a digit, a numeral, a scale word, a percent sign, the rest of a word)?"""
    at = passage.find(body)
    while at != -1:
        end = at + len(body)
        left, right = passage[at - 1 : at], passage[end : end + 12]
        glued = _GLUE_LEFT.fullmatch(left) or _GLUE_RIGHT.match(right)
        cut_word = (left[:1].isalpha() and body[:1].isalpha() and left.isascii()) or (
            right[:1].isalpha() and body[-1:].isalpha() and right[:1].isascii()
        )  # "one" out of "someone"
        if not glued and not cut_word:
            return True
        at = passage.find(body, at + 1)
    return False


_NUMERALS = "零〇一二两三四五六七八九十百千万亿壹贰叁肆伍陆柒捌玖拾佰仟廿卅卌"
_GLUE_LEFT = re.compile(rf"[\d.,+\-{_NUMERALS}负]")
_GLUE_RIGHT = re.compile(
    rf"\s?(?:[\d.,%‰{_NUMERALS}个倍成]"
    r"|(?:billion|million|thousand|trillion|bn|mn|percent|per cent|pct|pp|bps|basis|times)\b)",
    re.I,
)


_JOINT = re.compile(r"[\s,;。!?.]*")


def quote_joints(sentence: str, quotes: Collection[str]) -> list[int]:
    """Where a sentence made of two or more whole sentences of the passages it cites, quoted
    word for word and joined by a comma (香港收入由380…增至410…,2024年香港收入…), starts each
    quoted one after the first: each is read as the sentence it is in its passage, not as a
    clause of the one before. [] where the sentence is anything else."""
    starts: list[int] = []
    failed: set[int] = set()

    def cover(at: int) -> bool:
        if at == len(sentence):
            return True
        if at in failed:
            return False
        for q in quotes:
            if sentence.startswith(q, at):
                end = _JOINT.match(sentence, at + len(q))
                assert end is not None
                if (end.end() > at + len(q) or end.end() == len(sentence)) and cover(end.end()):
                    starts.append(at)
                    return True
        failed.add(at)
        return False

    lead = _JOINT.match(sentence)
    assert lead is not None
    if not cover(lead.end()) or len(starts) < 2:
        return []
    return sorted(starts)[1:]
