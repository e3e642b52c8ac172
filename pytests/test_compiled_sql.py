"""The exact SQL each macro compiles to: native Spark, laid out by hand."""

from __future__ import annotations

from textwrap import dedent

import pytest

from sqc.dbt_harness import DbtProject


@pytest.fixture(scope="module")
def dbt(project: DbtProject) -> DbtProject:
    project.sql(
        f"create table {project.table('teams')} using parquet as select * from values "
        "('team1', 'France', 3), ('team2', 'Poland', 4), (null, 'Poland', 1), "
        "('it''s', 'France', 2) as t(name, country, points)"
    )
    project.sql(
        f"create table {project.table('wide')} using parquet as select * from values "
        "(1, 10, cast(20 as bigint), 'x') as t(id, `2012`, `an.id`, `group`)"
    )
    project.sql(
        f"create table {project.table('events')} using parquet as select * from values "
        "('u1', timestamp'2024-01-01 00:00:00', '5 minutes', 1) "
        "as t(user_id, event_at, gap, amount)"
    )
    return project


def sql(text: str) -> str:
    return dedent(text).strip()


def test_pivot_discovered_values(dbt: DbtProject) -> None:
    t = dbt.table("teams")
    assert dbt.compile_inline(
        f"{{{{ pivot('{t}', 'name', 'sum(points)', group_by='country') }}}}"
    ) == sql(f"""
        select *
        from (
            select
                country,
                name,
                points
            from {t}
        ) as pivot_source
            pivot (
                sum(points)
                for name in (
                    null as `null`,
                    'it\\'s' as `it's`,
                    'team1' as team1,
                    'team2' as team2
                )
            )
    """)


def test_pivot_given_values_several_aggregates_no_group_by(dbt: DbtProject) -> None:
    t = dbt.table("teams")
    assert dbt.compile_inline(
        f"{{{{ pivot('{t}', 'name', {{'total': 'sum(points)', 'rows': 'count(*)'}}, "
        "values={'team1': 'first', none: 'unnamed'}) }}"
    ) == sql(f"""
        select *
        from {t}
            pivot (
                sum(points) as total,
                count(*) as `rows`
                for name in (
                    'team1' as first,
                    null as unnamed
                )
            )
    """)


def test_unpivot_relabels_and_quotes(dbt: DbtProject) -> None:
    t = dbt.table("wide")
    assert dbt.compile_inline(
        f"{{{{ unpivot('{t}', columns={{'twenty-twelve': '2012', 'an.id': 'an.id'}}, "
        "name_column='label', value_column='amount') }}"
    ) == sql(f"""
        select *
        from (
            select
                id,
                cast(`2012` as bigint) as `2012`,
                `an.id`,
                `group`
            from {t}
        ) as unpivot_source
            unpivot exclude nulls (
                amount for label in (
                    `2012` as `twenty-twelve`,
                    `an.id`
                )
            )
    """)


def test_unpivot_every_column_with_nulls(dbt: DbtProject) -> None:
    t = dbt.table("wide")
    assert dbt.compile_inline(
        f"{{{{ unpivot('{t}', exclude=['id', 'group'], include_nulls=true) }}}}"
    ) == sql(f"""
        select *
        from (
            select
                id,
                cast(`2012` as bigint) as `2012`,
                `an.id`,
                `group`
            from {t}
        ) as unpivot_source
            unpivot include nulls (
                value for name in (
                    `2012`,
                    `an.id`
                )
            )
    """)


def test_sessionize_fixed_gap(dbt: DbtProject) -> None:
    t = dbt.table("events")
    assert dbt.compile_inline(
        f"{{{{ sessionize('{t}', 'user_id', 'event_at', '30  Minutes') }}}}"
    ) == sql(f"""
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
            from {t}
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
        )

        select
            * except (sessionize_is_new, sessionize_number, session_start, session_end),
            md5(to_json(struct(user_id, session_start))) as session_id,
            session_start,
            session_end
        from sessionize_bounds
    """)


def test_sessionize_per_row_gap_natively(dbt: DbtProject) -> None:
    t = dbt.table("events")
    assert dbt.compile_inline(
        f"{{{{ sessionize('{t}', ['user_id'], 'event_at', 'gap', method='session_window') }}}}"
    ) == sql(f"""
        with sessionize_windows as (
            select
                session_window(event_at, gap) as sessionize_window,
                collect_list(struct(*)) as sessionize_rows
            from {t}
            group by user_id, session_window(event_at, gap)
        ),

        sessionize_rows as (
            select
                inline(sessionize_rows),
                sessionize_window.start as session_start,
                sessionize_window.end as session_end
            from sessionize_windows
        )

        select
            * except (session_start, session_end),
            md5(to_json(struct(user_id, session_start))) as session_id,
            session_start,
            session_end
        from sessionize_rows
    """)


def test_session_windows_both_methods(dbt: DbtProject) -> None:
    t = dbt.table("events")
    call = (
        f"{{{{ session_windows('{t}', 'user_id', 'event_at', 'gap', "
        "{'total': 'sum(amount)'}, method='%s') }}"
    )
    assert dbt.compile_inline(call % "session_window") == sql(f"""
        select
            user_id,
            md5(to_json(struct(user_id, session_window.start as session_start))) as session_id,
            session_window.start as session_start,
            session_window.end as session_end,
            sum(amount) as total
        from {t}
        group by user_id, session_window(event_at, gap)
    """)
    assert dbt.compile_inline(call % "gaps_and_islands") == sql(f"""
        with sessionize_events as (
            select
                *,
                event_at + cast(gap as interval) as sessionize_event_end
            from {t}
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
            "preceding=2, following='unbounded', indent=0)",
            """
            avg(x) over (
                partition by a, b
                order by day desc, id nulls last
                rows between 2 preceding and unbounded following
            )""",
        ),
        (
            "rolling('count(*)', 'event_at', partition_by='group', frame='range', "
            "preceding='7  Days', following='1 hour', relation='{w}', indent=0)",
            """
            count(*) over (
                partition by `group`
                order by event_at
                range between interval '7 days' preceding and interval '1 hour' following
            )""",
        ),
    ],
)
def test_rolling(dbt: DbtProject, call: str, expected: str) -> None:
    compiled = dbt.compile_inline("{{ " + call.replace("{w}", dbt.table("wide_events")) + " }}")
    assert compiled == sql(expected)


@pytest.fixture(scope="module", autouse=True)
def _wide_events(dbt: DbtProject) -> None:
    dbt.sql(
        f"create table {dbt.table('wide_events')} using parquet as select * from values "
        "('g', timestamp'2024-01-01 00:00:00', 1) as t(`group`, event_at, x)"
    )
