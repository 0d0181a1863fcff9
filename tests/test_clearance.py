"""One spelling of the levels (``sensitivity.Clearance``) wherever a user writes one: the same
choices and the same messages everywhere, and plain strings in the files written."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from ragspine.sensitivity import DEFAULT_CLEARANCE, LEVELS, Clearance, allowed_levels
from tests.cli import invoke
from tests.pg_stores import Place

FIELD = "Input should be 'PUBLIC', 'INTERNAL' or 'RESTRICTED'"
CHOICE = "'SECRET' is not one of 'PUBLIC', 'INTERNAL', 'RESTRICTED'."
NO_KEY = "0" * 64
GOLDEN = (
    "defaults: {reference_date: 2025-06-30}\ncases:\n  - id: x-1\n    question: q\n"
    "    clearance: SECRET\n    expect: {route: structured}\n"
)
ITEMS = (
    "- questions: ['会员积分怎么用?']\n  answer: a\n  sensitivity: SECRET\n"
    "  sources: [{doc: d, locator: l}]\n"
)


def test_the_levels_are_their_strings_from_least_to_most() -> None:
    assert LEVELS == ("PUBLIC", "INTERNAL", "RESTRICTED") == tuple(Clearance)
    assert DEFAULT_CLEARANCE == "INTERNAL" and f"{Clearance.RESTRICTED}" == "RESTRICTED"
    assert allowed_levels("INTERNAL") == ("PUBLIC", "INTERNAL")


@pytest.mark.parametrize(
    ("args", "env", "message"),
    [
        # a golden case's clearance
        (["eval", "validate", "--golden", "{tmp}/golden"], {},
         "error: {tmp}/golden/bad.yaml:5: case x-1: clearance: " + FIELD),
        # a document's front matter
        (["ingest", "{tmp}/doc.md"], {},
         "error: {tmp}/doc.md: front matter: sensitivity: " + FIELD),
        # an FAQ item in an import file
        (["faq", "import", "{tmp}/items.yaml", "--faq", "{tmp}/faq.db"], {},
         "error: {tmp}/items.yaml: item 1: sensitivity: " + FIELD),
        # a key in the environment
        (["serve"], {"RAGSPINE_API_KEYS": f"a:SECRET:{NO_KEY}"},
         "error: RAGSPINE_API_KEYS: entry 1: clearance: " + FIELD),
        # the options that take a level
        (["ask", "--clearance", "SECRET", "q"], {}, "Invalid value for '--clearance'"),
        (["ask", "q"], {"RAGSPINE_CLEARANCE": "SECRET"}, "Invalid value for '--clearance'"),
        (["keys", "new", "a", "--clearance", "SECRET"], {}, "Invalid value for '--clearance'"),
        (["ingest", "{tmp}/doc.md", "--sensitivity", "SECRET"], {},
         "Invalid value for '--sensitivity'"),
        (["faq", "add", "--question", "q", "--answer", "a", "--source", "d#l",
          "--sensitivity", "SECRET"], {}, "Invalid value for '--sensitivity'"),
    ],
)  # fmt: skip
def test_an_unknown_level_gets_the_same_message_wherever_it_is_written(
    args: list[str], env: dict[str, str], message: str, tmp_path: Path
) -> None:
    (tmp_path / "golden").mkdir()
    (tmp_path / "golden" / "bad.yaml").write_text(GOLDEN, "utf-8")
    (tmp_path / "doc.md").write_text("---\nsensitivity: SECRET\n---\n# x\n\ntext\n", "utf-8")
    (tmp_path / "items.yaml").write_text(ITEMS, "utf-8")
    filled = [a.replace("{tmp}", str(tmp_path)) for a in args]
    out = invoke(*filled, cwd=tmp_path, env=env)
    assert out.returncode in (1, 2) and out.stdout == ""
    assert message.replace("{tmp}", str(tmp_path)) in out.stderr
    if message.startswith("Invalid value"):
        assert CHOICE in out.stderr


def test_a_level_is_written_as_its_plain_string(
    tmp_path: Path, place: Place, demo_db: Path, demo_corpus: Path
) -> None:
    keys = tmp_path / "keys.yaml"
    made = invoke("keys", "new", "board", "--clearance", "RESTRICTED", "--file", str(keys))
    assert made.returncode == 0, made.stderr
    assert "clearance: RESTRICTED\n" in keys.read_text("utf-8")  # no Python object tag
    assert yaml.safe_load(keys.read_text("utf-8"))["keys"][0]["clearance"] == "RESTRICTED"
    faq = str(place("faq.db"))
    added = invoke(
        "faq", "add", "--question", "会员积分怎么用?", "--answer", "积分可抵现。",
        "--source", "ACME_Membership_Program.md#section=1.1,para=1", "--sensitivity", "PUBLIC",
        "--faq", faq, "--db", str(demo_db), "--corpus", str(demo_corpus),
    )  # fmt: skip
    assert added.returncode == 0, added.stderr
    assert "| PUBLIC " in invoke("faq", "list", "--faq", faq).stdout
