"""incremental_windows as history grows, beside a full rebuild, in one process.

    python -m sqc.bench.windows [--days 100,400] [--runs 3] [--models 'rows 1,000']

The events of `make bench-sessions` (100,000 a day from 10,000 users: a
user's 10 events of a day in a burst; 100 days: 10M events, 400 days: 40M),
each with an amount, and the same batch: one new day, 10% more late events
inside the last three days, and copies of 1% of the last day's events.
Two feature models, each measured alone:
  range 7 days   the amount and the events of the 7 days up to each event
                 (RANGE frames: a run finds what it reads by time)
  rows 1,000     the average amount of the 1,000 events up to each (a ROWS
                 frame: 100 days of a user's events; a run counts rows back)

and two chains, the runs one after the other, timed and read apart and
summed: `range 7 days`, then a daily summary of it per user (incremental,
insert_overwrite by day) that reads what the feature run changed with
`changed_rows` (the days that hold a changed row, whole); and sessions
(incremental_sessions, 30 minutes), then each session's amount and
sessions of the 7 days up to it (incremental_windows over the sessions,
span_end: a merged session's row goes).

For each model and history size, after one warm-up round (whose incremental
run measures how many days back a ROWS frame reaches, kept for the next
rounds as a run leaves it), `--runs` rounds:
  incremental                the run after the batch (the table restored to
                             its state after the history, which has been
                             through a run with nothing new)
  incremental, nothing new   a run right after it: the fixed cost of a run
  full refresh               `dbt run --full-refresh` over the same events
Timed as dbt runs the model, and as the model's own statements (Spark's
jobs from the run's first to its last, without dbt's start-up). Every
incremental result is checked against the full refresh, row for row, and
beside each run the files' bytes and rows its Spark jobs read.
Writes docs/bench/windows.json (one record per history size and model; with
`--models`, the other models keep their records), docs/bench/windows.md
(`--report-only` rewrites it from the json).
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from tqdm import tqdm

from sqc.bench.sessions import DAILY_EVENTS, USERS, Lab, _input_since, _next_job
from sqc.paths import ROOT
from sqc.testing.dbt_harness import DbtProject, use_bench_environment
from sqc.testing.loads import write_lab

OUTPUT = ROOT / "docs" / "bench"
SCHEMA = "bench_windows"
EVENTS = f"""select event_id, user_id, event_at, cast(event_id % 97 as int) as amount, loaded_at
from {SCHEMA}.events
"""
MODELS = {
    "range 7 days": (
        "features_range",
        """{{ config(
    materialized='incremental_windows',
    keys='user_id',
    order_by='event_at',
    event_key='event_id',
    loaded_at='loaded_at',
    windows={
        'amount_7_days': {'expression': 'sum(amount)', 'frame': 'range', 'preceding': '7 days'},
        'events_7_days': {'expression': 'count(*)', 'frame': 'range', 'preceding': '7 days'}
    }
) }}
""",
    ),
    "rows 1,000": (
        "features_rows",
        """{{ config(
    materialized='incremental_windows',
    keys='user_id',
    order_by='event_at',
    event_key='event_id',
    loaded_at='loaded_at',
    windows={'amount_avg_1000': {'expression': 'avg(amount)', 'preceding': 999}}
) }}
""",
    ),
}
SUMMARY = """{{ config(
    materialized='incremental',
    incremental_strategy='insert_overwrite',
    file_format='parquet',
    partition_by=['event_date']
) }}
select
    user_id,
    count(*) as events,
    sum(amount_7_days) as amount_7_days,
    max(spark_query_catalog_changed_at) as spark_query_catalog_changed_at,
    spark_query_catalog_date as event_date
from (
    {{ spark_query_catalog.changed_rows(ref('features_range'), groups='spark_query_catalog_date') }}
) as features
group by user_id, spark_query_catalog_date
"""
# Sessions (30 minutes), and each session's amount and sessions of the 7
# days up to it: a feature table over an incremental_sessions table, whose
# merged sessions it drops (span_end).
SESSIONS = """{{ config(
    materialized='incremental_sessions',
    keys='user_id',
    timestamp_column='event_at',
    gap='30 minutes',
    aggregates={'event_count': 'count(*)', 'amount': 'sum(amount)'},
    event_key='event_id',
    loaded_at='loaded_at'
) }}
"""
SESSION_FEATURES = """{{ config(
    materialized='incremental_windows',
    keys='user_id',
    order_by='session_start',
    event_key='session_id',
    span_end='session_end',
    loaded_at='sessions_changed_at',
    copies='last',
    windows={
        'amount_7_days': {'expression': 'sum(amount)', 'frame': 'range', 'preceding': '7 days'},
        'sessions_7_days': {'expression': 'count(*)', 'frame': 'range', 'preceding': '7 days'}
    }
) }}
select
    session_id,
    user_id,
    session_start,
    session_end,
    amount,
    spark_query_catalog_changed_at as sessions_changed_at
