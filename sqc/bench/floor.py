"""A rolling bigint sum beside the least any window form costs (issue 44's
2x target against Spark's segment tree).

    python -m sqc.bench.floor [--rows 2000000] [--runs 5]

On `sales` (the bench's table: 1,000 stores), at ROWS 100 and ROWS 1,000,
side by side in one process as `python -m sqc.bench` times its families (a
warm-up, then rounds in rotation, wall-clock and executors' CPU time):

  one sort, one window    row_number() alone over the same window: the
                          shuffle, one sort and one O(1) window, which
                          every exact frame form pays (a ROWS frame is
                          defined by the rows' order)
  macro                   rolling('sum(amount_big)', ...), `auto`, as dbt
                          compiles it
  segment tree            Spark's frame with
                          spark.sql.window.segmentTree.enabled

The macro and the segment tree are checked to give the same rows. Prints a
table; nothing is written.
"""

from __future__ import annotations

import argparse
import statistics

from tqdm import tqdm

from sqc.bench.extremes import ONE_SORT, ONE_SORT_SQL, SALES, sales_bench
from sqc.bench.families import SEGMENT_TREE_CONF, Configured, Query, native_frame_sql
from sqc.bench.run import time_family
from sqc.testing.dbt_harness import DbtProject

MACRO = "macro (rolling, auto)"
SEGMENT_TREE = "Spark's segment tree"


def alternatives(dbt: DbtProject, preceding: int) -> dict[str, Query]:
    frame = f"rows between {preceding} preceding and current row"
    spark_sum = native_frame_sql("sum(amount_big)", "store_id", "id", frame)
    return {
        ONE_SORT: ONE_SORT_SQL,
        MACRO: dbt.compile_inline(
            f"select *, {{{{ rolling('sum(amount_big)', 'id', partition_by='store_id', "
            f"preceding={preceding}, relation='{SALES}') }}}} as amount_sum from {SALES}"
        ),
        SEGMENT_TREE: Configured(
            f"select *, {spark_sum} as amount_sum from {SALES}", SEGMENT_TREE_CONF
        ),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=2_000_000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    dbt = sales_bench(args.rows, ".state/bench_floor")
    lines = ["| width | alternative | median | CPU | segment tree / this |", "| --- " * 5 + "|"]
    for preceding in (100, 1000):
        queries = alternatives(dbt, preceding)
        family = f"rolling sum of bigint: ROWS {preceding} preceding"
        with tqdm(total=len(queries) * (args.runs + 2), desc=family, unit="query") as progress:
            timings = time_family(
                dbt.spark(), family, queries, args.runs, progress, checked={MACRO, SEGMENT_TREE}
            )
        medians = {t.name: statistics.median(t.seconds) for t in timings}
        for timing in timings:
            lines.append(
                f"| ROWS {preceding} | {timing.name} | {medians[timing.name]:.2f} s "
                f"| {statistics.median(timing.cpu_seconds):.2f} s "
                f"| {medians[SEGMENT_TREE] / medians[timing.name]:.2f}x |"
            )
    print("\n".join(lines))
    dbt.drop_schema()


if __name__ == "__main__":
    main()
