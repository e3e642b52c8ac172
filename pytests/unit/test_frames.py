"""Frames as Spark takes them: intervals, offsets against the order key's
type, and when rolling's linear form applies. Spark's own answers for each
combination were read off Spark 4.3 (RANGE frames over int, decimal, double,
date, timestamp and timestamp_ntz keys): where Spark refuses one, the macro
refuses it at compile time, naming Spark's error class."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from sqc.testing.jinja import Library

KEYS = {
    "pytest.keys": [
        ("id", "int"), ("amount", "decimal(10,2)"), ("ratio", "double"), ("day", "date"),
        ("at", "timestamp"), ("local_at", "timestamp_ntz"), ("label", "string"),
        ("units", "bigint"), ("price", "decimal(30,2)"),
    ],
}  # fmt: skip


@pytest.fixture(scope="module")
def library() -> Library:
    return Library(columns=KEYS)


@pytest.mark.parametrize(
    ("text", "fields", "smallest", "sign", "amount", "error"),
    [
        ("7 days", "day_time", "day", 1, 604800, None),
        ("1 hour 30 Minutes", "day_time", "minute", 1, 5400, None),
        ("1.5 seconds", "day_time", "second", 1, 1.5, None),
        ("1 year 2 months", "year_month", "month", 1, 14, None),
        ("2 weeks", "day_time", "week", 1, 1209600, None),
        ("-1 day", "day_time", "day", -1, -86400, None),
        ("0 seconds", "day_time", "second", 0, 0, None),
        ("interval '1-1' year to month", "year_month", "month", 1, None, None),
        ("interval '7' day", "day_time", "day", 1, 604800, None),
        ("INTERVAL 2 HOURS", "day_time", "hour", 1, 7200, None),
        ("interval '-3' day", "day_time", "day", -1, -259200, None),
        ("1.5 days", "day_time", "day", 1, 129600, "only seconds take a fraction"),
        ("1 month 2 days", None, "day", 1, None, "Cannot mix year-month and day-time fields"),
    ],
)
def test_intervals_are_read_as_spark_types_them(
    library: Library, text: str, fields: str | None, smallest: str, sign: int,
    amount: float | None, error: str | None,
) -> None:  # fmt: skip
    interval = library.call("_sqc_interval", text)
    assert interval["smallest"] == smallest
    assert interval["sign"] == sign
    if error is None:
        assert interval["error"] is None
        assert interval["fields"] == fields
        assert interval["amount"] == (None if amount is None else pytest.approx(amount))
    else:
        assert error in interval["error"]


@pytest.mark.parametrize(
    "text", ["amount", "7", "seven days", "interval", "case when x then 1 end"]
)
def test_other_text_is_not_an_interval(library: Library, text: str) -> None:
    assert library.call("_sqc_interval", text) is None


# (key, preceding, following): combinations Spark 4.3 accepts in a RANGE frame.
ACCEPTED = [
    ("id", 1, 0), ("id", 1.1, 0), ("id", 0, 2.5), ("id", -1, 3), ("units", 3, 0),
    ("amount", 1.001, 0), ("amount", "0.5", "-0.25"), ("ratio", 1.5, 0.5),
    ("day", 3, 0), ("day", "2 days", "1 day"), ("day", "1 week", 0), ("day", "1 month", 0),
    ("day", "interval '1-1' year to month", 0), ("day", "interval '7' day", 0),
    ("at", "36 hours", 0), ("at", "1 year 1 month", 0), ("at", "1 day 0.000001 seconds", 0),
    ("at", 0, "interval '36' hour"), ("local_at", "7 days", "1 day"), ("at", "1 week", "2 days"),
    ("local_at", "interval '1 2:00:00' day to second", 0),
]  # fmt: skip


@pytest.mark.parametrize(("key", "preceding", "following"), ACCEPTED)
def test_frames_spark_accepts_compile(
    library: Library, key: str, preceding: object, following: object
) -> None:
    compiled = library.render(
        f"{{{{ rolling('count(*)', '{key}', partition_by='label', frame='range', "
        f"preceding={preceding!r}, following={following!r}, relation='pytest.keys', "
        "method='native') }}"
    )
    assert "range between " in compiled


# (key, preceding, following, words): what Spark 4.3 refuses, and why.
REFUSED = [
    ("day", 1.5, 0, "RANGE_FRAME_INVALID_TYPE"),
    ("day", "36 hours", 0, "RANGE_FRAME_INVALID_TYPE"),
    ("day", "1 day 0.000001 seconds", 0, "RANGE_FRAME_INVALID_TYPE"),
    ("day", 0, "interval '1 2:00:00' day to second", "RANGE_FRAME_INVALID_TYPE"),
    ("at", 1, 0, "RANGE_FRAME_INVALID_TYPE"),
    ("local_at", 0, 2, "RANGE_FRAME_INVALID_TYPE"),
    ("ratio", "7 days", 0, "RANGE_FRAME_INVALID_TYPE"),
    ("label", 1, 0, "RANGE_FRAME_INVALID_TYPE"),
    ("at", "1 month 2 days", 0, "Cannot mix year-month and day-time fields"),
    ("at", "1.5 hours", 0, "only seconds take a fraction"),
    ("at", "36 hours", "1 day", "SPECIFIED_WINDOW_FRAME_DIFF_TYPES"),
    ("at", "1 day 2 hours", "1 day", "SPECIFIED_WINDOW_FRAME_DIFF_TYPES"),
    ("day", 2, "1 day", "SPECIFIED_WINDOW_FRAME_DIFF_TYPES"),
    ("day", "1 month", "1 year", "SPECIFIED_WINDOW_FRAME_DIFF_TYPES"),
]  # fmt: skip


@pytest.mark.parametrize(("key", "preceding", "following", "words"), REFUSED)
def test_frames_spark_refuses_are_compile_errors_naming_its_error_class(
    library: Library, key: str, preceding: object, following: object, words: str
) -> None:
    message = library.render_error(
        f"{{{{ rolling('count(*)', '{key}', partition_by='label', frame='range', "
        f"preceding={preceding!r}, following={following!r}, relation='pytest.keys') }}}}"
    )
    assert "spark_query_catalog.rolling:" in message
    assert words in message


@pytest.mark.parametrize(
    ("key", "preceding", "following"),
    [("id", 1, -2), ("at", "2 days", "-3 days"), ("amount", "0.5", "-0.75")],
)
def test_a_range_frame_starting_after_it_ends_keeps_null_peers(
    library: Library, key: str, preceding: object, following: object
) -> None:
    """Spark refuses the frame (SPECIFIED_WINDOW_FRAME_WRONG_COMPARISON); by
    SQL's rule it is empty, but for a NULL key, whose offsets reach its NULL
    peers, as in Spark's own RANGE frames and DuckDB's."""
    compiled = library.render(
        f"{{{{ rolling('count(*)', '{key}', partition_by='label', frame='range', "
        f"preceding={preceding!r}, following={following!r}, relation='pytest.keys', "
        "method='linear') }}"
    )
    assert " ".join(compiled.split()) == (
        f"count(*) filter (where {key} is null) over ( partition by label order by {key}"
        " range between current row and current row )"
    )


@pytest.mark.parametrize(
    ("call", "linear"),
    [
        # sum, count, avg of exact types: linear from 8 rows (measured faster there)
        ("'sum(amount)', 'id', preceding=99", True),
        ("'count(*)', 'id', preceding=7", True),
        ("'sum(units)', 'id', preceding=7", True),
        ("'avg(units)', 'id', preceding=6", False),
        # decimals add through BigDecimal: slower linear at 8 rows, from 16
        ("'sum(amount)', 'id', preceding=7", False),
        ("'avg(amount)', 'id', preceding=14", False),
        ("'sum(amount)', 'id', preceding=15", True),
        ("'count(amount)', 'id', preceding=7", True),
        ("'avg(amount)', 'id', preceding=1000, following=1000", True),
        # the frame is already one pass: from unbounded preceding
        ("'sum(amount)', 'id'", False),
        # floating point stays native
        ("'sum(ratio)', 'id', preceding=999", False),
        # RANGE: linear over keys with a smallest step, durations of a fixed
        # length; a numeric RANGE holds as many rows as the data puts in it,
        # and one row a frame measured faster native: linear when asked
        ("'sum(units)', 'at', frame='range', preceding='1 day'", True),
        ("'sum(units)', 'day', frame='range', preceding=30", False),
        ("'sum(units)', 'day', frame='range', preceding=30, method='linear'", True),
        ("'sum(units)', 'amount', frame='range', preceding=1.001", False),
        ("'sum(units)', 'amount', frame='range', preceding=1.001, method='linear'", True),
        ("'sum(units)', 'ratio', frame='range', preceding=1", False),
        ("'sum(units)', 'day', frame='range', preceding='1 month'", False),
        # min and max need rolling_select's helper columns
        ("'max(units)', 'id', preceding=999", False),
    ],
)
def test_auto_picks_the_linear_form_where_it_is_exact_and_faster(
    library: Library, call: str, linear: bool
) -> None:
    compiled = library.render(
        f"{{{{ rolling({call}, partition_by='label', relation='pytest.keys') }}}}"
    )
    assert (
        "unbounded preceding and" in compiled and compiled.startswith(("case", "count"))
    ) == linear


@pytest.mark.parametrize(
    ("call", "words"),
    [
        ("'sum(ratio)', 'id', preceding=999", "cast the argument to a decimal"),
        ("'sum(amount)', 'id', preceding=99, relation=none", "pass `relation`"),
        ("'max(units)', 'id', preceding=999", "use rolling_select"),
        ("'sum(units)', 'ratio', frame='range', preceding=1", "no smallest step"),
        ("'sum(units)', 'day', frame='range', preceding='1 month'", "months have no fixed length"),
        ("'avg(price)', 'id', preceding=999", "more than 38 digits"),
        ("'sum(distinct units)', 'id', preceding=999", "sum, count, avg, min and max"),
    ],
)
def test_linear_where_there_is_none_says_why(library: Library, call: str, words: str) -> None:
    relation = "" if "relation=" in call else ", relation='pytest.keys'"
    message = library.render_error(
        f"{{{{ rolling({call}, partition_by='label', method='linear'{relation}) }}}}"
    )
    assert "spark_query_catalog.rolling: argument `method` must be 'auto' or 'native'" in message
    assert words in message


@pytest.mark.parametrize(
    ("offset", "scale", "steps"),
    [
        ("1.001", 2, (100, True)),
        ("1.5", 0, (1, True)),
        ("3", 0, (3, False)),
        ("0.25", 2, (25, False)),
    ],
)
def test_offsets_as_key_steps(
    library: Library, offset: str, scale: int, steps: tuple[int, bool]
) -> None:
    result = library.call("_sqc_offset_steps", offset, scale)
    assert (result["whole"], result["remainder"]) == steps


@pytest.mark.parametrize(
    ("seconds", "interval"),
    [
        (604800.000001, "interval 7 days 1 microsecond"),
        (86400, "interval 1 day"),
        (5400, "interval 1 hour 30 minutes"),
        (0.000001, "interval 1 microsecond"),
        (0.000002, "interval 2 microseconds"),
        (4.500001, "interval 4.500001 seconds"),
        (61, "interval 1 minute 1 second"),
        (0, "interval 0 seconds"),
    ],
)
def test_seconds_as_an_interval(library: Library, seconds: float, interval: str) -> None:
    assert library.call("_sqc_seconds_interval", seconds) == interval


@pytest.mark.parametrize(
    ("key", "first"),
    [("k", True), ("k asc", True), ("k nulls last", False), ("k desc", False),
     ("k desc nulls first", True), ("K DESC NULLS LAST", False)],
)  # fmt: skip
def test_null_ordering_of_an_order_key(library: Library, key: str, first: bool) -> None:
    assert library.call("_sqc_nulls_first", key) is first


@pytest.mark.parametrize(
    ("text", "type_name"),
    [
        ("7 days", "interval day"),
        ("1 week", "interval day"),
        ("36 hours", "interval hour"),
        ("1 day 2 hours", "interval day to hour"),
        ("10 minutes 30 seconds", "interval minute to second"),
        ("1 year 2 months", "interval year to month"),
        ("interval '1-1' year to month", "interval year to month"),
        ("interval '1 2:03:04' day to second", "interval day to second"),
        ("interval '7' day", "interval day"),
        ("0.5 seconds", "interval second"),
    ],
)
def test_interval_types_are_sparks(library: Library, text: str, type_name: str) -> None:
    """Spark types an interval by its largest and smallest field, and a
    frame's two bounds must have the same type."""
    assert library.call("_sqc_interval", text)["type"] == type_name


