"""The project installed as a package into another dbt project."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from sqc.dbt_harness import DbtProject

CONSUMER = Path(__file__).resolve().parents[1] / "integration_tests"


@pytest.fixture(scope="module")
def consumer(target: str) -> Iterator[DbtProject]:
    dbt = DbtProject(CONSUMER, target=target, schema="pytest_package_consumer")
    dbt.invoke("deps")
    dbt.drop_schema()
    yield dbt
    dbt.drop_schema()


def test_parse_runs_no_query(consumer: DbtProject) -> None:
    """While dbt parses, discovery and introspection return early: the schema
    (and so the seeds they would read) does not even exist yet."""
    consumer.invoke("parse")
    names = [row.namespace for row in consumer.sql("show schemas")]
    assert consumer.schema not in names


def test_build_through_the_package(consumer: DbtProject) -> None:
    consumer.invoke("build")
    pivoted = f"select * from {consumer.table('amount_by_customer_and_status')}"
    names = [name for name, _ in consumer.columns(pivoted)]
    assert names == ["customer_id", "null", "placed", "returned", "shipped"]
    rows = {r.customer_id: r for r in consumer.sql(pivoted)}
    assert (rows["c1"].placed, rows["c1"].shipped, rows["c1"].returned) == (11, 20, None)
    assert (rows["c2"].placed, rows["c2"].returned) == (5, 7)
    long = f"select * from {consumer.table('order_fields_long')}"
    assert dict(consumer.columns(long))["value"] == "string"
    # Order 6 has no status and no time: its status is NULL, not 'None'.
    assert len(consumer.sql(long)) == 11
    orders = consumer.table("orders")
    assert len(consumer.sql(f"select * from {orders} where status is null")) == 1
    # Only the consumer's own models and seeds were built, not the catalog's.
    tables = {row.tableName for row in consumer.sql(f"show tables in {consumer.schema}")}
    assert "teams" not in tables and "team_points_by_country" not in tables


def test_dispatch_override_is_used(consumer: DbtProject) -> None:
    compiled = (
        CONSUMER / "target" / "compiled" / "catalog_consumer" / "models" / "running_amounts.sql"
    ).read_text()
    assert "/* overridden */ sum(amount) over (" in compiled


def test_failing_model_leaves_no_table(consumer: DbtProject) -> None:
    result = consumer.invoke(
        "run",
        "--select",
        "broken_pivot",
        "--vars",
        "{broken_model_enabled: true}",
        expect_success=False,
    )
    assert not result.success
    message = "\n".join(consumer.errors)
    assert "spark_query_catalog.pivot:" in message and "`max_values` (1)" in message
    tables = {row.tableName for row in consumer.sql(f"show tables in {consumer.schema}")}
    assert "broken_pivot" not in tables
    assert "amount_by_customer_and_status" in tables
