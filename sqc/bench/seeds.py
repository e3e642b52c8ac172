"""`dbt seed` timed end to end: stock dbt-spark, this project's loader, Spark's reader.

    python -m sqc.bench.seeds --rows 10000 100000 --runs 3 [--target thrift]

Each run is a fresh process, JVM start included, as a user's `dbt seed` is:

  stock             dbt-spark's own seed loader (per-cell type lookups)
  ours (csv)        this project's loader, Spark reading the file (session default)
  ours (insert)     this project's loader, escaped batches into a staging table
  spark.read.csv    a PySpark script: spark.read.csv(...) then saveAsTable

With --target thrift the dbt runs go to a Spark Thrift server that the
benchmark starts on 127.0.0.1:10021 (its JVM is then started once, not per
run); spark.read.csv stays a local script, the same baseline.

The CSV has numeric, date and string columns. dbt-spark's stock loader is
quadratic: past `--stock-max-rows` it is not run (it would take hours).
Reports the median, min and max of each, and ratios to spark.read.csv.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import time
from datetime import date, datetime, timedelta
from pathlib import Path

from sqc.paths import ROOT
from sqc.servers import ThriftServer
from sqc.testing.seed_project import write_csv, write_project

STATE = ROOT / ".state" / "bench_seeds"
SPARK_SCRIPT = """
import sys
from pyspark.sql import SparkSession
path, table, state = sys.argv[1:4]
spark = (SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false")
    .config("spark.sql.warehouse.dir", state + "/warehouse")
    .config("spark.hadoop.javax.jdo.option.ConnectionURL",
            "jdbc:derby:;databaseName=" + state + "/metastore_db;create=true")
    .config("spark.driver.extraJavaOptions", "-Dderby.system.home=" + state)
    .enableHiveSupport().getOrCreate())
spark.sql("create schema if not exists bench_seeds")
(spark.read.options(header="true", inferSchema="true", multiLine="true", escape='"')
    .csv(path).write.mode("overwrite").format("parquet").saveAsTable(table))
"""


def _rows(count: int) -> list[list[str]]:
    rng = random.Random(count)
    start = date(2020, 1, 1)
    return [
        [
            str(i),
            f"{rng.uniform(0, 10_000):.2f}",
            (start + timedelta(days=rng.randrange(2000))).isoformat(),
            rng.choice(["north", "south", "east", "west"]) + f"-{rng.randrange(1000):03d}",
            str(rng.randrange(100)),
        ]
        for i in range(count)
    ]


def _timed(command: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    result = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - start
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed:\n{result.stdout[-3000:]}")
    return seconds


# dbt's log events that end each phase of a `dbt seed`, in order: the JVM
# starts with the first connection, which fills dbt's relation cache.
PHASES = [
    ("python start and dbt's imports", "MainReportVersion"),
    ("project load and parse", "FoundStats"),
    ("run setup", "ConcurrencyLine"),
    ("JVM, metastore and relation cache", "NodeStart"),
    ("agate reads and types the CSV", "SQLQuery"),
    ("the loader's Spark statements", "NodeFinished"),
    ("results and exit", None),
]


def breakdown(command: list[str], env: dict[str, str]) -> dict[str, float]:
    """One run of `command` (a dbt seed) with dbt's JSON debug log, cut into
    PHASES at the first event of each phase's end after the previous one."""
    logs = STATE / "breakdown_logs"
    shutil.rmtree(logs, ignore_errors=True)
    run_env = {**env, "DBT_LOG_PATH": str(logs)}
    extra = ["--log-format-file", "json", "--log-level-file", "debug"]
    start = time.time()
    subprocess.run([*command, *extra], env=run_env, capture_output=True, check=True)
    end = time.time()
    events = []
    for line in (logs / "dbt.log").read_text().splitlines():
        info = json.loads(line)["info"]
        when = datetime.fromisoformat(info["ts"].replace("Z", "+00:00")).timestamp()
        events.append((info["name"], when))
    phases: dict[str, float] = {}
    previous = start
    for label, name in PHASES:
        when = end if name is None else next(t for n, t in events if n == name and t >= previous)
        phases[label] = when - previous
        previous = when
    return phases


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--stock-max-rows", type=int, default=10_000)
    parser.add_argument(
        "--stock-runs", type=int, default=1, help="runs of the stock loader (minutes each)"
    )
    parser.add_argument("--target", choices=["session", "thrift"], default="session")
    parser.add_argument("--output", type=Path, default=ROOT / "docs" / "bench" / "seeds.json")
    args = parser.parse_args()
    server = None
    if args.target == "thrift":
        server = ThriftServer("thrift_bench", port=10021)
        os.environ["SPARK_THRIFT_PORT"] = "10021"
        server.start()
    try:
        _run(args)
    finally:
        if server is not None:
            server.stop()


