"""As a user would: a document ingested by `ragspine ingest` while `ragspine serve` runs is found,
and cited, by the service's next request, within the asking key's clearance."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.service.conftest import RAGSPINE, ROOT, running

PILOT = """---
title: 无人机配送试点
sensitivity: INTERNAL
---
# 试点安排

深圳门店自2025年起开展无人机配送试点,首批覆盖三个社区。
"""
VAULT = """---
title: 蓝鲸计划
sensitivity: RESTRICTED
---
# 决议

董事会批准蓝鲸计划:收购一家冷链物流公司。
"""


@pytest.mark.slow
def test_a_document_ingested_while_serving_is_cited_by_the_next_request(
    tmp_path: Path, demo_copy: tuple[Path | str, Path | str]
) -> None:
    db, corpus = demo_copy
    new = tmp_path / "new"
    new.mkdir()
    (new / "ACME_Drone_Pilot.md").write_text(PILOT, "utf-8")
    (new / "ACME_Project_Bluewhale.md").write_text(VAULT, "utf-8")
    pilot = {"question": "无人机配送试点有什么安排?"}
    vault = {"question": "董事会对蓝鲸计划有什么决议?"}
    with running(tmp_path, db, corpus) as svc:
        before = svc.ask(pilot)
        assert before.status_code == 200, before.text
        assert "ACME_Drone_Pilot.md" not in before.text
        ingest = subprocess.run(
            [RAGSPINE, "ingest", str(new), "--db", str(db), "--corpus", str(corpus)],
            cwd=ROOT, capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert ingest.returncode == 0, ingest.stderr
        assert "added  ACME_Drone_Pilot.md" in ingest.stdout
        after = svc.ask(pilot)
        internal = svc.ask(vault)
        restricted = svc.ask(vault, clearance="RESTRICTED")
    assert after.status_code == 200, after.text
    body = after.json()
    assert body["route"] == "narrative" and body["degraded"] is None
    assert body["sources"][0] == {"doc": "ACME_Drone_Pilot.md", "locator": "section=1,para=1"}
    assert "深圳门店自2025年起开展无人机配送试点" in body["answer"]
    # the reloaded index keeps each clearance to its own documents
    assert internal.status_code == 200 and internal.json()["route"] == "narrative"
    seen = internal.json()  # the record echoes the question; nothing else may name the plan
    assert "蓝鲸" not in seen["answer"] and "ACME_Project_Bluewhale.md" not in internal.text
    assert "收购一家冷链物流公司" not in internal.text
    assert restricted.json()["sources"][0]["doc"] == "ACME_Project_Bluewhale.md"
