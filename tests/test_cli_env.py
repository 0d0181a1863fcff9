"""The shared options' environment variables (RAGSPINE_DB, RAGSPINE_CORPUS, …), honoured by every
command that takes the option, as a user sets them: through the real CLI, the variable only.

Each row runs one command with one variable set and every other RAGSPINE_ variable unset, and
checks something only that variable's value can explain: an answer, a file written where it
points, the settings serve hands its workers, or an error that names the value.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.cli import invoke
from tests.pg_stores import on_postgres
from tests.service.conftest import deployment

ROOT = Path(__file__).parents[1]
VARIABLES = (
    "RAGSPINE_DB",
    "RAGSPINE_CORPUS",
    "RAGSPINE_PROFILE",
    "RAGSPINE_CLEARANCE",
    "RAGSPINE_PROVIDER",
    "RAGSPINE_BASE_URL",
    "RAGSPINE_TIMEOUT",
    "RAGSPINE_MAX_RETRIES",
    "RAGSPINE_SETTLE",
)
SERVICE = ("DB", "CORPUS", "PROFILE", "PROVIDER", "FAQ", "KEYS", "MAX_BODY", "TIMEOUT")
BROKEN = "python:tests.fakes.providers:broken_factory"
SLOW = "python:tests.fakes.providers:SlowMockProvider"
JINYU = "{root}/examples/jinyu/profile.yaml"
LIVE_REFUSED = ": for a live model (anthropic), not 'mock'"


@dataclass(frozen=True)
class Says:
    """stdout or stderr holds this text."""

    text: str


@dataclass(frozen=True)
class Writes:
    """The command wrote this file."""

    path: str


# Every command that takes an option with a variable, by the options it takes.
ASK = ["ask", "--db", "{db}"]
EVAL_RUN = ["eval", "run", "--golden", "{root}/golden", "--limit", "1", "--out", "{tmp}/run"]
AUDIT = ["eval", "audit", "--cases", "{root}/evals/adversarial/cases.yaml"]
INGEST = ["ingest", "{tmp}/note.md"]
WORKER = ["worker", "--inbox", "{tmp}/inbox", "--once", "--settle", "0"]
FACTS = ["facts", "load", "{root}/examples/jinyu/facts.csv"]
FAQ_ADD = ["faq", "add", "--question", "退货政策是什么?", "--answer", "七天内可退货。",
           "--source", "ACME_Policies.md#section=1,para=1", "--faq", "{tmp}/faq.db"]  # fmt: skip
FAQ_IMPORT = ["faq", "import", "{tmp}/items.yaml", "--faq", "{tmp}/faq.db"]


@pytest.mark.parametrize(
    ("args", "variable", "value", "expect"),
    [
        # ask: the fact store answers
        (["ask", "香港FY2024营收"], "RAGSPINE_DB", "{db}", Says("455 百万美元")),
        # ask: the corpus gives a document question its sources
        ([*ASK, "个人信息出境有什么要求?"], "RAGSPINE_CORPUS", "{corpus}", Says("来源 / sources:")),
        # ask: a corpus named that does not exist is said, never answered without it
        ([*ASK, "个人信息出境有什么要求?"], "RAGSPINE_CORPUS", "{tmp}/missing.db",
         Says("error: {tmp}/missing.db: no such corpus (RAGSPINE_CORPUS)")),
        # ask: the profile names the company it covers
        ([*ASK, "贵州茅台2019年的营业收入是多少元?"], "RAGSPINE_PROFILE", JINYU,
         Says("只覆盖金宇生物技术股份有限公司")),
        # ask: RESTRICTED clearance sees the board minutes
        ([*ASK, "--corpus", "{corpus}", "What did the board decide about Project Evergreen?"],
         "RAGSPINE_CLEARANCE", "RESTRICTED", Says("ACME_Board_Minutes_2024Q4.md")),
        # ask: the provider spec is resolved (this one's factory raises)
        ([*ASK, "香港营收"], "RAGSPINE_PROVIDER", BROKEN, Says("broken_factory() failed")),
        # ask: each live option reaches the provider, which (the mock) refuses it
        ([*ASK, "香港营收"], "RAGSPINE_BASE_URL", "http://127.0.0.1:9",
         Says("--base-url" + LIVE_REFUSED)),
        ([*ASK, "香港营收"], "RAGSPINE_TIMEOUT", "5", Says("--timeout" + LIVE_REFUSED)),
        ([*ASK, "香港营收"], "RAGSPINE_MAX_RETRIES", "0", Says("--max-retries" + LIVE_REFUSED)),
        # demo: the fact store it opens, and the corpus
        (["demo"], "RAGSPINE_DB", "{tmp}/missing.db", Says("not found: {tmp}/missing.db")),
        (["demo", "--db", "{db}"], "RAGSPINE_CORPUS", "{tmp}/garbage.db",
         Says("{tmp}/garbage.db: not a usable SQLite database")),
        # fixtures: where the demo fact store and corpus are written
        (["fixtures", "--corpus", "{tmp}/c.db"], "RAGSPINE_DB", "{tmp}/f.db", Writes("{tmp}/f.db")),
        (["fixtures", "--db", "{tmp}/f.db"], "RAGSPINE_CORPUS", "{tmp}/c.db", Writes("{tmp}/c.db")),
        # ingest: where passages and facts go, and the profile that maps tables
        ([*INGEST, "--corpus", "{tmp}/c.db"], "RAGSPINE_DB", "{tmp}/f.db", Writes("{tmp}/f.db")),
        ([*INGEST, "--db", "{tmp}/f.db"], "RAGSPINE_CORPUS", "{tmp}/c.db", Writes("{tmp}/c.db")),
        (INGEST, "RAGSPINE_PROFILE", "{tmp}/missing.yaml",
         Says("{tmp}/missing.yaml: profile file not found")),
        # worker: the same, for the inbox
        ([*WORKER, "--corpus", "{tmp}/c.db"], "RAGSPINE_DB", "{tmp}/f.db", Writes("{tmp}/f.db")),
        ([*WORKER, "--db", "{tmp}/f.db"], "RAGSPINE_CORPUS", "{tmp}/c.db", Writes("{tmp}/c.db")),
        (WORKER, "RAGSPINE_PROFILE", "{tmp}/missing.yaml",
         Says("{tmp}/missing.yaml: profile file not found")),
        # worker: how long a file must stand still before it is read
        (["worker", "--inbox", "{tmp}/inbox", "--once", "--db", "{tmp}/f.db", "--corpus",
          "{tmp}/c.db"], "RAGSPINE_SETTLE", "0.1", Says("looking again in 0.1 s (--settle)")),
        # facts load: where the facts go, and the profile they are checked against
        ([*FACTS, "--profile", JINYU], "RAGSPINE_DB", "{tmp}/f.db", Writes("{tmp}/f.db")),
        ([*FACTS, "--db", "{tmp}/f.db"], "RAGSPINE_PROFILE", JINYU, Says("loaded 194 facts")),
        # serve: the settings every worker is started with
        (["serve"], "RAGSPINE_DB", "{db}", Says("RAGSPINE_SERVICE_DB={db}\n")),
        (["serve", "--db", "{db}"], "RAGSPINE_CORPUS", "{corpus}",
         Says("RAGSPINE_SERVICE_CORPUS={corpus}\n")),
        (["serve", "--db", "{db}"], "RAGSPINE_PROFILE", JINYU,
         Says(f"RAGSPINE_SERVICE_PROFILE={JINYU}\n")),
        (["serve", "--db", "{db}"], "RAGSPINE_PROVIDER", SLOW,
         Says(f"RAGSPINE_SERVICE_PROVIDER={SLOW}\n")),
        # faq add and import: the profile that decides whether a question can be served
        (FAQ_ADD, "RAGSPINE_PROFILE", "{tmp}/missing.yaml",
         Says("{tmp}/missing.yaml: profile file not found")),
        (FAQ_IMPORT, "RAGSPINE_PROFILE", "{tmp}/missing.yaml",
         Says("{tmp}/missing.yaml: profile file not found")),
        # eval run: the stores, the profile, the provider and the live options of a run
        (EVAL_RUN, "RAGSPINE_DB", "{tmp}/missing.db", Says("not found: {tmp}/missing.db")),
        ([*EVAL_RUN, "--db", "{db}"], "RAGSPINE_CORPUS", "{tmp}/garbage.db",
         Says("{tmp}/garbage.db: not a usable SQLite database")),
        ([*EVAL_RUN, "--db", "{db}"], "RAGSPINE_PROFILE", "{tmp}/missing.yaml",
         Says("{tmp}/missing.yaml: profile file not found")),
        ([*EVAL_RUN, "--db", "{db}"], "RAGSPINE_PROVIDER", BROKEN, Says("broken_factory() failed")),
        ([*EVAL_RUN, "--db", "{db}"], "RAGSPINE_BASE_URL", "http://127.0.0.1:9",
         Says("--base-url" + LIVE_REFUSED)),
        ([*EVAL_RUN, "--db", "{db}"], "RAGSPINE_TIMEOUT", "5", Says("--timeout" + LIVE_REFUSED)),
        ([*EVAL_RUN, "--db", "{db}"], "RAGSPINE_MAX_RETRIES", "0",
         Says("--max-retries" + LIVE_REFUSED)),
        # eval audit: the stores and the profile the pack runs against
        (AUDIT, "RAGSPINE_DB", "{tmp}/missing.db", Says("not found: {tmp}/missing.db")),
        ([*AUDIT, "--db", "{db}"], "RAGSPINE_CORPUS", "{tmp}/garbage.db",
         Says("{tmp}/garbage.db: not a usable SQLite database")),
        ([*AUDIT, "--db", "{db}"], "RAGSPINE_PROFILE", "{tmp}/missing.yaml",
         Says("{tmp}/missing.yaml: profile file not found")),
    ],
)  # fmt: skip
def test_each_variable_is_honoured_by_each_command_that_takes_its_option(
    args: list[str],
    variable: str,
    value: str,
    expect: Says | Writes,
    tmp_path: Path,
    demo_db: Path,
    demo_corpus: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    places = {"{tmp}": str(tmp_path), "{root}": str(ROOT), "{db}": str(demo_db),
              "{corpus}": str(demo_corpus)}  # fmt: skip
    if args[0] == "serve" and on_postgres():  # a service on PostgreSQL takes its database's keys
        served = deployment(tmp_path, demo_db, demo_corpus)
        served.new_key("test", "INTERNAL")
        places["{db}"] = served.db

    def fill(text: str) -> str:
        for key, path in places.items():
            text = text.replace(key, path)
        return text

    _files(tmp_path, monkeypatch)
    env: dict[str, str | None] = dict.fromkeys(VARIABLES)  # the shell's own are unset
    env |= {variable: fill(value), "RAGSPINE_API_KEYS": "test:INTERNAL:" + "0" * 64}
    out = invoke(*map(fill, args), cwd=tmp_path / "cwd", env=env)
    said = out.stdout + out.stderr
    if isinstance(expect, Says):
        assert fill(expect.text) in said, said
    else:
        assert out.returncode == 0, said
        assert Path(fill(expect.path)).is_file(), said
    assert not any((tmp_path / "cwd").iterdir())  # nothing went to a default path


def _files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A document, an inbox, an FAQ import file, a file that is no database, an empty folder
    to run in (so no ./data is found), and serve stopped where it would start its workers."""
    (tmp_path / "cwd").mkdir()
    note = "---\ntitle: Note\nsensitivity: PUBLIC\n---\n# Note\n\nThe office opens at nine.\n"
    (tmp_path / "note.md").write_text(note, "utf-8")
    (tmp_path / "inbox").mkdir()
    (tmp_path / "inbox" / "note.md").write_text(note, "utf-8")
    (tmp_path / "items.yaml").write_text(
        "- questions: ['会员积分怎么用?']\n  answer: 积分可抵现。\n"
        "  sources: [{doc: ACME_Policies.md, locator: 'section=2,para=1'}]\n",
        "utf-8",
    )
    (tmp_path / "garbage.db").write_text("not a database", "utf-8")
    for name in SERVICE:  # serve writes them for its workers: restored after the test
        monkeypatch.setenv(f"RAGSPINE_SERVICE_{name}", "")

    def workers_start(*args: object, **kwargs: object) -> None:
        from ragspine.service.settings import ServiceSettings

        for key, value in ServiceSettings.from_env().to_env().items():
            print(f"{key}={value}")

    monkeypatch.setattr("uvicorn.run", workers_start)


