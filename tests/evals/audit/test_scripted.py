"""Scripted attacks as a user runs them: `ragspine eval audit --attacks FILE`, a YAML file of
hostile edits of the honest synthesis and of controls, judged as the pack judges its classes
(held by the tells, caught by a flag inside one, a control by no alarm and nothing removed), and
a bad file reported as one line naming the file, line, entry and field."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ragspine.errors import AttackFileError
from ragspine.evals.audit.attacks.scripted import Entry, ScriptedMutation, load_script, placeholders
from ragspine.llm.prompts import Snippet
from tests.cli import Ran, invoke

ROOT = Path(__file__).parents[3]
PACK_CASES = ROOT / "evals" / "adversarial" / "cases.yaml"
FRESH = ROOT / "evals" / "adversarial" / "fresh_attacks.yaml"
MDA_HK = "ACME_FY2024_MDA.md section=1.4,para=1"

CASES = """\
defaults: {reference_date: 2025-06-30}
cases:
  - id: hk
    question: 为什么香港FY2024收入增长?
    expect: {route: composite}
  - id: board
    question: 董事会对青松项目有什么决议?
    clearance: RESTRICTED
    expect: {route: narrative}
"""

GOOD = f"""\
cases: cases.yaml
attacks:
  - id: invented
    case: hk
    what: an invented share under a real citation
    add: "其中约37%的增长来自新业务。{{cite:{MDA_HK}}}"
    tells: [其中约37%的增长来自新业务]
  - id: misquote
    case: hk
    what: the model's own 6.8% misquoted
    rewrite:
      - {{find: 同店销售增长为6.8%, to: 同店销售增长为9.3%}}
    tells: [同店销售增长为9.3%]
  - id: quiet
    kind: control
    case: hk
    what: a sourced figure restated in the model's words
    add: "据管理层讨论与分析,2024年香港收入为455百万美元。{{cite:{MDA_HK}}}"
  - id: restricted
    kind: control
    case: board
    what: the minutes quoted for a cleared caller
    text: "{{reply}}"
"""

_ROW = re.compile(
    r"^\| (\S+) +\| (.*?) +\| (\d+) +\| ([^|]+)\| ([^|]+)\| ([^|]+)\| ([^|]+)\| (\S*) +\|$"
)


def _rows(stdout: str) -> dict[str, tuple[str, ...]]:
    return {
        m[1]: tuple(g.strip() for g in m.groups()[1:])
        for line in stdout.splitlines()
        if (m := _ROW.match(line))
    }


def _write(tmp_path: Path, attacks: str, cases: str = CASES) -> Path:
    (tmp_path / "cases.yaml").write_text(cases, "utf-8")
    path = tmp_path / "attacks.yaml"
    path.write_text(attacks, "utf-8")
    return path


def _audit(path: Path, db: Path, corpus: Path, *more: str) -> Ran:
    return invoke(
        "eval", "audit", "--attacks", str(path), "--db", str(db), "--corpus", str(corpus), *more
    )


def test_a_file_of_attacks_through_the_cli(
    demo_db: Path, demo_corpus: Path, tmp_path: Path
) -> None:
    """One row per entry, over its own case, judged like the pack's classes."""
    out = _audit(_write(tmp_path, GOOD), demo_db, demo_corpus)
    rows = _rows(out.stdout)
    assert set(rows) == {"invented", "misquote", "quiet", "restricted"}
    assert rows["invented"][:4] == (
        "[hk] an invented share under a real citation",
        "1",
        "1/1",
        "1/1",
    )
    assert rows["misquote"][1:4] == ("1", "1/1", "1/1")
    assert rows["quiet"][1:] == ("1", "—", "—", "0/1", "0/1", "ok")
    # the text edit leaves the reply as it was: nothing to judge, and that is said
    assert rows["restricted"][1] == "0" and rows["restricted"][-1] == "FAILED"
    assert "restricted: the edit left the model's reply unchanged" in out.stderr
    assert "scripted: held 2/2, caught 2/2 attacks (2 both); controls quiet 1/2" in out.stdout
    assert "not applied: restricted" in out.stdout
    assert out.returncode == 1
    measured = _audit(_write(tmp_path, GOOD), demo_db, demo_corpus, "--measure")
    assert measured.returncode == 0 and measured.stdout == out.stdout


