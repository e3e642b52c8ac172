"""Side-by-side timings of the macros' SQL and its alternatives, in one process.

    python -m sqc.bench [--rows 10000000] [--runs 6] [--families unpivot,pivot] [--keep]
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

A family may have a DuckDB line: the same window in DuckDB (2 threads, as
Spark has 2 cores) over the parquet files of the same tables, timed the
same way (its CPU time is this process's), a yardstick for scale that is
never a family's fastest and is not checked for the same rows.

Outputs: docs/bench/bench.json, bench.md (a markdown table) and bench.png.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tqdm import tqdm

from sqc.bench.families import (
    APPROXIMATE_COLUMNS,
    CATALOG_FAMILIES,
    FAMILIES,
    ROLLING_TARGETS,
    SCHEMA,
    Configured,
    DuckDB,
    Query,
    benchmarked_families,
    prepare,
)
from sqc.bench.report import Report, Timing
from sqc.paths import ROOT
from sqc.testing.dbt_harness import DbtProject, use_bench_environment

OUTPUT = ROOT / "docs" / "bench"
SETTLE_SECONDS = 0.5  # pause before each timed run, after a JVM garbage collection


def _frame(spark: Any, query: Query) -> Any:
    if isinstance(query, Configured):
        return spark.sql(query.sql)
    return spark.sql(query) if isinstance(query, str) else query(spark)


@contextlib.contextmanager
def _settings(spark: Any, query: Query) -> Iterator[None]:
    """A Configured query's Spark settings, while it is planned and run."""
    conf = query.conf if isinstance(query, Configured) else {}
    for key, value in conf.items():
        spark.conf.set(key, value)
    try:
        yield
    finally:
        for key in conf:
            spark.conf.unset(key)


def _settings_text(query: Query) -> str:
    """A Configured query's settings as text: Spark's plan does not show them
    (its segment tree prints as the same Window node as the sliding frame),
    so two plans that differ only by them are not the same execution."""
    conf = query.conf if isinstance(query, Configured) else {}
    return "".join(f"\nset {key}={value}" for key, value in sorted(conf.items()))


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


def _same_result(
    spark: Any, family: str, frames: dict[str, Any], queries: dict[str, Query]
) -> None:
    """The alternatives of a family give the same rows: a multiset checksum
    over the columns they all have (by name), but for approximate answers
    (each alternative's estimate is its own; tests hold them to its bound)."""
    common = [
        c
        for c in next(iter(frames.values())).columns
        if all(c in f.columns for f in frames.values()) and c not in APPROXIMATE_COLUMNS
    ]
    if len(common) < 2:
        raise AssertionError(f"{family}: the alternatives share no columns to compare")
    sums = {}
    for name, frame in frames.items():
        frame.select(*common).createOrReplaceTempView("bench_checksum")
        with _settings(spark, queries[name]):
            sums[name] = tuple(
                spark.sql(
                    "select count(*), sum(cast(xxhash64(*) as decimal(38, 0))) from bench_checksum"
                ).collect()[0]
            )
    if len(set(sums.values())) != 1:
        raise AssertionError(f"{family}: different results over {common}: {sums}")


def _duckdb(spark: Any) -> Any:
    """A DuckDB connection with 2 threads and a view over the parquet files of
    each table of the bench schema, by the table's name."""
    import duckdb

    connection = duckdb.connect(config={"threads": 2})
    for table in spark.catalog.listTables(SCHEMA):
        if table.tableType != "MANAGED":
            continue
        details = spark.sql(f"describe formatted {SCHEMA}.{table.name}").collect()
        location = next(r.data_type for r in details if r.col_name == "Location")
        files = location.removeprefix("file:") + "/*.parquet"
        connection.execute(f"create view {table.name} as select * from read_parquet('{files}')")
    return connection


def time_yardstick(duck: Any, family: str, name: str, query: DuckDB, runs: int) -> Timing:
    """A DuckDB line: one warm-up, then `runs` runs, each materialized in a
    temporary table (a count alone would let DuckDB skip the windows), with
    the wall-clock and this process's CPU time."""
    timing = Timing(family, name, yardstick=True)
    for run_number in range(runs + 1):
        cpu, start = time.process_time(), time.perf_counter()
        duck.execute(f"create or replace temporary table yardstick as {query.sql}")
        if run_number:  # the first is the warm-up
            timing.seconds.append(time.perf_counter() - start)
            timing.cpu_seconds.append(time.process_time() - cpu)
    duck.execute("drop table if exists yardstick")
    return timing