from {{ ref('sessions') }}
"""
# A chain: its models in the order they run, each with its table's partition column.
CHAINS = {
    "chain: range 7 days, daily summary": [
        ("features_range", "spark_query_catalog_date"),
        ("summary_range", "event_date"),
    ],
    "chain: sessions, 7-day session features": [
        ("sessions", "session_date"),
        ("session_features", "spark_query_catalog_date"),
    ],
}
INCREMENTAL = "incremental"
NOTHING_NEW = "incremental, nothing new"
FULL_REFRESH = "full refresh"
MEASURES = [INCREMENTAL, NOTHING_NEW, FULL_REFRESH]


class WindowsLab(Lab):
    """The sessions bench's events and batch, under the two feature models."""

    def __init__(self) -> None:
        directory = Path(tempfile.mkdtemp(prefix="bench_windows_"))
        models = {name: config + EVENTS for name, config in MODELS.values()}
        write_lab(
            directory,
            {
                **models,
                "summary_range": SUMMARY,
                "sessions": SESSIONS + EVENTS,
                "session_features": SESSION_FEATURES,
            },
        )
        self.schema = SCHEMA
        self.dbt = DbtProject(directory, schema=SCHEMA)
        self.dbt.invoke("deps")
        self.spark = self.dbt.spark()

    def restore_model(self, models: list[tuple[str, str]]) -> None:
        """The events of the history alone, and the tables as after it, through
        a run with nothing new."""
        dbt = self.dbt
        dbt.sql(f"alter table {SCHEMA}.events drop if exists partition (loaded_at = 2)")
        for name, partition in models:
            dbt.sql(f"drop table if exists {SCHEMA}.{name}")
            dbt.sql(
                f"create table {SCHEMA}.{name} using parquet "
                f"options (partitionoverwritemode 'dynamic') partitioned by ({partition}) "
                f"as select * from {SCHEMA}.{name}_after_history"
            )
            if self.properties[name]:
                dbt.sql(f"alter table {SCHEMA}.{name} set tblproperties {self.properties[name]}")
        dbt.invoke("run", "--select", *(name for name, _ in models))

    def totals(self, name: str) -> tuple[int, int]:  # type: ignore[override]
        """Rows and a hash of them, but for the marks of when they changed
        (a full refresh marks every row with its latest load)."""
        row = self.dbt.sql(
            "select count(*) as n, sum(cast(hash(to_json(struct(*))) as bigint)) as h from ("
            f"select * except (spark_query_catalog_changed_at) from {SCHEMA}.{name})"
        )[0]
        return row.n, row.h


def _statements(lab: WindowsLab, name: str, *flags: str) -> tuple[float, float, dict[str, int]]:
    """The run's wall-clock time, its Spark jobs' time (first job's submission
    to last job's completion: the model's statements), and what they read."""
    first_job = _next_job(lab.spark)
    start = time.perf_counter()
    lab.dbt.invoke("run", "--select", name, *flags)
    wall = time.perf_counter() - start
    read = _input_since(lab.spark, first_job)
    store = lab.spark.sparkContext._jsc.sc().statusStore()
    spans = []
    for job in range(first_job, _next_job(lab.spark)):
        data = store.job(job)
        if data.submissionTime().isDefined() and data.completionTime().isDefined():
            spans += [data.submissionTime().get().getTime(), data.completionTime().get().getTime()]
    statements = (max(spans) - min(spans)) / 1000 if spans else 0.0
    return wall, statements, read


def _chain(label: str) -> list[tuple[str, str]]:
    """The models measured under `label`, in the order they run."""
    return CHAINS.get(label) or [(MODELS[label][0], "spark_query_catalog_date")]


def _properties(lab: WindowsLab, name: str, keys: tuple[str, ...]) -> list[str]:
    return [
        f"'{r[0]}' = '{r[1]}'"
        for r in lab.dbt.sql(f"show tblproperties {SCHEMA}.{name}")
        if r[0].startswith(keys)
    ]


