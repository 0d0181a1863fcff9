"""The `ragspine` command as a user runs it: in-process through click (so coverage sees it), and
once as a real process of the installed entry point."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from ragspine.agent.record import RECORD_VERSION, AnswerRecord
from tests.cli import Ran, invoke
from tests.pg_stores import Place, facts_beside, on_postgres
from tests.retrieval.conftest import write_docs

RAGSPINE = str(Path(sys.executable).parent / "ragspine")
# Every run starts in an empty folder, so the developer's own ./data never leaks into a test.
EMPTY_CWD = tempfile.mkdtemp(prefix="ragspine-cli-")


def run(*args: str, env: dict[str, str] | None = None, cwd: str | Path = EMPTY_CWD) -> Ran:
    return invoke(*args, env=env, cwd=cwd)


def test_the_installed_command_prints_1320_with_its_source(demo_db: Path) -> None:
    out = subprocess.run(
        [RAGSPINE, "ask", "--db", str(demo_db), "中国内地FY2024的REVENUE是多少"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=EMPTY_CWD,
    )
    assert out.returncode == 0, out.stderr
    assert "中国内地 FY2024 收入:1,320 百万美元" in out.stdout
    assert "ACME_FY2024_Review.pptx · slide=2,table=1,row=REVENUE,col=FY2024" in out.stdout


def test_ask_json_is_the_whole_result(demo_db: Path) -> None:
    out = run(
        "ask", "--json", "--db", str(demo_db), "--reference-date", "2025-06-30", "香港的营收是多少?"
    )
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert AnswerRecord.model_validate(data).model_dump(mode="json") == data  # the record itself
    assert data["schema_version"] == RECORD_VERSION and data["question"] == "香港的营收是多少?"
    assert data["route"] == "structured" and data["faq_id"] is None
    assert data["clarification"]["mode"] == "answer_with_assumptions"
    assert data["clarification"]["assumed_slots"] == {"period": "FY2024"}
    assert data["tool_results"][0]["value"] == 455
    assert data["sources"] == [
        {"doc": "ACME_FY2024_Review.pptx", "locator": "slide=3,table=1,row=REVENUE,col=FY2024"}
    ]
    assert data["trace"]["flags"]["fabrication_guard_triggered"] is False
    assert data["trace"]["counts"]["status_found"] == 1 and "total" in data["trace"]["timings_ms"]


def test_ask_with_a_faq_answers_a_vetted_item_as_the_service_does(
    demo_db: Path, demo_corpus: Path, tmp_path: Path, place: Place
) -> None:
    faq = place("faq.db")
    demo_items = Path(__file__).parents[1] / "ragspine" / "demo" / "faq.yaml"
    stores = ["--db", str(demo_db), "--corpus", str(demo_corpus)]
    assert run("faq", "import", str(demo_items), "--faq", str(faq), *stores).returncode == 0
    out = run("ask", *stores, "--faq", str(faq), "退貨政策是什麼?")  # 繁体, as over HTTP
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("非质量问题的商品，自购买之日起七天内")
    assert "  - ACME_Store_Operations_FAQ.txt · para=5" in out.stdout
    assert "(FAQ item 1: a vetted answer)" in out.stdout
    # RAGSPINE_FAQ names it too; --json prints the record the service returns for a hit
    env = {"RAGSPINE_FAQ": str(faq)}
    data = json.loads(run("ask", "--json", *stores, "退货政策是什么?", env=env).stdout)
    assert (data["route"], data["faq_id"], data["tool_results"]) == ("faq", 1, [])
    assert data["sources"] == [{"doc": "ACME_Store_Operations_FAQ.txt", "locator": "para=5"}]
    assert data["trace"]["codes"] == {"faq": "hit", "route": "faq", "clearance": "INTERNAL"}
    # The FAQ's exclusions hold at this door too: a figure, an item above the caller's clearance
    figure = json.loads(run("ask", "--json", *stores, "香港FY2024的收入是多少", env=env).stdout)
    assert figure["route"] == "structured" and "455 百万美元" in figure["answer"]
    assert figure["trace"]["codes"]["faq"] == "no_match" and figure["faq_id"] is None
    public = run(
        "ask", "--json", "--clearance", "PUBLIC", *stores, "员工之间可以私下换班吗?", env=env
    )
    assert json.loads(public.stdout)["trace"]["codes"]["faq"] == "above_clearance"
    staff = run("ask", "--json", *stores, "员工之间可以私下换班吗?", env=env)
    assert json.loads(staff.stdout)["faq_id"] == 3
    missing = run("ask", *stores, "--faq", str(tmp_path / "none.db"), "退货政策是什么?")
    assert missing.returncode == 1 and missing.stderr.startswith("error: FAQ cache not found")


def test_db_can_come_from_the_environment(demo_db: Path) -> None:
    out = run("ask", "香港FY2024营收", env={"RAGSPINE_DB": str(demo_db)})
    assert out.returncode == 0 and "455 百万美元" in out.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["ask", ""], "question is empty"),  # empty
        (["ask", "营收" * 1001], "too long"),  # over 2,000 characters
        (["ask", "香港\x07营收"], "control character"),  # control character
        (["ask", "--db", "/nonexistent/f.db", "香港营收"], "fact database not found"),  # no db
        (["ask", "--provider", "gpt", "香港营收"], "unknown provider"),  # unknown provider
        # a python: spec that names a module, not a provider
        (["ask", "--provider", "python:os:path", "香港营收"], "os.path is not a provider"),
        # a factory that raises
        (
            ["ask", "--provider", "python:tests.fakes.providers:broken_factory", "香港营收"],
            "broken_factory() failed: RuntimeError: no credentials",
        ),
    ],
)
def test_bad_input_is_one_clear_line_and_a_non_zero_exit(
    demo_db: Path, args: list[str], message: str
) -> None:
    if "--db" not in args:
        args = [args[0], "--db", str(demo_db), *args[1:]]
    out = run(*args)
    assert out.returncode == 1
    assert out.stdout == ""
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0]
    assert "Traceback" not in out.stderr


@pytest.mark.parametrize(
    ("option", "content", "message"),
    [
        # a corpus file that is not SQLite: the fact store opened before it is closed again
        ("--corpus", b"not a database, just bytes " * 40, "not a usable SQLite database"),
        # a profile that is not UTF-8 text
        ("--profile", b"\xff\xfe entities: []", "cannot read profile"),
    ],
)
def test_an_unusable_corpus_or_profile_is_one_line(
    demo_db: Path, tmp_path: Path, option: str, content: bytes, message: str
) -> None:
    bad = tmp_path / "bad.file"
    bad.write_bytes(content)
    out = run("ask", "--db", str(demo_db), option, str(bad), "为什么中国内地FY2024收入下降?")
    assert out.returncode == 1 and out.stdout == ""
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {bad}") and message in lines[0]


def test_bad_reference_date_is_a_usage_error(demo_db: Path) -> None:
    out = run("ask", "--db", str(demo_db), "--reference-date", "yesterday", "香港营收")
    assert out.returncode == 2 and "reference-date" in out.stderr and "Traceback" not in out.stderr


def test_fixtures_builds_a_store_that_ask_can_use(tmp_path: Path, place: Place) -> None:
    db = str(place("sub/facts.db"))
    built = run("fixtures", "--db", db, cwd=tmp_path)
    assert (
        built.returncode == 0 and "demo facts" in built.stdout and "demo documents" in built.stdout
    )
    # the demo's corpus: a file in the cwd, or --db's database (one database holds both)
    corpus = db if on_postgres() else "data/demo/chunks.db"
    assert on_postgres() or (tmp_path / corpus).is_file()
    again = run("fixtures", "--db", db, cwd=tmp_path)  # rebuilding replaces, never duplicates
    assert again.returncode == 0 and again.stdout == built.stdout
    out = run("ask", "--db", db, "中国内地FY2025的REVENUE是多少", cwd=tmp_path)
    assert out.returncode == 0 and out.stdout.startswith("查不到:中国内地 FY2025 收入")
    # Issue 3's done-when: the number with its source, then an attribution citing the MD&A.
    why = run("ask", "--db", db, "--corpus", corpus, "为什么中国内地FY2024收入下降?", cwd=tmp_path)
    number, attribution = why.stdout.split("\n\n归因分析:\n")
    assert number.startswith("中国内地 FY2024 收入:1,320 百万美元(来源:ACME_FY2024_Review.pptx")
    assert "(来源:ACME_FY2024_MDA.md section=" in attribution.split("\n")[0]
    assert "ACME_FY2024_MDA.md · section=" in why.stdout  # listed among the sources too


# -- documents ------------------------------------------------------------------------------


def _stores(tmp_path: Path, place: Place) -> tuple[str, list[str]]:
    """A corpus on the suite's backend, and the flags naming it and its facts' store."""
    corpus = str(place("c.db"))
    return corpus, ["--corpus", corpus, "--db", facts_beside(corpus, tmp_path)]


def test_ingest_adds_replaces_and_skips_as_a_user_sees_it(tmp_path: Path, place: Place) -> None:
    docs = write_docs(tmp_path / "docs")
    corpus, stores = _stores(tmp_path, place)
    first = run("ingest", *stores, str(tmp_path / "docs"))
    assert first.returncode == 0, first.stderr
    assert "    added  board.md (1 chunks)" in first.stdout
    assert first.stdout.strip().endswith(
        "3 added, 0 replaced, 0 unchanged; 4 chunks in " + str(corpus) + "; index rebuilt"
    )
    docs[0].write_text(docs[0].read_text("utf-8") + "\n# 新增\n新的段落。\n", "utf-8")
    second = run("ingest", *stores, *map(str, docs))
    assert "replaced  results.md (3 chunks)" in second.stdout
    assert "unchanged  pricing.md" in second.stdout
    assert "1 replaced, 2 unchanged; 5 chunks" in second.stdout


@pytest.mark.parametrize(
    ("files", "message"),
    [
        ({"bad.md": "---\nsensitivity: SECRET\n---\nx"}, "bad.md: front matter: sensitivity"),
        ({"deck.pptx": "x"}, "deck.pptx: not a readable PPTX deck"),  # a deck that is not one
        ({"notes.doc": "x"}, "notes.doc: cannot ingest .doc"),  # a type no reader reads
    ],
)
def test_ingest_bad_file_is_one_line(
    tmp_path: Path, place: Place, files: dict[str, str], message: str
) -> None:
    paths = write_docs(tmp_path / "docs", files)
    out = run("ingest", *_stores(tmp_path, place)[1], *map(str, paths))
    assert out.returncode == 1 and "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1 and message in out.stderr


def test_ingest_refuses_two_files_with_one_document_id_and_writes_nothing(
    tmp_path: Path, place: Place
) -> None:
    (first,) = write_docs(tmp_path / "a", {"notes.md": "# 甲\n第一份。\n"})
    (second,) = write_docs(tmp_path / "b", {"notes.md": "# 乙\n第二份。\n"})
    _, stores = _stores(tmp_path, place)
    out = run("ingest", *stores, str(first), str(second))
    assert out.returncode == 1 and out.stdout == ""
    assert out.stderr == f"error: {second}: same document id as {first} (notes.md)\n"
    alone = run("ingest", *stores, str(first))  # nothing was left half-written
    assert "1 added, 0 replaced, 0 unchanged; 1 chunks in " in alone.stdout


def test_ask_uses_the_corpus_within_the_clearance(
    demo_db: Path, tmp_path: Path, place: Place
) -> None:
    write_docs(tmp_path / "docs")
    corpus, stores = _stores(tmp_path, place)
    assert run("ingest", *stores, str(tmp_path / "docs")).returncode == 0
    q = "董事会关于青松项目有什么决议?"
    staff = run("ask", "--db", str(demo_db), "--corpus", str(corpus), q)
    assert staff.returncode == 0 and "青松" not in staff.stdout.replace(q, "")
    board = run(
        "ask",
        "--db",
        str(demo_db),
        "--corpus",
        str(corpus),
        "--clearance",
        "RESTRICTED",
        "--rerank",
        q,
    )
    assert "青松项目" in board.stdout and "board.md · section=1,para=1" in board.stdout


@pytest.mark.parametrize(
    ("spec", "answer"),
    [
        # a class, instantiated by the registry
        ("python:tests.fakes.providers:SlowMockProvider", "香港 FY2024 收入:455 百万美元"),
        # a provider that is down: an honest degrade, exit 0, no number
        ("python:tests.fakes.providers:FailingProvider", "AI 服务暂时不可用"),
        # a provider with a bug of its own (RuntimeError): degraded, never a traceback
        ("python:tests.fakes.providers:RaisingProvider", "AI 服务暂时不可用"),
        # a reply with text=None: malformed, degraded, never an AttributeError
        ("python:tests.fakes.providers:NoneTextProvider", "AI 服务暂时不可用"),
    ],
)
def test_ask_takes_a_python_provider_spec_as_eval_run_does(
    demo_db: Path, spec: str, answer: str
) -> None:
    out = run("ask", "--db", str(demo_db), "--provider", spec, "--json", "香港FY2024营收")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["answer"].startswith(answer)
    assert data["degraded"] == (None if "Slow" in spec else "provider_unavailable")
    assert "internal state" not in out.stdout + out.stderr  # the provider's message stays out


@pytest.mark.parametrize(
    "provider",
    [
        "RaisingProvider",  # its own exception, on the narrative route
        "NoneTextProvider",  # text=None, on the narrative route
    ],
)
def test_a_broken_provider_degrades_a_document_answer(
    demo_db: Path, demo_corpus: Path, provider: str
) -> None:
    out = run(
        "ask", "--db", str(demo_db), "--corpus", str(demo_corpus), "--json",
        "--provider", f"python:tests.fakes.providers:{provider}", "门店网络有什么变化?",
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["degraded"] == "provider_unavailable"
    assert data["trace"]["codes"]["provider_error"] in ("other", "malformed")


def test_demo_runs_every_demo_question(demo_db: Path, demo_corpus: Path) -> None:
    out = run("demo", "--db", str(demo_db), "--corpus", str(demo_corpus))
    assert out.returncode == 0, out.stderr
    assert "[11/11] What did the board decide about Project Evergreen?" in out.stdout
    assert "  | 中国内地 FY2024 收入:1,320 百万美元" in out.stdout
    assert "route=narrative" in out.stdout and "route=composite" in out.stdout


def test_a_profile_alias_inside_a_listed_company_name_warns_in_one_line(
    demo_db: Path, tmp_path: Path
) -> None:
    profile = tmp_path / "mine.yaml"
    acme = (Path(__file__).parents[1] / "ragspine" / "profile" / "acme.yaml").read_text("utf-8")
    profile.write_text(acme.replace("aliases: [香港,", "aliases: [金宇, 香港,", 1), "utf-8")
    import subprocess
    import sys

    exe = str(Path(sys.executable).parent / "ragspine")  # a real process: pytest keeps warnings
    out = subprocess.run(
        [exe, "ask", "--db", str(demo_db), "--profile", str(profile), "香港FY2024营收"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    (line,) = [x for x in out.stderr.splitlines() if "金宇车城" in x]
    assert line.startswith("warning: ") and "mine.yaml" in line
    assert "AliasCollisionWarning" not in out.stderr and "warnings.warn" not in out.stderr
