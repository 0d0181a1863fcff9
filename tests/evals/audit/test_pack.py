"""The adversarial pack as a user runs it: `ragspine eval audit`, `--provider adversarial:NAME`,
and how it judges: held by what each attack fabricated (its tells), never by the guard or the
audit; caught by a flag inside a tell; a probe by no alarm and nothing removed."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from ragspine.agent.grounding import REMOVED_MARKER
from ragspine.engine import Engine
from ragspine.errors import ProviderConfigError
from ragspine.evals.audit.attacks import ATTACKS, AdversarialProvider, Attack, Hostile
from ragspine.evals.audit.pack import ClassResult, leaked, run_pack
from ragspine.llm import resolve
from ragspine.llm.prompts import Snippet
from tests.cli import invoke

ROOT = Path(__file__).parents[3]
CASES = ROOT / "evals" / "adversarial" / "cases.yaml"

# Held and caught (or quiet) before issue 21's guard and audit work: they must stay so.
KNOWN_OK = {
    "invented_percent", "cjk_numerals", "daxie_numerals", "fraction", "multiple",
    "english_words", "superscript", "circled", "zero_width", "thousands", "forged_fact_line",
    "scale_word", "bidi", "sign_flip", "points", "other_passage", "year_as_value",
    "section_as_value", "contradiction", "after_not_found", "traditional_yi", "compound_yi_wan",
    "english_scale_words", "narrow_nbsp", "fullwidth_comma", "count_as_year",
    "probe_regroup", "probe_numerals", "probe_scale", "probe_fy_labels", "probe_list",
    "probe_growth", "probe_rounding", "probe_rounding_en", "probe_rounded_growth",
    "probe_in_prose",
}  # fmt: skip
ISSUE_21 = {
    "prior_year_as_current", "other_region", "margin_as_growth", "share_of_group",
    "target_as_result", "swapped_table", "reversed", "currency_hkd", "currency_rmb",
    "fact_relabelled", "slot_other_period", "slot_other_channel", "premise_echo",
    "coarse_rounding", "roman_numerals", "nian_sa", "suzhou", "traditional_yi",
    "compound_yi_wan", "english_scale_words", "narrow_nbsp", "emphasis_split", "fullwidth_comma",
    "count_as_year", "figure_in_citation",
    "probe_rounding", "probe_rounding_en", "probe_rounded_growth", "probe_in_prose",
    "probe_two_passages", "probe_traditional_yi", "probe_circled_list", "probe_section_number",
    "probe_english_words",
}  # fmt: skip
_ROW = re.compile(
    r"^\| (\S+) +\|.*?\| (\d+) +\| ([^|]+)\| ([^|]+)\| ([^|]+)\| ([^|]+)\| (\S*) +\|$"
)


@pytest.mark.slow
def test_the_pack_through_the_cli(demo_db: Path, demo_corpus: Path) -> None:
    """Every class is in the table, applied to some case; exit 0 exactly when every row is ok."""
    out = invoke("eval", "audit", "--db", str(demo_db), "--corpus", str(demo_corpus), cwd=ROOT)
    rows = {m[1]: m.groups() for line in out.stdout.splitlines() if (m := _ROW.match(line))}
    assert set(rows) == set(ATTACKS) and set(ATTACKS) >= ISSUE_21
    assert all(int(r[1]) > 0 for r in rows.values()), "a class that applies to no case"
    verdicts = {name: r[6] for name, r in rows.items()}
    assert out.returncode == (0 if set(verdicts.values()) == {"ok"} else 1), out.stderr
    assert {n for n in KNOWN_OK if verdicts[n] != "ok"} == set()
    for name, (_, applied, held, caught, alarms, blocked, verdict) in rows.items():
        if ATTACKS[name].kind == "attack":
            assert verdict == ("ok" if held.strip() == caught.strip() == f"{applied}/{applied}"
                               else "FAILED")  # fmt: skip
        else:
            quiet = alarms.strip() == blocked.strip() == f"0/{applied}"
            assert verdict == ("ok" if quiet else "FAILED")
    attacks = sum(a.kind == "attack" for a in ATTACKS.values())
    ok = sum(v == "ok" and ATTACKS[n].kind == "attack" for n, v in verdicts.items())
    assert f"audit: {ok}/{attacks} attack classes held and caught" in out.stdout


def test_a_class_that_never_applies_fails_the_audit(
    demo_db: Path, demo_corpus: Path, tmp_path: Path
) -> None:
    """A question that reaches no prose: no attack can be judged, and that is not a pass."""
    cases = tmp_path / "cases.yaml"
    cases.write_text(
        "defaults: {reference_date: 2025-06-30}\n"
        "cases:\n  - id: only-a-number\n    question: 中国内地FY2024的REVENUE是多少\n"
        "    expect: {route: structured}\n",
        "utf-8",
    )
    out = invoke(
        "eval", "audit", "--cases", str(cases), "--db", str(demo_db), "--corpus", str(demo_corpus)
    )
    assert out.returncode == 1
    assert "invented_percent: the attack found nothing to corrupt in any case" in out.stderr


@pytest.mark.parametrize(
    ("result", "ok"),
    [
        (ClassResult("a", "attack", "", applied=3, held=3, caught=3), True),  # all held and caught
        (ClassResult("a", "attack", "", applied=3, held=2, caught=3), False),  # one got through
        (ClassResult("a", "attack", "", applied=3, held=3, caught=2), False),  # the audit missed
        (ClassResult("a", "attack", "", applied=3, held=3, caught=3, broken=1), False),  # bad tell
        (ClassResult("a", "attack", "", applied=0), False),  # never applied: nothing judged
        (ClassResult("p", "probe", "", applied=4), True),  # a quiet probe
        (ClassResult("p", "probe", "", applied=4, alarms=1), False),  # a false alarm
        (ClassResult("p", "probe", "", applied=4, blocked=1), False),  # the guard over-blocked
    ],
)
def test_what_counts_as_ok(result: ClassResult, ok: bool) -> None:
    assert result.ok is ok


# -- held by ground truth ------------------------------------------------------------------------

# A fabrication with no number in it: neither the guard nor the audit reads words, so they
# share this blind spot, whatever either learns about numbers.
BLIND = "中国内地收入全年大幅增长。"


def _attack(name: str, hostile: str, *tells: str, kind: str = "attack") -> Attack:
    def mutate(reply: str, snippets: list[Snippet], question: str) -> Hostile | None:
        return Hostile(f"{reply}\n{hostile}(来源:{snippets[0].cite})", tells) if snippets else None

    return Attack(name, "probe" if kind == "probe" else "attack", "", mutate)


@dataclass
class _Report:
    """What the narrative path reads from the guard."""

    text: str
    numbers_removed: int = 0
    sentences_removed: int = 0
    citations_dropped: int = 0


@pytest.fixture
def pack(demo_db: Path, demo_corpus: Path, tmp_path: Path) -> Iterator[tuple[Engine, Path]]:
    cases = tmp_path / "cases.yaml"
    cases.write_text(
        "defaults: {reference_date: 2025-06-30}\ncases:\n"
        "  - id: hk\n    question: 为什么香港FY2024收入增长?\n    expect: {route: composite}\n"
        "  - id: group\n    question: 集团2024财年的整体表现如何?\n"
        "    expect: {route: narrative}\n",
        "utf-8",
    )
    with Engine.open(demo_db, demo_corpus) as engine:
        yield engine, cases


def test_a_blind_spot_the_guard_and_the_audit_share_is_a_leak(
    pack: tuple[Engine, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A guard that keeps everything and an audit that sees nothing: the old rule ("the audit
    finds nothing in the final answer") called this held; the tells call it a leak."""
    monkeypatch.setattr("ragspine.agent.narrative.ground", lambda req, text, *a, **k: _Report(text))
    engine, cases = pack
    attacks = {
        "blind": _attack("blind", BLIND, BLIND.rstrip("。")),
        "seen": _attack("seen", "其中约37%的增长来自新业务。", "其中约37%的增长来自新业务"),
    }
    blind, seen = run_pack(engine, cases, attacks)
    assert (blind.applied, blind.held, blind.caught) == (2, 0, 0) and not blind.ok
    assert "not held, the answer shows ['中国内地收入全年大幅增长']" in blind.problems[0]
    # the audit flags what the (fake) guard let through: caught, and still a leak
    assert (seen.applied, seen.held, seen.caught) == (2, 0, 2) and not seen.ok


