"""count(distinct ...) over a frame: which form each call compiles to, and
the errors, rendered with dbt's Jinja, no Spark."""

from __future__ import annotations

import pytest

from sqc.testing.jinja import Library

SALES = {
    "pytest.sales": [
        ("id", "bigint"), ("store_id", "int"), ("customer", "string"), ("price", "double"),
        ("sold_at", "timestamp"), ("day", "date"), ("amount", "decimal(10,2)"),
    ]
}  # fmt: skip


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
    """ROWS: the frame's non-NULL values counted in the window that numbers
    the rows; a repeat's +1 on the row's own record (the frame ends at the
    row) and its -1 after the last row whose frame holds the previous
    occurrence; a row out of reach of its previous occurrence brings no
    other record."""
    sql = library.render(
        "{{ rolling_select('pytest.sales', {'customers': 'count(distinct customer)'}, 'id', "
        "partition_by='store_id', preceding=999) }}"
    )
    assert "collect_set" not in sql
    assert (
        "        count(rolling_0_value) over (\n"
        "            partition by rolling_key_0\n"
        "            order by rolling_order_0\n"
        "            rows between unbounded preceding and current row\n"
        "        ) - count(rolling_0_value) over (\n"
        "            partition by rolling_key_0\n"
        "            order by rolling_order_0\n"
        "            rows between unbounded preceding and 1000 preceding\n"
        "        ) as rolling_0_present\n"
    ) in sql
    assert ") + 999 as rolling_0_previous_end\n" in sql
    assert (
        "            rolling_0_value is not null\n"
        "            and rolling_0_previous_end >= rolling_position\n"
        "        ) as rolling_0_repeat\n"
    ) in sql
    assert "'change_0', if(rolling_0_repeat, 1, 0),\n" in sql
    assert (
        "                if(\n"
        "                    rolling_0_repeat,\n"
        "                    named_struct(\n"
        "                        'position', rolling_0_previous_end,\n"
        "                        'kind', 2,\n"
        "                        'change_0', -1,\n"
    ) in sql
    assert "rolling_record -> rolling_record is not null" in sql
    assert sql.endswith(
        "select\n    rolling_counts.row_values.*,\n    rolling_counts.count_0 as customers\n"
        "from rolling_counts\nwhere rolling_counts.kind = 1"
    )
    assert "present_0 - sum(change_0) over (" in sql


def test_a_frame_ending_after_the_row_starts_repeats_on_a_record_of_their_own(
    library: Library,
) -> None:
    """With hi > 0 a repeat counts from P(j) - hi: one record there for every
    count whose row repeats, before the rows at that position (kind 0)."""
    sql = library.render(
        "{{ rolling_select('pytest.sales', {'c': 'count(distinct customer)', "
        "'p': 'count(distinct customer, price)'}, 'id', partition_by='store_id', "
        "preceding=5, following=2, method='linear') }}"
    )
    assert (
        "                    rolling_0_repeat or rolling_1_repeat,\n"
        "                    named_struct(\n"
        "                        'position', rolling_position - 2,\n"
        "                        'kind', 0,\n"
        "                        'change_0', if(rolling_0_repeat, 1, 0),\n"
        "                        'change_1', if(rolling_1_repeat, 1, 0),\n"
    ) in sql
    assert "and rolling_1_previous_end >= rolling_position - 2\n" in sql
    assert "rows between unbounded preceding and 6 preceding" in sql


