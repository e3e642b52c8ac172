"""changed_rows: what a model downstream of an incremental_windows table
reads, run by run, and its compile errors (the rows it reads, on Spark:
pytests/incremental_windows and the consumer project)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from sqc.testing.jinja import Library, Relation

UPSTREAM = Relation("card_features", "analytics")
THIS = Relation("card_daily", "analytics")
UPSTREAM_COLUMNS = [
    ("card_id", "string"), ("amount_7d", "bigint"), ("spark_query_catalog_changed_at", "int"),
    ("spark_query_catalog_date", "date"),
]  # fmt: skip
OWN_COLUMNS = [("card_id", "string"), ("spark_query_catalog_changed_at", "int"), ("day", "date")]


def _library(incremental: bool = True, own_type: str = "int", largest: str | None = "7") -> Library:
    own = [(n, own_type if n == "spark_query_catalog_changed_at" else t) for n, t in OWN_COLUMNS]
    return Library(
        columns={"analytics.card_features": UPSTREAM_COLUMNS, "analytics.card_daily": own},
        this=THIS,
        incremental=incremental,
        answers=[("select cast(", [(largest,)])],
    )


def test_a_first_run_reads_every_row_and_asks_nothing() -> None:
    library = _library(incremental=False)
    sql = library.call("changed_rows", UPSTREAM, groups="spark_query_catalog_date")
    assert sql == "select *\nfrom analytics.card_features"
    assert library.queries == []


def test_an_empty_table_of_its_own_reads_every_row() -> None:
    library = _library(largest=None)
    assert library.call("changed_rows", UPSTREAM) == "select *\nfrom analytics.card_features"


def test_an_incremental_run_reads_the_rows_marked_after_its_largest_mark(
    lints_clean: Callable[[str], None],
) -> None:
    library = _library()
    sql = library.call("changed_rows", UPSTREAM)
    assert library.queries == [
        "select cast(max(spark_query_catalog_changed_at) as string)\nfrom analytics.card_daily"
    ]
    assert sql == (
        "select *\nfrom analytics.card_features\nwhere spark_query_catalog_changed_at > 7"
    )
    lints_clean(sql)


def test_groups_read_whole_where_a_row_changed(lints_clean: Callable[[str], None]) -> None:
    """A NULL group key is a group too (<=>, not IN)."""
    sql = _library().call("changed_rows", UPSTREAM, groups=["card_id", "spark_query_catalog_date"])
    lints_clean(sql)
    assert sql.startswith(
        "with changed_groups as (\n    select distinct\n        card_id,\n"
        "        spark_query_catalog_date\n    from analytics.card_features\n"
        "    where spark_query_catalog_changed_at > 7\n)"
    )
    assert "from analytics.card_features as upstream_rows\nleft semi join changed_groups\n" in sql
    assert "upstream_rows.card_id <=> changed_groups.card_id\n" in sql


def test_a_timestamp_mark_is_read_back_exactly() -> None:
    library = _library(own_type="timestamp", largest="1717200000123456")
    sql = library.call("changed_rows", UPSTREAM)
    assert library.queries[0].startswith(
        "select cast(unix_micros(max(spark_query_catalog_changed_at))"
    )
    assert sql.endswith("spark_query_catalog_changed_at > timestamp_micros(1717200000123456)")


@pytest.mark.parametrize(
    ("relation", "groups", "own", "words"),
    [
        ("card_features", None, OWN_COLUMNS,
         "argument `relation` must be a Relation (ref() of a model built by incremental_windows)."
         " Got: 'card_features'"),
        (UPSTREAM, ["card"], OWN_COLUMNS,
         "argument `groups` must be columns of analytics.card_features (card_id, amount_7d,"
         " spark_query_catalog_changed_at, spark_query_catalog_date). Got: 'card'"),
        (UPSTREAM, 3, OWN_COLUMNS, "argument `groups` must be"),
        (Relation("plain", "analytics"), None, OWN_COLUMNS,
         "analytics.plain has no column spark_query_catalog_changed_at: changed_rows reads tables"
         " built by incremental_windows"),
        (UPSTREAM, None, [("card_id", "string")],
         "analytics.card_daily has no column spark_query_catalog_changed_at: a model that reads"
         " changed rows keeps the marks it has read"),
    ],
)  # fmt: skip
def test_bad_input_is_a_clear_compile_error(
    relation: object, groups: object, own: list[tuple[str, str]], words: str
) -> None:
    library = Library(
        columns={
            "analytics.card_features": UPSTREAM_COLUMNS,
            "analytics.plain": [("card_id", "string")],
            "analytics.card_daily": own,
        },
        this=THIS,
        incremental=True,
    )
    message = library.error("changed_rows", relation, groups=groups)
    assert message.startswith("spark_query_catalog.changed_rows: "), message
    assert words in message, message
    assert library.queries == []
