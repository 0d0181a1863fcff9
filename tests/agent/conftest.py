"""The two engines the meaning tests ask, opened once per module: the ACME demo and 金宇生物."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ragspine.engine import Engine
from ragspine.profile import DomainProfile, load_profile
from tests.conftest import JinyuExample

JINYU = Path(__file__).parents[2] / "examples" / "jinyu"


@pytest.fixture(scope="module")
def demo(demo_db: Path, demo_corpus: Path) -> Iterator[Engine]:
    with Engine.open(demo_db, demo_corpus) as e:
        yield e


@pytest.fixture(scope="module")
def jinyu(jinyu_example: JinyuExample) -> Iterator[Engine]:
    with pytest.warns(UserWarning):  # 金宇 is part of 金宇车城: said when the profile loads
        profile = load_profile(JINYU / "profile.yaml")
    with Engine.open(jinyu_example.db, jinyu_example.corpus, profile=profile) as e:
        yield e


@pytest.fixture(scope="module")
def jy() -> DomainProfile:
    """金宇生物's profile alone, for parser tests that open no store."""
    with pytest.warns(UserWarning):  # 金宇 is part of 金宇车城
        return load_profile(JINYU / "profile.yaml")
