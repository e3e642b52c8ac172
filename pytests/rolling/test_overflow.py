"""Prefix differences at the limits of their types, under ANSI mode and
without it: the running total of a partition passes the type's range where
every frame's sum fits, and the linear form still answers as Spark's own
frame does (an error where that frame's sum overflows under ANSI mode, the
same wrapped value without). Without ANSI mode a bigint's running total
wraps as Spark's own sum does; a model compiled for ANSI mode (the var
spark_query_catalog_ansi) sums bigint as decimal(20, 0). Which type takes
which form: pytests/unit/test_prefix_overflow.py."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sqc.testing.dbt_harness import DbtProject, values_sql

VIEW = "overflow_under_test"
COLUMNS = [("id", "int"), ("k", "string"), ("big", "bigint"), ("dec", "decimal(28,0)")]
BIG = 2**62
DEC = 10**28 - 1  # the largest decimal(28, 0)


def _wrapped(total: int) -> int:
    """A sum as a bigint wraps it without ANSI mode."""
    return (total + 2**63) % 2**64 - 2**63


LIMITS_VIEW = "long_limits_under_test"
LIMITS_COLUMNS = [("id", "int"), ("k", "string"), ("big", "bigint")]
PAIR = {"big_sum": "sum(big)", "dec_sum": "sum(dec)"}
# Every query the module runs: (view, aggregates, preceding, method).
QUERIES = [
    *((VIEW, PAIR, preceding, method) for preceding in (1, 3) for method in ("linear", "native")),
    (VIEW, {"big_sum": "sum(big)"}, 1, "linear"),
    *(
        (LIMITS_VIEW, {"s": "sum(big)"}, preceding, method)
        for preceding in (1, 2, 5, 12)
        for method in ("linear", "native")
    ),
]


@pytest.fixture(scope="module")
def overflow_view(project: DbtProject) -> Iterator[DbtProject]:
    # Each frame (a row and the one before it) holds one BIG and one -BIG/2,
    # or two BIG/2: every frame's sum fits, the running total passes 2^63.
    bigs = [BIG // 2, BIG // 2] * 6 + [BIG, -BIG // 2] * 4
    rows = [(i, "a", big, DEC) for i, big in enumerate(bigs)] + [(0, "b", None, -DEC)]
    project.sql(f"create or replace temporary view {VIEW} as " + values_sql(rows, COLUMNS))
    project.sql(
        f"create or replace temporary view {LIMITS_VIEW} as " + values_sql([], LIMITS_COLUMNS)
    )
    yield project
    project.sql(f"drop view if exists {VIEW}")
    project.sql(f"drop view if exists {LIMITS_VIEW}")


@pytest.fixture(scope="module")
def compiled(overflow_view: DbtProject) -> dict[tuple[str, str, int, str, bool], str]:
    """Every query, compiled for a session with ANSI mode on and off: each
    mode's in one invocation (a change of dbt's vars makes dbt parse the
    whole project again, about 5 s)."""
    calls = [
        f"{{{{ rolling_select('{view}', {aggregates!r}, 'id', partition_by='k', "
        f"preceding={preceding}, method='{method}') }}}}"
        for view, aggregates, preceding, method in QUERIES
    ]
    queries = {}
    for ansi in (False, True):
        mode = f"{{spark_query_catalog_ansi: {str(ansi).lower()}}}"
        compiled = overflow_view.compile_many(calls, "--vars", mode)
        for (view, aggregates, preceding, method), sql in zip(QUERIES, compiled, strict=True):
            queries[view, repr(aggregates), preceding, method, ansi] = sql
    return queries


def _rows(project: DbtProject, sql: str, ansi: bool) -> dict[tuple[str, int], Any]:
    """The query's rows with ANSI mode on or off. dbt-spark turns it off on
    each statement it runs; a user's hook can turn it on for a Thrift
    connection: the session is used directly here, between dbt's statements."""
    spark = project.spark()
    spark.conf.set("spark.sql.ansi.enabled", str(ansi).lower())
    try:
        rows = spark.sql(sql).collect()
    finally:
        spark.conf.unset("spark.sql.ansi.enabled")
    return {(r.k, r.id): (r.big_sum, None if r.dec_sum is None else int(r.dec_sum)) for r in rows}


@pytest.mark.parametrize("ansi", [True, False])
def test_running_totals_past_the_type_equal_the_frame(
    overflow_view: DbtProject, compiled: dict[Any, str], ansi: bool
) -> None:
    linear, native = (
        _rows(overflow_view, compiled[VIEW, repr(PAIR), 1, m, ansi], ansi)
        for m in ("linear", "native")
    )
    table = overflow_view.sql(f"select k, id, big, dec from {VIEW}")
    values = {(r.k, r.id): (r.big, int(r.dec)) for r in table}
    expected = {
        (k, i): (
            None if values[k, i][0] is None else values[k, i][0] + values.get((k, i - 1), (0,))[0],
            values[k, i][1] + values.get((k, i - 1), (0, 0))[1],
        )
        for k, i in values
    }
    assert linear == native == expected
    assert max(abs(v[1]) for v in expected.values()) > 10**28  # past decimal(28, 0)


