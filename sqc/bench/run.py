"""Side-by-side timings of the macros' SQL and its alternatives, in one process.

    python -m sqc.bench [--rows 10000000] [--runs 6] [--families unpivot,pivot]
    python -m sqc.bench --report-only   # rewrite bench.md and bench.png from bench.json

Data is generated in Spark (`spark.range`), written as parquet tables in a
bench schema; each macro's SQL is compiled by dbt, so what is timed is exactly
what a model runs. Every query of a family is run once to warm up, then
`--runs` times in rotation: each run starts with the next alternative, so
with 6 runs (the default) each of a family's 2 or 3 alternatives comes first,
second (and third) equally often. Before each timed run the JVM's garbage is
collected and Spark's cleaner gets a moment, so that no query pays for the
one before; results are forced with the `noop` writer. Each family's
alternatives give the same result (checked over all rows before timing).
The report gives median, min and max per alternative, the ratio of each
median to the fastest of its family, the executors' CPU time (from Spark's
status store, per run: the work done, which scheduling and I/O waits on a
busy machine move much less than the wall-clock) and which alternatives have
the same physical plan (but for expression ids: their difference in time is
noise), and checks the targets on the wall-clock medians and on CPU time:

- every macro within 1.05x of the fastest alternative of its family;
- UNPIVOT over an aggregating view at least 5x faster than UNION ALL,
  checked for three views of the same table: `customer_months` groups by a
  stored string key and a month (about 1.2M groups), `customer_totals` by
  the string key alone and `wide_aggregated` by an integer key computed in
  the view (100,000 groups each). UNION ALL repeats the view's aggregation
  once per column; how much that costs depends on the aggregation.

Outputs: docs/bench/bench.json, bench.md (a markdown table) and bench.png.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from tqdm import tqdm

from sqc.dbt_harness import DbtProject, use_bench_environment

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = "bench"
OUTPUT = ROOT / "docs" / "bench"
VALUE_COLUMNS = [f"c{i}" for i in range(12)]
PRODUCTS = [f"p{i}" for i in range(-11, 12)]
MACRO = "macro"  # alternatives whose name starts with this are the macros' SQL
TOLERANCE = 1.05
UNPIVOT_TARGET = 5.0
GROUPS = 100_000  # customers, the groups of two aggregating views
SETTLE_SECONDS = 0.5  # pause before each timed run, after a JVM garbage collection
# The aggregating views and their keys (UNION ALL repeats a view's
# aggregation once per column), then every unpivot source: the parquet table
# first, with its identifier columns.
AGGREGATING_VIEWS = {
    "customer_months": ["customer", "month"],
    "customer_totals": ["customer"],
    "wide_aggregated": ["id"],
}
UNPIVOT_SOURCES = {"wide": ["id", "customer", "day"], **AGGREGATING_VIEWS}


@dataclass
class Timing:
    family: str
    name: str
    seconds: list[float] = field(default_factory=list)
    # Executor CPU time of each run (all its tasks, in seconds): the work
    # done, which the machine's scheduling and I/O waits move much less than
    # the wall-clock time.
    cpu_seconds: list[float] = field(default_factory=list)
    # The alternatives of the family whose physical plan is the same as this
    # one's (but for expression ids): a difference in time between them is noise.
    same_plan_as: list[str] = field(default_factory=list)

    @property
    def median(self) -> float:
        return statistics.median(self.seconds)

    @property
    def cpu_median(self) -> float:
        return statistics.median(self.cpu_seconds)


@dataclass
class Target:
    target: str
    met: bool  # on the wall-clock medians
    measured: str
    cpu_met: bool  # on the medians of the executors' CPU time
    cpu_measured: str


# A query: SQL text, or a function of the SparkSession giving a DataFrame.
Query = str | Callable[[Any], Any]


def _prepare(dbt: DbtProject, rows: int) -> None:
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
        families[f"unpivot over {source}"] = {
            "macro (UNPIVOT)": dbt.compile_inline(f"{{{{ unpivot('{src}', exclude={keys}) }}}}"),
            "stack()": stack,
            "UNION ALL (dbt_utils style)": union,
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
        "pivot (23 values, sum)": {
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
        "sessions: events with a session (30 min)": {
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
        "sessions: one row per session (30 min)": {
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
    frames = {
        "ROWS 100 preceding": (
            "id", "preceding=100", "rows between 100 preceding and current row"
        ),
        "RANGE 100 preceding": (
            "id", "frame='range', preceding=100", "range between 100 preceding and current row"
        ),
        "RANGE interval 1 day": (
            "sold_at",
            "frame='range', preceding='1 day'",
            "range between interval 1 day preceding and current row",
        ),
    }  # fmt: skip
    families: dict[str, dict[str, Query]] = {}
    for name, (order_by, arguments, frame) in frames.items():
        window = dbt.compile_inline(
            f"{{{{ rolling('sum(amount)', '{order_by}', partition_by='store_id', {arguments}) }}}}"
        )
        families[f"rolling: {name}"] = {
            "macro (rolling)": f"select *, {window} as amount_sum from {sales}",
            "window by hand": f"select *, sum(amount) over (partition by store_id order by "
            f"{order_by} {frame}) as amount_sum from {sales}",
        }
    return families


FAMILIES = {"unpivot": _unpivot, "pivot": _pivot, "sessions": _sessions, "rolling": _rolling}


def _frame(spark: Any, query: Query) -> Any:
    return spark.sql(query) if isinstance(query, str) else query(spark)


def _settle(spark: Any) -> None:
    """Collect the JVM's garbage and give Spark's cleaner (which deletes the
    shuffle files of collected queries) a moment, so that a timed query does
    not pay for the one before it."""
    spark.sparkContext._jvm.System.gc()
    time.sleep(SETTLE_SECONDS)


def _cpu_seconds(spark: Any, group: str) -> float:
    """Executor CPU time (seconds) of every stage attempt of the jobs run
    under a job group, from Spark's status store (the numbers of the Spark UI's
    stage pages). `listenerBus` and `statusStore` are Spark-internal
    (`private[spark]`, public to the JVM): read through py4j, as of Spark 4."""
    context = spark.sparkContext
    context._jsc.sc().listenerBus().waitUntilEmpty()  # the store is fed by the listener bus
    store = context._jsc.sc().statusStore()
    nanoseconds = 0
    for job in context.statusTracker().getJobIdsForGroup(group):
        stages = store.job(job).stageIds()
        for index in range(stages.length()):
            attempts = store.stageData(stages.apply(index), False, None, False, None)
            for attempt in range(attempts.length()):
                nanoseconds += attempts.apply(attempt).executorCpuTime()
    return nanoseconds / 1e9


def _plan(frame: Any) -> str:
    """A frame's physical plan as Spark prints it, without the expression and
    exchange ids that differ between two plannings of the same query."""
    plan = frame._jdf.queryExecution().executedPlan().toString()
    return re.sub(r"#\d+L?|\[plan_id=\d+\]", "", plan)


def _same_result(spark: Any, family: str, frames: dict[str, Any]) -> None:
    """The alternatives of a family give the same rows: a multiset checksum
    over the columns they all have (by name)."""
    common = [
        c
        for c in next(iter(frames.values())).columns
        if all(c in f.columns for f in frames.values())
    ]
    if len(common) < 2:
        raise AssertionError(f"{family}: the alternatives share no columns to compare")
    sums = {}
    for name, frame in frames.items():
        frame.select(*common).createOrReplaceTempView("bench_checksum")
        sums[name] = tuple(
            spark.sql(
                "select count(*), sum(cast(xxhash64(*) as decimal(38, 0))) from bench_checksum"
            ).collect()[0]
        )
    if len(set(sums.values())) != 1:
        raise AssertionError(f"{family}: different results over {common}: {sums}")


def run(rows: int, runs: int, families: list[str], output: Path) -> list[Timing]:
    dbt = DbtProject(ROOT, schema=SCHEMA)
    dbt.create_schema()
    _prepare(dbt, rows)
    spark = dbt.spark()
    queries: dict[str, dict[str, Query]] = {}
    for family in families:
        queries.update(FAMILIES[family](dbt))
    timings: list[Timing] = []
    steps = sum(len(q) for q in queries.values()) * (runs + 2)
    with tqdm(total=steps, desc="timing", unit="query") as progress:
        for family, alternatives in queries.items():
            progress.set_postfix_str(family)
            frames = {name: _frame(spark, query) for name, query in alternatives.items()}
            _same_result(spark, family, frames)
            progress.update(len(frames))
            for frame in frames.values():  # warm-up
                frame.write.format("noop").mode("overwrite").save()
                progress.update()
            plans = {name: _plan(frame) for name, frame in frames.items()}
            results = {
                name: Timing(
                    family, name, same_plan_as=[
                        other for other in frames if other != name and plans[other] == plans[name]
                    ]
                )
                for name in frames
            }  # fmt: skip
            names = list(frames)
            for run_number in range(runs):
                # Each run starts with the next alternative: none always comes
                # first (after the previous family) or last.
                shift = run_number % len(names)
                for name in names[shift:] + names[:shift]:
                    frame = frames[name]
                    group = f"bench {family}: {name} #{run_number}"
                    spark.sparkContext.setJobGroup(group, group)
                    _settle(spark)
                    start = time.perf_counter()
                    frame.write.format("noop").mode("overwrite").save()
                    results[name].seconds.append(time.perf_counter() - start)
                    results[name].cpu_seconds.append(_cpu_seconds(spark, group))
                    progress.update()
            timings.extend(results.values())
    Report(rows, runs, timings).write(output)
    dbt.drop_schema()
    return timings


@dataclass
class Report:
    rows: int
    runs: int
    timings: list[Timing]

    def families(self) -> dict[str, list[Timing]]:
        grouped: dict[str, list[Timing]] = {}
        for timing in self.timings:
            grouped.setdefault(timing.family, []).append(timing)
        return grouped

    def fastest(self, family: str) -> Timing:
        return min(self.families()[family], key=lambda t: t.median)

    def ratio(self, timing: Timing) -> float:
        return timing.median / self.fastest(timing.family).median

    def cpu_ratio(self, timing: Timing) -> float:
        """Executor CPU time against the least of the family (median to median)."""
        return timing.cpu_median / min(t.cpu_median for t in self.families()[timing.family])

    def targets(self) -> list[Target]:
        """Each target the issue sets, checked on the wall-clock medians and on
        the executors' CPU time."""
        checks = []
        for family, timings in self.families().items():
            for timing in timings:
                if timing.name.startswith(MACRO) and "method=" not in timing.name:
                    ratio, cpu_ratio = self.ratio(timing), self.cpu_ratio(timing)
                    measured = f"{ratio:.2f}x"
                    fastest = self.fastest(family)
                    if fastest is not timing and fastest.name in timing.same_plan_as:
                        measured += f" (the same physical plan as {fastest.name})"
                    checks.append(
                        Target(f"{family}: {timing.name} within {TOLERANCE}x of the fastest",
                               ratio <= TOLERANCE, measured,
                               cpu_ratio <= TOLERANCE, f"{cpu_ratio:.2f}x")
                    )  # fmt: skip
        for view in AGGREGATING_VIEWS:
            by_name = {t.name: t for t in self.families().get(f"unpivot over {view}", [])}
            if "UNION ALL (dbt_utils style)" in by_name and "macro (UNPIVOT)" in by_name:
                union_all = by_name["UNION ALL (dbt_utils style)"]
                macro = by_name["macro (UNPIVOT)"]
                speedup = union_all.median / macro.median
                cpu_speedup = union_all.cpu_median / macro.cpu_median
                checks.append(
                    Target(f"unpivot over the aggregating view {view} at least "
                           f"{UNPIVOT_TARGET}x faster than UNION ALL",
                           speedup >= UNPIVOT_TARGET, f"{speedup:.2f}x",
                           cpu_speedup >= UNPIVOT_TARGET, f"{cpu_speedup:.2f}x")
                )  # fmt: skip
        return checks

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Report:
        names = [f.name for f in fields(Timing)]
        timings = [Timing(**{k: v for k, v in t.items() if k in names}) for t in data["timings"]]
        return cls(data["rows"], data["runs"], timings)

    def write(self, output: Path) -> None:
        """bench.json, bench.md and bench.png in `output`."""
        output.mkdir(parents=True, exist_ok=True)
        (output / "bench.json").write_text(json.dumps(self.as_json(), indent=2))
        (output / "bench.md").write_text(self.markdown())
        self.chart(output / "bench.png")
        print(self.markdown())

    def as_json(self) -> dict[str, Any]:
        return {
            "rows": self.rows,
            "runs": self.runs,
            "timings": [
                {
                    **asdict(t),
                    "median": t.median,
                    "ratio_to_fastest": self.ratio(t),
                    "cpu_median": t.cpu_median,
                    "cpu_ratio_to_least": self.cpu_ratio(t),
                }
                for t in self.timings
            ],
            "targets": [asdict(target) for target in self.targets()],
        }

    def markdown(self) -> str:
        lines = [
            f"{self.rows:,} rows, median of {self.runs} runs after a warm-up, one Spark "
            "(`local[2]`), results forced with the `noop` writer. Median, min, max and "
            "ratio: wall-clock time. CPU time: the executors' CPU time of all the run's "
            "tasks (median), and its ratio to the least of the family. Same plan as: the "
            "alternatives whose physical plan is the same but for expression ids (their "
            "difference in time is noise).",
            "",
            "| family | alternative | median | min | max | ratio to fastest "
            "| CPU time | CPU ratio | same plan as |",
            "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
        ]
        for timing in self.timings:
            lines.append(
                f"| {timing.family} | {timing.name} | {timing.median:.2f} s | "
                f"{min(timing.seconds):.2f} s | {max(timing.seconds):.2f} s | "
                f"{self.ratio(timing):.2f}x | {timing.cpu_median:.2f} s | "
                f"{self.cpu_ratio(timing):.2f}x | {', '.join(timing.same_plan_as)} |"
            )
        lines += [
            "",
            "Targets, checked on the wall-clock medians and on the executors' CPU time:",
            "",
            "| target | met | measured | met on CPU time | measured on CPU time |",
            "| --- | --- | --- | --- | --- |",
        ]
        for t in self.targets():
            lines.append(
                f"| {t.target} | {'yes' if t.met else '**no**'} | {t.measured} | "
                f"{'yes' if t.cpu_met else '**no**'} | {t.cpu_measured} |"
            )
        return "\n".join(lines) + "\n"

    def chart(self, path: Path) -> None:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        families = self.families()
        figure, axes = plt.subplots(
            len(families), 1, figsize=(9, 1.1 + 0.55 * len(self.timings)), squeeze=False
        )
        for axis, (family, timings) in zip(axes[:, 0], families.items(), strict=True):
            names = [t.name for t in timings]
            medians = [t.median for t in timings]
            errors = [
                [t.median - min(t.seconds) for t in timings],
                [max(t.seconds) - t.median for t in timings],
            ]
            colours = ["#1f77b4" if n.startswith(MACRO) else "#aaaaaa" for n in names]
            axis.barh(names, medians, xerr=errors, color=colours, capsize=3)
            axis.plot([t.cpu_median for t in timings], range(len(timings)), "kD", markersize=4)
            axis.invert_yaxis()
            axis.set_title(family, fontsize=9, loc="left")
            axis.tick_params(labelsize=8)
            for index, timing in enumerate(timings):
                axis.text(
                    timing.median, index, f"  {timing.median:.2f} s ({self.ratio(timing):.2f}x)",
                    va="center", fontsize=7,
                )  # fmt: skip
        axes[-1, 0].set_xlabel(
            f"seconds, median of {self.runs} ({self.rows:,} rows); blue: macro; bars: "
            "wall-clock (min to max); diamonds: executor CPU time"
        )
        figure.tight_layout()
        figure.savefig(path, dpi=110)
        plt.close(figure)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--runs", type=int, default=6)
    parser.add_argument("--families", default=",".join(FAMILIES), help="comma-separated")
    parser.add_argument("--output", type=Path, default=OUTPUT)
    parser.add_argument(
        "--report-only",
        action="store_true",
        help="rewrite the report (markdown, chart) from OUTPUT/bench.json without running",
    )
    args = parser.parse_args()
    if args.report_only:
        data = json.loads((args.output / "bench.json").read_text())
        Report.from_json(data).write(args.output)
        return
    use_bench_environment(ROOT, ".state/bench")
    run(args.rows, args.runs, args.families.split(","), args.output)


if __name__ == "__main__":
    main()
