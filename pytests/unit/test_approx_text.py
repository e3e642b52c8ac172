"""approx_count_distinct over a frame: which form each call compiles to
(the exact linear distinct count, or Spark's frame) and the errors,
rendered with dbt's Jinja, no Spark."""

from __future__ import annotations

import pytest

from sqc.testing.jinja import Library
from sqc.testing.lint import violations

SALES = {
    "pytest.sales": [
        ("id", "bigint"), ("store_id", "int"), ("customer", "string"), ("units", "int"),
        ("day", "date"),
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


def test_wide_rows_frames_are_counted_exactly(library: Library) -> None:
    """From 32 rows wide the exact linear count, as for count(distinct):
    the same SQL (exact is within any error bound, and measured faster)."""
    approx = _select(
        library, "{'buyers': 'approx_count_distinct(customer, 0.01)'}", "preceding=999"
    )
    exact = _select(library, "{'buyers': 'count(distinct customer)'}", "preceding=999")
    assert approx == exact and "as rolling_0_first" in approx
    native = _select(library, "{'buyers': 'approx_count_distinct(customer)'}", "preceding=9")
    assert "approx_count_distinct(customer) over (" in native and "inline" not in native


def test_range_frames_of_intervals_are_counted_exactly(library: Library) -> None:
    sql = library.render(
        "{{ rolling_select('pytest.sales', {'buyers': 'approx_count_distinct(customer)'}, 'day', "
        "partition_by='store_id', frame='range', preceding='7 days') }}"
    )
    assert "as rolling_0_first" in sql and "approx_count_distinct" not in sql


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


def test_a_relative_sd_spark_must_check_keeps_spark_frame(library: Library) -> None:
    sql = _select(library, "{'buyers': 'approx_count_distinct(customer, sd)'}", "preceding=999")
    assert "approx_count_distinct(customer, sd) over (" in sql


@pytest.mark.parametrize(
    ("call", "reason"),
    [
        (
            "rolling('approx_count_distinct(customer)', 'id', preceding=999, method='linear')",
            "a distinct count needs helper columns: use rolling_select",
        ),
        (
            "rolling_select('pytest.sales', {'b': 'approx_count_distinct(customer)'}, 'id', "
            "following='unbounded', method='linear')",
            "a distinct count is linear over frames with both ends bounded",
        ),
        (
            "rolling_select('pytest.sales', {'b': 'approx_count_distinct(customer, sd)'}, 'id', "
            "preceding=999, method='linear')",
            "relativeSD must be a plain number for the exact linear form",
        ),
    ],
)
def test_linear_where_there_is_none_says_why(library: Library, call: str, reason: str) -> None:
    message = library.render_error("{{ " + call + " }}")
    assert "method" in message and "'linear'" in message and reason in message


def test_mixed_with_a_block_max_in_the_order_given(library: Library) -> None:
    """The distinct count comes with the block form's `*` (sqlfluff's ST06:
    no simple column after a computed one); a last projection puts the
    columns in the order given."""
    sql = _select(
        library, "{'most': 'max(units)', 'buyers': 'approx_count_distinct(customer)'}",
        "preceding=99",
    )  # fmt: skip
    assert ") as rolling_distinct" in sql
    assert sql.startswith("select\n    * except (most, buyers),\n    most,\n    buyers\nfrom (\n")
    assert sql.endswith("\n) as rolling_aggregates")
    assert "from (\n            with rolling_source as (" in sql  # the subquery indented


@pytest.mark.lint
def test_the_exact_form_lints_clean(library: Library) -> None:
    sql = _select(
        library, "{'buyers': 'approx_count_distinct(customer)'}", "preceding=5, following=3"
    )
    assert violations(sql) == []