def test_range_frames_count_their_values_over_the_records(library: Library) -> None:
    """RANGE over a timestamp: as over ROWS, only repeats take records; the
    frame's values are counted over the records at 2 x position (+1 for a
    change after the rows there), in the window that runs the changes: a
    RANGE running sum, so that a repeat's +1 rides on its own record."""
    sql = library.render(
        "{{ rolling_select('pytest.sales', {'customers': 'count(distinct customer)'}, "
        "'sold_at', partition_by='store_id', frame='range', preceding='7 days') }}"
    )
    position = (
        "unix_micros(sold_at),\n            -1152921504606846976\n        ) as rolling_position"
    )
    assert "coalesce(\n            " + position in sql
    assert ") + 604800000000 as rolling_0_previous_end" in sql
    assert "'at', rolling_position * 2,\n" in sql
    assert "'change_0', if(rolling_0_repeat, 1, 0),\n" in sql
    assert "'at', rolling_0_previous_end * 2 + 1,\n" in sql
    # [at - 2 x 7 days, at]: to the row's peers, less up to just before the start.
    assert "range between unbounded preceding\n            and 1209600000001 preceding" in sql
    assert sql.count("range between unbounded preceding and current row") == 2
    assert "rows between" not in sql
    assert "lateral view inline(filter(" in sql and "null_key" not in sql


@pytest.mark.parametrize(
    ("order_by", "frame", "counted"),
    [
        ("store_id", "preceding=3", True),  # int
        ("day", "preceding='2 days', following='1 day'", True),
        ("sold_at desc", "preceding='1 hour'", True),
        ("id", "preceding=3", False),  # bigint: twice a position could overflow
        ("amount", "preceding=1.5", False),
        ("sold_at", "preceding='3000000 days'", True),
        ("sold_at", "preceding='4000000 days'", False),  # past 2^58 microseconds
    ],
)
def test_which_range_keys_are_counted_over_the_records(
    library: Library, order_by: str, frame: str, counted: bool
) -> None:
    sql = library.render(
        "{{ rolling_select('pytest.sales', {'c': 'count(distinct customer)'}, "
        f"'{order_by}', partition_by='store_id', frame='range', {frame}, method='linear') }}}}"
    )
    assert ("'at', rolling_position * 2,\n" in sql) == counted
    assert ("lateral view inline(array(" in sql) == (not counted)


def test_a_null_keys_frame_apart_from_its_position(library: Library) -> None:
    """A frame wholly after (or before) the row: a NULL key's frame (its own
    rows) is not the frame at its position, so those rows are told apart,
    their changes kept to their own rows and their values counted apart."""
    sql = library.render(
        "{{ rolling_select('pytest.sales', {'c': 'count(distinct customer)'}, 'store_id', "
        "frame='range', preceding=-1, following=2, method='linear') }}"
    )
    assert "rolling_position = -1152921504606846976 as rolling_null_key" in sql
    assert (
        "rolling_null_key, rolling_position, rolling_position - 2\n        ) as rolling_start"
        in sql
    )
    assert (
        "rolling_null_key, rolling_position, rolling_0_previous_end\n        ) as rolling_0_stop"
        in sql
    )
    assert "then count(case when null_key then value_0 end) over (" in sql
    # [at + 2, at + 4]: up to 4 following, less up to 1 following.
    assert "range between unbounded preceding and 4 following" in sql
    assert "range between unbounded preceding and 1 following" in sql
    assert "'at', rolling_start * 2,\n" in sql


