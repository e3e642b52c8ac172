"""approx_count_distinct over a frame: which form each call compiles to
(HLL sketches in block form, the exact linear count, or Spark's frame), the
sketch's size for a relativeSD, and the errors, rendered with dbt's Jinja,
no Spark."""

from __future__ import annotations

import pytest

from pytests.unit.test_incremental_statements import _lint
from sqc.testing.jinja import Library

SALES = {
    "pytest.sales": [
        ("id", "bigint"), ("store_id", "int"), ("customer", "string"), ("quantity", "smallint"),
        ("units", "int"), ("sold_at", "timestamp"), ("day", "date"),
    ]
}  # fmt: skip


@pytest.fixture(scope="module")
def library() -> Library:
    return Library(columns=SALES)


def _select(library: Library, aggregates: str, frame: str, method: str = "auto") -> str:
    return library.render(
        f"{{{{ rolling_select('pytest.sales', {aggregates}, 'id', partition_by='store_id', "
        f"{frame}, method='{method}') }}}}"
    )


@pytest.mark.parametrize(
    ("expression", "parsed"),
    [
        ("approx_count_distinct(customer)", ("customer", None)),
        ("APPROX_COUNT_DISTINCT( lower(customer) , 0.01 )", ("lower(customer)", "0.01")),
        ("approx_count_distinct(coalesce(a, b))", ("coalesce(a, b)", None)),
        ("approx_count_distinct(a, 0.1, 3)", None),
        ("approx_count_distinct(distinct a)", None),
        ("approx_count_distinct(f(a)", None),
        ("approx_count_distinct()", None),
        ("count(distinct a)", None),
    ],
)
def test_parse(library: Library, expression: str, parsed: tuple[str, str | None] | None) -> None:
    got = library.call("_sqc_parse_approx_distinct", expression)
    assert ((got["argument"], got["relative_sd"]) if got else None) == parsed


@pytest.mark.parametrize(
    ("relative_sd", "lg_k"),
    [
        # 1.04 / sqrt(2^lgK) <= relativeSD, the smallest such lgK
        (None, 9),  # Spark's default 0.05: 1.04 / sqrt(512) = 0.046
        ("0.05", 9),
        ("0.045", 10),  # 1.04 / sqrt(512) = 0.04596 is over: one more bit
        ("0.01", 14),  # 1.04 / 128 = 0.0081; 1.04 / 90.5 = 0.0115 is over
        ("0.3", 4),  # the fewest buckets hll_sketch_agg takes
        ("1e-2", 14),
        ("0.00072", 21),  # 1.04 / sqrt(2^21) = 0.000718
        ("0.0007", None),  # past 2^21 buckets
        ("rsd", None),
    ],
)
def test_sketch_size_meets_the_relative_sd(
    library: Library, relative_sd: str | None, lg_k: int | None
) -> None:
    assert library.call("_sqc_hll_lg_k", relative_sd) == lg_k


def test_rows_frames_from_64_rows_are_sketched(library: Library) -> None:
    sketched = _select(library, "{'buyers': 'approx_count_distinct(customer)'}", "preceding=999")
    assert sketched.count("hll_sketch_agg(rolling_0_value, 9) over (") == 2
    assert "approx_count_distinct" not in sketched
    # A string goes in as its hash (DataSketches skips empty strings).
    assert "when customer is not null\n                then xxhash64(customer)" in sketched
    native = _select(library, "{'buyers': 'approx_count_distinct(customer)'}", "preceding=9")
    assert "hll_sketch_agg" not in native
    assert "approx_count_distinct(customer) over (" in native


def test_integers_go_into_the_sketch_as_they_are(library: Library) -> None:
    sql = _select(
        library, "{'a': 'approx_count_distinct(id)', 'b': 'approx_count_distinct(quantity, 0.01)', "
        "'c': 'approx_count_distinct(units)'}", "preceding=99",
    )  # fmt: skip
    assert "id as rolling_0_value" in sql
    assert "cast(quantity as int) as rolling_1_value" in sql
    assert "units as rolling_2_value" in sql
    assert "hll_sketch_agg(rolling_1_value, 14)" in sql


def test_range_frames_count_exactly(library: Library) -> None:
    """Over a RANGE of days the exact linear count is the form: within any
    error bound."""
    sql = library.render(
        "{{ rolling_select('pytest.sales', {'buyers': 'approx_count_distinct(customer)'}, 'day', "
        "partition_by='store_id', frame='range', preceding='7 days') }}"
    )
    assert "lateral view inline(array(" in sql and "hll_sketch_agg" not in sql


def test_rolling_keeps_spark_frame(library: Library) -> None:
    assert library.render(
        "{{ rolling('approx_count_distinct(customer, 0.02)', 'id', partition_by='store_id', "
        "preceding=999) }}"
    ) == (
        "approx_count_distinct(customer, 0.02) over (\n"
        "        partition by store_id\n"
        "        order by id\n"
        "        rows between 999 preceding and current row\n"
        "    )"
    )


@pytest.mark.parametrize(
    ("call", "reason"),
    [
        (
            "rolling('approx_count_distinct(customer)', 'id', preceding=999, method='linear')",
            "approx_count_distinct needs helper columns: use rolling_select",
        ),
        (
            "rolling_select('pytest.sales', {'b': 'approx_count_distinct(customer, 0.0001)'}, "
            "'id', preceding=999, method='linear')",
            "relativeSD must be a number from 0.00072 (2^21 buckets) up, written out: got 0.0001",
        ),
        (
            "rolling_select('pytest.sales', {'b': 'approx_count_distinct(customer)'}, 'id', "
            "following='unbounded', method='linear')",
            "approx_count_distinct is linear over frames with both ends bounded",
        ),
    ],
)
def test_linear_where_there_is_none_says_why(library: Library, call: str, reason: str) -> None:
    message = library.render_error("{{ " + call + " }}")
    assert "method" in message and "'linear'" in message and reason in message


def test_mixed_stages_keep_the_order_given(library: Library) -> None:
    """A block max, a sketch and an exact count: each stage adds its
    column, the last selects them all in the order given."""
    sql = _select(
        library, "{'most': 'max(units)', 'buyers': 'approx_count_distinct(customer)', "
        "'kinds': 'count(distinct units)'}", "preceding=99",
    )  # fmt: skip
    assert ") as rolling_distinct" in sql and ") as rolling_sketched" in sql
    tail = sql[sql.index("\n    ),\n", sql.rindex("* except (")) :]
    assert tail.index(" as most") < tail.index("buyers") < tail.index("kinds")


FRAMES = ["preceding=999", "preceding=5, following=3", "preceding=-2, following=6", "preceding=0"]


@pytest.mark.parametrize("frame", FRAMES)
def test_the_sketch_form_lints_clean(library: Library, frame: str) -> None:
    sql = _select(library, "{'buyers': 'approx_count_distinct(customer)'}", frame, "linear")
    assert _lint(sql) == []
