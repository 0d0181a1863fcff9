"""A small company for the CLI tests of the stores (示例科技, one line item), written into a
test's folder, and the command run as a user runs it, with the shell's store settings unset."""

from __future__ import annotations

from pathlib import Path

from tests.cli import Ran, invoke

QUESTION = "示例科技2023年营业收入是多少?"
ANSWER = "示例科技 FY2023 营业收入:123,456,789 元"
OUT_OF_SCOPE = "不在本系统的覆盖范围内"
PROFILE = """\
# 示例科技: a company with one reported line item
version: 2
name: shili
home_company_name: 示例科技股份有限公司
home_entity_code: SHILI
coverage: [FY2022, FY2023]
entities:
  - {code: SHILI, name_zh: 示例科技, aliases: [示例科技, 示例科技股份有限公司]}
units:
  - {code: CNY, display: 元}
metrics:
  - {code: REVENUE, unit: CNY, name_zh: 营业收入, aliases: [营业收入, 营收]}
"""
# Another company's profile: the override that differs.
OTHER = (
    PROFILE.replace("name: shili", "name: other")
    .replace("示例科技股份有限公司\nhome_entity_code: SHILI", "另一公司\nhome_entity_code: OTHER")
    .replace("{code: SHILI, name_zh: 示例科技, aliases: [示例科技, 示例科技股份有限公司]}",
             "{code: OTHER, name_zh: 另一公司, aliases: [另一公司]}")
)  # fmt: skip
FACTS = """\
metric_code,entity,period_type,period,channel,value,unit,source_doc_id,source_locator,sensitivity
REVENUE,SHILI,FY,2023,TOTAL,123456789,CNY,示例科技_2023_年报.pdf,"page=5,row=营业收入,col=2023",PUBLIC
"""
# The shared options' variables and the stores' folder, unset so the shell's own change nothing.
UNSET: dict[str, str | None] = dict.fromkeys(
    ["RAGSPINE_DB", "RAGSPINE_CORPUS", "RAGSPINE_PROFILE", "RAGSPINE_FAQ", "RAGSPINE_HOME"]
)


def run(*args: str | Path, cwd: Path, env: dict[str, str] | None = None) -> Ran:
    """The command in ``cwd``, with ``env`` laid over the shell's (its store settings unset)."""
    return invoke(*map(str, args), cwd=cwd, env={**UNSET, **(env or {})})


def company(tmp_path: Path) -> Path:
    """The company's profile and facts file in tmp_path, and another company's profile
    (other.yaml); returns the company's profile."""
    (tmp_path / "facts.csv").write_text(FACTS, "utf-8")
    (tmp_path / "other.yaml").write_text(OTHER, "utf-8")
    profile = tmp_path / "shili.yaml"
    profile.write_text(PROFILE, "utf-8")
    return profile
