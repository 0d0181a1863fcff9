"""A store remembers the profile it was filled with: `facts load`, `ingest` and `worker` store the
profile they are given; `ask`, `eval run`, `eval audit`, `serve` and `faq add|import` answer with
it when no --profile is given; a --profile that differs from it is used and said once on stderr.

The company is a small one (tests/small_company.py: 示例科技, one line item), so only its own
profile can answer for it: the ACME demo's says 「示例科技」不在本系统的覆盖范围内.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from openpyxl import Workbook

from ragspine.storage.fact_store import FactStore
from tests.cli import invoke
from tests.pg_stores import Place
from tests.service.conftest import deployment
from tests.small_company import (
    ANSWER,
    FACTS,
    OUT_OF_SCOPE,
    PROFILE,
    QUESTION,
    UNSET,
    company,
    run,
)

ROOT = Path(__file__).parents[1]


def loaded(tmp_path: Path, place: Place) -> Path | str:
    """A fact store (on the suite's backend) filled by `facts load --profile` the company's
    profile; returns it."""
    profile = company(tmp_path)
    db = place("f.db")
    out = run("facts", "load", tmp_path / "facts.csv", "--db", db,
              "--profile", profile, cwd=tmp_path)  # fmt: skip
    assert out.returncode == 0, out.stderr
    return db


def test_ask_without_profile_answers_for_the_company_facts_load_stored(
    tmp_path: Path, place: Place
) -> None:
    db = loaded(tmp_path, place)
    out = run("ask", QUESTION, "--db", db, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith(ANSWER) and OUT_OF_SCOPE not in out.stdout
    assert out.stderr == ""  # no profile given: nothing to say


def test_ingest_and_worker_store_their_profile_for_ask(
    tmp_path: Path, places: Callable[[Path], Place]
) -> None:
    profile = company(tmp_path)
    book = Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = "示例科技"  # the sheet names the entity
    sheet.append(["项目", "FY2022", "FY2023"])
    sheet.append(["营业收入", 100000000, 123456789])
    (tmp_path / "inbox").mkdir()
    book.save(tmp_path / "inbox" / "shili.xlsx")
    book.save(tmp_path / "shili.xlsx")
    for fill, name in (
        (["ingest", tmp_path / "shili.xlsx"], "i"),
        (["worker", "--inbox", tmp_path / "inbox", "--once"], "w"),
    ):
        place = places(tmp_path / name)  # each its own deployment
        db = place("facts.db")
        out = run(*fill, "--db", db, "--corpus", place("chunks.db"),
                  "--profile", profile, cwd=tmp_path)  # fmt: skip
        assert out.returncode == 0, out.stderr
        asked = run("ask", QUESTION, "--db", db, cwd=tmp_path)
        assert asked.stdout.startswith(ANSWER), (fill[0], asked.stdout)


def test_an_override_that_differs_is_used_and_said_once_on_stderr(
    tmp_path: Path, place: Place
) -> None:
    db = loaded(tmp_path, place)
    other = tmp_path / "other.yaml"
    out = run("ask", QUESTION, "--db", db, "--profile", other, cwd=tmp_path)
    assert out.returncode == 0 and OUT_OF_SCOPE in out.stdout  # the override is used
    assert out.stderr == (
        f"warning: profile {other} (other) differs from the one {db} stores (shili, v1); "
        f"using {other}\n"
    )
    same = run("ask", QUESTION, "--db", db, "--profile", tmp_path / "shili.yaml", cwd=tmp_path)
    assert same.stdout.startswith(ANSWER) and same.stderr == ""  # the stored one: no line


def test_a_different_profile_stored_is_a_new_version_and_says_so(
    tmp_path: Path, place: Place
) -> None:
    db = loaded(tmp_path, place)
    (tmp_path / "empty.csv").write_text(FACTS.splitlines()[0] + "\n", "utf-8")
    again = run("facts", "load", tmp_path / "empty.csv", "--db", db, "--profile",
                tmp_path / "shili.yaml", cwd=tmp_path)  # fmt: skip
    assert again.returncode == 0 and again.stderr == ""  # the same profile: still v1
    edited = tmp_path / "edited.yaml"
    edited.write_text(PROFILE.replace("营业收入, 营收]", "营业收入, 营收, 收入]"), "utf-8")
    changed = run("facts", "load", tmp_path / "empty.csv", "--db", db, "--profile", edited,
                  cwd=tmp_path)  # fmt: skip
    assert changed.returncode == 0, changed.stderr
    assert changed.stderr == (
        f"warning: profile {edited} (shili) differs from the one {db} stores (shili, v1); "
        "stored as v2\n"
    )
    with FactStore(db, create=False) as store:
        stored = store.stored_profile()
    assert stored is not None and (stored.version, stored.text) == (2, edited.read_text("utf-8"))


def test_a_store_that_remembers_no_profile_keeps_the_acme_default(
    tmp_path: Path, place: Place
) -> None:
    acme = tmp_path / "acme.csv"
    row = "REVENUE,ACME_HK,FY,2024,TOTAL,455,USD_M,hk.xlsx,row=1,INTERNAL"
    acme.write_text(f"{FACTS.splitlines()[0]}\n{row}\n", "utf-8")
    db = place("f.db")
    out = run("facts", "load", acme, "--db", db, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    with FactStore(db, create=False) as store:
        assert store.stored_profile() is None  # no profile given: none stored
    asked = run("ask", "香港FY2024营收", "--db", db, cwd=tmp_path)
    assert "455 百万美元" in asked.stdout


def test_the_demo_store_remembers_the_acme_profile(demo_db: Path) -> None:
    with FactStore(demo_db, create=False) as store:
        stored = store.stored_profile()
    assert stored is not None and stored.text == (ROOT / "ragspine/profile/acme.yaml").read_text()


def test_eval_run_uses_the_stored_profile(tmp_path: Path, place: Place) -> None:
    db = loaded(tmp_path, place)
    golden = tmp_path / "golden.yaml"
    golden.write_text(
        "suite: shili\ndefaults: {reference_date: 2024-06-30}\ncases:\n  - id: shili-revenue\n"
        f"    question: {QUESTION}\n    expect:\n      answer_contains: ['123,456,789 元']\n",
        "utf-8",
    )
    out = run("eval", "run", "--golden", golden, "--db", db, "--out", tmp_path / "run",
              cwd=tmp_path)  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert "pass_rate               1.000  (1/1" in out.stdout
    other = run("eval", "run", "--golden", golden, "--db", db, "--out", tmp_path / "run2",
                "--profile", tmp_path / "other.yaml", cwd=tmp_path)  # fmt: skip
    assert "pass_rate               0.000  (0/1" in other.stdout  # the override is used
    assert [line for line in other.stderr.splitlines() if line.startswith("warning:")] == [
        f"warning: profile {tmp_path / 'other.yaml'} (other) differs from the one {db} stores "
        f"(shili, v1); using {tmp_path / 'other.yaml'}"
    ]


def test_audit_and_serve_say_an_override_once(
    tmp_path: Path, place: Place, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = loaded(tmp_path, place)
    other = tmp_path / "other.yaml"
    from dataclasses import fields

    from ragspine.service.settings import PREFIX, ServiceSettings

    monkeypatch.setattr("uvicorn.run", lambda *a, **k: None)  # serve stops where workers start
    for field in fields(ServiceSettings):  # serve sets them for its workers: restored after
        monkeypatch.setenv(f"{PREFIX}{field.name.upper()}", "")
    line = f"warning: profile {other} (other) differs from the one {db} stores (shili, v1); "
    audit = run("eval", "audit", "--cases", tmp_path / "missing.yaml", "--db", db,
                "--profile", other, cwd=tmp_path)  # fmt: skip
    assert audit.stderr.startswith(line + f"using {other}\n")
    deployment(tmp_path, db, db).new_key("t", "INTERNAL")  # in keys.yaml, or the database
    serve = invoke("serve", "--db", str(db), "--keys", str(tmp_path / "keys.yaml"),
                   "--profile", str(other), cwd=tmp_path, env=UNSET)  # fmt: skip
    assert serve.returncode == 0 and serve.stderr.startswith(line + f"using {other}\n")


def test_serve_answers_with_the_stored_profile(tmp_path: Path, place: Place) -> None:
    import httpx

    from ragspine.service.api.app import create_app
    from ragspine.service.keys import load_keys, new_key
    from ragspine.service.settings import ServiceSettings
    from tests.service.test_faq_short_circuit import serving

    db = loaded(tmp_path, place)
    key = new_key(tmp_path / "keys.yaml", "staff", "INTERNAL")
    app = create_app(ServiceSettings(db=db), keys=load_keys(tmp_path / "keys.yaml"))
    with serving(app) as url:
        r = httpx.post(f"{url}/v1/ask", json={"question": QUESTION},
                       headers={"X-API-Key": key}, timeout=30)  # fmt: skip
    assert r.status_code == 200 and r.json()["answer"].startswith(ANSWER)


@pytest.mark.parametrize(
    "command",
    [
        # one item, from the command line
        ["faq", "add", "--question", "香港的退货政策是什么?", "--answer", "凭小票可以退货。",
         "--source", "示例科技_2023_年报.pdf#page=5,row=营业收入,col=2023"],
        # a file of items
        ["faq", "import", "{tmp}/items.yaml"],
    ],
)  # fmt: skip
def test_faq_items_are_screened_with_the_stored_profile(
    tmp_path: Path, place: Place, command: list[str]
) -> None:
    db = loaded(tmp_path, place)
    (tmp_path / "items.yaml").write_text(
        "- questions: ['香港的退货政策是什么?']\n  answer: 凭小票可以退货。\n"
        "  sources: [{doc: 示例科技_2023_年报.pdf, locator: 'page=5,row=营业收入,col=2023'}]\n",
        "utf-8",
    )
    args = [c.replace("{tmp}", str(tmp_path)) for c in command]
    out = run(*args, "--faq", place("faq.db"), "--db", db, cwd=tmp_path)
    assert out.returncode == 0, out.stderr  # the ACME profile refuses 香港: its entity
