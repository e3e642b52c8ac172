"""The exact SQL the macros compile to when no data needs reading: native
Spark, laid out by hand. Rendered with dbt's Jinja, no Spark."""

from __future__ import annotations

from textwrap import dedent

import pytest

from sqc.testing.jinja import Library

TABLES = {
    "pytest.teams": [("name", "string"), ("country", "string"), ("points", "int")],
    "pytest.wide": [("id", "int"), ("2012", "int"), ("an.id", "bigint"), ("group", "string")],
    "pytest.events": [
        ("user_id", "string"), ("event_at", "timestamp"), ("gap", "string"), ("amount", "int"),
    ],
    "pytest.wide_events": [("group", "string"), ("event_at", "timestamp"), ("x", "int")],
    "pytest.sales": [
        ("id", "bigint"), ("store_id", "int"), ("amount", "int"), ("price", "decimal(10,2)"),
        ("sold_at", "timestamp"),
    ],
}  # fmt: skip


@pytest.fixture(scope="module")
def library() -> Library:
    return Library(columns=TABLES)


def sql(text: str) -> str:
    return dedent(text).strip()


def test_pivot_given_values_several_aggregates_no_group_by(library: Library) -> None:
    assert library.render(
        "{{ pivot('pytest.teams', 'name', {'total': 'sum(points)', 'rows': 'count(*)'}, "
        "values={'team1': 'first', none: 'unnamed'}) }}"
    ) == sql("""
        select *
        from pytest.teams
            pivot (
                sum(points) as total,
                count(*) as `rows`
                for name in (
                    'team1' as first,
                    null as unnamed
                )
            )
    """)


def test_pivot_with_no_row_keys_reads_only_the_pivot_and_value_columns(library: Library) -> None:
    """group_by=[]: one grand-total row, as Spark's PIVOT over a projection
    of only the pivot and the aggregated columns."""
    assert library.render(
        "{{ pivot('pytest.teams', 'name', 'sum(points)', values=['team1'], group_by=[]) }}"
    ) == sql("""
        select *
        from (
            select
                name,
                points
            from pytest.teams
        ) as pivot_source
            pivot (
                sum(points)
                for name in (
                    'team1' as team1
                )
            )
    """)


def test_unpivot_relabels_and_quotes(library: Library) -> None:
    assert library.render(
        "{{ unpivot('pytest.wide', columns={'twenty-twelve': '2012', 'an.id': 'an.id'}, "
        "name_column='label', value_column='amount') }}"
    ) == sql("""
        select *
        from (
            select
                id,
                cast(`2012` as bigint) as `2012`,
                `an.id`,
                `group`
            from pytest.wide
        ) as unpivot_source
            unpivot exclude nulls (
                amount for label in (
                    `2012` as `twenty-twelve`,
                    `an.id`
                )
            )
    """)


def test_unpivot_every_column_with_nulls(library: Library) -> None:
    assert library.render(
        "{{ unpivot('pytest.wide', exclude=['id', 'group'], include_nulls=true) }}"
    ) == sql("""
        select *
        from (
            select
                id,
                cast(`2012` as bigint) as `2012`,
                `an.id`,
                `group`
            from pytest.wide
        ) as unpivot_source
            unpivot include nulls (
                value for name in (
                    `2012`,
                    `an.id`
                )
            )
    """)


def test_unpivot_as_stack(library: Library) -> None:
    """The form of "Stack operation in Apache Spark SQL": labels and casts
    inline, the unpivoted columns left out with `* except`, all-NULL rows
    dropped as UNPIVOT drops them."""
    assert library.render(
        "{{ unpivot('pytest.wide', columns={'twenty-twelve': '2012', 'an.id': 'an.id'}, "
        "name_column='label', value_column='amount', method='stack') }}"
    ) == sql("""
        select
            stack_source.* except (`2012`, `an.id`),
            stacked.*
        from pytest.wide as stack_source
            lateral view stack(
                2,
                'twenty-twelve', cast(`2012` as bigint),
                'an.id', `an.id`
            ) stacked as label, amount
        where stacked.amount is not null
    """)


