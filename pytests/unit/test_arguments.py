"""Every bad input is a compile error naming the macro, the argument, what is
allowed and what was given: the macros rendered with dbt's Jinja, no Spark."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from sqc.testing.jinja import Library

TABLES = {
    "pytest.events": [
        ("event_id", "int"), ("user_id", "string"), ("event_at", "timestamp"), ("gap", "string"),
        ("amount", "int"), ("label", "string"),
    ],
    "pytest.many_values": [("id", "bigint"), ("name", "string"), ("points", "bigint")],
    "pytest.already_sessioned": [
        ("user_id", "string"), ("event_at", "timestamp"), ("session_id", "string"),
    ],
}  # fmt: skip


@pytest.fixture(scope="module")
def library() -> Library:
    return Library(columns=TABLES)


# (call, macro, argument, words the message must also contain)
CASES = [
    # pivot
    ("pivot(none, 'name', 'sum(points)')", "pivot", "relation", ["Relation"]),
    ("pivot('{t}', none, 'sum(points)')", "pivot", "pivot_column", []),
    ("pivot('{t}', [], 'sum(points)')", "pivot", "pivot_column", ["non-empty"]),
    ("pivot('{t}', 'name', '')", "pivot", "aggregates", ["aggregate"]),
    ("pivot('{t}', 'name', [])", "pivot", "aggregates", ["aggregate"]),
    ("pivot('{t}', 'name', {{'s': 3}})", "pivot", "aggregates", ["dict"]),
    ("pivot('{t}', 'name', 'sum(points)', max_values=0)", "pivot", "max_values", ["positive"]),
    ("pivot('{t}', 'name', 'sum(points)', max_values='10')", "pivot", "max_values", []),
    ("pivot('{t}', 'name', 'sum(points)', values='a')", "pivot", "values", ["list"]),
    ("pivot('{t}', 'name', 'sum(points)', values=[])", "pivot", "values", ["non-empty"]),
    ("pivot('{t}', ['name', 'id'], 'sum(points)', values=['a'])", "pivot", "values", ["2 values"]),
    ("pivot('{t}', 'name', 'sum(points)', values={{'a': ''}})", "pivot", "values", ["alias"]),
    ("pivot('{t}', 'nmae', 'sum(points)', values=['a'])", "pivot", "pivot_column", ["nmae"]),
    ("pivot('{t}', 'name', 'sum(points)', values=['a'], group_by='idd')", "pivot", "group_by", []),
    (
        "pivot('{t}', 'name', 'sum(points)', values=['a'], group_by='name')",
        "pivot",
        "group_by",
        ["other than the pivot column"],
    ),
    # unpivot
    ("unpivot(42)", "unpivot", "relation", []),
    ("unpivot('{t}', columns='points')", "unpivot", "columns", ["list"]),
    ("unpivot('{t}', columns=['pionts'])", "unpivot", "columns", ["pionts"]),
    ("unpivot('{t}', columns={{'a': ['id']}}, value_column=['x', 'y'])", "unpivot", "columns", []),
    ("unpivot('{t}', exclude=['id'], name_column='')", "unpivot", "name_column", []),
    ("unpivot('{t}', exclude=['id'], value_column=[])", "unpivot", "value_column", []),
    ("unpivot('{t}', exclude=['id'], include_nulls='yes')", "unpivot", "include_nulls", []),
    ("unpivot('{t}', columns=['id', 'points'], cast_to=['int', 'int'])", "unpivot", "cast_to", []),
    ("unpivot('{t}', columns=['points'], name_column='name')", "unpivot", "name_column", []),
    ("unpivot('{t}', exclude=['idd'])", "unpivot", "exclude", ["idd"]),
    ("unpivot('a_cte_name')", "unpivot", "", ["columns of `relation`", "CTE"]),
    # sessionize and session_windows
    ("sessionize('{e}', 'user_id', none, '5 minutes')", "sessionize", "timestamp_column", []),
    ("sessionize('{e}', 'user_id', 'event_at', '')", "sessionize", "gap", ["duration"]),
    ("sessionize('{e}', 'user_id', 'event_at', 5)", "sessionize", "gap", []),
    ("sessionize('{e}', 'user_id', 'event_at', '0 minutes')", "sessionize", "gap", ["positive"]),
    (
        "sessionize('{e}', 'user_id', 'event_at', '30 minuts')",
        "sessionize",
        "gap",
        ["'minuts' is no unit", "minutes", "microseconds", "'30 minuts'"],
    ),
    (
        "session_windows('{e}', 'user_id', 'event_at', '1 hour 5 mins', 'count(*)')",
        "session_windows",
        "gap",
        ["'mins' is no unit"],
    ),
    (
        "sessionize('{e}', 'user_id', 'event_at', '5 minutes', method='fast')",
        "sessionize",
        "method",
        [],
    ),
    (
        "sessionize('{e}', 'user_id', 'amount', '5 minutes')",
        "sessionize",
        "timestamp_column",
        ["amount (int)"],
    ),
    ("sessionize('{e}', 'user_id', 'evnt_at', '5 minutes')", "sessionize", "timestamp_column", []),
    ("sessionize('{e}', {{'a': 1}}, 'event_at', '5 minutes')", "sessionize", "partition_by", []),
    (
        "session_windows('{e}', 'user_id', 'event_at', '5 minutes', none)",
        "session_windows",
        "aggregates",
        [],
    ),
    (
        "session_windows('{e}', 'user_id', 'event_at', '5 minutes', 'count(*)', method='x')",
        "session_windows",
        "method",
        [],
    ),
    # rolling
    ("rolling('', 'id')", "rolling", "expression", []),
    ("rolling('sum(x)', [])", "rolling", "order_by", ["with frame='rows'"]),
    (
        "rolling('sum(x)', [], partition_by='k', frame='range', preceding=2)",
        "rolling",
        "order_by",
        ["an order key for a frame with an offset (2 preceding)"],
    ),
    (
        "rolling_select('{e}', {{'n': 'count(*)'}}, none, partition_by='user_id', frame='groups', "
        "following=1)",
        "rolling_select",
        "order_by",
        ["an order key for a frame with an offset (1 following)"],
    ),
    ("rolling('sum(x)', 'id', frame='groups')", "rolling", "frame", ["'rows' or 'range'"]),
    ("rolling('sum(x)', 'id', preceding=1.5)", "rolling", "preceding", ["integer"]),
    ("rolling('sum(x)', 'id', following='soon')", "rolling", "following", []),
    ("rolling('sum(x)', 'id', preceding='7 days')", "rolling", "preceding", ["frame='range'"]),
    (
        "rolling('sum(x)', ['a', 'b'], partition_by='k', frame='range', preceding=1)",
        "rolling",
        "order_by",
        ["single order key"],
    ),
    (
        "rolling('sum(x)', ['a', 'b'], partition_by='k', frame='range')",
        "rolling",
        "order_by",
        ["single order key"],
    ),
    (
        "rolling('sum(amount)', 'amount', partition_by='user_id', frame='range', "
        "preceding='7 days', relation='{e}')",
        "rolling",
        "order_by",
        ["timestamp or date", "amount (int)"],
    ),
    (
        "rolling('sum(amount)', 'event_at', partition_by='user_id', frame='range', "
        "preceding=3, relation='{e}')",
        "rolling",
        "order_by",
        ["numeric column"],
    ),
    (
        "rolling('sum(x)', 'id', method='fastest')",
        "rolling",
        "method",
        ["'auto', 'native', 'linear'"],
    ),
]


@pytest.mark.parametrize(("call", "macro", "argument", "words"), CASES)
def test_bad_input_is_a_clear_compile_error(
    library: Library, call: str, macro: str, argument: str, words: list[str]
) -> None:
    sql = "{{ " + call.format(t="pytest.many_values", e="pytest.events") + " }}"
    message = library.render_error(sql)
    assert f"spark_query_catalog.{macro}:" in message
    if argument:
        assert f"argument `{argument}`" in message
        assert "Got:" in message
    for word in words:
        assert word in message


@pytest.mark.parametrize(
    ("preceding", "following"),
    [(-3, 1), (0, -1), (-1, "0"), (-2, -3), (0, "-4")],
)
def test_a_frame_starting_after_it_ends_is_empty(
    library: Library, preceding: object, following: object
) -> None:
    """SQL's rule (PostgreSQL, DuckDB), where Spark refuses the frame: the
    aggregate over no rows, its type kept by a FILTER that lets none in."""
    compiled = library.render(
        "{{ rolling('sum(x)', 'id', partition_by='k', "
        f"preceding={preceding!r}, following={following!r}) }}}}"
    )
    assert " ".join(compiled.split()) == (
        "sum(x) filter (where id is null and id is not null) over ( partition by k )"
    )


@pytest.mark.parametrize(
    ("frame", "preceding", "following"),
    [("range", "unbounded", 0), ("groups", 0, 0), ("range", "unbounded", "unbounded")],
)
def test_with_no_order_key_every_row_is_a_peer(
    library: Library, frame: str, preceding: object, following: object,
    lints_clean: Callable[[str], None],
) -> None:  # fmt: skip
    """A RANGE or GROUPS frame of unbounded and current-row bounds spans the
    partition (Spark refuses a RANGE frame clause with no order key)."""
    compiled = library.render(
        "{{ rolling_select('pytest.events', {'n': 'count(*)', 'd': 'count(distinct amount)'}, [], "
        f"partition_by='user_id', frame='{frame}', preceding={preceding!r}, "
        f"following={following!r}) }}}}"
    )
    lints_clean(compiled)
    assert " ".join(compiled.split()) == (
        "select *, count(*) over ( partition by user_id ) as n, bigint(size(collect_set(amount)"
        " over ( partition by user_id ))) as d from pytest.events"
    )


@pytest.mark.parametrize(
    ("preceding", "following", "frame_sql"),
    [
        ("unbounded", -2, "rows between unbounded preceding and 2 preceding"),
        (3, -1, "rows between 3 preceding and 1 preceding"),
        (-1, 4, "rows between 1 following and 4 following"),
        (0, "unbounded", "rows between current row and unbounded following"),
    ],
)
def test_frames_on_one_side_of_the_current_row_compile(
    library: Library, preceding: object, following: object, frame_sql: str
) -> None:
    compiled = library.render(
        "{{ rolling('sum(x)', 'id', partition_by='k', "
        f"preceding={preceding!r}, following={following!r}, method='native') }}}}"
    )
    assert compiled.splitlines()[-2].strip() == frame_sql


def test_pivot_discovery_on_a_cte_says_it_needs_a_table(library: Library) -> None:
    message = library.render_error("{{ pivot('some_cte', 'name', 'sum(points)') }}")
    assert "spark_query_catalog.pivot:" in message
    assert "Discovering pivot `values`" in message
    assert "CTE" in message


def test_sessionize_refuses_to_overwrite_its_output_columns(library: Library) -> None:
    message = library.render_error(
        "{{ sessionize('pytest.already_sessioned', 'user_id', 'event_at', '1 minute') }}"
    )
    assert "spark_query_catalog.sessionize:" in message
    assert "`session_id`" in message
