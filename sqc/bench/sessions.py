"""incremental_sessions as history grows, beside a full rebuild, in one process.

    python -m sqc.bench.sessions [--days 100,400] [--runs 3]

History: 100,000 events a day from 10,000 users, for each `--days` (100
days: 10M events; 400 days: 40M), in bursts: a user's 10 events of a day
come 0 to 40 minutes apart (1 in 8 more than the 30 minute gap). The events
table is partitioned by its load (`loaded_at`), the history one load in
files of about a day each, as daily loads leave them. A batch is load 2:
one new day of events (100,000), 10% more late events inside the bursts of
the last three days, and copies of 1% of the last day's events.

For each history size, after one warm-up round, `--runs` rounds each time:
  incremental                the run after the batch (the sessions table
                             restored to its state after the history, which
                             has been through a run with nothing new)
  incremental, nothing new   a run right after it: the fixed cost of a run
  full refresh               `dbt run --full-refresh` over the same events
  session_windows + write    the macro session_windows over the same events
                             (no deduplication), written to a parquet table
                             partitioned by session_date like the model's
Every incremental result is checked against the full refresh, row for row.
Beside each incremental run, the bytes and rows that its Spark jobs read
(the stages' input metrics): they follow the batch, not the history.
Writes docs/bench/sessions.json (one record per history size),
docs/bench/sessions.md and the chart docs/bench/sessions.png (`--report-only`
rewrites the last two from the first).
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tqdm import tqdm

from sqc.paths import ROOT
from sqc.testing.dbt_harness import DbtProject, use_bench_environment
from sqc.testing.loads import write_lab

OUTPUT = ROOT / "docs" / "bench"
SCHEMA = "bench_sessions"
MODEL = """{{ config(
    materialized='incremental_sessions',
    keys='user_id',
    timestamp_column='event_at',
    gap='30 minutes',
    aggregates={'event_count': 'count(*)'},
    event_key='event_id',
    loaded_at='loaded_at'
) }}
select event_id, user_id, event_at, loaded_at from bench_sessions.events
"""
USERS = 10_000
DAILY_EVENTS = 100_000
BURST = 10
INCREMENTAL = "incremental"
NOTHING_NEW = "incremental, nothing new"
FULL_REFRESH = "full refresh"
BASELINE = "session_windows + write"


def _events_sql(first_id: int, days: int, day_from: int) -> str:
    """DAILY_EVENTS events a day for `days` days from `day_from` (days after
    2024-01-01), ids from `first_id`: a user's k-th event of a day is the
    k-th of that day's burst, at k * 20 minutes plus 0 to 20 minutes."""
    per_day = DAILY_EVENTS // USERS
    return (
        f"select id as event_id, id % {USERS} as user_id, timestamp'2024-01-01' + "
        f"make_interval(0, 0, 0, 0, 0, 0, "
        f"({day_from} + (id - {first_id}) div {DAILY_EVENTS}) * 86400 + "
        f"(id - {first_id}) div {USERS} % {per_day} * 1200 + abs(hash(id)) % 1200) as event_at "
        f"from range({first_id}, {first_id + days * DAILY_EVENTS})"
    )


def _late_sql(first_id: int, count: int, day_from: int, days: int) -> str:
    """`count` late events, each inside one of the bursts of the `days` days
    from `day_from`, so that it extends, splits or merges a stored session."""
    return (
        f"select id as event_id, id % {USERS} as user_id, timestamp'2024-01-01' + "
        f"make_interval(0, 0, 0, 0, 0, 0, ({day_from} + abs(hash(id, 1)) % {days}) * 86400 + "
        f"abs(hash(id)) % {BURST * 1200}) as event_at "
        f"from range({first_id}, {first_id + count})"
    )


def _timed(action: Callable[[], object]) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def _input_since(spark: Any, first_job: int) -> dict[str, int]:
    """Bytes and rows read from files by the Spark jobs from `first_job` on
    (the stages' input metrics, as the Spark UI's stage pages show them)."""
    context = spark.sparkContext
    context._jsc.sc().listenerBus().waitUntilEmpty()
    store = context._jsc.sc().statusStore()
    read = {"jobs": 0, "bytes": 0, "rows": 0}
    for job in range(first_job, _next_job(spark)):
        stages = store.job(job).stageIds()
        read["jobs"] += 1
        for index in range(stages.length()):
            attempts = store.stageData(stages.apply(index), False, None, False, None)
            for attempt in range(attempts.length()):
                read["bytes"] += attempts.apply(attempt).inputBytes()
                read["rows"] += attempts.apply(attempt).inputRecords()
    return read


def _next_job(spark: Any) -> int:
    jobs = spark.sparkContext._jsc.sc().statusStore().jobsList(None)
    return max((jobs.apply(i).jobId() for i in range(jobs.length())), default=-1) + 1


