"""changed_rows and drop_emptied_partitions: what a model downstream of an
incremental_windows or incremental_sessions table reads, run by run, and
their compile errors (the rows it reads, on Spark: pytests/incremental_windows,
pytests/incremental_sessions and the consumer project)."""

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


def _library(
    incremental: bool = True,
    own_type: str = "int",
    largest: str | None = "7",
    answers: list[tuple[str, list[tuple[object, ...]]]] | None = None,
) -> Library:
    """`answers`: the upstream's table properties and the questions of
    this table after them; by default, no record of the upstream's last run."""
    own = [(n, own_type if n == "spark_query_catalog_changed_at" else t) for n, t in OWN_COLUMNS]
    return Library(
        columns={"analytics.card_features": UPSTREAM_COLUMNS, "analytics.card_daily": own},
        this=THIS,
        incremental=incremental,
        answers=answers or [("show tblproperties", []), ("select cast(", [(largest,)])],
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
        "show tblproperties analytics.card_features",
        "select cast(max(spark_query_catalog_changed_at) as string)\nfrom analytics.card_daily",
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
    assert library.queries[1].startswith(
        "select cast(unix_micros(max(spark_query_catalog_changed_at))"
    )
    assert sql.endswith("spark_query_catalog_changed_at > timestamp_micros(1717200000123456)")


RECORDED = [
    ("spark_query_catalog.watermark", "9"),
    ("spark_query_catalog.previous_watermark", "5"),
    ("spark_query_catalog.changed_dates", "2024-06-01,2024-06-02"),
]
LARGEST = "select cast(max(spark_query_catalog_changed_at) as string)\nfrom analytics.card_daily"


def test_read_up_to_the_upstreams_last_run_it_takes_its_dates(
    lints_clean: Callable[[str], None],
) -> None:
    """No mark above the watermark before the upstream's last run, and that
    one there: the model has read up to it, and what changed since is that
    run's dates, which the upstream recorded. Both questions read only the
    row groups that hold those marks."""
    library = _library(answers=[
        ("show tblproperties", RECORDED), ("select cast(", [(None,)]), ("select 1", [(1,)]),
    ])  # fmt: skip
    sql = library.call("changed_rows", UPSTREAM, groups="spark_query_catalog_date")
    assert library.queries == [
        "show tblproperties analytics.card_features",
        LARGEST + "\nwhere spark_query_catalog_changed_at > 5",
        "select 1\nfrom analytics.card_daily\nwhere spark_query_catalog_changed_at = 5\nlimit 1",
    ]
    assert sql == (
        "select *\nfrom analytics.card_features\nwhere\n    spark_query_catalog_date in (\n"
        "        date '2024-06-01',\n        date '2024-06-02'\n    )"
    )
    lints_clean(sql)
    # Without groups, or with groups that are not the dates: the rows marked after it.
    for groups in [None, ["card_id", "spark_query_catalog_date"]]:
        library = _library(answers=[
            ("show tblproperties", RECORDED), ("select cast(", [(None,)]), ("select 1", [(1,)]),
        ])  # fmt: skip
        sql = library.call("changed_rows", UPSTREAM, groups=groups)
        assert "where spark_query_catalog_changed_at > 5" in sql, sql
        assert len(library.queries) == 3


@pytest.mark.parametrize(
    ("answers", "since"),
    [
        # Read past the watermark before, but not up to the watermark.
        ([("select cast(", [("7",)])], "7"),
        # Two runs behind (no mark 5 or above): every mark.
        ([("select cast(", [(None,)]), ("select 1", []), ("select cast(", [("3",)])], "3"),
    ],
)
def test_otherwise_it_reads_its_largest_mark(
    answers: list[tuple[str, list[tuple[object, ...]]]], since: str
) -> None:
    library = _library(answers=[("show tblproperties", RECORDED), *answers])
    sql = library.call("changed_rows", UPSTREAM, groups="spark_query_catalog_date")
    assert f"    where spark_query_catalog_changed_at > {since}\n)" in sql, sql
    assert "left semi join changed_groups" in sql
    assert library.queries[-1].startswith(LARGEST)


@pytest.mark.parametrize("groups", [None, "spark_query_catalog_date", ["card_id"]])
def test_read_up_to_the_upstreams_watermark_it_reads_nothing(
    groups: object, lints_clean: Callable[[str], None]
) -> None:
    """Its largest mark is the upstream's watermark (the largest mark there):
    nothing changed since, and nothing of the upstream is asked or read."""
    library = _library(answers=[("show tblproperties", RECORDED), ("select cast(", [("9",)])])
    sql = library.call("changed_rows", UPSTREAM, groups=groups)
    assert sql == "select *\nfrom analytics.card_features\nwhere false"
    assert library.queries == [
        "show tblproperties analytics.card_features",
        LARGEST + "\nwhere spark_query_catalog_changed_at > 5",
    ]
    lints_clean(sql)
    # With no record of a run before (the upstream's first): the same, from every mark.
    library = _library(
        largest="9", answers=[("show tblproperties", RECORDED[:1]), ("select cast(", [("9",)])]
    )
    assert library.call("changed_rows", UPSTREAM, groups=groups).endswith("\nwhere false")
    assert library.queries[-1] == LARGEST
    # A timestamp mark: the literals the upstream and the model write.
    library = _library(
        own_type="timestamp",
        answers=[
            ("show tblproperties", [("spark_query_catalog.watermark", "timestamp_micros(9)")]),
            ("select cast(", [("9",)]),
        ],
    )
    assert library.call("changed_rows", UPSTREAM, groups=groups).endswith("\nwhere false")
    # The same number in a literal of another type: not taken as equal, asked.
    library = _library(
        answers=[
            ("show tblproperties", [("spark_query_catalog.watermark", "timestamp_micros(9)")]),
            ("select cast(", [("9",)]),
        ],
    )
    sql = library.call("changed_rows", UPSTREAM, groups=groups)
    assert "where false" not in sql and "spark_query_catalog_changed_at > 9" in sql, sql


def test_under_build_empty_it_asks_the_upstreams_table() -> None:
    """`dbt build --empty` renders a ref as an empty subquery: the table
    properties are the upstream table's."""
    library = _library()
    empty = Relation("card_features", "analytics", limit=0)
    library.call("changed_rows", empty, groups="spark_query_catalog_date")
    assert library.queries[0] == "show tblproperties analytics.card_features"


def test_a_last_run_of_too_many_dates_leaves_them_to_the_question() -> None:
    recorded = [*RECORDED[:2], ("spark_query_catalog.changed_dates", "")]
    library = _library(answers=[
        ("show tblproperties", recorded), ("select cast(", [(None,)]), ("select 1", [(1,)]),
    ])  # fmt: skip
    sql = library.call("changed_rows", UPSTREAM, groups="spark_query_catalog_date")
    assert "    where spark_query_catalog_changed_at > 5\n)" in sql, sql


@pytest.mark.parametrize(
    ("relation", "groups", "own", "words"),
    [
        ("card_features", None, OWN_COLUMNS,
         "argument `relation` must be a Relation (ref() of a model built by incremental_windows or"
         " incremental_sessions)."
         " Got: 'card_features'"),
        (UPSTREAM, ["card"], OWN_COLUMNS,
         "argument `groups` must be columns of analytics.card_features (card_id, amount_7d,"
         " spark_query_catalog_changed_at, spark_query_catalog_date). Got: 'card'"),
        (UPSTREAM, 3, OWN_COLUMNS, "argument `groups` must be"),
        (Relation("plain", "analytics"), None, OWN_COLUMNS,
         "analytics.plain has no column spark_query_catalog_changed_at: changed_rows reads tables"
         " built by incremental_windows or incremental_sessions"),
        (UPSTREAM, None, [("card_id", "string")],
         "analytics.card_daily has no column spark_query_catalog_changed_at: a model that reads"
         " changed rows keeps the marks it has read"),
        (Relation("unfinished", "analytics"), None, OWN_COLUMNS,
         "analytics.unfinished has an unfinished run (its table"
         " unfinished__spark_query_catalog_pending is there): run unfinished first, which"
         " finishes it, then this model."),
    ],
)  # fmt: skip
def test_bad_input_is_a_clear_compile_error(
    relation: object, groups: object, own: list[tuple[str, str]], words: str
) -> None:
    library = Library(
        columns={
            "analytics.card_features": UPSTREAM_COLUMNS,
            "analytics.plain": [("card_id", "string")],
            "analytics.unfinished": UPSTREAM_COLUMNS,
            "analytics.unfinished__spark_query_catalog_pending": UPSTREAM_COLUMNS,
            "analytics.card_daily": own,
        },
        this=THIS,
        incremental=True,
    )
    message = library.error("changed_rows", relation, groups=groups)
    assert message.startswith("spark_query_catalog.changed_rows: "), message
    assert words in message, message
    assert library.queries == []


SESSIONS = Relation("sessions", "analytics")
SESSION_COLUMNS = [
    ("user_id", "string"), ("session_id", "string"), ("session_start", "timestamp"),
    ("session_end", "timestamp"), ("spark_query_catalog_loaded_at", "int"),
    ("spark_query_catalog_changed_at", "int"), ("session_date", "date"),
]  # fmt: skip
DAILY = Relation("user_daily", "analytics")


def _sessions_library(answers: list[tuple[str, list[tuple[str, ...]]]] | None = None) -> Library:
    return Library(
        columns={"analytics.sessions": SESSION_COLUMNS, "analytics.user_daily": OWN_COLUMNS},
        this=DAILY,
        incremental=True,
        model_config={"partition_by": "session_date"},
        answers=answers
        if answers is not None
        else [("show tblproperties", []), ("select cast(", [("7",)])],
    )


def test_a_session_counts_in_every_day_it_spans(lints_clean: Callable[[str], None]) -> None:
    """A session that a late event merged into an earlier one is gone from
    its day, which lies in the merged session's span: the changed groups
    are every day of each changed session's span."""
    sql = _sessions_library().call("changed_rows", SESSIONS, groups="session_date")
    lints_clean(sql)
    assert sql == (
        "with changed_groups as (\n    select distinct\n"
        "        explode(\n            sequence(session_date, to_date(session_end))\n"
        "        ) as session_date\n    from analytics.sessions\n"
        "    where spark_query_catalog_changed_at > 7\n)\n\n"
        "select /*+ broadcast(changed_groups) */ upstream_rows.*\n"
        "from analytics.sessions as upstream_rows\nleft semi join changed_groups\n"
        "    on\n        upstream_rows.session_date = changed_groups.session_date"
    )


def test_session_keys_and_days_are_groups_too(lints_clean: Callable[[str], None]) -> None:
    sql = _sessions_library().call("changed_rows", SESSIONS, groups=["user_id", "session_date"])
    lints_clean(sql)
    assert (
        "        user_id,\n        explode(\n"
        "            sequence(session_date, to_date(session_end))\n        ) as session_date\n"
    ) in sql
    assert "/*+" not in sql
    assert "upstream_rows.session_date <=> changed_groups.session_date" in sql


def _partitions(*days: str) -> list[tuple[str, ...]]:
    return [(f"session_date={day}",) for day in days]


def test_days_the_upstream_no_longer_has_are_dropped() -> None:
    library = _sessions_library(answers=[
        ("show partitions analytics.sessions", _partitions("2024-01-01", "2024-01-03")),
        ("show partitions analytics.user_daily",
         _partitions("2024-01-01", "2024-01-02", "2024-01-03", "2024-01-04")),
    ])  # fmt: skip
    sql = library.call("drop_emptied_partitions", SESSIONS)
    assert sql == (
        "alter table analytics.user_daily drop if exists\n"
        "    partition (session_date = date '2024-01-02'),\n"
        "    partition (session_date = date '2024-01-04')"
    )


def test_no_emptied_day_or_no_incremental_run_drops_nothing() -> None:
    library = _sessions_library(answers=[
        ("show partitions analytics.sessions", _partitions("2024-01-01", "2024-01-02")),
        ("show partitions analytics.user_daily", _partitions("2024-01-01")),
    ])  # fmt: skip
    assert library.call("drop_emptied_partitions", SESSIONS) == ""
    first_run = Library(columns={"analytics.sessions": SESSION_COLUMNS}, this=DAILY)
    assert first_run.call("drop_emptied_partitions", SESSIONS) == ""
    assert first_run.queries == []


@pytest.mark.parametrize(
    ("relation", "partition_by", "words"),
    [
        ("sessions", "session_date",
         "argument `relation` must be a Relation (ref() of a model built by incremental_sessions or"
         " incremental_windows). Got: 'sessions'"),
        (Relation("plain", "analytics"), "session_date",
         "argument `relation` must be a table built by incremental_sessions or incremental_windows."
         " Got: "),
        (SESSIONS, None,
         "analytics.user_daily is partitioned by nothing: the hook drops the partitions of days the"
         " upstream analytics.sessions no longer has, so the model is partitioned like it, by"
         " session_date (partition_by='session_date')."),
        (SESSIONS, ["user_id", "session_date"], "is partitioned by user_id, session_date: "),
    ],
)  # fmt: skip
def test_drop_emptied_partitions_errors(relation: object, partition_by: object, words: str) -> None:
    library = Library(
        columns={"analytics.sessions": SESSION_COLUMNS, "analytics.plain": [("day", "date")]},
        this=DAILY,
        incremental=True,
        model_config={"partition_by": partition_by},
    )
    message = library.error("drop_emptied_partitions", relation)
    assert message.startswith("spark_query_catalog.drop_emptied_partitions: "), message
    assert words in message, message
    assert library.queries == []
