from __future__ import annotations

from pathlib import Path

import pytest

from ragspine.errors import IngestError
from ragspine.retrieval.documents import load_document


def _write(tmp_path: Path, name: str, content: str | bytes) -> Path:
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, "utf-8")
    return path


def test_front_matter_fields(tmp_path: Path) -> None:
    doc = load_document(
        _write(
            tmp_path, "a.md", "---\ntitle: T\nsensitivity: RESTRICTED\nperiod: FY2024\n---\nbody\n"
        )
    )
    assert (doc.doc_id, doc.meta.title, doc.meta.sensitivity, doc.meta.period) == (
        "a.md", "T", "RESTRICTED", "FY2024",
    )  # fmt: skip
    assert doc.body.strip() == "body" and doc.markdown
    assert doc.content_hash.startswith("sha256:")


def test_a_file_without_front_matter_is_internal_and_titled_by_its_name(tmp_path: Path) -> None:
    doc = load_document(_write(tmp_path, "notes.txt", "just text\n"))
    assert doc.meta.sensitivity == "INTERNAL" and doc.meta.title == "notes" and not doc.markdown


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("a.md", "---\ntitle: T\nowner: me\n---\nx", "front matter: owner"),  # unknown key
        ("a.md", "---\nsensitivity: SECRET\n---\nx", "front matter: sensitivity"),  # bad level
        ("a.md", "---\npublished: someday\n---\nx", "front matter: published"),  # bad date
        ("a.md", "---\ntitle: [unclosed\n---\nx", "not valid YAML"),  # YAML syntax
        ("a.md", "---\ntitle: T\nno end", "never ends"),  # unterminated
        ("a.md", "---\n- a list\n---\nx", "must be a mapping"),  # wrong shape
        ("a.md", "---\ntitle: T\n---\n\n  \n", "no text"),  # empty body
        ("a.pptx", "x", "unsupported file type .pptx"),  # not yet ingestible
        ("a.md", b"\xff\xfe\x00bad", "not UTF-8"),  # binary
    ],
)
def test_bad_documents_name_the_file_and_field(
    tmp_path: Path, name: str, content: str | bytes, message: str
) -> None:
    path = _write(tmp_path, name, content)
    with pytest.raises(IngestError) as err:
        load_document(path)
    assert str(path) in str(err.value) and message in str(err.value)


def test_sensitivity_override(tmp_path: Path) -> None:
    doc = load_document(_write(tmp_path, "n.txt", "x"), sensitivity="PUBLIC")
    assert doc.meta.sensitivity == "PUBLIC"