class _CutRelation:
    """A ref() that dbt has cut to a microbatch batch (its event_time_filter)."""

    identifier = "events"
    schema = "analytics"

    def __init__(self) -> None:
        from datetime import datetime

        field = type("Filter", (), {})()
        field.field_name = "event_at"
        field.start = datetime(2024, 1, 9)
        field.end = datetime(2024, 1, 10)
        self.event_time_filter = field

    def render(self) -> str:
        return "analytics.events"


@pytest.mark.parametrize(
    ("preceding", "needed"),
    [
        ("1 month", "intervals of a fixed length, such as '7 days'"),
        ("unbounded", "a frame with both ends bounded"),
    ],
)
def test_a_microbatch_halo_needs_a_length_of_time(preceding: str, needed: str) -> None:
    """Inside a batch, a RANGE frame of months has no halo of fixed length:
    a compile error that says what it needs (it used to pass unchecked)."""
    library = Library()
    window = library.call(
        "_sqc_rolling_window", "rolling_select", "sum(amount)", "event_at", "user_id",
        "range", preceding, 0, None, "auto",
    )  # fmt: skip
    message = library.error("_sqc_batch_halo", _CutRelation(), window, "rolling_select")
    assert f"it needs {needed}" in message, message


def test_a_groups_frame_is_a_range_over_numbered_peer_groups(
    library: Library, lints_clean: Callable[[str], None]
) -> None:
    """frame='groups': each row's peer group numbered by dense_rank() in the
    window's order (several order keys allowed), the frame the RANGE of the
    same offsets over that number, the number dropped. Native under `auto`,
    as a numeric RANGE (its rows per frame depend on the data)."""
    sql = library.render(
        "{{ rolling_select('pytest.keys', {'amount_3d': 'sum(amount)'}, ['day', 'at desc'], "
        "partition_by='label', frame='groups', preceding=2, following=0) }}"
    )
    lints_clean(sql.replace("at desc", "at"))  # mixed directions are the caller's (AM03)
    assert sql.startswith("select * except (rolling_group)\nfrom (\n")
    assert (
        "        select\n            *,\n            dense_rank() over (\n"
        "                partition by label\n                order by day, at desc\n"
        "            ) as rolling_group\n        from pytest.keys\n    ) as rolling_groups\n"
    ) in sql
    assert (
        "sum(amount) over (\n            partition by label\n            order by rolling_group\n"
        "            range between 2 preceding and current row\n        ) as amount_3d"
    ) in sql
    assert sql.endswith(") as rolling_grouped")
    linear = library.render(
        "{{ rolling_select('pytest.keys', {'amount_3d': 'sum(amount)'}, 'day', "
        "partition_by='label', frame='groups', preceding=2, method='linear') }}"
    )
    assert "range between unbounded preceding and 3 preceding" in linear


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (
            "rolling('sum(amount)', 'day', partition_by='label', frame='groups', preceding=2)",
            "rolling: argument `frame` must be 'rows' or 'range' (a GROUPS frame numbers the"
            " rows' peer groups first, which takes a query of its own: use rolling_select)."
            " Got: 'groups'",
        ),
        (
            "rolling_select('pytest.keys', {'a': 'sum(amount)'}, 'day', frame='groups', "
            "preceding='2 days')",
            "argument `preceding` must be an integer or 'unbounded' with frame='groups'"
            " (intervals need frame='range'). Got: '2 days'",
        ),
        (
            "rolling_select('pytest.keys', {'a': 'sum(amount)'}, 'day', frame='groups', "
            "preceding=1.5)",
            "argument `preceding` must be an integer with frame='groups' (a GROUPS frame"
            " counts peer groups). Got: 1.5",
        ),
        (
            "rolling_select('pytest.keys', {'a': 'sum(amount)'}, 'day', frame='group')",
            "rolling_select: argument `frame` must be 'rows', 'range' or 'groups'. Got: 'group'",
        ),
    ],
)
def test_groups_frames_are_rolling_selects_and_count_whole_groups(
    library: Library, call: str, words: str
) -> None:
    assert words in library.render_error("{{ " + call + " }}")