def test_multi_value_stack_keeps_a_row_with_one_value(library: Library) -> None:
    assert library.render(
        "{{ unpivot('quarters', columns={'q1': ['q1_units', 'q1_revenue'], 'q2': ['q2_units', "
        "'q2_revenue']}, name_column='quarter', value_column=['units', 'revenue'], "
        "remove=['notes'], include_nulls=false, method='stack') }}"
    ) == sql("""
        select
            stack_source.* except (q1_units, q1_revenue, q2_units, q2_revenue, notes),
            stacked.*
        from quarters as stack_source
            lateral view stack(
                2,
                'q1', q1_units, q1_revenue,
                'q2', q2_units, q2_revenue
            ) stacked as quarter, units, revenue
        where stacked.units is not null or stacked.revenue is not null
    """)


def test_sessionize_fixed_gap(library: Library) -> None:
    assert library.render(
        "{{ sessionize('pytest.events', 'user_id', 'event_at', '30  Minutes') }}"
    ) == sql("""
        with sessionize_flags as (
            select
                *,
                coalesce(
                    event_at > lag(event_at) over (
                        partition by user_id
                        order by event_at
                    ) + interval 30 minutes,
                    true
                ) as sessionize_is_new
            from pytest.events
            where event_at is not null
        ),

        sessionize_numbers as (
            select
                *,
                sum(cast(sessionize_is_new as int)) over (
                    partition by user_id
                    order by event_at
                    rows between unbounded preceding and current row
                ) as sessionize_number
            from sessionize_flags
        ),

        sessionize_bounds as (
            select
                *,
                min(event_at) over (
                    partition by user_id, sessionize_number
                ) as session_start,
                max(event_at) over (
                    partition by user_id, sessionize_number
                ) + interval 30 minutes as session_end
            from sessionize_numbers
        ),

        sessionize_ids as (
            select
                *,
                md5(to_json(struct(user_id, session_start))) as session_id
            from sessionize_bounds
        )

        select
            * except (
                sessionize_is_new,
                sessionize_number,
                session_id,
                session_start,
                session_end
            ),
            session_id,
            session_start,
            session_end
        from sessionize_ids
    """)


def test_sessionize_per_row_gap_natively(library: Library) -> None:
    assert library.render(
        "{{ sessionize('pytest.events', ['user_id'], 'event_at', 'gap', method='session_window') }}"
    ) == sql("""
        with sessionize_windows as (
            select
                session_window(event_at, gap) as sessionize_window,
                collect_list(struct(*)) as sessionize_rows
            from pytest.events
            group by user_id, session_window(event_at, gap)
        ),

        sessionize_rows as (
            select
                sessionize_row.*,
                sessionize_windows.sessionize_window.start as session_start,
                sessionize_windows.sessionize_window.end as session_end
            from sessionize_windows
                lateral view inline(sessionize_windows.sessionize_rows) sessionize_row
        ),

        sessionize_ids as (
            select
                *,
                md5(to_json(struct(user_id, session_start))) as session_id
            from sessionize_rows
        )

        select
            * except (
                session_id,
                session_start,
                session_end
            ),
            session_id,
            session_start,
            session_end
        from sessionize_ids
    """)


