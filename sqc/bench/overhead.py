"""dbt's own overhead: `dbt build` of the catalog against the same SQL run
bare in one Spark process, whole process against whole process.

    python -m sqc.bench.overhead [--runs 3]

First, one `dbt build` (session target) records every statement dbt sends
to Spark, with the node it ran for. Then, A B C A B C, each a fresh process
with its own JVM start, on an empty warehouse and metastore each time:

  dbt build        `dbt build --target session`: seeds, models, tests
  bare, the work   a PySpark script running, in order, the statements that
                   do the work: the seed loads (the same CSV reads and
                   CREATE TABLE ... AS SELECT), the models' CREATE TABLE /
                   VIEW ... AS SELECT and the tests' queries
  bare, all        the same script running every statement dbt sent:
                   dbt's metadata questions, the orphan probe before each
                   CREATE TABLE (macros/_internal/_sqc_locations.sql) and
                   the plan recorder's statements included

`dbt build` over "bare, the work" is dbt's overhead on the catalog; "bare,
all" less "bare, the work" is what the statements dbt adds cost Spark
(timed per kind in that run), and `dbt build` less "bare, all" is dbt's own
Python work: its start, parse, Jinja and results. Writes
docs/bench/overhead.json and docs/bench/overhead.md.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import yaml

from sqc.paths import ROOT, home_environment

OUTPUT = ROOT / "docs" / "bench"
STATE = ROOT / ".state" / "bench_overhead"
SCHEMA = "bench_overhead"
STATEMENTS = STATE / "statements.json"
DBT_BUILD = "dbt build"
BARE_WORK = "bare, the work"
BARE_ALL = "bare, all"

# What each statement dbt sends is for, by its first words.
KINDS = [
    ("plan recorder", ("explain", "alter table", "alter view")),
    ("metadata", ("show", "describe", "drop", "create schema", "create database", "use")),
    (
        "seeds",
        (
            "create temporary view",
            "create or replace temporary view",
            "cache table",
            "uncache table",
        ),
    ),
    ("work", ("create", "insert", "select", "with")),
]

WORK_KINDS = ("work", "seeds", "tests")


def kind(node: str, sql: str) -> str:
    """The kind of a statement: test queries (unit tests' fixtures included)
    are `tests`, seed loads `seeds`."""
    words = " ".join(
        line for line in sql.strip().splitlines() if not line.lstrip().startswith("/*")
    ).lower()
    words = " ".join(words.split())
    if "__spark_query_catalog_probe" in words:
        return "orphan probe"
    for name, starts in KINDS:
        if words.startswith(starts):
            if name in ("work", "seeds") and node.startswith(("test.", "unit_test.")):
                return "tests"
            if name == "work" and node.startswith("seed."):
                return "seeds"
            return name
    return "metadata"


def _environment(run: str) -> dict[str, str]:
    """A fresh warehouse and metastore for each process."""
    state = STATE / run
    shutil.rmtree(state, ignore_errors=True)
    state.mkdir(parents=True)
    return {
        **home_environment(),
        "DBT_PROFILES_DIR": str(ROOT / "profiles"),
        "DBT_SCHEMA": SCHEMA,
        "SPARK_STATE_DIR": str(state),
        "SPARK_LOCAL_IP": "127.0.0.1",
        "DBT_LOG_PATH": str(state / "logs"),
        "PYSPARK_PYTHON": sys.executable,
    }


def capture() -> None:
    """One `dbt build` in this process: every statement, in order, with its node."""
    from sqc.testing.dbt_harness import DbtProject

    os.environ.update(_environment("capture"))
    os.chdir(ROOT)
    statements: list[dict[str, str]] = []

    def collect(event: Any) -> None:
        if event.info.name == "SQLQuery":
            node = event.data.node_info.unique_id if event.data.node_info else ""
            statements.append({"node": node, "sql": event.data.sql})

    dbt = DbtProject(ROOT, schema=SCHEMA)
    from dbt.cli.main import dbtRunner

    result = dbtRunner(callbacks=[collect]).invoke(
        ["build", "--project-dir", str(ROOT), "--target", "session", "--quiet"]
    )
    if not result.success:
        raise SystemExit("dbt build failed")
    spark = dbt.spark()
    profile = yaml.safe_load((ROOT / "profiles" / "profiles.yml").read_text())
    keys = profile["spark_query_catalog"]["outputs"]["session"]["server_side_parameters"]
    conf = {key: spark.conf.get(key) for key in keys if key != "spark.master"}
    conf["spark.master"] = spark.sparkContext.master
    STATEMENTS.write_text(json.dumps({"conf": conf, "statements": statements}, indent=1))


def bare(which: str) -> None:
    """Run the recorded statements (all, or the work) in one Spark, timing each kind."""
    from pyspark.sql import SparkSession

    recorded = json.loads(STATEMENTS.read_text())
    builder = SparkSession.builder
    for key, value in recorded["conf"].items():
        if key.startswith(("spark.sql.warehouse.dir", "spark.hadoop.javax", "spark.driver.extra")):
            value = value.replace(str(STATE / "capture"), os.environ["SPARK_STATE_DIR"])
        builder = builder.config(key, value)
    spark = builder.enableHiveSupport().getOrCreate()
    spark.sql(f"create schema if not exists {SCHEMA}")
    seconds: dict[str, float] = {}
    for statement in recorded["statements"]:
        statement_kind = kind(statement["node"], statement["sql"])
        if which == "work" and statement_kind not in WORK_KINDS:
            continue
        start = time.perf_counter()
        spark.sql(statement["sql"]).collect()
        seconds[statement_kind] = seconds.get(statement_kind, 0.0) + time.perf_counter() - start
    print(json.dumps(seconds))


def _process(name: str, run: str) -> tuple[float, dict[str, float]]:
    python = sys.executable
    command = {
        DBT_BUILD: [str(Path(python).parent / "dbt"), "build", "--target", "session", "--quiet"],
        BARE_WORK: [python, "-m", "sqc.bench.overhead", "bare", "work"],
        BARE_ALL: [python, "-m", "sqc.bench.overhead", "bare", "all"],
    }[name]
    environment = _environment(run)
    start = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, env=environment, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{name} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    kinds = json.loads(done.stdout.strip().splitlines()[-1]) if name != DBT_BUILD else {}
    return seconds, kinds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", nargs="*", default=[], help=argparse.SUPPRESS)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--output", type=Path, default=OUTPUT)
    parser.add_argument(
        "--report-only", action="store_true", help="rewrite overhead.md from overhead.json"
    )
    args = parser.parse_args()
    if args.report_only:
        report = json.loads((args.output / "overhead.json").read_text())
        (args.output / "overhead.md").write_text(markdown(report))
        return
    if args.mode[:1] == ["capture"]:
        capture()
        return
    if args.mode[:1] == ["bare"]:
        bare(args.mode[1])
        return
    STATE.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        [sys.executable, "-m", "sqc.bench.overhead", "capture"], cwd=ROOT, env=_environment("x")
    )
    if done.returncode != 0:
        raise SystemExit("the capture run failed")
    recorded = json.loads(STATEMENTS.read_text())["statements"]
    counts: dict[str, int] = {}
    for statement in recorded:
        name = kind(statement["node"], statement["sql"])
        counts[name] = counts.get(name, 0) + 1
    names = [DBT_BUILD, BARE_WORK, BARE_ALL]
    seconds: dict[str, list[float]] = {name: [] for name in names}
    kinds: list[dict[str, float]] = []
    for round_ in range(args.runs + 1):  # round 0 warms the disk cache
        for name in names:
            elapsed, by_kind = _process(name, f"{name.split(',')[0].replace(' ', '_')}")
            print(f"round {round_}: {name} {elapsed:.1f} s", flush=True)
            if round_ > 0:
                seconds[name].append(elapsed)
                if name == BARE_ALL:
                    kinds.append(by_kind)
    medians = {name: statistics.median(values) for name, values in seconds.items()}
    kind_medians = {k: statistics.median(run.get(k, 0.0) for run in kinds) for k in counts}
    report = {
        "runs": args.runs,
        "statements": counts,
        "seconds": seconds,
        "medians": medians,
        "bare_all_seconds_by_kind": kind_medians,
        "dbt_over_bare_work": medians[DBT_BUILD] / medians[BARE_WORK],
        "dbt_python": medians[DBT_BUILD] - medians[BARE_ALL],
    }
    args.output.mkdir(parents=True, exist_ok=True)
    (args.output / "overhead.json").write_text(json.dumps(report, indent=2))
    (args.output / "overhead.md").write_text(markdown(report))
    print(markdown(report))


def markdown(report: dict[str, Any]) -> str:
    m = report["medians"]
    lines = [
        f"Whole processes, JVM start included, median of {report['runs']}:",
        "",
        "| process | median | ratio to bare, the work |",
        "| --- | --- | --- |",
    ]
    for name, value in m.items():
        lines.append(f"| {name} | {value:.1f} s | {value / m[BARE_WORK]:.2f}x |")
    lines += [
        "",
        "Spark's time by kind of statement, in the `bare, all` run (median of "
        f"{report['runs']}), and dbt's own Python work (`dbt build` less `bare, all`):",
        "",
        "| part | seconds | statements | in `bare, the work` |",
        "| --- | --- | --- | --- |",
    ]
    for name, value in report["bare_all_seconds_by_kind"].items():
        work = "yes" if name in WORK_KINDS else "no"
        lines.append(f"| Spark: {name} | {value:.1f} s | {report['statements'][name]} | {work} |")
    lines.append(
        f"| dbt's own Python work (start, parse, Jinja, results) | {report['dbt_python']:.1f} s "
        "| | no |"
    )
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
