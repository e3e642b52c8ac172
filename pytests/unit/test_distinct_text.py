"""count(distinct ...) over a frame: which form each call compiles to, and
the errors, rendered with dbt's Jinja, no Spark."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from sqc.testing.jinja import Library
from sqc.testing.lint import violations

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
        "bigint(size(collect_set(case\n"
        "        when customer is not null and store_id is not null\n"
        "            then struct(customer, store_id)\n"
        "    end) over (\n"
        "        partition by store_id\n"
        "        order by id\n"
        "        rows between 9 preceding and current row\n"
        "    )))"
    )


def test_rolling_select_counts_in_linear_form(library: Library) -> None:
    """ROWS: the row number is the position; each value's chains start where
    its previous row is out of the frame's width (a lag) and end where its
    next one is (a lead, in the same window); the count is the chains
    started by the frame's end less those ended before its start. No
    records, no set."""
    sql = library.render(
        "{{ rolling_select('pytest.sales', {'customers': 'count(distinct customer)'}, 'id', "
        "partition_by='store_id', preceding=999) }}"
    )
    assert "collect_set" not in sql and "lateral view" not in sql
    assert (
        "        row_number() over (\n"
        "            partition by store_id\n"
        "            order by id\n"
        "        ) as rolling_position\n"
    ) in sql
    value_window = (
        "(rolling_position) over (\n"
        "                    partition by store_id, rolling_0_value\n"
        "                    order by rolling_position\n"
        "                ) "
    )
    assert (
        "        case\n"
        "            when rolling_0_value is null then 0\n"
        "            when\n"
        f"                lag{value_window}>= rolling_position - 999\n"
        "                then 0\n"
        "            else 1\n"
        "        end as rolling_0_first,\n"
    ) in sql
    assert f"lead{value_window}<= rolling_position + 999\n" in sql
    assert sql.endswith(
        "select\n"
        "    * except (\n"
        "        rolling_position,\n"
        "        rolling_0_value,\n"
        "        rolling_0_first,\n"
        "        rolling_0_last\n"
        "    ),\n"
        "    sum(rolling_0_first) over (\n"
        "        partition by store_id\n"
        "        order by rolling_position\n"
        "        rows between unbounded preceding and current row\n"
        "    ) - coalesce(sum(rolling_0_last) over (\n"
        "        partition by store_id\n"
        "        order by rolling_position\n"
        "        rows between unbounded preceding and 1000 preceding\n"
        "    ), 0) as customers\n"
        "from rolling_chains"
    )


@pytest.mark.parametrize(("preceding", "linear"), [(30, False), (31, True)])
def test_auto_counts_linearly_from_32_rows(library: Library, preceding: int, linear: bool) -> None:
    """'auto' keeps the set over frames of up to 31 rows and takes the chains
    from 32 (measured: they meet near 25 rows)."""
    sql = library.render(
        "{{ rolling_select('pytest.sales', {'c': 'count(distinct customer)'}, 'id', "
        f"partition_by='store_id', preceding={preceding}) }}}}"
    )
    assert ("collect_set" not in sql) == linear


def test_a_column_named_as_a_helper_is_an_error() -> None:
    """The row's columns travel as they are beside the chains form's own: a
    relation column of one of their names is a compile error that says so."""
    library = Library(columns={"pytest.events": [("id", "bigint"), ("rolling_position", "int")]})
    message = library.render_error(
        "{{ rolling_select('pytest.events', {'c': 'count(distinct rolling_position)'}, 'id', "
        "preceding=99) }}"
    )
    assert "rolling_select" in message and "a column rolling_position" in message
    assert "method='native'" in message


def test_a_frame_ending_after_the_row_reads_the_starts_there(library: Library) -> None:
    """With hi > 0 the chains started by the frame's end are read hi rows on;
    the reach of a chain is the frame's whole width (hi - lo); each count has
    its own lag and lead."""
    sql = library.render(
        "{{ rolling_select('pytest.sales', {'c': 'count(distinct customer)', "
        "'p': 'count(distinct customer, price)'}, 'id', partition_by='store_id', "
        "preceding=5, following=2, method='linear') }}"
    )
    assert sql.count(">= rolling_position - 7\n") == 2
    assert sql.count("<= rolling_position + 7\n") == 2
    assert "partition by store_id, rolling_1_value\n" in sql
    assert sql.count("rows between unbounded preceding and 2 following") == 2
    assert sql.count("rows between unbounded preceding and 6 preceding") == 2


def test_a_frame_ending_before_the_row_can_be_empty(library: Library) -> None:
    """A frame wholly before the row: at a partition's start it holds no row,
    and the chains started by its end are 0, not NULL."""
    sql = library.render(
        "{{ rolling_select('pytest.sales', {'c': 'count(distinct customer)'}, 'id', "
        "partition_by='store_id', preceding=5, following=-2, method='linear') }}"
    )
    assert "coalesce(sum(rolling_0_first) over (" in sql
    assert "rows between unbounded preceding and 2 preceding\n    ), 0)" in sql


def test_range_frames_count_over_the_positions(library: Library) -> None:
    """RANGE over a timestamp: the same chains over the key in microseconds,
    and RANGE prefix frames over it, so that equal keys (ties) share a
    frame; NULL keys far below every other."""
    sql = library.render(
        "{{ rolling_select('pytest.sales', {'customers': 'count(distinct customer)'}, "
        "'sold_at', partition_by='store_id', frame='range', preceding='7 days') }}"
    )
    position = (
        "unix_micros(sold_at),\n            -1152921504606846976\n        ) as rolling_position"
    )
    assert "coalesce(\n            " + position in sql
    assert ">= rolling_position - 604800000000\n" in sql
    assert "<= rolling_position + 604800000000\n" in sql
    # [P - 7 days, P]: to the row's peers, less up to just before the start.
    assert "range between unbounded preceding and current row" in sql
    assert "range between unbounded preceding\n        and 604800000001 preceding" in sql
    assert "rows between" not in sql and "lateral view" not in sql


@pytest.mark.parametrize(
    ("order_by", "frame", "counted"),
    [
        ("store_id", "preceding=3", True),  # int
        ("day", "preceding='2 days', following='1 day'", True),
        ("sold_at desc", "preceding='1 hour'", True),
        ("id", "preceding=3", False),  # bigint: a position and its reach could overflow
        ("amount", "preceding=1.5", False),
        ("sold_at", "preceding='3000000 days'", True),
        ("sold_at", "preceding='4000000 days'", False),  # past 2^58 microseconds
    ],
)
def test_which_range_keys_take_the_chains(
    library: Library, order_by: str, frame: str, counted: bool
) -> None:
    sql = library.render(
        "{{ rolling_select('pytest.sales', {'c': 'count(distinct customer)'}, "
        f"'{order_by}', partition_by='store_id', frame='range', {frame}, method='linear') }}}}"
    )
    assert ("as rolling_0_first" in sql) == counted
    assert ("lateral view inline(array(" in sql) == (not counted)


def test_a_null_keys_frame_apart_from_its_position(library: Library) -> None:
    """A frame wholly after (or before) the row: a NULL key's frame (its own
    rows) is not the frame at its position, so those rows count the chains
    at their own position (one for each value of theirs)."""
    sql = library.render(
        "{{ rolling_select('pytest.sales', {'c': 'count(distinct customer)'}, 'store_id', "
        "frame='range', preceding=-1, following=2, method='linear') }}"
    )
    assert "        when rolling_position = -1152921504606846976\n" in sql
    assert "            then sum(rolling_0_first) over (" in sql
    # [P + 1, P + 2]: up to 2 following, less up to the row itself.
    assert "range between unbounded preceding and 2 following" in sql
    assert "range between unbounded preceding and current row" in sql
    assert ">= rolling_position - 1\n" in sql


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


@pytest.mark.lint
def test_the_linear_form_lints_clean(library: Library) -> None:
    """sqlfluff's default rules (sparksql; AM04 aside, as for every emitted
    statement): the SQL reads as written by hand."""

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
        assert violations(sql) == [], frame


@pytest.mark.parametrize(
    ("names", "reordered"),
    [
        (["spent", "customers"], True),
        (["customers", "spent"], False),
        (["spent", "customers", "largest"], True),
    ],
)
def test_mixed_with_other_aggregates_in_the_order_given(
    library: Library, lints_clean: Callable[[str], None], names: list[str], reordered: bool
) -> None:
    """The linear distinct count comes with its query's `*`, before the
    aggregates computed over it (sqlfluff's ST06 refuses a plain column
    after a computed one): where the order given differs, a last
    projection restores it."""
    calls = {"spent": "sum(amount)", "customers": "count(distinct customer)", "largest": "max(id)"}
    aggregates = {name: calls[name] for name in names}
    sql = library.render(
        f"{{{{ rolling_select('pytest.sales', {aggregates!r}, 'id', partition_by='store_id', "
        "preceding=999) }}"
    )
    assert ") as rolling_distinct" in sql
    assert sql.endswith(") as rolling_aggregates") == reordered
    if reordered:
        head = f"select\n    * except ({', '.join(names)}),\n    " + ",\n    ".join(names)
        assert sql.startswith(head + "\nfrom (\n")
    lints_clean(sql)


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
        assert f"<= {end}\n" in sql
    else:
        assert f"        {position} as rolling_position,\n" in sql
        assert f"'position', {end},\n" in sql
    # Sent by the keys before the first window: by name in the chains form,
    # by their helper column in the three-record form.
    assert (
        "    distribute by store_id\n"
        if position.startswith("unix")
        else "    distribute by rolling_key_0\n"
    ) in sql


@pytest.mark.parametrize(
    ("expression", "written"),
    [
        ("median(price)", "percentile(price, 0.5)"),
        ("MEDIAN( coalesce(price, 0) )", "percentile(coalesce(price, 0), 0.5)"),
        ("median(price) + 1", "median(price) + 1"),  # not a whole median: as given
        ("percentile(price, 0.9)", "percentile(price, 0.9)"),
    ],
)
def test_a_median_is_written_as_the_percentile_spark_takes(expression: str, written: str) -> None:
    """Spark refuses median() over a frame and takes percentile(x, 0.5),
    which a median of floating-point values is (the type of an expression
    is Spark's answer to describe query)."""
    # Asked twice over a frame this wide: whether the block form takes it, and how.
    described = ("describe query", [("argument", "double")])
    library = Library(columns=SALES, answers=[described, described])
    sql = library.render(
        f"{{{{ rolling('{expression}', 'id', partition_by='store_id', preceding=99) }}}}"
    )
    assert sql.startswith(written + " over (")
    selected = library.render(
        f"{{{{ rolling_select('pytest.sales', {{'m': '{expression}'}}, 'id', preceding=99) }}}}"
    )
    assert f"    {written} over (" in selected


def test_a_median_of_decimals_reads_the_sorted_frame(library: Library) -> None:
    """Of integers and decimals, the median interpolates in the frame's
    values sorted once (the tests on Spark compare it with percentile bit for
    bit); without a relation their type is not known: percentile."""
    selected = library.render(
        "{{ rolling_select('pytest.sales', {'m': 'median(amount)'}, 'id', preceding=50) }}"
    )
    assert "percentile(" not in selected
    assert "sort_array(collect_list(double(amount)) over (" in selected
    assert "array(double(0.5) * (size(rolling_sorted) - 1))" in selected
    bare = library.render("{{ rolling('median(amount)', 'id', preceding=99) }}")
    assert bare.startswith("percentile(amount, 0.5) over (")
    # method='native': Spark's percentile, whose hash map of the frame's
    # values is the faster where a frame holds few distinct ones.
    native = library.render(
        "{{ rolling_select('pytest.sales', {'m': 'percentile_cont(0.9) within group "
        "(order by amount desc)'}, 'id', preceding=99, method='native') }}"
    )
    assert "    percentile(amount, 0.1) over (" in native
    assert "sort_array" not in native


@pytest.mark.parametrize(
    ("arguments", "blocks"),
    [
        ("preceding=63", True),  # 64 rows: the narrowest the block form takes
        ("preceding=62", False),
        ("preceding=999", True),
        ("preceding=999, following=-1", False),  # ends before the current row
        ("preceding=99, following=1", False),
        ("preceding='unbounded'", False),
        ("frame='range', preceding=99", False),
        ("preceding=99, method='native'", False),
    ],
)
def test_wide_rows_percentiles_share_a_sorted_core(
    library: Library, arguments: str, blocks: bool
) -> None:
    """rolling_select's percentiles over a ROWS frame of 64 rows or more to
    the current row read a core sorted once per block of rows; mode, a
    percentile_cont of doubles (Spark's percentile) and the other frames
    keep their forms (the tests on Spark compare both with a reference)."""
    sql = library.render(
        "{{ rolling_select('pytest.sales', {'m': 'median(amount)', "
        "'d': 'percentile_disc(0.9) within group (order by price desc)', 'mo': 'mode(store_id)', "
        f"'p': 'median(price)'}}, 'id', partition_by='store_id', {arguments}) }}}}"
    )
    assert ("rolling_cores as (" in sql) == blocks
    if blocks:
        width = int(arguments.removeprefix("preceding=")) + 1
        size = max(round(width**0.5), 8)
        assert f"(rolling_row - 1) div {size} as rolling_block" in sql
        assert f"rows between {(width - size) // size} preceding and 1 preceding" in sql
        assert "mode(store_id, true) over (" in sql  # mode: Spark's, ties to the smallest
        assert "percentile(price, 0.5) over (" in sql


def test_the_block_form_reads_like_sql_written_by_hand(library: Library) -> None:
    """Beside other aggregates, descending and with several fractions, the
    block form passes sqlfluff and keeps the columns in the order given."""
    sql = library.render(
        "{{ rolling_select('pytest.sales', {'total': 'sum(amount)', "
        "'qs': 'percentile_cont(array(0.25, 0.9)) within group (order by amount desc)', "
        "'d': 'percentile_disc(0.9) within group (order by price desc)'}, 'id', "
        "partition_by='store_id', preceding=999) }}"
    )
    assert violations(sql) == []
    assert sql.index("as total") < sql.index("as qs") < sql.index("as d\n")