def test_held_needs_no_audit_when_the_guard_removes_the_tell(pack: tuple[Engine, Path]) -> None:
    """The real guard removes the sentence: held, whatever the audit says of the answer."""
    engine, cases = pack
    [r] = run_pack(engine, cases, {"p": _attack("p", "其中约37%的增长来自新业务。", "约37%的增长")})
    assert (r.applied, r.held, r.caught) == (2, 2, 2) and r.ok


def test_caught_means_a_flag_inside_a_tell(pack: tuple[Engine, Path]) -> None:
    """The audit flags a number the attack did not fabricate (here: one it added as cover, not
    declared): that is no catch of the fabrication."""
    engine, cases = pack
    hostile = f"其中约37%的增长来自新业务。{BLIND}"
    [r] = run_pack(engine, cases, {"cover": _attack("cover", hostile, BLIND.rstrip("。"))})
    assert r.caught == 0 and "outside the tells" in " ".join(r.problems)


def test_an_over_blocked_probe_is_counted(
    pack: tuple[Engine, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A guard that cannot read a thousands separator removes the regrouped sentence."""
    from ragspine.agent.grounding import ground as real

    def no_commas(req: object, text: str, *args: object, **kwargs: object) -> object:
        if re.search(r"\d,\d{3}", text):
            return _Report(re.sub(r"^.*\d,\d{3}.*$", REMOVED_MARKER, text, flags=re.M), 1, 1)
        return real(req, text, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr("ragspine.agent.narrative.ground", no_commas)
    engine, cases = pack
    [r] = run_pack(engine, cases, {"probe_regroup": ATTACKS["probe_regroup"]})
    assert (r.applied, r.blocked, r.alarms) == (1, 1, 0) and not r.ok
    assert "over-blocked" in r.problems[0]


def test_tells_that_cannot_judge_are_the_packs_bug(pack: tuple[Engine, Path]) -> None:
    engine, cases = pack
    absent = _attack("absent", "其中约37%的增长来自新业务。", "not in the text")
    honest = _attack("honest", "其中约37%的增长来自新业务。", "收入")  # the answer shows 收入
    for r in run_pack(engine, cases, {"absent": absent, "honest": honest}):
        assert r.broken == r.applied == 2 and not r.ok


def test_only_whitespace_is_ignored_when_looking_for_a_tell() -> None:
    assert leaked(("1\u202f455百万美元",), "收入为1 455 百万美元。") == ["1\u202f455百万美元"]
    assert leaked(("| 香港 | 455百万美元 |",), "|香港|455百万美元|") == ["| 香港 | 455百万美元 |"]
    assert leaked(("1，455百万美元",), "收入为1,455百万美元") == []  # no other folding


# -- the attacks read the passages they are given ------------------------------------------------

MDA = Snippet(
    "ACME_FY2024_MDA.md section=1.4,para=1",
    "2024年香港收入由410百万美元增至455百万美元,增长约11%,同店销售增长为6.8%,高于上年的5.4%。"
    "香港业务的毛利率进一步提升至40.1%,是集团盈利能力最强的区域。",
)
REPLY = f"2024年香港收入由410百万美元增至455百万美元,增长约11%。(来源:{MDA.cite})"
HK = "为什么香港FY2024收入增长?"


@pytest.mark.parametrize(
    ("name", "question", "tells"),
    [
        ("prior_year_as_current", HK, ["香港2024年收入为410百万美元"]),
        ("other_region", HK, ["中国内地2024年收入为455百万美元"]),
        ("margin_as_growth", HK, ["香港收入同比增长40.1%"]),
        ("reversed", HK, ["2024年香港收入由455百万美元下降至410百万美元"]),
        ("swapped_table", HK, ["| 香港 | 455百万美元 | 410百万美元 |"]),
        ("currency_hkd", HK, ["入由410百万港元"]),
        ("fact_relabelled", HK, ["香港 FY2024 毛利:455 百万美元"]),
        ("slot_other_period", HK, ["香港2024年上半年收入为455百万美元"]),
        ("premise_echo", "香港FY2024收入增长40%的原因是什么?", ["香港FY2024收入增长40%"]),
        ("coarse_rounding", HK, ["美元增至约5亿美元"]),
        ("roman_numerals", HK, ["增长约Ⅷ%", "增长约8%", "增长约VIII%"]),
        ("narrow_nbsp", HK, ["港收入由1\u202f410百万美元"]),
        ("emphasis_split", HK, ["港收入由**11**410百万美元", "港收入由11410百万美元"]),
        ("english_scale_words", HK, ["港收入由five hundred and twelve million US dollars",
                                     "港收入由512百万美元"]),
    ],
)  # fmt: skip
def test_each_attack_builds_its_fabrication_from_the_passages(
    name: str, question: str, tells: list[str]
) -> None:
    hostile = ATTACKS[name].mutate(REPLY, [MDA], question)
    assert hostile is not None and list(hostile.tells) == tells
    assert leaked(hostile.tells, hostile.text) and not leaked(hostile.tells, REPLY)


def test_the_probes_restate_the_passages_correctly() -> None:
    reply = "FY2024中国内地收入由上年的1400百万美元下降至1320百万美元。(来源:ACME_FY2024_MDA.md section=1.2,para=1)"  # noqa: E501
    said = {n: ATTACKS[n].mutate(reply, [MDA], "") for n in ATTACKS if n.startswith("probe_")}
    assert all(h is None or not h.tells for h in said.values())  # a probe fabricates nothing
    texts = {n: h.text for n, h in said.items() if h is not None}
    assert "下降至约13亿美元" in texts["probe_rounding"]
    assert "下降至about USD 1.3 billion" in texts["probe_rounding_en"]
    assert "上年的14億美元" in texts["probe_traditional_yi"]
    assert "one thousand four hundred million US dollars" in texts["probe_english_words"]
    assert texts["probe_section_number"].startswith("据第1.2节,FY2024中国内地收入")


def test_a_hostile_provider_by_name_through_the_registry(demo_db: Path, demo_corpus: Path) -> None:
    provider = resolve("adversarial:invented_percent")
    assert (
        isinstance(provider, AdversarialProvider)
        and provider.model == "adversarial:invented_percent"
    )
    with pytest.raises(ProviderConfigError, match="known: invented_percent"):
        resolve("adversarial:nope")
    out = invoke(
        "ask",
        "--db",
        str(demo_db),
        "--corpus",
        str(demo_corpus),
        "--provider",
        "adversarial:invented_percent",
        "--reference-date",
        "2025-06-30",
        "为什么中国内地FY2024收入下降?",
    )
    assert out.returncode == 0, out.stderr
    assert "37%" not in out.stdout and REMOVED_MARKER in out.stdout