def test_a_microbatch_halo_is_not_taken_over_groups() -> None:
    """Inside a batch, only a RANGE frame over the event time has a halo."""
    library = Library()
    window = library.call(
        "_sqc_rolling_window", "rolling_select", "sum(amount)", "event_at", "user_id",
        "groups", 2, 0, None, "auto",
    )  # fmt: skip
    message = library.error("_sqc_batch_halo", _CutRelation(), window, "rolling_select")
    assert "it needs frame='range' with order_by='event_at'" in message, message


@pytest.mark.parametrize(
    ("preceding", "following"), [(300, 200), (-5, 500), (1000, 0), (300, -100)]
)
def test_block_extremes_read_as_written_by_hand(
    library: Library, lints_clean: Callable[[str], None], preceding: int, following: int
) -> None:
    """min and max over a wide ROWS frame take the block form, whichever side
    of the current row the frame ends: a multi-line WHEN condition starts on
    a line of its own."""
    sql = library.render(
        "{{ rolling_select('pytest.keys', {'hi': 'max(units)', 'lo': 'min(amount)'}, 'id', "
        f"partition_by='label', preceding={preceding}, following={following}) }}}}"
    )
    assert "rolling_block" in sql
    lints_clean(sql)


@pytest.mark.parametrize(
    ("arguments", "peers_split"),
    [
        ("'id', frame='range', preceding=2, following=1, exclude='current row'", True),
        ("'id', preceding=3, exclude='current row'", False),
        ("'id', frame='groups', preceding=1, exclude='ties'", False),
        ("'day', frame='range', preceding='unbounded', exclude='group'", False),
        (
            "[], frame='range', preceding='unbounded', following='unbounded',"
            " exclude='current row'",
            True,
        ),
    ],
)
def test_floating_sums_with_exclude_add_the_frame_s_parts(
    library: Library, lints_clean: Callable[[str], None], arguments: str, peers_split: bool
) -> None:
    """A double's sum and avg with `exclude` add Spark's sums of what the
    frame keeps (no subtraction, which would cancel digits): the sides of
    the row's peers, and for 'current row' over RANGE the peers before and
    after the row in the value's order."""
    sql = library.render(
        "{{ rolling_select('pytest.keys', {'s': 'sum(ratio)', 'a': 'avg(ratio)'}, "
        f"{arguments}, partition_by='label') }}}}"
    )
    lints_clean(sql)
    assert " - " not in sql
    assert "then rolling_1_kept_sum / rolling_1_kept_count" in sql
    assert ("order by ratio\n" in sql) == peers_split
    assert ("rows between unbounded preceding and 1 preceding" in sql) == peers_split


