"""pytest options, registered at the root so that the command line knows them."""

import os

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--target",
        default=os.environ.get("DBT_TARGET", "session"),
        choices=["session", "thrift", "cluster", "connect"],
        help="dbt target from profiles/profiles.yml to run the suite against",
    )