def test_a_flag_wins_over_its_variable(demo_db: Path, tmp_path: Path) -> None:
    out = invoke(
        "ask", "--db", str(demo_db), "香港FY2024营收",
        cwd=tmp_path, env={"RAGSPINE_DB": str(tmp_path / "missing.db")},
    )  # fmt: skip
    assert out.returncode == 0 and "455 百万美元" in out.stdout


def test_a_new_key_never_takes_its_clearance_from_the_environment(tmp_path: Path) -> None:
    keys = tmp_path / "keys.yaml"
    out = invoke(
        "keys", "new", "alice", "--file", str(keys), env={"RAGSPINE_CLEARANCE": "RESTRICTED"}
    )
    assert out.returncode == 2 and "Missing option '--clearance'" in out.stderr
    assert not keys.exists()


def test_resume_names_a_variable_that_differs_from_the_runs_option(
    demo_db: Path, demo_corpus: Path, tmp_path: Path
) -> None:
    run = tmp_path / "run"
    stores = {"RAGSPINE_DB": str(demo_db), "RAGSPINE_CORPUS": str(demo_corpus)}
    args = ["eval", "run", "--golden", str(ROOT / "golden"), "--filter", "id:st-cn-revenue-fy2024"]
    first = invoke(*args, "--out", str(run), cwd=tmp_path, env=stores)
    assert first.returncode == 0, first.stderr
    options = json.loads((run / "run.json").read_text("utf-8"))["options"]
    assert (options["db"], options["corpus"]) == (str(demo_db), str(demo_corpus))  # recorded
    other = tmp_path / "other.db"
    differs = invoke(
        *args, "--resume", str(run), cwd=tmp_path, env={**stores, "RAGSPINE_DB": str(other)}
    )
    assert differs.returncode == 1
    assert differs.stderr == (
        f"error: {run}: RAGSPINE_DB={other} (--db) differs from the run's {demo_db}; "
        "unset it to continue the run with its own options\n"
    )
    same = invoke("eval", "run", "--resume", str(run), cwd=tmp_path, env=stores)
    assert same.returncode == 0, same.stderr  # the same values: nothing left to run