def _run_chain(lab: WindowsLab, models: list[tuple[str, str]], *flags: str) -> dict[str, Any]:
    """Each model's run, one after the other: times summed, reads apart."""
    runs = [_statements(lab, name, *flags) for name, _ in models]
    return {
        "wall": sum(run[0] for run in runs),
        "statements": sum(run[1] for run in runs),
        "read": {name: run[2] for (name, _), run in zip(models, runs, strict=True)},
        "wall_by_model": {name: run[0] for (name, _), run in zip(models, runs, strict=True)},
    }


def measure(
    lab: WindowsLab, days: int, runs: int, progress: tqdm, labels: list[str]
) -> list[dict[str, Any]]:
    batch = lab.load(days)
    dbt = lab.dbt
    records = []
    lab.properties = {}
    for label in labels:
        models = _chain(label)
        names = [name for name, _ in models]
        # The history alone (the model before left the batch loaded).
        dbt.sql(f"alter table {SCHEMA}.events drop if exists partition (loaded_at = 2)")
        dbt.invoke("run", "--select", *names, "--full-refresh")
        dbt.invoke("run", "--select", *names)  # measures the watermark, as every later run finds it
        for name, partition in models:
            dbt.sql(
                f"create table {SCHEMA}.{name}_after_history using parquet "
                f"partitioned by ({partition}) as select * from {SCHEMA}.{name}"
            )
            kept = _properties(lab, name, ("spark_query_catalog.",))
            lab.properties[name] = "(" + ", ".join(kept) + ")" if kept else ""
        times: dict[str, list[float]] = {measure_: [] for measure_ in MEASURES}
        own: dict[str, list[float]] = {measure_: [] for measure_ in MEASURES}
        reads: dict[str, list[dict[str, dict[str, int]]]] = {measure_: [] for measure_ in MEASURES}
        by_model: dict[str, list[dict[str, float]]] = {measure_: [] for measure_ in MEASURES}
        changed = []
        for round_ in range(runs + 1):
            lab.restore_model(models)
            lab.append_batch()
            results = {INCREMENTAL: _run_chain(lab, models)}
            incremental = [lab.totals(name) for name in names]
            # The rows the feature run changed: those marked with the batch's load.
            changed.append(dbt.sql(
                f"select count(*) as n from {SCHEMA}.{names[0]} "
                "where spark_query_catalog_changed_at = 2"
            )[0].n)  # fmt: skip
            if round_ == 0:
                # Later rounds start from the history as a run with new events
                # leaves it: with the days back a ROWS frame needed (halo_days).
                kept = _properties(lab, names[0], ("spark_query_catalog.halo_days",))
                if kept:
                    lab.properties[names[0]] = lab.properties[names[0]][:-1] + ", " + kept[0] + ")"
            results[NOTHING_NEW] = _run_chain(lab, models)
            results[FULL_REFRESH] = _run_chain(lab, models, "--full-refresh")
            if incremental != [lab.totals(name) for name in names]:
                raise AssertionError(f"{label}, {days} days: the incremental run differs")
            if round_ > 0:  # round 0 warms up
                for measure_, result in results.items():
                    times[measure_].append(result["wall"])
                    own[measure_].append(result["statements"])
                    reads[measure_].append(result["read"])
                    by_model[measure_].append(result["wall_by_model"])
            progress.update()
        medians = {m: statistics.median(v) for m, v in times.items()}
        records.append({
            "model": label,
            "days": days,
            "events": days * DAILY_EVENTS,
            "batch": batch,
            "runs": runs,
            "seconds": times,
            "medians": medians,
            "statements_medians": {m: statistics.median(v) for m, v in own.items()},
            "medians_by_model": {
                m: {name: statistics.median(run[name] for run in v) for name in names}
                for m, v in by_model.items()
            },
            # Each model's reads (the first round's), and in all.
            "read_by_model": {m: v[0] for m, v in reads.items()},
            "read": {m: _summed(v[0]) for m, v in reads.items()},
            "changed_rows": changed[-1],
            "incremental_over_full_refresh": medians[INCREMENTAL] / medians[FULL_REFRESH],
        })  # fmt: skip
        for name in names:
            dbt.sql(f"drop table {SCHEMA}.{name}_after_history")
    return records


def _summed(reads: dict[str, dict[str, int]]) -> dict[str, int]:
    return {key: sum(read[key] for read in reads.values()) for key in ("rows", "bytes")}


