"""The benchmark's families: each macro's SQL beside its alternatives, and
the generated data they run on.

A family id is a constant here; the catalog page imports CATALOG_FAMILIES,
so a renamed family cannot silently drop from it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tqdm import tqdm

from sqc.testing.dbt_harness import DbtProject

SCHEMA = "bench"
VALUE_COLUMNS = [f"c{i}" for i in range(12)]
PRODUCTS = [f"p{i}" for i in range(-11, 12)]
MACRO = "macro"  # alternatives whose name starts with this are the macros' SQL
GROUPS = 100_000  # customers, the groups of two aggregating views
# The aggregating views and their keys (UNION ALL repeats a view's
# aggregation once per column), then every unpivot source: the parquet table
# first, with its identifier columns.
AGGREGATING_VIEWS = {
    "customer_months": ["customer", "month"],
    "customer_totals": ["customer"],
    "wide_aggregated": ["id"],
}
UNPIVOT_SOURCES = {"wide": ["id", "customer", "day"], **AGGREGATING_VIEWS}
UNION_ALL = "UNION ALL (dbt_utils style)"
UNPIVOT_MACRO = "macro (UNPIVOT)"

PIVOT = "pivot (23 values, sum)"
SESSIONS_EVERY_EVENT = "sessions: events with a session (30 min)"
SESSIONS_ONE_ROW = "sessions: one row per session (30 min)"
ROLLING_FRAMES = {
    "ROWS 100 preceding": ("id", "preceding=100", "rows between 100 preceding and current row"),
    "RANGE 100 preceding": (
        "id", "frame='range', preceding=100", "range between 100 preceding and current row"
    ),
    "RANGE interval 1 day": (
        "sold_at",
        "frame='range', preceding='1 day'",
        "range between interval 1 day preceding and current row",
    ),
}  # fmt: skip


def unpivot_family(source: str) -> str:
    return f"unpivot over {source}"


def rolling_family(frame: str) -> str:
    return f"rolling: {frame}"


# The benchmark families that measure each catalog family's macro.
CATALOG_FAMILIES = {
    "pivot": [PIVOT],
    "unpivot": [unpivot_family(source) for source in UNPIVOT_SOURCES],
    "sessions": [SESSIONS_EVERY_EVENT, SESSIONS_ONE_ROW],
    "rolling": [rolling_family(frame) for frame in ROLLING_FRAMES],
}

Query = str | Callable[[Any], Any]


def prepare(dbt: DbtProject, rows: int) -> None:
    values = ", ".join(
        f"cast((id * {i + 7}) % 1000 as int) as {c}" for i, c in enumerate(VALUE_COLUMNS)
    )
    sums = ", ".join(f"cast(sum({c}) as int) as {c}" for c in VALUE_COLUMNS)
    statements = [
        f"drop table if exists {SCHEMA}.wide",
        # A fact table: a row id, a string business key (100,000 customers,
        # 100 rows each), a day of 2024 and 12 int measures.
        f"create table {SCHEMA}.wide using parquet as select id, "
        f"format_string('C%06d', id % {GROUPS}) as customer, "
        f"date'2024-01-01' + cast(id % 365 as int) as day, {values} from range(0, {rows})",
        # Aggregating views over it: by customer and month (about 1.2M groups
        # at 10M rows), then into the same 100,000 groups by the stored string
        # key and by an integer key computed in the view.
        f"create or replace view {SCHEMA}.customer_months as select customer, "
        f"trunc(day, 'MM') as month, {sums} from {SCHEMA}.wide group by customer, trunc(day, 'MM')",
        f"create or replace view {SCHEMA}.customer_totals as select customer, {sums} "
        f"from {SCHEMA}.wide group by customer",
        f"create or replace view {SCHEMA}.wide_aggregated as select id % {GROUPS} as id, {sums} "
        f"from {SCHEMA}.wide group by id % {GROUPS}",
        f"drop table if exists {SCHEMA}.events",
        # Users with bursts of events: gaps of 0 to 59 minutes, ~1/3 over 30.
        f"create table {SCHEMA}.events using parquet as select id as event_id, "
        "id % 5000 as user_id, timestamp'2024-01-01 00:00:00' + "
        "make_interval(0, 0, 0, 0, 0, cast(id div 5000 * 20 + (hash(id) % 20) as int), 0) "
        f"as event_at from range(0, {rows})",
        f"drop table if exists {SCHEMA}.sales",
        f"create table {SCHEMA}.sales using parquet as select id, id % 1000 as store_id, "
        "concat('p', cast(hash(id) % 12 as string)) as product, cast(id % 97 as int) as amount, "
        "timestamp'2024-01-01' + make_interval(0, 0, 0, 0, 0, 0, id % 5000000) as sold_at "
        f"from range(0, {rows})",
    ]
    for statement in tqdm(statements, desc="generating data", unit="statement"):
        dbt.sql(statement)


def _unpivot(dbt: DbtProject) -> dict[str, dict[str, Query]]:
    families: dict[str, dict[str, Query]] = {}
    for source, keys in UNPIVOT_SOURCES.items():
        src = f"{SCHEMA}.{source}"
        key_list = ", ".join(keys)
        union = " union all ".join(
            f"select {key_list}, '{c}' as name, {c} as value from {src} where {c} is not null"
            for c in VALUE_COLUMNS
        )
        stack = (
            f"select {key_list}, name, value from {src} lateral view "
            f"stack({len(VALUE_COLUMNS)}, "
            + ", ".join(f"'{c}', {c}" for c in VALUE_COLUMNS)
            + ") s as name, value where value is not null"
        )
        families[unpivot_family(source)] = {
            UNPIVOT_MACRO: dbt.compile_inline(f"{{{{ unpivot('{src}', exclude={keys}) }}}}"),
            "stack()": stack,
            UNION_ALL: union,
        }
    return families


def _pivot(dbt: DbtProject) -> dict[str, dict[str, Query]]:
    sales = f"{SCHEMA}.sales"
    case_when = (
        "select store_id, "
        + ", ".join(f"sum(case when product = '{p}' then amount end) as `{p}`" for p in PRODUCTS)
        + f" from {sales} group by store_id"
    )

    def dataframe_pivot(spark: Any) -> Any:
        return spark.table(sales).groupBy("store_id").pivot("product", PRODUCTS).sum("amount")

    return {
        PIVOT: {
            "macro (PIVOT)": dbt.compile_inline(
                f"{{{{ pivot('{sales}', 'product', 'sum(amount)', values={PRODUCTS!r}, "
                "group_by='store_id') }}"
            ),
            "CASE WHEN": case_when,
            "DataFrame pivot": dataframe_pivot,
        }
    }


def _sessions(dbt: DbtProject) -> dict[str, dict[str, Query]]:
    events = f"{SCHEMA}.events"
    # Written by hand from the articles, not by the macros: number the islands
    # (a new session when the previous event is more than 30 minutes back).
    islands = (
        "select event_id, user_id, event_at, sum(is_new) over (partition by user_id "
        "order by event_at rows between unbounded preceding and current row) as session_number "
        "from (select event_id, user_id, event_at, case when lag(event_at) over (partition by "
        "user_id order by event_at) >= event_at - interval 30 minutes then 0 else 1 end as is_new "
        f"from {events} where event_at is not null and user_id is not null) as flagged"
    )
    session_id = "md5(to_json(struct(user_id, session_start))) as session_id"
    return {
        SESSIONS_EVERY_EVENT: {
            "macro default (gaps and islands)": dbt.compile_inline(
                f"{{{{ sessionize('{events}', 'user_id', 'event_at', '30 minutes') }}}}"
            ),
            "macro, method=session_window": dbt.compile_inline(
                f"{{{{ sessionize('{events}', 'user_id', 'event_at', '30 minutes', "
                "method='session_window') }}"
            ),
            "gaps and islands (by hand)": (
                f"select event_id, user_id, event_at, {session_id}, session_start, session_end "
                "from (select *, min(event_at) over (partition by user_id, session_number) as "
                "session_start, max(event_at) over (partition by user_id, session_number) + "
                f"interval 30 minutes as session_end from ({islands}) as numbered) as bounded"
            ),
        },
        SESSIONS_ONE_ROW: {
            "macro default (gaps and islands)": dbt.compile_inline(
                f"{{{{ session_windows('{events}', 'user_id', 'event_at', '30 minutes', "
                "{'events': 'count(*)'}) }}"
            ),
            "session_window (by hand)": (
                f"select user_id, {session_id}, session_start, session_end, events from ("
                "select user_id, session_window.start as session_start, session_window.end "
                f"as session_end, count(*) as events from {events} "
                "where event_at is not null and user_id is not null "
                "group by user_id, session_window(event_at, '30 minutes')) as sessions"
            ),
            "gaps and islands (by hand)": (
                f"select user_id, {session_id}, session_start, session_end, events from ("
                "select user_id, min(event_at) as session_start, max(event_at) + "
                "interval 30 minutes as session_end, count(*) as events "
                f"from ({islands}) as numbered group by user_id, session_number) as sessions"
            ),
        },
    }


def _rolling(dbt: DbtProject) -> dict[str, dict[str, Query]]:
    sales = f"{SCHEMA}.sales"
    families: dict[str, dict[str, Query]] = {}
    for name, (order_by, arguments, frame) in ROLLING_FRAMES.items():
        window = dbt.compile_inline(
            f"{{{{ rolling('sum(amount)', '{order_by}', partition_by='store_id', {arguments}) }}}}"
        )
        families[rolling_family(name)] = {
            "macro (rolling)": f"select *, {window} as amount_sum from {sales}",
            "window by hand": f"select *, sum(amount) over (partition by store_id order by "
            f"{order_by} {frame}) as amount_sum from {sales}",
        }
    return families


FAMILIES = {"unpivot": _unpivot, "pivot": _pivot, "sessions": _sessions, "rolling": _rolling}

FAMILIES = {"unpivot": _unpivot, "pivot": _pivot, "sessions": _sessions, "rolling": _rolling}