class Lab:
    """The bench's dbt project: the model, and the tables it reads."""

    def __init__(self) -> None:
        directory = Path(tempfile.mkdtemp(prefix="bench_sessions_"))
        write_lab(directory, {"sessions": MODEL})
        self.schema = SCHEMA
        self.dbt = DbtProject(directory, schema=SCHEMA)
        self.dbt.invoke("deps")
        self.spark = self.dbt.spark()
        self.baseline_sql = self.dbt.compile_inline(
            f"{{{{ spark_query_catalog.session_windows('{SCHEMA}.events', 'user_id', "
            "'event_at', '30 minutes', {'event_count': 'count(*)'}) }}"
        )

    def load(self, days: int) -> int:
        """The history of `days` days as load 1 and the batch as table `batch`;
        returns the batch's size."""
        dbt = self.dbt
        dbt.drop_schema()
        dbt.create_schema()
        history = _events_sql(0, days, 0)
        new = _events_sql(days * DAILY_EVENTS, 1, days)
        late = _late_sql((days + 1) * DAILY_EVENTS, DAILY_EVENTS // 10, days - 3, 3)
        # An at-least-once source sends 1% of its last day's events again.
        repeated = (
            f"select event_id, user_id, event_at from {self.schema}.events "
            "where event_id % 100 = 7 "
            f"and event_at >= timestamp'2024-01-01' + make_interval(0, 0, 0, {days - 1})"
        )
        dbt.sql(
            f"create table {self.schema}.events (event_id bigint, user_id bigint, "
            "event_at timestamp, loaded_at int) using parquet partitioned by (loaded_at)"
        )
        dbt.sql(
            f"insert into {self.schema}.events partition (loaded_at = 1) "
            f"select /*+ repartition_by_range({days}, event_at) */ * from ({history})"
        )
        dbt.sql(
            f"create table {self.schema}.batch using parquet as {new} union all {late} "
            f"union all {repeated}"
        )
        return dbt.sql(f"select count(*) as n from {self.schema}.batch")[0].n

    def restore(self) -> None:
        """The events of the history alone, and the sessions table as after it,
        through a run with nothing new (as every run after the first finds it)."""
        dbt = self.dbt
        dbt.sql(f"alter table {SCHEMA}.events drop if exists partition (loaded_at = 2)")
        dbt.sql(f"drop table if exists {SCHEMA}.sessions")
        dbt.sql(
            f"create table {SCHEMA}.sessions using parquet "
            "options (partitionoverwritemode 'dynamic') partitioned by (session_date) "
            f"as select * from {SCHEMA}.sessions_after_history"
        )
        dbt.invoke("run")

    def append_batch(self) -> None:
        self.dbt.sql(
            f"insert into {self.schema}.events partition (loaded_at = 2) "
            f"select * from {self.schema}.batch"
        )

    def baseline(self) -> None:
        """session_windows over the events, written like the model's table."""
        self.dbt.sql(f"drop table if exists {SCHEMA}.baseline")
        self.dbt.sql(
            f"create table {SCHEMA}.baseline using parquet partitioned by (session_date) as "
            f"select *, to_date(session_start) as session_date from ({self.baseline_sql})"
        )

    def totals(self) -> tuple[int, int]:
        row = self.dbt.sql(
            "select count(*) as n, sum(cast(hash(to_json(struct(*))) as bigint)) as h "
            f"from {SCHEMA}.sessions"
        )[0]
        return row.n, row.h


def measure(lab: Lab, days: int, runs: int, progress: tqdm) -> dict[str, Any]:
    batch = lab.load(days)
    dbt = lab.dbt
    dbt.invoke("run", "--full-refresh")
    dbt.sql(
        f"create table {SCHEMA}.sessions_after_history using parquet "
        f"partitioned by (session_date) as select * from {SCHEMA}.sessions"
    )
    sessions = dbt.sql(f"select count(*) as n from {SCHEMA}.sessions")[0].n
    progress.update()
    times: dict[str, list[float]] = {
        INCREMENTAL: [],
        NOTHING_NEW: [],
        FULL_REFRESH: [],
        BASELINE: [],
    }
    reads: list[dict[str, int]] = []
    for round_ in range(runs + 1):
        timed = times if round_ > 0 else {name: [] for name in times}  # round 0 warms up
        lab.restore()
        lab.append_batch()
        first_job = _next_job(lab.spark)
        timed[INCREMENTAL].append(_timed(lambda: dbt.invoke("run")))
        if round_ > 0:
            reads.append(_input_since(lab.spark, first_job))
        incremental = lab.totals()
        timed[NOTHING_NEW].append(_timed(lambda: dbt.invoke("run")))
        timed[FULL_REFRESH].append(_timed(lambda: dbt.invoke("run", "--full-refresh")))
        if incremental != lab.totals():
            raise AssertionError(f"{days} days: the incremental run differs from a full refresh")
        timed[BASELINE].append(_timed(lab.baseline))
        progress.update()
    medians = {name: statistics.median(values) for name, values in times.items()}
    return {
        "days": days,
        "events": days * DAILY_EVENTS,
        "batch": batch,
        "sessions_after_history": sessions,
        "runs": runs,
        "seconds": times,
        "medians": medians,
        "incremental_read": reads,
        "incremental_over_full_refresh": medians[INCREMENTAL] / medians[FULL_REFRESH],
        "full_refresh_over_baseline": medians[FULL_REFRESH] / medians[BASELINE],
    }


def markdown(records: list[dict[str, Any]]) -> str:
    lines = [
        "| history | events | incremental | nothing new | full refresh | session_windows "
        "+ write | incremental / full refresh | full refresh / session_windows + write "
        "| incremental reads |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in records:
        m = r["medians"]
        read = r["incremental_read"][0]
        lines.append(
            f"| {r['days']} days | {r['events']:,} | {m[INCREMENTAL]:.2f} s | "
            f"{m[NOTHING_NEW]:.2f} s | {m[FULL_REFRESH]:.2f} s | {m[BASELINE]:.2f} s | "
            f"{r['incremental_over_full_refresh']:.1%} | {r['full_refresh_over_baseline']:.2f}x | "
            f"{read['rows']:,} rows, {read['bytes'] / 1e6:.1f} MB |"
        )
    if len(records) > 1:
        first, last = records[0], records[-1]
        growth = last["medians"][INCREMENTAL] / first["medians"][INCREMENTAL]
        lines += [
            "",
            f"The incremental run at {last['days']} days costs {growth:.2f}x the run at "
            f"{first['days']} days, for {last['events'] / first['events']:.0f}x the history.",
        ]
    return "\n".join(lines) + "\n"


MEASURES = [INCREMENTAL, NOTHING_NEW, FULL_REFRESH, BASELINE]


def chart(records: list[dict[str, Any]], path: Path) -> None:
    """One group of bars per history size: the four medians, min to max."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axis = plt.subplots(figsize=(9, 1.2 + 1.1 * len(records)))
    height = 0.8 / len(MEASURES)
    colours = ["#1f77b4", "#9ecae1", "#aaaaaa", "#666666"]
    for index, (name, colour) in enumerate(zip(MEASURES, colours, strict=True)):
        places = [row - 0.4 + height * (index + 0.5) for row in range(len(records))]
        medians = [r["medians"][name] for r in records]
        errors = [
            [r["medians"][name] - min(r["seconds"][name]) for r in records],
            [max(r["seconds"][name]) - r["medians"][name] for r in records],
        ]
        axis.barh(places, medians, height, xerr=errors, color=colour, label=name, capsize=2)
        for place, median, upper in zip(places, medians, errors[1], strict=True):
            axis.text(median + upper, place, f"  {median:.2f} s", va="center", fontsize=7)
    axis.set_yticks(range(len(records)))
    axis.set_yticklabels([f"{r['days']} days\n{r['events']:,} events" for r in records])
    axis.invert_yaxis()
    axis.tick_params(labelsize=8)
    longest = max(max(r["seconds"][name]) for r in records for name in MEASURES)
    axis.set_xlim(0, longest * 1.25)
    axis.legend(fontsize=7, loc="upper right")
    runs = records[0]["runs"]
    axis.set_xlabel(
        f"seconds, median of {runs} (bars: min to max); a batch of {records[0]['batch']:,} events"
    )
    axis.set_title("incremental_sessions as history grows", fontsize=9, loc="left")
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)


def write_report(records: list[dict[str, Any]], output: Path) -> None:
    output.mkdir(parents=True, exist_ok=True)
    (output / "sessions.json").write_text(
        json.dumps({"daily_events": DAILY_EVENTS, "users": USERS, "records": records}, indent=2)
    )
    (output / "sessions.md").write_text(markdown(records))
    chart(records, output / "sessions.png")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--days", default="100,400", help="history sizes, comma-separated")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--output", type=Path, default=OUTPUT)
    parser.add_argument(
        "--report-only", action="store_true", help="rewrite sessions.md and .png from the json"
    )
    args = parser.parse_args()
    if args.report_only:
        write_report(
            json.loads((args.output / "sessions.json").read_text())["records"], args.output
        )
        return
    use_bench_environment(ROOT, ".state/bench_sessions")
    sizes = [int(days) for days in args.days.split(",")]
    lab = Lab()
    records = []
    with tqdm(total=len(sizes) * (args.runs + 2), desc="incremental sessions") as progress:
        for days in sizes:
            progress.set_postfix_str(f"{days} days")
            records.append(measure(lab, days, args.runs, progress))
    lab.dbt.drop_schema()
    write_report(records, args.output)
    print(markdown(records))


if __name__ == "__main__":
    main()