def markdown(records: list[dict[str, Any]]) -> str:
    lines = [
        "| model | history | incremental | nothing new (its statements) | full refresh "
        "| incremental / full refresh | incremental reads | full refresh reads |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in records:
        m, own, read = r["medians"], r["statements_medians"], r["read"]
        lines.append(
            f"| {r['model']} | {r['days']} days, {r['events']:,} events | {m[INCREMENTAL]:.2f} s | "
            f"{m[NOTHING_NEW]:.2f} s ({own[NOTHING_NEW]:.2f} s) | {m[FULL_REFRESH]:.2f} s | "
            f"{r['incremental_over_full_refresh']:.1%} | "
            f"{read[INCREMENTAL]['rows']:,} rows, {read[INCREMENTAL]['bytes'] / 1e6:.1f} MB | "
            f"{read[FULL_REFRESH]['rows']:,} rows, {read[FULL_REFRESH]['bytes'] / 1e6:.1f} MB |"
        )
    by_model: dict[str, list[dict[str, Any]]] = {}
    for r in records:
        by_model.setdefault(r["model"], []).append(r)
    notes = []
    for model, rows in by_model.items():
        if len(rows) > 1:
            first, last = rows[0], rows[-1]
            growth = last["medians"][INCREMENTAL] / first["medians"][INCREMENTAL]
            notes.append(
                f"- {model}: the incremental run at {last['days']} days costs {growth:.2f}x the "
                f"run at {first['days']} days, for {last['events'] / first['events']:.0f}x the "
                "history."
            )
    for r in records:
        if r["model"] in CHAINS:
            first, summary = CHAINS[r["model"]][0][0], CHAINS[r["model"]][-1][0]
            summary_rows = r["read_by_model"][INCREMENTAL][summary]["rows"]
            times = ", ".join(
                f"{name} {seconds:.2f} s"
                for name, seconds in r.get("medians_by_model", {}).get(INCREMENTAL, {}).items()
            )
            notes.append(
                f"- {r['model']}, {r['days']} days: the incremental runs ({times}); {first}'s "
                f"run changed {r['changed_rows']:,} rows, {summary}'s run read "
                f"{summary_rows:,} rows ({summary_rows / max(r['changed_rows'], 1):.2f}x)."
            )
    return "\n".join(lines + (["", *notes] if notes else [])) + "\n"


def write_report(records: list[dict[str, Any]], output: Path) -> None:
    output.mkdir(parents=True, exist_ok=True)
    (output / "windows.json").write_text(
        json.dumps({"daily_events": DAILY_EVENTS, "users": USERS, "records": records}, indent=2)
    )
    (output / "windows.md").write_text(markdown(records))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--days", default="100,400", help="history sizes, comma-separated")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--output", type=Path, default=OUTPUT)
    parser.add_argument(
        "--models",
        default=";".join([*MODELS, *CHAINS]),
        help="models to measure, separated by ';' (the others keep their records in the json)",
    )
    parser.add_argument(
        "--report-only", action="store_true", help="rewrite windows.md from the json"
    )
    args = parser.parse_args()
    if args.report_only:
        records = json.loads((args.output / "windows.json").read_text())["records"]
        (args.output / "windows.md").write_text(markdown(records))
        return
    use_bench_environment(ROOT, ".state/bench_windows")
    sizes = [int(days) for days in args.days.split(",")]
    models = [label.strip() for label in args.models.split(";")]
    unknown = sorted(set(models) - set(MODELS) - set(CHAINS))
    if unknown:
        parser.error(f"--models: {unknown} are not among {sorted([*MODELS, *CHAINS])}")
    lab = WindowsLab()
    records = []
    with tqdm(total=len(sizes) * len(models) * (args.runs + 1), desc="incremental windows") as bar:
        for days in sizes:
            bar.set_postfix_str(f"{days} days")
            records += measure(lab, days, args.runs, bar, models)
    lab.dbt.drop_schema()
    labels = [*MODELS, *CHAINS]
    if set(models) != set(labels) and (args.output / "windows.json").exists():
        earlier = json.loads((args.output / "windows.json").read_text())["records"]
        records = [r for r in earlier if r["model"] not in models] + records
        records.sort(key=lambda r: (r["days"], labels.index(r["model"])))
    write_report(records, args.output)
    print(markdown(records))


if __name__ == "__main__":
    main()
