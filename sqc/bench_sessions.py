"""incremental_sessions against a full rebuild, in one process.

    python -m sqc.bench_sessions [--events 10000000] [--runs 3]

History: `--events` events of 10,000 users over 100 days, in bursts (gaps of
0 to 40 minutes, ~1/4 over the 30 minute gap), loaded as load 1. A batch:
1% more events, 90% of them on a new day and 10% late (within the last three
days), some repeating already-loaded events, as load 2. Each run restores the
sessions table to its state after the history, appends the batch, and times
`dbt run` of the incremental model (reading the new events and the sessions
they touch); beside it, `dbt run --full-refresh` of the same model, and
session_windows over all events (the macro's full SQL, no deduplication),
each the median of `--runs`. Writes docs/bench/sessions.json.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import yaml
from tqdm import tqdm

from sqc.dbt_harness import DbtProject, use_project_environment
from sqc.seed_project import write_project

ROOT = Path(__file__).resolve().parents[1]
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


def _events_sql(first_id: int, count: int, loaded_at: int, day_from: float, days: float) -> str:
    """`count` events from id `first_id`: each user's events in time order with
    gaps of 0 to 40 minutes, starting at `day_from` (days after 2024-01-01)."""
    per_user = max(count // USERS, 1)
    seconds_per_user = int(days * 86400)
    step = max(seconds_per_user // per_user, 1)
    return (
        f"select id as event_id, id % {USERS} as user_id, timestamp'2024-01-01' + "
        f"make_interval(0, 0, 0, 0, 0, 0, {int(day_from * 86400)} + "
        f"((id - {first_id}) div {USERS}) * {step} + abs(hash(id)) % least({step}, 2400)) "
        f"as event_at, {loaded_at} as loaded_at from range({first_id}, {first_id + count})"
    )


def _timed(action: Callable[[], object]) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def run(events: int, runs: int, output: Path) -> dict[str, object]:
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
    new = _events_sql(events, batch_size * 9 // 10, 2, 100, 0.5)
    late = _events_sql(events + batch_size, batch_size // 10, 2, 97.5, 2.5)
    repeated = f"select * from {SCHEMA}.events where event_id % 1000 = 7 and loaded_at = 1"
    steps = [
        f"create table {SCHEMA}.history using parquet as {history}",
        f"create table {SCHEMA}.batch using parquet as {new} union all {late} "
        f"union all select event_id, user_id, event_at, 2 as loaded_at from ({repeated})",
    ]
    with tqdm(total=3 + 3 * runs, desc="incremental sessions", unit="step") as progress:
        dbt.sql(steps[0])
        dbt.sql(f"create table {SCHEMA}.events using parquet as select * from {SCHEMA}.history")
        dbt.sql(steps[1])
        progress.update()
        dbt.invoke("run", "--full-refresh")
        dbt.sql(
            f"create table {SCHEMA}.sessions_after_history using parquet "
            f"partitioned by (session_date) as select * from {SCHEMA}.sessions"
        )
        sessions = dbt.sql(f"select count(*) as n from {SCHEMA}.sessions")[0].n
        progress.update()
        full_sql = dbt.compile_inline(
            f"{{{{ spark_query_catalog.session_windows('{SCHEMA}.events', 'user_id', "
            "'event_at', '30 minutes', {'event_count': 'count(*)'}) }}"
        )
        progress.update()
        times: dict[str, list[float]] = {
            "incremental": [], "full refresh": [], "session_windows": []
        }  # fmt: skip
        totals = f"select count(*) as n, sum(event_count) as e from {SCHEMA}.sessions"
        spark = dbt.spark()
        for _ in range(runs):
            # The state after the history, and the batch appended to the events.
            dbt.sql(f"insert overwrite table {SCHEMA}.events select * from {SCHEMA}.history")
            dbt.sql(f"insert into {SCHEMA}.events select * from {SCHEMA}.batch")
            dbt.sql(f"drop table if exists {SCHEMA}.sessions")
            dbt.sql(
                f"create table {SCHEMA}.sessions using parquet options "
                "(partitionOverwriteMode 'dynamic') partitioned by (session_date) "
                f"as select * from {SCHEMA}.sessions_after_history"
            )
            times["incremental"].append(_timed(lambda: dbt.invoke("run")))
            incremental = dbt.sql(totals)[0]
            progress.update()
            times["full refresh"].append(_timed(lambda: dbt.invoke("run", "--full-refresh")))
            full = dbt.sql(totals)[0]
            if (incremental.n, incremental.e) != (full.n, full.e):
                raise AssertionError(f"incremental {incremental} != full refresh {full}")
            progress.update()
            times["session_windows"].append(
                _timed(lambda: spark.sql(full_sql).write.format("noop").mode("overwrite").save())
            )
            progress.update()
    medians = {name: statistics.median(values) for name, values in times.items()}
    report = {
        "events": events,
        "batch": batch_size + batch_size // 1000,
        "sessions_after_history": sessions,
        "runs": runs,
        "seconds": times,
        "medians": medians,
        "incremental_over_full_refresh": medians["incremental"] / medians["full refresh"],
        "full_refresh_over_session_windows": medians["full refresh"] / medians["session_windows"],
    }
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(json.dumps(report, indent=2))
    print(json.dumps(report, indent=2))
    dbt.drop_schema()
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=10_000_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--output", type=Path, default=ROOT / "docs" / "bench" / "sessions.json")
    args = parser.parse_args()
    use_project_environment(ROOT, ".state/bench_sessions")
    os.environ.setdefault("SPARK_DRIVER_MEMORY", "4g")
    run(args.events, args.runs, args.output)


if __name__ == "__main__":
    main()