@pytest.mark.parametrize("ansi", [True, False])
def test_a_frame_whose_own_sum_overflows(
    overflow_view: DbtProject, compiled: dict[Any, str], ansi: bool
) -> None:
    """Four rows of BIG / 2 or BIG pass 2^63: Spark's frame fails under ANSI
    mode and wraps without it; so does the linear form."""
    sqls = {m: compiled[VIEW, repr(PAIR), 3, m, ansi] for m in ("linear", "native")}
    if ansi:
        for sql in sqls.values():
            with pytest.raises(Exception, match="OVERFLOW"):
                _rows(overflow_view, sql, ansi)
        return
    linear, native = (_rows(overflow_view, sqls[m], ansi) for m in ("linear", "native"))
    assert linear == native
    assert linear["a", 3][0] == _wrapped(4 * (BIG // 2)) == -(2**63)


def test_a_bigint_sum_compiles_for_the_session_s_mode(compiled: dict[Any, str]) -> None:
    """Summed as it is without ANSI mode, as decimal(20, 0) with it."""
    key = (VIEW, repr({"big_sum": "sum(big)"}), 1, "linear")
    wraps, ansi = (compiled[(*key, a)] for a in (False, True))
    assert "decimal" not in wraps and wraps.count("sum(big) over") == 2
    assert ansi.count("sum(cast(big as decimal(20, 0))) over") == 2


LIMIT = 2**63
LONGS = st.one_of(
    st.integers(-LIMIT, LIMIT - 1),
    st.sampled_from([-LIMIT, LIMIT - 1, -(LIMIT // 2), LIMIT // 2, -1, 0, 1]),
    st.integers(-1000, 1000),
)
LONG_ROWS = st.lists(st.tuples(st.sampled_from("ab"), st.one_of(st.none(), LONGS)), max_size=40)


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture], max_examples=12)
@given(rows=LONG_ROWS, preceding=st.sampled_from([1, 2, 5, 12]), ansi=st.booleans())
def test_bigint_sums_at_the_limits_equal_the_frame(
    overflow_view: DbtProject,
    compiled: dict[Any, str],
    rows: list[tuple[str, int | None]],
    preceding: int,
    ansi: bool,
) -> None:
    """Random bigints near the long range, whose running totals and frame
    sums wrap: without ANSI mode the linear form equals Spark's frame row
    for row, and both equal the wrapped sum of a pure-Python frame; under
    ANSI mode it answers wherever Spark's frame answers, with its value."""
    spark = overflow_view.spark()
    table = [(i, k, v) for i, (k, v) in enumerate(rows)]
    spark.sql(
        f"create or replace temporary view {LIMITS_VIEW} as " + values_sql(table, LIMITS_COLUMNS)
    )
    key = (LIMITS_VIEW, repr({"s": "sum(big)"}), preceding)
    compiled_sql = {method: compiled[(*key, method, ansi)] for method in ("linear", "native")}
    spark.conf.set("spark.sql.ansi.enabled", str(ansi).lower())
    try:
        answers = {}
        for method, sql in compiled_sql.items():
            try:
                answers[method] = {r.id: r.s for r in spark.sql(sql).collect()}
            except Exception as error:  # Spark's ARITHMETIC_OVERFLOW, under ANSI mode only
                assert ansi and "OVERFLOW" in str(error), error
                answers[method] = None
    finally:
        spark.conf.unset("spark.sql.ansi.enabled")
    expected = {}
    for key in "ab":
        partition = [(i, v) for i, k, v in table if k == key]
        for place, (i, _) in enumerate(partition):
            frame = partition[max(0, place - preceding) : place + 1]
            values = [v for _, v in frame if v is not None]
            expected[i] = _wrapped(sum(values)) if values else None
    if not ansi or answers["native"] is not None:
        assert answers["linear"] == answers["native"] == expected
    else:
        # Spark's frame failed on a partial sum past 2^63; the linear form
        # fails only where a frame's whole sum is past it.
        assert answers["linear"] in (None, expected)


def test_an_int_avg_over_more_than_2_22_values_stops(project: DbtProject) -> None:
    """Spark sums int as doubles, exact while a frame holds up to 2^22
    values of at most 2^31. The linear avg's frame of 2^22 + 1 values fails
    with an error that names the macro and says what to do; the frames of
    the rows before it, up to 2^22 values, answer."""
    spark = project.spark()
    spark.sql(
        "create or replace temporary view wide_frame as "
        f"select id, 'a' as k, cast(id % 7 as int) as i from range({2**22 + 1})"
    )
    try:
        sql = project.compile_inline(
            "{{ rolling_select('wide_frame', {'a': 'avg(i)'}, 'id', partition_by='k', "
            f"preceding={2**22}) }}}}"
        )
        stops = r"rolling_select: avg\(i\) over a frame of more than 4194304 values"
        with pytest.raises(Exception, match=stops):
            spark.sql(f"select max(a) from ({sql})").collect()
        # The filter stays above the window (every frame whole) and below the
        # average's case: the frames it keeps hold up to 2^22 values.
        last = 2**22 - 1
        kept = spark.sql(f"select id, a from ({sql}) where id in ({last - 1}, {last})").collect()
        assert {r.id: r.a for r in kept} == {
            n - 1: sum(i % 7 for i in range(n)) / n for n in (2**22 - 1, 2**22)
        }
    finally:
        spark.sql("drop view if exists wide_frame")