def test_a_caught_and_held_file_exits_zero(
    demo_db: Path, demo_corpus: Path, tmp_path: Path
) -> None:
    attacks = GOOD.split("  - id: restricted")[0]
    out = _audit(_write(tmp_path, attacks), demo_db, demo_corpus)
    assert out.returncode == 0, out.stderr


def test_the_case_s_clearance_is_the_caller_s(
    demo_db: Path, demo_corpus: Path, tmp_path: Path
) -> None:
    """A RESTRICTED case retrieves the minutes, so their citation resolves there only."""
    attacks = """\
cases: cases.yaml
attacks:
  - id: weeks
    case: board
    what: 八周 misquoted as 八个月
    rewrite:
      - {find: 为期八周, to: 为期八个月}
    tells: [为期八个月]
  - id: minutes-for-hk
    case: hk
    what: the minutes cited in a case that never retrieved them
    add: "谈判为期八周。{cite:ACME_Board_Minutes_2024Q4.md section=1.2,para=4}"
    tells: [谈判为期八周]
"""
    out = _audit(_write(tmp_path, attacks), demo_db, demo_corpus, "--measure")
    rows = _rows(out.stdout)
    assert rows["weeks"][1] == "1"
    assert rows["minutes-for-hk"][1] == "0"
    assert "{cite:ACME_Board_Minutes_2024Q4.md section=1.2,para=4}: not among the passages " \
        "retrieved" in out.stderr  # fmt: skip


M = MDA_HK


@pytest.mark.parametrize(
    ("edit", "error"),
    [
        # pydantic, extra="forbid": the entry and the field, on its own line
        (
            ("    tells: [其中约37%的增长来自新业务]\n", "    tell: [x]\n"),
            r"attacks.yaml:7: attack invented: tell: Extra inputs are not permitted",
        ),
        (
            ("  - id: invented\n", "  - id: Invented!\n"),
            r"attacks.yaml:3: attack Invented!: id: String should match pattern",
        ),
        (
            ("    kind: control\n", "    kind: probe\n"),
            r"attacks.yaml:15: attack quiet: kind: Input should be 'attack' or 'control'",
        ),
        (
            ("cases: cases.yaml\n", "cases: cases.yaml\nverbose: true\n"),
            r"attacks.yaml:2: verbose: Extra inputs are not permitted",
        ),
        # the file's own rules
        (
            ("    tells: [其中约37%的增长来自新业务]\n", ""),
            r"attacks.yaml:3: attack invented: tells: an attack lists its tells",
        ),
        (
            ("    what: a sourced figure restated in the model's words\n",
             "    what: a sourced figure restated in the model's words\n    tells: [x]\n"),
            r"attack quiet: tells: a control is a correct restatement and tells nothing",
        ),
        (
            ("    what: the model's own 6.8% misquoted\n",
             "    what: the model's own 6.8% misquoted\n    add: more\n"),
            r"attack misquote: text\|add\|rewrite: give exactly one of text, add, rewrite "
            r"\(found add, rewrite\)",
        ),
        (
            ("{cite:" + M + "}\"\n    tells", "{cite}\"\n    tells"),
            r"attacks.yaml:6: attack invented: add: '\{cite\}' is no placeholder",
        ),
        (
            ("    text: \"{reply}\"\n", "    add: \"{reply}\"\n"),
            r"attack restricted: add: \{reply\} stands only in text",
        ),
        (
            ("    case: board\n", "    case: nope\n"),
            r"attacks.yaml:\d+: attack restricted: case: no case 'nope' in .*cases.yaml "
            r"\(board, hk\)",
        ),
        (
            ("  - id: misquote\n", "  - id: invented\n"),
            r"attack invented: id: duplicate of the entry on line 3",
        ),
        (
            ("    tells: [同店销售增长为9.3%]\n", "    tells: ['  ']\n"),
            r"attack misquote: tells.0: an empty tell would match every answer",
        ),
        (
            ("cases: cases.yaml\n", "cases: missing.yaml\n"),
            r"attacks.yaml:1: cases: .*missing.yaml: no such golden file",
        ),
        (("attacks:\n", "attacks: [\n"), r"attacks.yaml:\d+: invalid YAML"),
    ],
)  # fmt: skip
def test_a_bad_file_is_one_clear_line(
    demo_db: Path, demo_corpus: Path, tmp_path: Path, edit: tuple[str, str], error: str
) -> None:
    old, new = edit
    assert old in GOOD
    path = _write(tmp_path, GOOD.replace(old, new, 1))
    out = _audit(path, demo_db, demo_corpus)
    assert out.returncode == 1 and out.stdout == ""
    [line] = out.stderr.splitlines()
    assert line.startswith(f"error: {path}") and re.search(error, line), line
    assert _audit(path, demo_db, demo_corpus, "--measure").returncode == 1


