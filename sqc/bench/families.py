"""The benchmark's families: each macro's SQL beside its alternatives, and
the generated data they run on.

The catalog's families are the folders of models/ (sqc.paths); FAMILIES and
CATALOG_FAMILIES are keyed by them, and a unit test fails on a key that is
no folder, so a renamed family cannot silently drop from the benchmark or
the catalog page.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tqdm import tqdm

from sqc.paths import catalog_families
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
STACK_MACRO = "macro, method=stack"

PIVOT = "pivot (23 values, sum)"
SESSIONS_EVERY_EVENT = "sessions: events with a session (30 min)"
SESSIONS_ONE_ROW = "sessions: one row per session (30 min)"

# Rolling families: (table, order key, the macro's frame arguments, Spark's
# frame as written by hand, aggregates). `sales` has 1,000 stores of
# rows/1,000 rows each, one every few seconds: `sold_at` spreads a store's
# rows thinly (1 or 2 a day). `ticks` has 100 devices, a reading every
# 86.4 seconds each: 1,000 readings a day per device.
ROLLING_SUMS = {
    "amount_sum": "sum(amount)",
    "amount_count": "count(*)",
    "amount_avg": "avg(amount)",
}
ROLLING_EXTREMES = {"amount_min": "min(amount)", "amount_max": "max(amount)"}
# `sales`' amount as each input type (sales_statements): the int sum alone,
# beside the sum, count and avg above, is the like to compare the others with.
TYPED_AMOUNTS = {
    "int": "amount",
    "bigint": "amount_big",
    "decimal(18, 2)": "amount_dec",
    "double": "amount_double",
}
ROLLING_FAMILIES: dict[str, tuple[str, str, str, str, dict[str, str]]] = {
    **{
        f"rolling sum, count, avg: ROWS {width} preceding": (
            "sales", "id", f"preceding={width}",
            f"rows between {width} preceding and current row", ROLLING_SUMS,
        )
        for width in (10, 100, 1000)
    },
    # The type axis: a form that is slow for one input type cannot hide
    # behind the int sums above. `auto` keeps a double's sum native.
    **{
        f"rolling sum of {kind}: ROWS {width} preceding": (
            "sales", "id", f"preceding={width}",
            f"rows between {width} preceding and current row",
            {"amount_sum": f"sum({column})"},
        )
        for kind, column in TYPED_AMOUNTS.items()
        for width in (10, 100, 1000)
    },
    "rolling sum, count, avg: RANGE interval 1 day (1,000 rows a frame)": (
        "ticks", "at", "frame='range', preceding='1 day'",
        "range between interval 1 day preceding and current row", ROLLING_SUMS,
    ),
    "rolling sum: RANGE interval 1 day (1 or 2 rows a frame)": (
        "sales", "sold_at", "frame='range', preceding='1 day'",
        "range between interval 1 day preceding and current row", {"amount_sum": "sum(amount)"},
    ),
    "rolling sum: RANGE 100 preceding": (
        "sales", "id", "frame='range', preceding=100",
        "range between 100 preceding and current row", {"amount_sum": "sum(amount)"},
    ),
    **{
        f"rolling min, max: ROWS {width} preceding": (
            "sales", "id", f"preceding={width}",
            f"rows between {width} preceding and current row", ROLLING_EXTREMES,
        )
        for width in (100, 1000)
    },
    # count(distinct): Spark refuses it over a frame; by hand, its set.
    # `amount` has 97 values in a store, hash(id) % 10000 about as many as
    # the store has rows (nearly every row of a frame is new).
    **{
        f"rolling count(distinct), 97 values a store: ROWS {width} preceding": (
            "sales", "id", f"preceding={width}",
            f"rows between {width} preceding and current row",
            {"amount_kinds": "count(distinct amount)"},
        )
        for width in (10, 100, 1000)
    },
    "rolling count(distinct), 10,000 values: ROWS 1000 preceding": (
        "sales", "id", "preceding=1000",
        "rows between 1000 preceding and current row",
        {"id_kinds": "count(distinct hash(id) % 10000)"},
    ),
    # `visits`: 1,000 rows a store every 7 days.
    "rolling count(distinct), 97 values a store: RANGE interval 7 days (1,000 rows a frame)": (
        "visits", "visited_at", "frame='range', preceding='7 days'",
        "range between interval 7 days preceding and current row",
        {"amount_kinds": "count(distinct amount)"},
    ),
    "rolling count(distinct), 10,000 values: RANGE interval 7 days (1,000 rows a frame)": (
        "visits", "visited_at", "frame='range', preceding='7 days'",
        "range between interval 7 days preceding and current row",
        {"visitors": "count(distinct visitor)"},
    ),
}  # fmt: skip
# Spark 4.3's segment tree for moving frames (off by default): every frame
# of sum, count, avg, min and max is timed with it too. A partition smaller
# than minPartitionRows keeps the sliding frame: 1, so that it is used on
# every partition here.
SEGMENT_TREE_CONF = {
    "spark.sql.window.segmentTree.enabled": "true",
    "spark.sql.window.segmentTree.minPartitionRows": "1",
}
# How much faster the macro must be than the faster of Spark's two frames,
# sliding and segment tree (issue 23; issue 16 set 2.5x, 10x, 5x and 3x
# against the sliding frame alone); count(distinct) against
# size(collect_set(...)) over Spark's frame.
ROLLING_TARGETS = {
    "rolling sum, count, avg: ROWS 10 preceding": 1.0,
    "rolling sum, count, avg: ROWS 100 preceding": 2.0,
    "rolling sum, count, avg: ROWS 1000 preceding": 2.0,
    "rolling sum, count, avg: RANGE interval 1 day (1,000 rows a frame)": 2.0,
    **{
        f"rolling sum of {kind}: ROWS {width} preceding": target
        for kind in ("bigint", "decimal(18, 2)")
        for width, target in ((10, 1.0), (100, 2.0), (1000, 2.0))
    },
    "rolling min, max: ROWS 1000 preceding": 1.5,
    "rolling count(distinct), 97 values a store: ROWS 1000 preceding": 6.0,
    "rolling count(distinct), 10,000 values: ROWS 1000 preceding": 10.0,
    "rolling count(distinct), 97 values a store: RANGE interval 7 days (1,000 rows a frame)": 6.0,
    "rolling count(distinct), 10,000 values: RANGE interval 7 days (1,000 rows a frame)": 10.0,
}
# Approximate answers: an alternative's estimate is its own (HLL, HLL++ or
# KLL), so these columns are left out of the check that a family's
# alternatives give the same rows (sqc.bench.run); tests hold each to its
# error bound.
APPROXIMATE_COLUMNS = {"approx_visitors", "approx_median"}
APPROX_DISTINCT = "rolling approx_count_distinct, 10,000 values: ROWS 1000 preceding"
APPROX_MEDIAN = "rolling percentile_approx(x, 0.5, 100), 97 values a store: ROWS 1000 preceding"
ROLLING_TARGETS.update({APPROX_DISTINCT: 10.0, APPROX_MEDIAN: 10.0})
# Exact holistic aggregates (issue 47: 10x Spark's frame), against Spark's
# own spelling over its frame: percentile(x, 0.5), percentile(x, 0.95), and
# mode(x, true), whose ties go to the smallest value as the macro's do.
EXACT_MEDIAN = "rolling median(x), exact, 97 values a store: ROWS 1000 preceding"
EXACT_P95 = "rolling percentile_cont(0.95), exact, 97 values a store: ROWS 1000 preceding"
EXACT_MEDIAN_DECIMAL = (
    "rolling median(x), exact, decimal(18, 2), 97 values a store: ROWS 1000 preceding"
)
EXACT_MODE = "rolling mode(x), 97 values a store: ROWS 1000 preceding"
ROLLING_TARGETS.update(
    {EXACT_MEDIAN: 10.0, EXACT_P95: 10.0, EXACT_MEDIAN_DECIMAL: 10.0, EXACT_MODE: 10.0}
)
ROLLING_MACRO = "macro (rolling, auto)"
HLL_BLOCKS = "HLL sketches in block form (by hand)"
KLL_BLOCKS = "KLL sketches in block form (by hand; not deterministic)"
NATIVE_FRAME = "Spark's frame (by hand)"
SEGMENT_TREE = "Spark's frame, segment tree (by hand)"


# rolling_calendar: every app's every day, 7-day aggregates.
CALENDAR_KEYS = 10_000
CALENDAR_FAMILY = "every calendar day (rolling_calendar): 10,000 apps x 2024, 7 days"
CALENDAR_AGGREGATES = {
    "events_7d": "count(*)",
    "amount_7d": "sum(amount)",
    "users_7d": "count(distinct user_id)",
}
CALENDAR_DENSE = "the same window over a table that holds those rows"
# rolling_select's exclude: a leave-one-out frame beside the same frame.
EXCLUDE_FAMILY = "exclude current row (rolling_select): sum, count, avg over ROWS 1000 preceding"
WITHOUT_EXCLUDE = "the same frame without exclude (rolling_select)"
EXCLUDE_DISTINCT_FAMILY = (
    "exclude current row (rolling_select): count(distinct product) over ROWS 1000 preceding"
)
# How far a macro may be from its family's fastest alternative, where that
# is not 1.05x: rolling_calendar builds the rows the other alternative reads
# stored (issue 47: within 1.2x).
# GROUPS frames: over a unique order key a GROUPS frame is the ROWS frame of
# the same offsets, the same rows by another road (the groups numbered first).
GROUPS_FAMILY = "GROUPS 1000 preceding (rolling_select): sum, count, avg over a unique key"
AS_ROWS = "the same offsets as a ROWS frame (rolling_select)"
DUCKDB = "DuckDB, the same window (a yardstick: one machine, 2 threads)"
# A distinct count's exclusion numbers the rows and counts the row's value
# in its frame, two windows of their own (no target in issue 47).
MACRO_TOLERANCES = {
    CALENDAR_FAMILY: 1.2, EXCLUDE_FAMILY: 1.1, EXCLUDE_DISTINCT_FAMILY: 1.5, GROUPS_FAMILY: 1.1,
}  # fmt: skip


def unpivot_family(source: str) -> str:
    return f"unpivot over {source}"


# The benchmark families that measure each catalog family's macro.
CATALOG_FAMILIES = {
    "pivot": [PIVOT],
    "unpivot": [unpivot_family(source) for source in UNPIVOT_SOURCES],
    "sessions": [SESSIONS_EVERY_EVENT, SESSIONS_ONE_ROW],
    "rolling": [
        *ROLLING_FAMILIES,
        CALENDAR_FAMILY,
        EXCLUDE_FAMILY,
        EXCLUDE_DISTINCT_FAMILY,
        GROUPS_FAMILY,
        EXACT_MEDIAN,
        EXACT_MODE,
    ],
}


@dataclass(frozen=True)
class Configured:
    """SQL to run with Spark settings of its own, set around each of its runs."""

    sql: str
    conf: dict[str, str]


# A query: SQL text, SQL with settings, or a function of the SparkSession
# giving a DataFrame.
@dataclass(frozen=True)
class DuckDB:
    """The same window in DuckDB, over the parquet files of the bench's
    tables (each a DuckDB view of the table's name): a single-machine
    engine's time on the same data, a yardstick for scale, never a family's
    fastest nor checked for the same rows (its types and NULL order are its own;
    the tests compare its windows with the macros' row for row)."""

    sql: str


Query = str | Configured | DuckDB | Callable[[Any], Any]


def sales_statements(rows: int) -> list[str]:
    """`sales`: 1,000 stores of rows/1,000 rows each, an int `amount` of 97
    values (and as a bigint, a decimal(18, 2) and a double), a product of 23
    and a `sold_at` a few seconds apart."""
    return [
        f"drop table if exists {SCHEMA}.sales",
        f"create table {SCHEMA}.sales using parquet as select id, id % 1000 as store_id, "
        "concat('p', cast(hash(id) % 12 as string)) as product, cast(id % 97 as int) as amount, "
        "cast(id % 97 as bigint) * 1000003 as amount_big, "
        "cast(id % 97 / 4 as decimal(18, 2)) as amount_dec, "
        "cast(id % 97 / 4 as double) as amount_double, "
        "timestamp'2024-01-01' + make_interval(0, 0, 0, 0, 0, 0, id % 5000000) as sold_at "
        f"from range(0, {rows})",
    ]


def calendar_statements(rows: int) -> list[str]:
    """`calendar_events`: 10,000 apps with events on random days of 2024 (a
    day has none about a third of the time at 4M rows), and
    `calendar_dense`, the same events with one more row per app per day from
    its first day to its last: the rows rolling_calendar adds, stored, as a
    table that already holds them."""
    day = "datediff(cast(event_at as date), date'1970-01-01')"
    return [
        f"drop table if exists {SCHEMA}.calendar_events",
        f"create table {SCHEMA}.calendar_events using parquet as "
        f"select id % {CALENDAR_KEYS} as app_id, "
        "cast(pmod(hash(id, 1), 500) as int) as user_id, cast(id % 97 as int) as amount, "
        "timestamp'2024-01-01' + make_interval(0, 0, 0, cast(pmod(hash(id, 2), 366) as int), 0, 0, "
        f"pmod(hash(id, 3), 86400)) as event_at from range(0, {rows})",
        f"drop table if exists {SCHEMA}.calendar_dense",
        f"create table {SCHEMA}.calendar_dense using parquet as "
        f"select app_id, {day} as calendar_step, true as calendar_event, user_id, amount, event_at "
        f"from {SCHEMA}.calendar_events union all "
        "select app_id, explode(sequence(first_step, last_step)), null, null, null, null from ("
        f"select app_id, min({day}) as first_step, max({day}) as last_step "
        f"from {SCHEMA}.calendar_events group by app_id)",
    ]


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
        *sales_statements(rows),
        f"drop table if exists {SCHEMA}.visits",
        f"create table {SCHEMA}.visits using parquet as select id, id % 1000 as store_id, "
        "cast(id % 97 as int) as amount, cast(hash(id) % 10000 as int) as visitor, "
        "timestamp'2024-01-01' + make_interval(0, 0, 0, 0, 0, 0, "
        "cast(id div 1000 * 604.8 as decimal(18, 6))) as visited_at "
        f"from range(0, {rows})",
        *calendar_statements(rows),
        f"drop table if exists {SCHEMA}.ticks",
        f"create table {SCHEMA}.ticks using parquet as select id, id % 100 as device, "
        "cast(hash(id) % 1000 as int) as amount, timestamp'2024-01-01' + "
        "make_interval(0, 0, 0, 0, 0, 0, cast(id div 100 * 86.4 as decimal(18, 6))) as at "
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
            STACK_MACRO: dbt.compile_inline(
                f"{{{{ unpivot('{src}', exclude={keys}, method='stack') }}}}"
            ),
            "stack() (by hand)": stack,
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
    families: dict[str, dict[str, Query]] = {}
    for family, (table, order_by, arguments, frame, aggregates) in ROLLING_FAMILIES.items():
        relation = f"{SCHEMA}.{table}"
        partition = "device" if table == "ticks" else "store_id"
        window = f"'{order_by}', partition_by='{partition}', {arguments}"
        distinct = any(a.startswith("count(distinct ") for a in aggregates.values())
        if set(aggregates) == set(ROLLING_EXTREMES) or distinct:
            macro = dbt.compile_inline(
                f"{{{{ rolling_select('{relation}', {aggregates!r}, {window}) }}}}"
            )
        else:
            columns = ", ".join(
                f"{{{{ rolling('{aggregate}', {window}, relation='{relation}') }}}} as {alias}"
                for alias, aggregate in aggregates.items()
            )
            macro = dbt.compile_inline(f"select *, {columns} from {relation}")
        by_hand = ", ".join(
            f"{native_frame_sql(aggregate, partition, order_by, frame)} as {alias}"
            for alias, aggregate in aggregates.items()
        )
        families[family] = {
            ROLLING_MACRO: macro,
            NATIVE_FRAME: f"select *, {by_hand} from {relation}",
        }
        if not distinct:  # the segment tree takes no DISTINCT and no set
            families[family][SEGMENT_TREE] = Configured(
                f"select *, {by_hand} from {relation}", SEGMENT_TREE_CONF
            )
    families.update(_approximate(dbt))
    families.update(_holistic(dbt))
    families[CALENDAR_FAMILY] = _calendar(dbt)
    window = "'id', partition_by='store_id', preceding=1000, following=0"
    relation = f"{SCHEMA}.sales"
    products = {"products": "count(distinct product)"}
    frame = "partition by store_id order by id {} between 1000 preceding and current row"
    for family, aggregates in [(EXCLUDE_FAMILY, ROLLING_SUMS), (EXCLUDE_DISTINCT_FAMILY, products)]:
        without = {f"{alias}_whole": sql for alias, sql in aggregates.items()}
        families[family] = {
            ROLLING_MACRO: dbt.compile_inline(
                f"{{{{ rolling_select('{relation}', {aggregates!r}, {window}, "
                "exclude='current row') }}"
            ),
            # Other values under other names: the rows are compared by the
            # columns both have (the tests compare the values with DuckDB's).
            WITHOUT_EXCLUDE: dbt.compile_inline(
                f"{{{{ rolling_select('{relation}', {without!r}, {window}) }}}}"
            ),
        }
    families[GROUPS_FAMILY] = {
        ROLLING_MACRO: dbt.compile_inline(
            f"{{{{ rolling_select('{relation}', {ROLLING_SUMS!r}, {window}, frame='groups') }}}}"
        ),
        AS_ROWS: dbt.compile_inline(
            f"{{{{ rolling_select('{relation}', {ROLLING_SUMS!r}, {window}) }}}}"
        ),
        DUCKDB: _duckdb_window(ROLLING_SUMS, frame.format("groups")),
    }
    # DuckDB's count(distinct) with EXCLUDE took over 3 minutes a run here
    # (docs/measurements.md): a yardstick for the sums alone.
    families[EXCLUDE_FAMILY][DUCKDB] = _duckdb_window(
        ROLLING_SUMS, frame.format("rows") + " exclude current row"
    )
    return families


def _duckdb_window(aggregates: dict[str, str], window: str) -> DuckDB:
    """`sales` with each aggregate over `window`, in DuckDB."""
    columns = ", ".join(f"{sql} over w as {alias}" for alias, sql in aggregates.items())
    return DuckDB(f"select *, {columns} from sales window w as ({window})")


def _calendar(dbt: DbtProject) -> dict[str, Query]:
    """The macro against the same window over `calendar_dense` (the rows it
    adds, stored), each in the form `auto` takes for 7 steps."""
    window = "partition_by='app_id', preceding=6"
    macro = dbt.compile_inline(
        f"{{{{ rolling_calendar('{SCHEMA}.calendar_events', {CALENDAR_AGGREGATES!r}, "
        f"'event_at', {window}) }}}}"
    )
    dense = {**CALENDAR_AGGREGATES, "events_7d": "count(calendar_event)"}
    rolled = dbt.compile_inline(
        f"{{{{ rolling_select('{SCHEMA}.calendar_dense', {dense!r}, 'calendar_step', "
        "frame='range', "
        f"{window}, method='native') }}}}"
    )
    columns = ", ".join(CALENDAR_AGGREGATES)
    return {
        ROLLING_MACRO: macro,
        CALENDAR_DENSE: "select app_id, date_add(date'1970-01-01', calendar_step) as date_day, "
        f"{columns} "
        f"from ({rolled}) as rolled where calendar_event is null",
        DUCKDB: DuckDB(CALENDAR_DUCKDB),
    }


# The same days in DuckDB: each app's events and one row a day from its
# first day to its last, the 7-day window over them, kept on the day rows.
CALENDAR_DUCKDB = """
with stepped as (
    select app_id, user_id, amount,
        cast(date_diff('day', date '1970-01-01', cast(event_at as date)) as int) as calendar_step
    from calendar_events
),
days as (
    select app_id, calendar_step, true as calendar_event, user_id, amount from stepped
    union all
    select app_id, cast(unnest(range(min(calendar_step), max(calendar_step) + 1)) as int),
        null, null, null
    from stepped group by app_id
)
select app_id, date '1970-01-01' + calendar_step as date_day,
    count(calendar_event) over w as events_7d, sum(amount) over w as amount_7d,
    count(distinct user_id) over w as users_7d
from days
window w as (partition by app_id order by calendar_step range between 6 preceding and current row)
qualify calendar_event is null"""


def _approximate(dbt: DbtProject) -> dict[str, dict[str, Query]]:
    """Approximate distinct counts and medians over 1,000-row frames: the
    macro (the exact linear count for approx_count_distinct; Spark's frame
    for the median) beside Spark's frame, and mergeable sketches in the
    block form of min and max, written by hand: HLL for the distinct count,
    KLL for the median (not deterministic: Spark's KLL compacts at random)."""
    relation = f"{SCHEMA}.sales"
    over = "over (partition by store_id order by id rows between 999 preceding and current row)"
    visitors = "hash(id) % 10000"

    def macro(alias: str, aggregate: str) -> str:
        return dbt.compile_inline(
            f"{{{{ rolling_select('{relation}', {{'{alias}': '{aggregate}'}}, 'id', "
            "partition_by='store_id', preceding=999) }}"
        )

    def by_hand(alias: str, aggregate: str) -> str:
        return f"select *, {aggregate} {over} as {alias} from {relation}"

    return {
        APPROX_DISTINCT: {
            ROLLING_MACRO: macro("approx_visitors", f"approx_count_distinct({visitors})"),
            NATIVE_FRAME: by_hand("approx_visitors", f"approx_count_distinct({visitors})"),
            HLL_BLOCKS: _block_sketches(
                relation, f"hll_sketch_agg({visitors}, 9)", "hll_union", "hll_sketch_estimate({})",
                "approx_visitors",
            ),
        },
        APPROX_MEDIAN: {
            ROLLING_MACRO: macro("approx_median", "percentile_approx(amount, 0.5, 100)"),
            NATIVE_FRAME: by_hand("approx_median", "percentile_approx(amount, 0.5, 100)"),
            KLL_BLOCKS: _block_sketches(
                relation, "kll_sketch_agg_bigint(amount)", "kll_sketch_merge_bigint",
                "cast(kll_sketch_get_quantile_bigint({}, 0.5) as int)", "approx_median",
            ),
        },
    }  # fmt: skip


def _holistic(dbt: DbtProject) -> dict[str, dict[str, Query]]:
    """Exact median (of ints, and of decimals), 95th percentile and mode over
    1,000-row frames: the macro, Spark's own aggregate over its frame, and
    DuckDB's window."""
    relation = f"{SCHEMA}.sales"
    frame = "rows between 999 preceding and current row"
    families: dict[str, dict[str, Query]] = {}
    for family, alias, aggregate, sparks, duckdbs in [
        (EXACT_MEDIAN, "amount_median", "median(amount)", "percentile(amount, 0.5)",
         "median(amount)"),
        (EXACT_P95, "amount_p95", "percentile_cont(0.95) within group (order by amount)",
         "percentile(amount, 0.95)", "quantile_cont(amount, 0.95)"),
        (EXACT_MEDIAN_DECIMAL, "amount_median", "median(amount_dec)",
         "percentile(amount_dec, 0.5)", "median(amount_dec)"),
        (EXACT_MODE, "amount_mode", "mode(amount)", "mode(amount, true)", "mode(amount)"),
    ]:  # fmt: skip
        macro = dbt.compile_inline(
            f"{{{{ rolling_select('{relation}', {{'{alias}': '{aggregate}'}}, 'id', "
            "partition_by='store_id', preceding=999) }}"
        )
        families[family] = {
            ROLLING_MACRO: macro,
            NATIVE_FRAME: (
                f"select *, {native_frame_sql(sparks, 'store_id', 'id', frame)} as {alias} "
                f"from {relation}"
            ),
            DUCKDB: _duckdb_window({alias: duckdbs}, f"partition by store_id order by id {frame}"),
        }
    return families


def _block_sketches(relation: str, sketch: str, merge: str, estimate: str, alias: str) -> str:
    """A sketch over 1,000-row frames in the block form of min and max: a
    running sketch to the end of each block (taken first: the lookup after
    the second running window then sorts no rows that carry a sketch), from
    its start, and one merge a row. Frames are whole from a store's 1,000th
    row on; before it, the sketch from the store's first row."""
    block = "partition by store_id, rolling_block"
    at_start = "lag(to_end, 999) over (partition by store_id order by rolling_block, rolling_row)"
    return f"""
with numbered as (
    select *, row_number() over (partition by store_id order by id) as rolling_row
    from {relation}
),
blocks as (
    select *, (rolling_row - 1) div 1000 as rolling_block from numbered
),
ends as (
    select *, {sketch} over ({block} order by rolling_row desc
        rows between unbounded preceding and current row) as to_end
    from blocks
),
starts as (
    select *, {sketch} over ({block} order by rolling_row
        rows between unbounded preceding and current row) as from_start
    from ends
)
select * except (rolling_block, rolling_row, to_end, from_start),
    {estimate.format(f"coalesce({merge}({at_start}, from_start), from_start)")} as {alias}
from starts"""


def native_frame_sql(aggregate: str, partition: str, order_by: str, frame: str) -> str:
    """The aggregate over Spark's frame; count(distinct x) as the size of its
    set (a bigint, as count is, so that the results' checksums compare)."""
    over = f"over (partition by {partition} order by {order_by} {frame})"
    if aggregate.startswith("count(distinct "):
        value = aggregate.removeprefix("count(distinct ")[:-1]
        return f"cast(size(collect_set({value}) {over}) as bigint)"
    return f"{aggregate} {over}"


FAMILIES = {"unpivot": _unpivot, "pivot": _pivot, "sessions": _sessions, "rolling": _rolling}


def benchmarked_families() -> list[str]:
    """The catalog families (folders of models/) that have a benchmark."""
    return [family for family in catalog_families() if family in FAMILIES]
