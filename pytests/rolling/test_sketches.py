"""approx_count_distinct over ROWS frames in the HLL block form of
rolling_select, against the exact count of a pure-Python reference
(sqc.testing.reference): exactly where a frame holds few values (the
sketch keeps every value's hash), within the stated bound where it holds
many; on random partitions with NULLs, repeats, empty strings, frames wider
than the partition, frames wholly before or after the row and empty frames."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sqc.testing import reference
from sqc.testing.dbt_harness import DbtProject, values_sql

VIEW = "sketch_under_test"
COLUMNS = [("row_id", "int"), ("p", "string"), ("a", "int"), ("s", "string")]
FRAMES = [(3, 0), (0, 4), (5, -2), (-1, 3), (10, 10), (40, 40), (0, 0), (2, 1)]
AGGREGATES = {"ints": "approx_count_distinct(a)", "strings": "approx_count_distinct(s, 0.02)"}

rows_strategy = st.lists(
    st.tuples(
        st.sampled_from(["x", "y", None]),
        st.one_of(st.none(), st.integers(min_value=-3, max_value=6)),
        st.one_of(st.none(), st.sampled_from(["", "m", "n", "M"])),
    ),
    max_size=40,
)


@pytest.fixture(scope="module")
def sketch_view(project: DbtProject) -> Iterator[DbtProject]:
    project.sql(f"create or replace temporary view {VIEW} as " + values_sql([], COLUMNS))
    yield project
    # A temporary view is listed among any schema's tables: leave none behind.
    project.sql(f"drop view if exists {VIEW}")


@pytest.fixture(scope="module")
def sketch_sql(sketch_view: DbtProject) -> dict[tuple[int, int], str]:
    return {
        frame: sketch_view.compile_inline(
            f"{{{{ rolling_select('{VIEW}', {AGGREGATES!r}, 'row_id', partition_by='p', "
            f"preceding={frame[0]}, following={frame[1]}, method='linear') }}}}"
        )
        for frame in FRAMES
    }


def _exact(table: list[tuple[Any, ...]], column: int, frame: tuple[int, int]) -> dict[int, int]:
    return reference.frame_aggregate(
        [reference.FrameRow(r[0], r[1], r[0], r[column]) for r in table],
        "count_distinct", "rows", -frame[0], frame[1],
    )  # fmt: skip


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture], max_examples=20)
@given(rows=rows_strategy, frame=st.sampled_from(FRAMES))
def test_few_values_are_counted_exactly(
    sketch_view: DbtProject, sketch_sql: dict[Any, str],
    rows: list[tuple[Any, ...]], frame: tuple[int, int],
) -> None:  # fmt: skip
    """A frame of a few values: the sketch holds each value's hash, and the
    estimate is the exact count (so a frame's edge off by one row would
    show). An empty string is a value, as approx_count_distinct counts it."""
    table = [(row_id, *row) for row_id, row in enumerate(rows)]
    sketch_view.sql(f"create or replace temporary view {VIEW} as " + values_sql(table, COLUMNS))
    ints, strings = _exact(table, 2, frame), _exact(table, 3, frame)
    got = sketch_view.sql(sketch_sql[frame])
    assert {r.row_id: (r.ints, r.strings) for r in got} == {i: (ints[i], strings[i]) for i in ints}
    if got:  # the relation's columns first, in its order; counts are bigints
        assert list(got[0].asDict()) == ["row_id", "p", "a", "s", "ints", "strings"]
    assert dict(sketch_view.columns(sketch_sql[frame]))["ints"] == "bigint"


def test_many_values_stay_within_the_bound(sketch_view: DbtProject) -> None:
    """Frames of 1,000 rows with up to 1,000 values, past where the sketch
    keeps every hash: every estimate within three standard errors (1.04 /
    sqrt(512) = 4.6% at the default relativeSD), most within one, as the
    stated bound says; Spark's own frame (HLL++, 4.9%) the same of its own.
    Neighbouring frames share most rows, so their errors move together:
    more than half within one error, where independent ones would be 68%."""
    values = [(i * 7919) % 4001 for i in range(6000)]  # a few repeats, spread out
    table = [(i, "x" if i < 3000 else "y", v, str(v % 1500)) for i, v in enumerate(values)]
    sketch_view.sql(f"create or replace temporary view {VIEW} as " + values_sql(table, COLUMNS))
    call = (
        f"{{{{ rolling_select('{VIEW}', {{'ints': 'approx_count_distinct(a)', "
        "'strings': 'approx_count_distinct(s)'}, 'row_id', partition_by='p', preceding=999, "
        "method='%s') }}"
    )
    exact = {"ints": _exact(table, 2, (999, 0)), "strings": _exact(table, 3, (999, 0))}
    # The standard error of each: DataSketches HLL at K = 512, Spark's HLL++
    # at p = 9 (1.106 / sqrt(2^p)).
    errors = {"linear": 1.04 / 512**0.5, "native": 1.106 / 512**0.5}
    for method, error in errors.items():
        sql = sketch_view.compile_inline(call % method)
        assert ("hll_sketch_agg" in sql) == (method == "linear")
        got = sketch_view.sql(sql)
        for column in ("ints", "strings"):
            relative = [
                abs(getattr(r, column) - exact[column][r.row_id]) / exact[column][r.row_id]
                for r in got
            ]
            assert max(relative) <= 3 * error, (method, column, max(relative))
            within_one = sum(1 for e in relative if e <= error) / len(relative)
            assert within_one >= 0.5, (method, column, within_one)
    # Past the sketch's exact range: an estimate, not the count.
    assert any(r.ints != exact["ints"][r.row_id] for r in got)


def test_the_sketch_form_shuffles_once(sketch_view: DbtProject, sketch_sql: dict[Any, str]) -> None:
    """Numbering, two running sketches and the lookup keep the partition's
    one shuffle; no join, no sliding frame over the values."""
    sql = sketch_sql[(10, 10)]
    plan = sketch_view.sql(f"explain formatted {sql}")[0][0]
    tree = plan.split("== Physical Plan ==")[1].strip().split("\n\n")[0]
    assert tree.count("Exchange") == 1 and "Join" not in tree, tree
    assert "approx_count_distinct" not in sql