def test_session_windows_both_methods(library: Library) -> None:
    call = (
        "{{ session_windows('pytest.events', 'user_id', 'event_at', 'gap', "
        "{'total': 'sum(amount)'}, method='%s') }}"
    )
    assert library.render(call % "session_window") == sql("""
        select
            user_id,
            md5(
                to_json(struct(user_id, session_window.start as session_start))
            ) as session_id,
            session_window.start as session_start,
            session_window.end as session_end,
            sum(amount) as total
        from pytest.events
        group by user_id, session_window(event_at, gap)
    """)
    assert library.render(call % "gaps_and_islands") == sql("""
        with sessionize_events as (
            select
                *,
                event_at + cast(gap as interval) as sessionize_event_end
            from pytest.events
            where event_at is not null
        ),

        sessionize_flags as (
            select
                *,
                coalesce(
                    event_at > max(sessionize_event_end) over (
                        partition by user_id
                        order by event_at
                        rows between unbounded preceding and 1 preceding
                    ),
                    true
                ) as sessionize_is_new
            from sessionize_events
            where sessionize_event_end > event_at
        ),

        sessionize_numbers as (
            select
                *,
                sum(cast(sessionize_is_new as int)) over (
                    partition by user_id
                    order by event_at
                    rows between unbounded preceding and current row
                ) as sessionize_number
            from sessionize_flags
        )

        select
            user_id,
            md5(to_json(struct(user_id, min(event_at) as session_start))) as session_id,
            min(event_at) as session_start,
            max(sessionize_event_end) as session_end,
            sum(amount) as total
        from sessionize_numbers
        group by user_id, sessionize_number
    """)


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        (
            "rolling('sum(level)', 'id', partition_by='device', frame='range', preceding=1)",
            """
            sum(level) over (
                    partition by device
                    order by id
                    range between 1 preceding and current row
                )""",
        ),
        (
            "rolling('avg(x)', ['day desc', 'id nulls last'], partition_by=['a', 'b'], "
            "preceding=2, following='unbounded')",
            """
            avg(x) over (
                    partition by a, b
                    order by day desc, id nulls last
                    rows between 2 preceding and unbounded following
                )""",
        ),
        (
            "rolling('count(*)', 'event_at', partition_by='group', frame='range', "
            "preceding='7  Days', following='2 days', relation='pytest.wide_events', "
            "method='native')",
            """
            count(*) over (
                    partition by `group`
                    order by event_at
                    range between interval '7 days' preceding
                    and interval '2 days' following
                )""",
        ),
        (
            "rolling('sum(x)', 'day', partition_by='k', frame='range', "
            "preceding=\"interval '1-1' year to month\", "
            "following=\"interval '0-2' year to month\")",
            """
            sum(x) over (
                    partition by k
                    order by day
                    range between interval '1-1' year to month preceding
                    and interval '0-2' year to month following
                )""",
        ),
        (
            "rolling('sum(x)', 'price', partition_by='k', frame='range', preceding=1.1, "
            "following=-0.5)",
            """
            sum(x) over (
                    partition by k
                    order by price
                    range between 1.1 preceding and 0.5 preceding
                )""",
        ),
    ],
)
def test_rolling(library: Library, call: str, expected: str) -> None:
    assert library.render("{{ " + call + " }}") == sql(expected)


def test_rolling_linear_rows_sum(library: Library) -> None:
    """The running sum to the frame's end less the running sum to just before
    its start; NULL where the frame has no value, as Spark's sum."""
    assert library.render(
        "{{ rolling('sum(amount)', 'id', partition_by='store_id', preceding=99, "
        "relation='pytest.sales') }}"
    ) == sql("""
        case
                when
                    count(amount) over (
                        partition by store_id
                        order by id
                        rows between unbounded preceding and current row
                    ) - count(amount) over (
                        partition by store_id
                        order by id
                        rows between unbounded preceding and 100 preceding
                    ) > 0
                    then
                        sum(amount) over (
                            partition by store_id
                            order by id
                            rows between unbounded preceding and current row
                        ) - coalesce(sum(amount) over (
                            partition by store_id
                            order by id
                            rows between unbounded preceding and 100 preceding
                        ), 0)
            end
    """)


def test_rolling_linear_range_interval_decimal(library: Library) -> None:
    """A RANGE interval over a timestamp: just before the frame's start is a
    microsecond less; a NULL key's frame is its NULL peers; a decimal sum
    keeps Spark's decimal(p + 10, s)."""
    assert library.render(
        "{{ rolling('sum(price)', 'sold_at', partition_by='store_id', frame='range', "
        "preceding='1 day', relation='pytest.sales') }}"
    ) == sql("""
        case
                when sold_at is null
                    then sum(case when sold_at is null then price end) over (
                        partition by store_id
                        order by sold_at
                        rows between unbounded preceding and unbounded following
                    )
                when
                    count(price) over (
                        partition by store_id
                        order by sold_at
                        range between unbounded preceding and current row
                    ) - count(price) over (
                        partition by store_id
                        order by sold_at
                        range between unbounded preceding
                        and interval 1 day 1 microsecond preceding
                    ) > 0
                    then
                        cast(
                            sum(price) over (
                                partition by store_id
                                order by sold_at
                                range between unbounded preceding and current row
                            ) - coalesce(sum(price) over (
                                partition by store_id
                                order by sold_at
                                range between unbounded preceding
                                and interval 1 day 1 microsecond preceding
                            ), 0)
                            as decimal(20, 2)
                        )
            end
    """)