@pytest.mark.parametrize(
    ("call", "reason"),
    [
        (
            "rolling_select('pytest.sales', {'c': 'count(distinct customer)'}, 'id', "
            "preceding='unbounded', method='linear')",
            "a distinct count is linear over frames with both ends bounded",
        ),
        (
            "rolling_select('pytest.sales', {'c': 'count(distinct customer)'}, 'price', "
            "frame='range', preceding=5, method='linear')",
            "a RANGE frame over a floating key",
        ),
        (
            "rolling_select('pytest.sales', {'c': 'count(distinct customer)'}, 'day', "
            "frame='range', preceding='1 month', method='linear')",
            "months have no fixed length",
        ),
        (
            "rolling('count(distinct customer)', 'id', preceding=5, method='linear')",
            "a distinct count needs helper columns: use rolling_select",
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

    for frame in [
        "'id', preceding=999, following=5",
        "'sold_at', frame='range', preceding='7 days'",
        "'store_id', frame='range', preceding=-1, following=2, method='linear'",
        "'id', frame='range', preceding=99, method='linear'",
    ]:
        counts = (
            "{'customers': 'count(distinct customer)', "
            "'pairs': 'count(distinct customer, store_id)'}"
        )
        sql = library.render(
            f"{{{{ rolling_select('pytest.sales', {counts}, {frame}, partition_by='store_id') }}}}"
        )
        assert _lint(sql) == [], frame


def test_range_over_timestamps_needs_a_fixed_offset_zone() -> None:
    """Spark adds days to a timestamp on the session zone's clock: with
    daylight saving a day is not always 24 hours, and a frame cannot be
    measured back from a row. 'auto' keeps Spark's frame there."""
    call = (
        "{{ rolling_select('pytest.sales', {'c': 'count(distinct customer)'}, 'sold_at', "
        "frame='range', preceding='7 days', method='%s') }}"
    )
    for zone, linear in [
        ("UTC", True),
        ("+02:00", True),
        ("Etc/GMT-3", True),
        ("Europe/Paris", False),
    ]:
        library = Library(columns=SALES, time_zone=zone)
        assert ("collect_set" not in library.render(call % "auto")) == linear, zone
    message = Library(columns=SALES, time_zone="Europe/Paris").render_error(call % "linear")
    assert "session time zone Europe/Paris" in message and "spark.sql.session.timeZone" in message


@pytest.mark.parametrize(
    ("order_by", "frame", "position", "end"),
    [
        ("id", "preceding=5", "cast(id as bigint)", "rolling_position + 5"),
        ("id desc", "preceding=5, following=2", "-cast(id as bigint)", "rolling_position + 5"),
        ("day", "preceding='2 weeks'", "unix_date(day)", "rolling_position + 14"),
        (
            "sold_at",
            "preceding='36 hours'",
            "unix_micros(sold_at)",
            "rolling_position + 129600000000",
        ),
    ],
)
def test_range_positions(
    library: Library, order_by: str, frame: str, position: str, end: str
) -> None:
    """A RANGE frame's axis: the key as a number, negated when it sorts
    descending; the frame's reach in its units."""
    sql = library.render(
        "{{ rolling_select('pytest.sales', {'c': 'count(distinct customer)'}, "
        f"'{order_by}', partition_by='store_id', frame='range', {frame}, method='linear') }}}}"
    )
    if position.startswith("unix"):  # counted over the records: NULL keys far below
        assert (
            f"coalesce(\n            {position},\n            -1152921504606846976\n        )"
            in sql
        )
        assert f") {end.replace('rolling_position ', '')} as rolling_0_previous_end" in sql
    else:
        assert f"        {position} as rolling_position,\n" in sql
        assert f"'position', {end},\n" in sql
    assert "    distribute by rolling_key_0\n" in sql


@pytest.mark.parametrize(
    ("expression", "written"),
    [
        ("median(price)", "percentile(price, 0.5)"),
        ("MEDIAN( coalesce(price, 0) )", "percentile(coalesce(price, 0), 0.5)"),
        ("median(price) + 1", "median(price) + 1"),  # not a whole median: as given
        ("percentile(price, 0.9)", "percentile(price, 0.9)"),
    ],
)
def test_a_median_is_written_as_the_percentile_spark_takes(
    library: Library, expression: str, written: str
) -> None:
    """Spark refuses median() over a frame and takes percentile(x, 0.5)."""
    sql = library.render(
        f"{{{{ rolling('{expression}', 'id', partition_by='store_id', preceding=99) }}}}"
    )
    assert sql.startswith(written + " over (")
    selected = library.render(
        f"{{{{ rolling_select('pytest.sales', {{'m': '{expression}'}}, 'id', preceding=99) }}}}"
    )
    assert f"    {written} over (" in selected
