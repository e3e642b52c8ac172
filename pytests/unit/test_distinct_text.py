"""count(distinct ...) over a frame: which form each call compiles to, and
the errors, rendered with dbt's Jinja, no Spark."""

from __future__ import annotations

import pytest

from sqc.testing.jinja import Library

SALES = {"pytest.sales": [("id", "bigint"), ("store_id", "int"), ("customer", "string")]}


@pytest.fixture(scope="module")
def library() -> Library:
    return Library(columns=SALES)


@pytest.mark.parametrize(
    ("expression", "arguments"),
    [
        ("count(distinct a)", ["a"]),
        ("COUNT( DISTINCT a, b )", ["a", "b"]),
        ("count(distinct coalesce(a, b), lower(c))", ["coalesce(a, b)", "lower(c)"]),
        ("count(a)", None),
        ("count(distinct )", None),
        ("count(distinct a,)", None),
        ("count(distinct f(a)", None),
    ],
)
def test_parse(library: Library, expression: str, arguments: list[str] | None) -> None:
    parsed = library.call("_sqc_parse_distinct_count", expression)
    assert (parsed["arguments"] if parsed else None) == arguments


def test_rolling_writes_the_set_over_spark_frame(library: Library) -> None:
    assert library.render(
        "{{ rolling('count(distinct customer, store_id)', 'id', partition_by='store_id', "
        "preceding=9, relation='pytest.sales') }}"
    ) == (
        "cast(size(collect_set(case\n"
        "        when customer is not null and store_id is not null\n"
        "            then struct(customer, store_id)\n"
        "    end) over (\n"
        "        partition by store_id\n"
        "        order by id\n"
        "        rows between 9 preceding and current row\n"
        "    )) as bigint)"
    )


def test_rolling_select_counts_in_linear_form(library: Library) -> None:
    sql = library.render(
        "{{ rolling_select('pytest.sales', {'customers': 'count(distinct customer)'}, 'id', "
        "partition_by='store_id', preceding=999) }}"
    )
    assert "collect_set" not in sql
    assert "greatest(rolling_row, rolling_0_previous + 1000)" in sql
    assert "'position', rolling_row + 1000," in sql
    assert sql.endswith(
        "select\n    rolling_counts.row_values.*,\n    rolling_counts.count_0 as customers\n"
        "from rolling_counts\nwhere rolling_counts.kind = 1"
    )


@pytest.mark.parametrize(
    ("call", "reason"),
    [
        (
            "rolling_select('pytest.sales', {'c': 'count(distinct customer)'}, 'id', "
            "preceding='unbounded', method='linear')",
            "count(distinct) is linear over frames with both ends bounded",
        ),
        (
            "rolling_select('pytest.sales', {'c': 'count(distinct customer)'}, 'id', "
            "frame='range', preceding=5, method='linear')",
            "count(distinct) is linear over ROWS frames only",
        ),
        (
            "rolling('count(distinct customer)', 'id', preceding=5, method='linear')",
            "count(distinct) needs helper columns: use rolling_select",
        ),
    ],
)
def test_linear_where_there_is_none(library: Library, call: str, reason: str) -> None:
    message = library.render_error("{{ " + call + " }}")
    assert "argument `method` must be 'auto' or 'native' here" in message
    assert reason in message


def test_the_linear_form_lints_clean(library: Library) -> None:
    """sqlfluff's default rules (sparksql; AM04 aside, as for every emitted
    statement): the SQL reads as written by hand."""
    from pytests.unit.test_incremental_statements import _lint

    sql = library.render(
        "{{ rolling_select('pytest.sales', {'customers': 'count(distinct customer)', "
        "'pairs': 'count(distinct customer, store_id)'}, 'id', partition_by='store_id', "
        "preceding=999, following=5) }}"
    )
    assert _lint(sql) == []
