"""A consumer's own nodes stay its own, whatever it writes about the package.

dbt patches a node from a properties file by name, and when the package's own
node of that name is disabled it looks in every other package (dbt-core's
NodePatchParser.parse_patch): a package that brought its catalog along would
disable, or add tests to, a consumer's model or seed named like a catalog
node. Installed as a package, this project parses no model, seed or test, so
no name can collide. This consumer has its own model or seed for every name
in the catalog (read from models/ and seeds/, so a new catalog query gets its
namesake here without an edit), a properties file and a test on some of them,
and a model that depends on one; it is parsed with each of the settings users
put on packages, and built with the one that disabled its nodes before.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from sqc.paths import MODELS, SEEDS, STATE
from sqc.testing.dbt_harness import DbtProject, write_consumer_project

CATALOG_MODELS = sorted(path.stem for path in MODELS.rglob("*.sql"))
CATALOG_SEEDS = sorted(path.stem for path in SEEDS.rglob("*.csv"))

# What users write in their dbt_project.yml about an installed package.
SETTINGS = {
    "nothing": "",
    "disabled": (
        "models:\n  spark_query_catalog: {+enabled: false}\n"
        "seeds:\n  spark_query_catalog: {+enabled: false}\n"
        "data_tests:\n  spark_query_catalog: {+enabled: false}\n"
    ),
    "opt_in_false": "vars:\n  spark_query_catalog_build_catalog: false\n",
}


def _write_project(directory: Path, settings: str) -> None:
    write_consumer_project(
        directory, "namesakes",
        "models:\n  namesakes:\n    +materialized: table\n    +file_format: parquet\n"
        "seeds:\n  namesakes:\n    +file_format: parquet\n" + settings,
    )  # fmt: skip
    for name in CATALOG_MODELS:
        (directory / "models" / f"{name}.sql").write_text(f"select 1 as id, '{name}' as name\n")
    for name in CATALOG_SEEDS:
        (directory / "seeds" / f"{name}.csv").write_text(f"id,name\n1,{name}\n")
    # A model that depends on a namesake seed (a disabled one fails at parse).
    (directory / "models" / "metrics_per_device.sql").write_text(
        "select name, count(*) as readings from {{ ref('metrics') }} group by name\n"
    )
    # The consumer's own properties and tests on names the catalog describes too.
    (directory / "models" / "properties.yml").write_text(
        "version: 2\nmodels:\n"
        "  - name: user_sessions\n    description: the consumer's own sessions\n"
        "    columns:\n      - name: id\n        data_tests: [not_null]\n"
        "seeds:\n"
        "  - name: teams\n    description: the consumer's own teams\n"
        "    columns:\n      - name: id\n        data_tests: [unique]\n"
    )


def _node(unique_id: str) -> str:
    """A unique id without the hash dbt appends to a test's."""
    return unique_id.rsplit(".", 1)[0] if unique_id.startswith("test.") else unique_id


def _expected_nodes() -> set[str]:
    nodes = {f"model.namesakes.{name}" for name in [*CATALOG_MODELS, "metrics_per_device"]}
    nodes |= {f"seed.namesakes.{name}" for name in CATALOG_SEEDS}
    nodes |= {"test.namesakes.not_null_user_sessions_id", "test.namesakes.unique_teams_id"}
    return nodes


@pytest.fixture(scope="module")
def namesakes(target: str) -> Iterator[tuple[Path, DbtProject]]:
    directory = STATE / "namesakes"
    dbt = DbtProject(directory, target=target, schema="pytest_package_namesakes")
    yield directory, dbt
    dbt.drop_schema()
    shutil.rmtree(directory, ignore_errors=True)


def test_the_catalog_has_a_name_for_every_node_users_name() -> None:
    """The collision is real only if the names are: 18 models and 23 seeds."""
    assert "user_sessions" in CATALOG_MODELS and "metrics" in CATALOG_SEEDS
    assert len(CATALOG_MODELS) + len(CATALOG_SEEDS) >= 41


@pytest.mark.parametrize("setting", SETTINGS)
def test_every_own_node_is_listed_and_enabled(
    namesakes: tuple[Path, DbtProject], setting: str
) -> None:
    directory, dbt = namesakes
    _write_project(directory, SETTINGS[setting])
    dbt.invoke("deps")
    dbt.invoke("ls", "--output", "json", "--resource-type", "all")
    listed = [json.loads(line) for line in dbt.infos if line.startswith("{")]
    assert {_node(node["unique_id"]) for node in listed} == _expected_nodes()
    # The consumer's descriptions are its own, not the catalog's.
    dbt.invoke("parse")
    manifest = json.loads((directory / "target" / "manifest.json").read_text())
    assert manifest["disabled"] == {}
    assert manifest["nodes"]["model.namesakes.user_sessions"]["description"] == (
        "the consumer's own sessions"
    )
    assert manifest["nodes"]["seed.namesakes.metrics"]["description"] == ""
    assert {node["package_name"] for node in manifest["nodes"].values()} == {"namesakes"}


def test_every_own_node_builds_with_the_package_disabled(
    namesakes: tuple[Path, DbtProject],
) -> None:
    directory, dbt = namesakes
    _write_project(directory, SETTINGS["disabled"])
    dbt.invoke("deps")
    dbt.drop_schema()
    result = dbt.invoke("build")
    built = {_node(r.node.unique_id): str(r.status) for r in result.result.results}
    assert built == {node: ("pass" if node.startswith("test.") else "success")
                     for node in _expected_nodes()}  # fmt: skip
    # `show tables` lists the session's temporary views in every schema:
    # those of the tests before (dbt-spark's `<model>__dbt_tmp`) are not this
    # project's tables.
    tables = {
        row.tableName for row in dbt.sql(f"show tables in {dbt.schema}") if not row.isTemporary
    }
    assert tables == {*CATALOG_MODELS, *CATALOG_SEEDS, "metrics_per_device"}