@pytest.mark.parametrize("aggregate", ["sum(v)", "count(*)", "count(distinct v)"])
@pytest.mark.parametrize("exclude", ["current row", "group", "ties"])
def test_frames_nested_deep_are_split_to_fit_the_line(
    lints_clean: Callable[[str], None], aggregate: str, exclude: str
) -> None:
    """`exclude` over a timestamp's RANGE nests the running totals three
    subqueries deep, where a whole-partition frame clause (56 characters)
    passes 80 columns: the finished statement splits it before its `and`."""
    library = Library(columns={"t": [("p", "string"), ("at", "timestamp"), ("v", "bigint")]})
    sql = library.render(
        f"{{{{ rolling_select('t', {{'r': '{aggregate}'}}, 'at', partition_by='p', "
        f"frame='range', preceding='7 days', exclude='{exclude}') }}}}"
    )
    assert max(len(line) for line in sql.split("\n")) <= 80, sql
    assert (
        "\n                            rows between unbounded preceding\n"
        "                            and unbounded following\n"
    ) in sql
    lints_clean(sql)


DEEP_AGGREGATES = [
    {"r": "sum(v)"},
    {"r": "avg(d)"},
    {"r": "count(distinct s)", "t": "sum(v)"},
    {"r": "max(b)", "t": "avg(d)"},
]


