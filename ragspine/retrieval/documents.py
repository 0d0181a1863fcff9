"""Reading a document file: optional YAML front matter (validated), body text, content hash."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ragspine.errors import IngestError, first_problem
from ragspine.retrieval.chunking.chunker import CHUNKER_VERSION
from ragspine.sensitivity import DEFAULT_CLEARANCE, Clearance

SUPPORTED_SUFFIXES = (".md", ".markdown", ".txt")


class DocumentMeta(BaseModel):
    """What a document says about itself in its front matter."""

    # YAML reads `period: 2025` as a number; it is still a period label.
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True, coerce_numbers_to_str=True)

    title: str = Field(default="", max_length=300)
    sensitivity: Clearance = DEFAULT_CLEARANCE
    language: str = ""
    entity: str = ""
    period: str = ""
    published: date | None = None


@dataclass(frozen=True)
class Document:
    doc_id: str
    path: Path
    meta: DocumentMeta
    body: str
    content_hash: str
    markdown: bool


def load_document(path: str | Path, *, sensitivity: str | None = None) -> Document:
    """Read and validate one file; IngestError names the file and the field."""
    p = Path(path)
    if p.suffix.lower() not in SUPPORTED_SUFFIXES:
        raise IngestError(
            f"{p}: unsupported file type {p.suffix or '(none)'}; "
            f"ingest takes {', '.join(SUPPORTED_SUFFIXES)}"
        )
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise IngestError(f"{p}: cannot read: {exc.strerror or exc}") from exc
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise IngestError(f"{p}: not UTF-8 text (byte {exc.start})") from exc
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    front, body = _split_front_matter(p, text)
    try:
        meta = DocumentMeta.model_validate(front)
    except ValidationError as exc:
        problem = first_problem(exc, root="<front matter>")
        raise IngestError(f"{p}: front matter: {problem}") from exc
    if sensitivity is not None:
        meta = meta.model_copy(update={"sensitivity": sensitivity})
    if not meta.title:
        meta = meta.model_copy(update={"title": p.stem})
    if not body.strip():
        raise IngestError(f"{p}: the document has no text")
    return Document(
        doc_id=p.name,
        path=p,
        meta=meta,
        body=body,
        content_hash=f"sha256:{hashlib.sha256(raw).hexdigest()}/chunker-{CHUNKER_VERSION}",
        markdown=p.suffix.lower() in (".md", ".markdown"),
    )


def _split_front_matter(path: Path, text: str) -> tuple[dict[str, object], str]:
    if not text.startswith("---\n"):
        return {}, text
    end = text.find("\n---", 4)
    if end == -1:
        raise IngestError(f"{path}: front matter starts with '---' but never ends")
    try:
        data = yaml.safe_load(text[4:end]) or {}
    except yaml.YAMLError as exc:
        raise IngestError(f"{path}: front matter is not valid YAML: {exc}") from exc
    if not isinstance(data, dict):
        raise IngestError(f"{path}: front matter must be a mapping")
    rest = text[end + 4 :]
    return data, rest.split("\n", 1)[1] if "\n" in rest else ""
