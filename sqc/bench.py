"""Side-by-side timings of the macros' SQL and its alternatives, in one process.

    python -m sqc.bench --rows 2000000 --runs 3

Data is generated in Spark (spark.range), written as parquet tables in a
bench schema; each query's SQL is compiled by dbt from the macros, so what is
timed is exactly what a model runs. Every query is run once to warm up, then
`--runs` times in rotation; results are forced with the `noop` writer. The
report gives median, min and max per alternative and the ratio of each median
to the fastest one of its family.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from sqc.dbt_harness import DbtProject, use_project_environment

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = "bench"


@dataclass
class Timing:
    family: str
    name: str
    seconds: list[float]

    @property
    def median(self) -> float:
        return statistics.median(self.seconds)


def _prepare(dbt: DbtProject, rows: int) -> None:
    wide_columns = ", ".join(f"cast((id * {i + 7}) % 1000 as int) as c{i}" for i in range(8))
    statements = [
        f"drop table if exists {SCHEMA}.wide",
        f"create table {SCHEMA}.wide using parquet as select id, {wide_columns} "
        f"from range(0, {rows})",
        f"create or replace view {SCHEMA}.wide_aggregated as select id % 100000 as id, "
        + ", ".join(f"cast(sum(c{i}) as int) as c{i}" for i in range(8))
        + f" from {SCHEMA}.wide group by id % 100000",
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
    for statement in statements:
        dbt.sql(statement)


def _alternatives(dbt: DbtProject) -> dict[str, dict[str, str]]:
    columns = [f"c{i}" for i in range(8)]
    union = " union all ".join(
        f"select id, '{c}' as name, {c} as value from {{src}} where {c} is not null"
        for c in columns
    )
    stack = (
        "select id, name, value from {src} lateral view stack(8, "
        + ", ".join(f"'{c}', {c}" for c in columns)
        + ") s as name, value where value is not null"
    )
    families: dict[str, dict[str, str]] = {}
    for source in ["wide", "wide_aggregated"]:
        src = f"{SCHEMA}.{source}"
        families[f"unpivot over {source}"] = {
            "macro (UNPIVOT)": dbt.compile_inline(f"{{{{ unpivot('{src}', exclude=['id']) }}}}"),
            "stack()": stack.format(src=src),
            "UNION ALL (dbt_utils style)": union.format(src=src),
        }
    events = f"{SCHEMA}.events"
    families["sessionize (30 minutes)"] = {
        "macro default (gaps and islands)": dbt.compile_inline(
            f"{{{{ sessionize('{events}', 'user_id', 'event_at', '30 minutes') }}}}"
        ),
        "session_window": dbt.compile_inline(
            f"{{{{ sessionize('{events}', 'user_id', 'event_at', '30 minutes', "
            "method='session_window') }}"
        ),
    }
    families["session_windows (30 minutes)"] = {
        "macro default (gaps and islands)": dbt.compile_inline(
            f"{{{{ session_windows('{events}', 'user_id', 'event_at', '30 minutes', "
            "'count(*)') }}"
        ),
        "session_window": dbt.compile_inline(
            f"{{{{ session_windows('{events}', 'user_id', 'event_at', '30 minutes', "
            "'count(*)', method='session_window') }}"
        ),
    }
    sales = f"{SCHEMA}.sales"
    products = [f"p{i}" for i in range(-11, 12)]
    case_when = (
        "select store_id, "
        + ", ".join(f"sum(case when product = '{p}' then amount end) as `{p}`" for p in products)
        + f" from {sales} group by store_id"
    )
    families["pivot"] = {
        "macro (PIVOT)": dbt.compile_inline(
            f"{{{{ pivot('{sales}', 'product', 'sum(amount)', values={products!r}, "
            "group_by='store_id') }}"
        ),
        "CASE WHEN": case_when,
    }
    windows = {
        "ROWS 100 preceding": "preceding=100",
        "RANGE 100 preceding": "frame='range', preceding=100",
        "RANGE interval 1 day": "frame='range', preceding='1 day'",
    }
    families["rolling"] = {}
    for name, frame in windows.items():
        order_by = "sold_at" if "interval" in name else "id"
        window = dbt.compile_inline(
            f"{{{{ rolling('sum(amount)', '{order_by}', partition_by='store_id', {frame}) }}}}"
        )
        families["rolling"][name] = f"select *, {window} as amount_sum from {sales}"
    return families


def run(rows: int, runs: int, output: Path) -> list[Timing]:
    dbt = DbtProject(ROOT, schema=SCHEMA)
    dbt.create_schema()
    _prepare(dbt, rows)
    spark = dbt.spark()
    families = _alternatives(dbt)
    timings: list[Timing] = []
    for family, queries in families.items():
        frames = {name: spark.sql(sql) for name, sql in queries.items()}
        for frame in frames.values():
            frame.write.format("noop").mode("overwrite").save()
        results = {name: Timing(family, name, []) for name in frames}
        for _ in range(runs):
            for name, frame in frames.items():
                start = time.perf_counter()
                frame.write.format("noop").mode("overwrite").save()
                results[name].seconds.append(time.perf_counter() - start)
        timings.extend(results.values())
        best = min(t.median for t in results.values())
        for timing in results.values():
            print(
                f"{family:32} {timing.name:34} median {timing.median:7.2f}s "
                f"min {min(timing.seconds):6.2f}s max {max(timing.seconds):6.2f}s "
                f"x{timing.median / best:5.2f}",
                flush=True,
            )
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(
        json.dumps({"rows": rows, "runs": runs, "timings": [asdict(t) for t in timings]}, indent=2)
    )
    dbt.drop_schema()
    return timings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=2_000_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--output", type=Path, default=ROOT / "target" / "bench.json")
    args = parser.parse_args()
    use_project_environment(ROOT, ".state/bench")
    os.environ.setdefault("SPARK_DRIVER_MEMORY", "4g")
    run(args.rows, args.runs, args.output)


if __name__ == "__main__":
    main()