def _deep_frames_sql(aggregates: dict[str, str], exclude: str, preceding: str) -> str:
    library = Library(columns={"t": [
        ("p", "string"), ("at", "timestamp"), ("v", "int"), ("d", "decimal(10,2)"),
        ("b", "bigint"), ("s", "string"),
    ]})  # fmt: skip
    return library.render(
        f"{{{{ rolling_select('t', {aggregates!r}, 'at', partition_by='p', "
        f"frame='range', preceding='{preceding}', exclude='{exclude}') }}}}"
    )


@pytest.mark.parametrize("aggregates", DEEP_AGGREGATES)
@pytest.mark.parametrize("exclude", ["current row", "group", "ties"])
@pytest.mark.parametrize("preceding", ["7 days", "2 hours 30 minutes"])
def test_deepest_frames_over_intervals_fit_the_line(
    aggregates: dict[str, str], exclude: str, preceding: str
) -> None:
    """An int's sum is cast one subquery deeper than a bigint's, a distinct
    count beside sums nests them one more, and a frame over an interval is
    as long as its literals: the bound just before the frame's start (a
    microsecond less) is written in words, unquoted, and a frame clause
    still too long breaks after `between`, before `preceding` and after
    `and`, at one indent."""
    sql = _deep_frames_sql(aggregates, exclude, preceding)
    assert max(len(line) for line in sql.split("\n")) <= 80, sql
    assert f"interval {preceding} 1 microsecond" in sql