def time_family(
    spark: Any,
    family: str,
    alternatives: dict[str, Query],
    runs: int,
    progress: Any,
    checked: set[str] | None = None,
    duck: Any = None,
) -> list[Timing]:
    """One family's alternatives: their results compared (`checked`: only
    these; default all), one warm-up each, then `runs` rounds in rotation,
    with the wall-clock and the executors' CPU time of each run; then its
    DuckDB line, if it has one (`duck`: the connection)."""
    progress.set_postfix_str(family)
    yardsticks = {n: q for n, q in alternatives.items() if isinstance(q, DuckDB)}
    alternatives = {n: q for n, q in alternatives.items() if n not in yardsticks}
    frames = {name: _frame(spark, query) for name, query in alternatives.items()}
    compared = {n: f for n, f in frames.items() if checked is None or n in checked}
    _same_result(spark, family, compared, alternatives)
    progress.update(len(frames))
    plans = {}
    for name, frame in frames.items():  # warm-up
        with _settings(spark, alternatives[name]):
            frame.write.format("noop").mode("overwrite").save()
            plans[name] = _plan(frame) + _settings_text(alternatives[name])
        progress.update()
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
        # Each run starts with the next alternative: none always comes first
        # (after the previous family) or last.
        shift = run_number % len(names)
        for name in names[shift:] + names[:shift]:
            group = f"bench {family}: {name} #{run_number}"
            spark.sparkContext.setJobGroup(group, group)
            _settle(spark)
            with _settings(spark, alternatives[name]):
                start = time.perf_counter()
                frames[name].write.format("noop").mode("overwrite").save()
                results[name].seconds.append(time.perf_counter() - start)
            results[name].cpu_seconds.append(_cpu_seconds(spark, group))
            progress.update()
    for name, query in yardsticks.items():
        results[name] = time_yardstick(duck, family, name, query, runs)
        progress.update(runs + 2)
    return list(results.values())


def kept_families() -> set[str]:
    """The families whose earlier results a run of other families keeps
    (--keep): the catalog page's, and the rolling families with a target of
    their own (the sketches, and the exact holistic ones the catalog page
    does not show). A family renamed or removed drops out."""
    known = {family for ids in CATALOG_FAMILIES.values() for family in ids}
    return known | set(ROLLING_TARGETS)


def run(
    rows: int, runs: int, families: list[str], output: Path, keep: bool, match: str = ""
) -> list[Timing]:
    dbt = DbtProject(ROOT, schema=SCHEMA)
    dbt.create_schema()
    prepare(dbt, rows)
    spark = dbt.spark()
    queries: dict[str, dict[str, Query]] = {}
    for family in families:
        queries.update({name: q for name, q in FAMILIES[family](dbt).items() if match in name})
    yardsticks = any(isinstance(q, DuckDB) for family in queries.values() for q in family.values())
    duck = _duckdb(spark) if yardsticks else None
    steps = sum(len(q) for q in queries.values()) * (runs + 2)
    with tqdm(total=steps, desc="timing", unit="query") as progress:
        timings = [
            timing
            for family, alternatives in queries.items()
            for timing in time_family(spark, family, alternatives, runs, progress, duck=duck)
        ]
    if keep and (output / "bench.json").exists():
        # Families not run this time keep their earlier results.
        earlier = Report.from_json(json.loads((output / "bench.json").read_text()))
        rerun = {t.family for t in timings}
        for timing in timings:
            timing.rows = rows if rows != earlier.rows else None
        kept = [t for t in earlier.timings if t.family in kept_families() - rerun]
        timings = kept + timings
        rows, runs = earlier.rows, earlier.runs
    Report(rows, runs, timings).write(output)
    dbt.drop_schema()
    return timings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--runs", type=int, default=6)
    parser.add_argument(
        "--families",
        default="",
        help="comma-separated catalog families (default: every folder of models/ with a benchmark)",
    )
    parser.add_argument("--output", type=Path, default=OUTPUT)
    parser.add_argument("--match", default="", help="only the families whose name has this text")
    parser.add_argument(
        "--keep",
        action="store_true",
        help="keep the results in OUTPUT/bench.json of the families not run this time",
    )
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
    families = args.families.split(",") if args.families else benchmarked_families()
    run(args.rows, args.runs, families, args.output, args.keep, args.match)


if __name__ == "__main__":
    main()
