"""A corpus named on the command line or in RAGSPINE_CORPUS must exist for the commands that read
it: a mistyped path is one `error:` line naming it and exit 1, never an answer without documents.
The default corpus may be absent (facts alone): a document question then says there is none."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli import invoke

ROOT = Path(__file__).parents[1]
QUESTION = "个人信息出境有什么要求?"


@pytest.mark.parametrize(
    "args",
    [
        ["ask", QUESTION],  # a question
        ["demo"],  # the demo questions
        ["eval", "run", "--golden", str(ROOT / "golden"), "--limit", "1", "--out", "{tmp}/run"],
        ["eval", "audit", "--cases", str(ROOT / "evals" / "adversarial" / "cases.yaml")],
        ["serve"],  # the service, before its workers start
    ],
)
@pytest.mark.parametrize("via", ["flag", "variable"])
def test_a_named_corpus_that_does_not_exist_is_one_error_line(
    args: list[str], via: str, tmp_path: Path, demo_db: Path
) -> None:
    missing = tmp_path / "chunkz.db"  # a typo of chunks.db
    argv = [a.replace("{tmp}", str(tmp_path)) for a in args] + ["--db", str(demo_db)]
    if via == "flag":
        out = invoke(*argv, "--corpus", str(missing), env={"RAGSPINE_CORPUS": None})
        named = "--corpus"
    else:
        out = invoke(*argv, env={"RAGSPINE_CORPUS": str(missing)})
        named = "RAGSPINE_CORPUS"
    assert out.returncode == 1 and out.stdout == ""
    assert out.stderr == (
        f"error: {missing}: no such corpus ({named}); "
        f"`ragspine ingest FILES --corpus {missing}` builds one\n"
    )
    assert not missing.exists()


def test_without_a_corpus_a_document_question_says_there_is_none(
    tmp_path: Path, demo_db: Path
) -> None:
    out = invoke("ask", QUESTION, "--db", str(demo_db), cwd=tmp_path, env={"RAGSPINE_CORPUS": None})
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("未检索到相关文档:没有可用的文档库(no document corpus")
    assert "尚未接入" not in out.stdout  # never "not yet wired": there is no corpus