@pytest.mark.parametrize("aggregates", DEEP_AGGREGATES)
def test_deepest_frames_over_intervals_lint_clean(
    lints_clean: Callable[[str], None], aggregates: dict[str, str]
) -> None:
    """The deepest of those forms, broken at every place the fitting
    breaks a frame clause, pass sqlfluff's rules."""
    lints_clean(_deep_frames_sql(aggregates, "ties", "2 hours 30 minutes"))


@pytest.mark.parametrize(
    ("arguments", "predicate"),
    [
        ("'id', preceding=3, following=1, exclude='current row'", "e.row_id != rolling_row_id"),
        ("'id', frame='range', preceding=2, exclude='group'", "not e.peer <=> id"),
        (
            "'id', frame='range', preceding=2, exclude='ties'",
            "e.row_id = rolling_row_id or not e.peer <=> id",
        ),
        ("'id', frame='groups', preceding=1, exclude='group'", "e.peer != rolling_group"),
        (
            "[], frame='range', preceding='unbounded', following='unbounded', exclude='group'",
            "false",
        ),
    ],
)
def test_holistic_aggregates_with_exclude_filter_the_frame_s_values(
    library: Library, lints_clean: Callable[[str], None], arguments: str, predicate: str
) -> None:
    """median, percentile_disc and mode with `exclude` collect the frame's
    values beside their row's number and peer keys, and keep those the
    exclusion leaves (no order key: every row is a peer); counts in the
    same call take their own forms, and the columns come in the order
    given."""
    sql = library.render(
        "{{ rolling_select('pytest.keys', {'m': 'median(amount)', 's': 'count(*)', "
        "'d': 'percentile_disc(0.5) within group (order by amount)', 'mo': 'mode(label)', "
        f"'n': 'count(*)'}}, {arguments}) }}}}"
    )
    lints_clean(sql)
    assert f" e -> {predicate}\n" in sql
    assert "monotonically_increasing_id() as rolling_row_id" in sql
    aliases = ["m", "s", "d", "mo", "n"]
    listed = ",\n    ".join(aliases)
    assert sql.startswith(f"select\n    * except ({', '.join(aliases)}),\n    {listed}\nfrom (")