def _run(args: argparse.Namespace) -> None:

    env = {
        **os.environ,
        "DBT_PROFILES_DIR": str(ROOT / "profiles"),
        "SPARK_STATE_DIR": str(STATE),
        "SPARK_LOCAL_IP": "127.0.0.1",
        "DBT_SCHEMA": "bench_seeds",
        "DBT_LOG_PATH": str(STATE / "logs"),
    }
    dbt = str(Path(sys.executable).with_name("dbt"))
    projects = {
        "stock": write_project(STATE / "stock", use_package_loader=False).parent,
        "ours (csv)": write_project(STATE / "csv", {"+seed_load_method": "csv"}).parent,
        "ours (insert)": write_project(STATE / "insert", {"+seed_load_method": "insert"}).parent,
    }
    for directory in projects.values():
        subprocess.run([dbt, "deps", "--project-dir", str(directory)], env=env, check=True,
                       capture_output=True)  # fmt: skip
    script = STATE / "spark_read_csv.py"
    script.write_text(SPARK_SCRIPT)

    report = []
    for count in args.rows:
        name = f"rows_{count}"
        for directory in projects.values():
            for old in (directory / "seeds").glob("*.csv"):
                old.unlink()
            write_csv(directory / "seeds" / f"{name}.csv",
                      ["id", "amount", "day", "label", "quantity"], _rows(count))  # fmt: skip
        commands = {
            label: [
                dbt,
                "seed",
                "--full-refresh",
                "--project-dir",
                str(directory),
                "--target",
                args.target,
                "--select",
                name,
            ]
            for label, directory in projects.items()
            if label != "stock" or count <= args.stock_max_rows
        }
        commands["spark.read.csv"] = [
            sys.executable,
            str(script),
            str(projects["ours (csv)"] / "seeds" / f"{name}.csv"),
            f"bench_seeds.{name}_spark",
            str(STATE),
        ]
        timings: dict[str, list[float]] = {label: [] for label in commands}
        for run in range(args.runs):
            for label, command in commands.items():
                if label == "stock" and run >= args.stock_runs:
                    continue
                timings[label].append(_timed(command, env))
                print(f"{count:>8} rows  {label:16} {timings[label][-1]:8.1f}s", flush=True)
        baseline = statistics.median(timings["spark.read.csv"])
        for label, seconds in timings.items():
            median = statistics.median(seconds)
            row = {"rows": count, "loader": label, "seconds": seconds, "median": median,
                   "ratio_to_spark_read_csv": median / baseline}  # fmt: skip
            row["target"] = args.target
            if label.startswith("ours (csv)") and count == max(args.rows):
                row["breakdown"] = breakdown(commands[label], env)
            report.append(row)
            print(
                f"{args.target:7} {count:>8} rows  {label:16} median {median:8.1f}s  "
                f"min {min(seconds):7.1f}s max {max(seconds):7.1f}s  "
                f"x{median / baseline:6.2f} of spark.read.csv",
                flush=True,
            )
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
