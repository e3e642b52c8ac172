"""incremental_sessions against a full rebuild, in one process.

    python -m sqc.bench.sessions [--events 10000000] [--runs 3]

History: `--events` events of 10,000 users over 100 days (2024-01-01 to
04-10), in bursts of 10 events (gaps of 0 to 40 minutes, 1 in 8 over the 30
minute gap), a burst a day per user at 10M events, loaded as load 1. A batch:
1% more events, 90% of them on a new day and 10% late (inside the bursts of
the last three days), plus copies of 1% of the last day's events, as load 2.
Each run restores the sessions table to its state after the history,
appends the batch, and times `dbt run` of the incremental model (reading the
new events and the sessions they touch); beside it, `dbt run --full-refresh`
of the same model, and session_windows over all events (the macro's full
SQL, no deduplication), each the median of `--runs` after one warm-up round
(the JVM compiles Spark's code on the first runs). Also timed: the
incremental run when nothing is new, the fixed cost of any run (dbt's start,
the table's metadata, the question for new events). Writes
docs/bench/sessions.json.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import yaml
from tqdm import tqdm

from sqc.testing.dbt_harness import DbtProject, use_bench_environment
from sqc.testing.seed_project import write_project

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = "bench_sessions"
MODEL = """{{ config(
    materialized='incremental_sessions',
    partition_by='user_id',
    timestamp_column='event_at',
    gap='30 minutes',
    aggregates={'event_count': 'count(*)'},
    event_key='event_id',
    loaded_at='loaded_at'
) }}
select event_id, user_id, event_at, loaded_at from bench_sessions.events
"""
USERS = 10_000
BURST = 10


def _events_sql(first_id: int, count: int, loaded_at: int, day_from: int, days: int) -> str:
    """`count` events from id `first_id`, for USERS users, in bursts: a user's
    k-th event is the (k mod 10)-th of burst k div 10, bursts spread evenly
    over `days` days from `day_from` (days after 2024-01-01). Inside a burst,
    event j comes at j * 20 min plus 0 to 20 min, so consecutive events are 0
    to 40 minutes apart, 1 in 8 more than the 30 minute gap."""
    per_user = max(count // USERS, 1)
    bursts = max(per_user // BURST, 1)
    burst_seconds = days * 86400 // bursts
    return (
        f"select id as event_id, id % {USERS} as user_id, timestamp'2024-01-01' + "
        f"make_interval(0, 0, 0, 0, 0, 0, {day_from * 86400} + "
        f"((id - {first_id}) div {USERS} div {BURST}) * {burst_seconds} + "
        f"((id - {first_id}) div {USERS} % {BURST}) * 1200 + abs(hash(id)) % 1200) "
        f"as event_at, {loaded_at} as loaded_at from range({first_id}, {first_id + count})"
    )


def _late_sql(first_id: int, count: int, day_from: int, days: int) -> str:
    """`count` late events: each inside one of the bursts of the `days` days
    from `day_from`, so that it extends, splits or merges a stored session."""
    return (
        f"select id as event_id, id % {USERS} as user_id, timestamp'2024-01-01' + "
        f"make_interval(0, 0, 0, 0, 0, 0, ({day_from} + abs(hash(id, 1)) % {days}) * 86400 + "
        f"abs(hash(id)) % {BURST * 1200}) as event_at, 2 as loaded_at "
        f"from range({first_id}, {first_id + count})"
    )


def _timed(action: Callable[[], object]) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def run(events: int, runs: int, output: Path, keep: bool = False) -> dict[str, object]:
    directory = Path(tempfile.mkdtemp(prefix="bench_sessions_"))
    write_project(directory)
    project = yaml.safe_load((directory / "dbt_project.yml").read_text())
    project["models"]["seed_lab"] = {"+file_format": "parquet"}
    (directory / "dbt_project.yml").write_text(yaml.safe_dump(project, sort_keys=False))
    (directory / "models").mkdir()
    (directory / "models" / "sessions.sql").write_text(MODEL)
    dbt = DbtProject(directory, schema=SCHEMA)
    dbt.invoke("deps")
    dbt.drop_schema()
    dbt.create_schema()
    history = _events_sql(0, events, 1, 0, 100)
    batch_size = events // 100
    new = _events_sql(events, batch_size * 9 // 10, 2, 100, 1)
    late = _late_sql(events + batch_size, batch_size // 10, 97, 3)
    # An at-least-once source sends some of its last events again.
    repeated = (
        f"select * from {SCHEMA}.events where event_id % 100 = 7 "
        "and event_at >= timestamp'2024-04-09'"
    )
    steps = [
        # In files of a day or so each, as daily loads would leave them.
        f"create table {SCHEMA}.history using parquet as "
        f"select /*+ repartition_by_range(100, event_at) */ * from ({history})",
        f"create table {SCHEMA}.batch using parquet as {new} union all {late} "
        f"union all select event_id, user_id, event_at, 2 as loaded_at from ({repeated})",
    ]
    with tqdm(total=3 + 4 * (runs + 1), desc="incremental sessions", unit="step") as progress:
        dbt.sql(steps[0])
        dbt.sql(
            f"create table {SCHEMA}.events using parquet as "
            f"select /*+ repartition_by_range(100, event_at) */ * from {SCHEMA}.history"
        )
        dbt.sql(steps[1])
        progress.update()
        dbt.invoke("run", "--full-refresh")
        dbt.sql(
            f"create table {SCHEMA}.sessions_after_history using parquet "
            f"partitioned by (session_date) as select * from {SCHEMA}.sessions"
        )
        sessions = dbt.sql(f"select count(*) as n from {SCHEMA}.sessions")[0].n
        batch = dbt.sql(f"select count(*) as n from {SCHEMA}.batch")[0].n
        progress.update()
        full_sql = dbt.compile_inline(
            f"{{{{ spark_query_catalog.session_windows('{SCHEMA}.events', 'user_id', "
            "'event_at', '30 minutes', {'event_count': 'count(*)'}) }}"
        )
        progress.update()
        times: dict[str, list[float]] = {
            "incremental": [], "incremental, nothing new": [], "full refresh": [],
            "session_windows": [],
        }  # fmt: skip
        # Every row and column: the incremental run must equal the full refresh.
        totals = (
            "select count(*) as n, sum(cast(hash(to_json(struct(*))) as bigint)) as h "
            f"from {SCHEMA}.sessions"
        )
        spark = dbt.spark()
        for round_ in range(runs + 1):
            timed = times if round_ > 0 else {name: [] for name in times}  # round 0 warms up
            # The state after the history, and the batch appended to the events.
            dbt.sql(
                f"insert overwrite table {SCHEMA}.events "
                f"select /*+ repartition_by_range(100, event_at) */ * from {SCHEMA}.history"
            )
            dbt.sql(f"drop table if exists {SCHEMA}.sessions")
            dbt.sql(
                f"create table {SCHEMA}.sessions using parquet options "
                "(partitionOverwriteMode 'dynamic') partitioned by (session_date) "
                f"as select * from {SCHEMA}.sessions_after_history"
            )
            # A run with nothing new records the table's watermark and session
            # days, as every run after the first finds them.
            dbt.invoke("run")
            dbt.sql(f"insert into {SCHEMA}.events select * from {SCHEMA}.batch")
            timed["incremental"].append(_timed(lambda: dbt.invoke("run")))
            incremental = dbt.sql(totals)[0]
            progress.update()
            timed["incremental, nothing new"].append(_timed(lambda: dbt.invoke("run")))
            progress.update()
            timed["full refresh"].append(_timed(lambda: dbt.invoke("run", "--full-refresh")))
            full = dbt.sql(totals)[0]
            if (incremental.n, incremental.h) != (full.n, full.h):
                raise AssertionError(f"incremental {incremental} != full refresh {full}")
            progress.update()
            timed["session_windows"].append(
                _timed(lambda: spark.sql(full_sql).write.format("noop").mode("overwrite").save())
            )
            progress.update()
    medians = {name: statistics.median(values) for name, values in times.items()}
    report = {
        "events": events,
        "batch": batch,
        "sessions_after_history": sessions,
        "runs": runs,
        "warm_up_rounds": 1,
        "seconds": times,
        "medians": medians,
        "incremental_over_full_refresh": medians["incremental"] / medians["full refresh"],
        "nothing_new_over_full_refresh": (
            medians["incremental, nothing new"] / medians["full refresh"]
        ),
        "full_refresh_over_session_windows": medians["full refresh"] / medians["session_windows"],
    }
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(json.dumps(report, indent=2))
    print(json.dumps(report, indent=2))
    if not keep:
        dbt.drop_schema()
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=10_000_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--output", type=Path, default=ROOT / "docs" / "bench" / "sessions.json")
    parser.add_argument("--keep", action="store_true", help="keep the bench schema to inspect")
    args = parser.parse_args()
    use_bench_environment(ROOT, ".state/bench_sessions")
    run(args.events, args.runs, args.output, args.keep)


if __name__ == "__main__":
    main()