def test_a_missing_or_shapeless_file(demo_db: Path, demo_corpus: Path, tmp_path: Path) -> None:
    missing = _audit(tmp_path / "nope.yaml", demo_db, demo_corpus)
    assert missing.stderr.strip() == f"error: {tmp_path / 'nope.yaml'}: no such attack file"
    listed = _write(tmp_path, "- one\n- two\n")
    out = _audit(listed, demo_db, demo_corpus)
    assert out.stderr.strip() == f"error: {listed}:1: an attack file is a mapping with 'attacks'"
    bad = tmp_path / "bytes.yaml"
    bad.write_bytes(b"attacks: \xff\n")
    assert "not UTF-8 text" in _audit(bad, demo_db, demo_corpus).stderr


def test_without_cases_the_file_uses_the_cli_s(tmp_path: Path) -> None:
    path = _write(tmp_path, GOOD.replace("cases: cases.yaml\n", ""))
    with pytest.raises(
        AttackFileError, match=r"attack invented: case: no case 'hk' in .*cases.yaml"
    ):
        load_script(path, PACK_CASES)
    assert [c.id for c in load_script(path, tmp_path / "cases.yaml").cases] == ["hk", "board"]


def test_a_case_in_two_case_files_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "more.yaml").write_text(CASES, "utf-8")
    path = _write(tmp_path, GOOD.replace("cases: cases.yaml", "cases: [cases.yaml, more.yaml]"))
    with pytest.raises(AttackFileError, match=r"attacks.yaml:1: cases: case hk is in both"):
        load_script(path, PACK_CASES)


# -- placeholders --------------------------------------------------------------------------------

SNIPPETS = [
    Snippet(MDA_HK, "2024年香港收入由410百万美元增至455百万美元。"),
    Snippet("B.md para=2", "b"),
]


def _mutate(**fields: object) -> ScriptedMutation:
    return ScriptedMutation(Entry.model_validate({"id": "e", "case": "c", "what": "w", **fields}))


def test_placeholders_name_the_retrieved_passages() -> None:
    m = _mutate(add="{cite1} {src2} {cite:B.md  para=2} {{literal}}", tells=["{src1}"])
    hostile = m("reply", SNIPPETS, "q")
    assert hostile is not None
    assert hostile.text == f"reply\n(来源:{MDA_HK}) B.md para=2 (来源:B.md para=2) {{literal}}"
    assert hostile.tells == (MDA_HK,)
    whole = _mutate(text="before {reply} after", tells=["x"])("R", SNIPPETS, "q")
    assert whole is not None and whole.text == "before R after"


def test_an_entry_that_cannot_apply_says_why() -> None:
    m = _mutate(add="{cite3}", tells=["x"])
    assert m("reply", SNIPPETS, "q") is None
    assert m.missed == ["{cite3}: the model was given 2 passage(s)"]
    r = _mutate(rewrite=[{"find": "absent", "to": "x"}], tells=["x"])
    assert r("reply", SNIPPETS, "q") is None and r.missed == [
        "rewrite: 'absent' is not in the model's reply"
    ]


@pytest.mark.parametrize(
    ("text", "used"),
    [
        ("{cite1}{src12}", ["cite1", "src12"]),
        ("{cite:A.md para=1} and {{x}}", ["cite:A.md para=1"]),
        ("{reply}", ["reply"]),
    ],
)
def test_placeholders_read(text: str, used: list[str]) -> None:
    assert placeholders(text) == used


@pytest.mark.parametrize("text", ["{cite0}", "{cite:}", "{quote1}", "a { b", "}", "{cite1"])
def test_anything_else_in_braces_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match="is no placeholder"):
        placeholders(text)


# -- the fresh file ------------------------------------------------------------------------------


def test_the_fresh_file_loads_with_its_attacks_and_controls() -> None:
    """`make audit-fresh` measures it; here only that it is a valid file of the size promised."""
    script = load_script(FRESH, PACK_CASES)
    kinds = [e.kind for e in script.entries]
    assert kinds.count("attack") >= 24 and kinds.count("control") >= 8
    assert all(a.only_case for a in script.attacks.values())
