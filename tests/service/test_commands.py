"""`ragspine keys new` and `ragspine faq add|list|disable|enable|import`, as a user runs them."""

from __future__ import annotations

import subprocess
from pathlib import Path

from ragspine.service.keys import digest, load_keys
from tests.cli import invoke
from tests.pg_stores import Place
from tests.service.conftest import RAGSPINE, deployment, free_port


def test_a_new_key_is_printed_once_and_only_its_hash_is_kept(tmp_path: Path) -> None:
    keys = tmp_path / "keys.yaml"
    out = invoke("keys", "new", "alice", "--clearance", "INTERNAL", "--file", str(keys))
    assert out.returncode == 0, out.stderr
    key = out.stdout.strip()
    assert key.startswith("rsk_") and key not in keys.read_text("utf-8")
    assert digest(key) in keys.read_text("utf-8")
    caller = load_keys(keys).caller(key)
    assert caller is not None and (caller.name, caller.clearance) == ("alice", "INTERNAL")
    again = invoke("keys", "new", "alice", "--clearance", "PUBLIC", "--file", str(keys))
    assert again.returncode == 1 and "exists already" in again.stderr


def test_faq_items_are_added_listed_disabled_and_imported(
    tmp_path: Path, place: Place, demo_db: Path, demo_corpus: Path
) -> None:
    faq = str(place("faq.db"))
    stores = ["--db", str(demo_db), "--corpus", str(demo_corpus)]  # the sources must be there
    added = invoke(
        "faq", "add", "--question", "退货政策是什么?", "--question", "What is the return policy?",
        "--answer", "七天内可退货。", "--source", "ACME_Store_Operations_FAQ.txt#para=5",
        "--faq", faq, *stores,
    )  # fmt: skip
    assert added.returncode == 0 and "added FAQ item 1 (2 question(s))" in added.stdout
    refused = invoke(
        "faq", "add", "--question", "香港FY2024的收入是多少", "--answer", "455",
        "--source", "a#b", "--faq", faq,
    )  # fmt: skip
    assert refused.returncode == 1 and "would never be served from the cache" in refused.stderr
    no_locator = invoke(
        "faq", "add", "--question", "q?", "--answer", "a", "--source", "doc", "--faq", faq
    )
    assert no_locator.returncode == 1 and "write DOC#LOCATOR" in no_locator.stderr
    assert invoke("faq", "disable", "1", "--faq", faq).stdout.strip() == "disabled FAQ item 1"
    listed = invoke("faq", "list", "--faq", faq).stdout
    assert "disabled" in listed and "退货政策是什么? | What is the return policy?" in listed
    assert invoke("faq", "disable", "7", "--faq", faq).returncode == 1
    items = tmp_path / "items.yaml"
    items.write_text(
        "- questions: ['会员积分怎么用?']\n  answer: 积分可抵现。\n"
        "  sources: [{doc: ACME_Membership_Program.md, locator: 'section=1.1,para=1'}]\n"
        "  valid_until: 2030-12-31\n",
        "utf-8",
    )
    imported = invoke("faq", "import", str(items), "--faq", faq, *stores)
    assert imported.returncode == 0 and "imported 1 FAQ item(s)" in imported.stdout
    bad = tmp_path / "bad.yaml"
    bad.write_text("- questions: ['q?']\n  answer: a\n  sources: []\n  colour: red\n", "utf-8")
    failed = invoke("faq", "import", str(bad), "--faq", faq)
    assert failed.returncode == 1 and f"{bad}: item 1: " in failed.stderr


def test_serve_without_keys_is_one_line(tmp_path: Path, demo_db: Path) -> None:
    out = invoke(
        "serve", "--db", str(demo_db), "--keys", str(tmp_path / "none.yaml"),
        env={"RAGSPINE_API_KEYS": None},
    )  # fmt: skip
    assert out.returncode == 1 and out.stderr.startswith("error: no API keys in")


def test_serve_with_a_faq_that_is_not_there_is_one_line(
    tmp_path: Path, demo_db: Path, demo_corpus: Path
) -> None:
    served = deployment(tmp_path, demo_db, demo_corpus)  # keys: a file, or the database's
    served.new_key("a", "PUBLIC")
    keys = tmp_path / "keys.yaml"
    missing = tmp_path / "faq.db"
    out = subprocess.run(
        [RAGSPINE, "serve", "--port", str(free_port()), "--db", served.db,
         "--keys", str(keys), "--faq", str(missing)],
        capture_output=True, text=True, timeout=60,  # a server that started would not return
    )  # fmt: skip
    assert out.returncode == 1 and out.stderr.startswith(f"error: FAQ cache not found: {missing}")
    assert not missing.exists()  # a mistyped path is not made into an empty cache


def test_a_broken_import_file_is_one_line(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("- questions: [a?]\n  answer: [\n", "utf-8")
    out = invoke("faq", "import", str(broken), "--faq", str(tmp_path / "faq.db"))
    assert out.returncode == 1 and len(out.stderr.strip().splitlines()) == 1
    assert out.stderr.startswith(f"error: {broken}: not valid YAML")


def test_spaced_out_figure_questions_are_refused_and_an_import_is_all_or_nothing(
    tmp_path: Path, place: Place
) -> None:
    faq = str(place("faq.db"))
    for spaced in ("rev enue", "收 入 多 少", "2 0 2 4 年 收 入"):
        out = invoke(
            "faq", "add", "--question", spaced, "--answer", "a", "--source", "d#l", "--faq", faq
        )
        assert out.returncode == 1 and "would never be served" in out.stderr, spaced
    items = tmp_path / "items.yaml"
    items.write_text(
        "- questions: ['会员积分怎么用?']\n  answer: a\n  sources: [{doc: d, locator: l}]\n"
        "- questions: ['???']\n  answer: b\n  sources: [{doc: d, locator: l}]\n",
        "utf-8",
    )
    out = invoke("faq", "import", str(items), "--faq", faq)
    assert out.returncode == 1 and f"{items}: item 2: " in out.stderr
    assert invoke("faq", "list", "--faq", faq).stdout.strip() == "no items"  # not even item 1


def test_serve_settings_leave_no_stale_variable_to_the_workers() -> None:
    from ragspine.service.settings import ServiceSettings

    env = ServiceSettings(faq=None).to_env()
    assert env["RAGSPINE_SERVICE_FAQ"] == ""  # overwrites a stale one in the shell
    assert ServiceSettings.from_env(env).faq is None
