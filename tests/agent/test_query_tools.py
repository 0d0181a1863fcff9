from __future__ import annotations

from datetime import date

import pytest

from ragspine.agent.query_tools import (
    QUERY_METRIC_TOOL_ANTHROPIC,
    QUERY_METRIC_TOOL_OPENAI,
    build_query_metric_tool_anthropic,
    execute_query_metric,
)
from ragspine.profile import default_profile
from ragspine.storage.fact_store import FactStore

REF = date(2025, 6, 30)


def test_found_carries_value_codes_and_lineage(store: FactStore) -> None:
    result = execute_query_metric(store, "REVENUE", "ACME_CN", "FY2024")
    # the demo facts are ingested from real files: which version of which file, read how
    lineage = result.pop("lineage")  # type: ignore[misc]
    assert len(lineage["source_file_hash"]) == 64
    assert lineage["extractor_version"] == "ragspine-tables/1"
    assert lineage["mapping_version"].startswith("acme-demo@")
    assert result == {
        "status": "found",
        "value": 1320,
        "value_text": "1320",
        "unit": "USD_M",
        "metric_code": "REVENUE",
        "entity": "ACME_CN",
        "period_type": "FY",
        "period": "2024",
        "channel": "TOTAL",
        "source": {
            "doc": "ACME_FY2024_Review.pptx",
            "locator": "slide=2,table=1,row=REVENUE,col=FY2024",
        },
        "sensitivity": "PUBLIC",  # the annual review deck's level
    }


def test_aliases_are_normalised_through_the_glossary(store: FactStore) -> None:
    result = execute_query_metric(store, "營收", "中國內地", "2024财年", "合计")
    assert result["status"] == "found" and result["value"] == 1320


def test_not_found_names_what_was_looked_for(store: FactStore) -> None:
    assert execute_query_metric(store, "REVENUE", "ACME_CN", "FY2025") == {
        "status": "not_found",
        "normalized": {
            "metric_code": "REVENUE",
            "entity": "ACME_CN",
            "period_type": "FY",
            "period": "2025",
            "channel": "TOTAL",
        },
    }


@pytest.mark.parametrize(
    ("args", "param", "raw"),
    [
        (("EBITDA", "ACME_CN", "FY2024", "TOTAL"), "metric", "EBITDA"),  # unknown metric
        (("REVENUE", "some unknown company", "FY2024", "TOTAL"), "entity", "some unknown company"),
        (("REVENUE", "ACME_CN", "next decade", "TOTAL"), "period", "next decade"),
        (("REVENUE", "ACME_CN", "FY2024", "wholesale"), "channel", "wholesale"),
        (("REVENUE", None, "FY2024", "TOTAL"), "entity", "None"),  # a model sent null
        (("REVENUE", ["ACME_CN"], "FY2024", "TOTAL"), "entity", "['ACME_CN']"),  # wrong type
    ],
)
def test_unrecognized_param_names_the_parameter(
    store: FactStore, args: tuple[object, ...], param: str, raw: str
) -> None:
    assert execute_query_metric(store, *args) == {
        "status": "unrecognized_param",
        "param": param,
        "raw": raw,
    }


def test_channel_defaults_to_total(store: FactStore) -> None:
    assert execute_query_metric(store, "REVENUE", "ACME_CN", "FY2024", None)["channel"] == "TOTAL"


def test_relative_period_uses_the_reference_date(store: FactStore) -> None:
    result = execute_query_metric(store, "REVENUE", "ACME_CN", "去年", reference_date=REF)
    assert result["period"] == "2024"


def test_tool_schemas_are_derived_from_the_profile() -> None:
    schema = QUERY_METRIC_TOOL_ANTHROPIC["input_schema"]
    assert QUERY_METRIC_TOOL_ANTHROPIC["name"] == "query_metric"
    assert "ACME_CN" in schema["properties"]["entity"]["description"]
    assert QUERY_METRIC_TOOL_OPENAI["function"]["parameters"] == schema
    other = default_profile().model_copy(deep=True)
    other.entities[1].code = "GLOBEX_EU"
    built = build_query_metric_tool_anthropic(other)
    assert "GLOBEX_EU" in built["input_schema"]["properties"]["entity"]["description"]
    assert "ACME_CN" not in built["input_schema"]["properties"]["entity"]["description"]
