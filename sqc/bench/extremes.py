"""min and max over ROWS frames: what any window form can cost, beside the
block form and Spark's segment tree (issue 23's 1.5x target).

    python -m sqc.bench.extremes [--rows 4000000] [--runs 5] [--preceding 1000]

On `sales` (the bench's table: 1,000 stores), side by side in one process as
`python -m sqc.bench` times its families (a warm-up, then rounds in
rotation, wall-clock and executors' CPU time):

  one sort, one window    row_number() alone: the shuffle, one sort and one
                          O(1) window, which every window form pays
  two directions, floor   the least a form that reads each block both ways
                          does: a second (descending) sort and three more
                          O(1) windows, running min and max that do not
                          restart at the blocks' edges, so its answers are
                          wrong: what the work costs, not an answer
  macro                   rolling_select's block form (van Herk /
                          Gil-Werman), as dbt compiles it
  segment tree            Spark's frame with
                          spark.sql.window.segmentTree.enabled
  sparse table            one sort: windows of 4, 16, 64 ... rows, each
                          level the greatest of four lags of the one before

The exact alternatives (macro, segment tree, sparse table) are checked to
give the same rows. Writes docs/bench/extremes.json and extremes.md.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from tqdm import tqdm

from sqc.bench.families import (
    ROLLING_EXTREMES,
    SCHEMA,
    SEGMENT_TREE,
    SEGMENT_TREE_CONF,
    Configured,
    Query,
    native_frame_sql,
    sales_statements,
)
from sqc.bench.report import Report
from sqc.bench.run import time_family
from sqc.paths import ROOT
from sqc.testing.dbt_harness import DbtProject, use_bench_environment

OUTPUT = ROOT / "docs" / "bench"
SALES = f"{SCHEMA}.sales"
OVER = "over (partition by store_id order by id)"
ONE_SORT = "one sort, one window (row_number alone)"
# What every window form over `sales` pays: the shuffle, one sort, one O(1) window.
ONE_SORT_SQL = f"select *, row_number() {OVER} as rolling_row from {SALES}"
FLOOR = "two directions, floor (not an answer)"
MACRO = "macro (rolling_select, block form)"
SPARSE = "sparse table (one sort, lags of lags)"
FUNCTIONS = {"amount_min": "least", "amount_max": "greatest"}


def two_directions_floor(preceding: int) -> str:
    """The block form's work without its restarts: numbered, a running min and
    max up, then down (a second sort) with a lag of the first, and a lead."""
    down = "over (partition by store_id order by rolling_row desc)"
    running = "rows between unbounded preceding and current row"
    return f"""
with numbered as (
    select *, row_number() {OVER} as rolling_row from {SALES}
),
up as (
    select *,
        min(amount) over (partition by store_id order by id {running}) as min_up,
        max(amount) over (partition by store_id order by id {running}) as max_up
    from numbered
),
down as (
    select *,
        least(min(amount) over (partition by store_id order by rolling_row desc {running}),
            lag(min_up, {preceding}) {down}) as min_pair,
        greatest(max(amount) over (partition by store_id order by rolling_row desc {running}),
            lag(max_up, {preceding}) {down}) as max_pair
    from up
)
select * except (rolling_row, min_up, max_up, min_pair, max_pair),
    lead(min_pair, {preceding}) {down} as amount_min,
    lead(max_pair, {preceding}) {down} as amount_max
from down"""


def sparse_levels(width: int, base: int = 4) -> tuple[list[int], list[int]]:
    """The sparse table's plan for a frame of `width` rows ending at the row:
    the spans of its levels (base, base^2, ... up to the width), and the lags
    of the last level (span s: the rows s - 1 back to the row) whose union is
    the frame, the first at the row and the last at the frame's start."""
    spans = []
    while (spans[-1] if spans else 1) * base <= width:
        spans.append((spans[-1] if spans else 1) * base)
    span = spans[-1] if spans else 1
    return spans, sorted({*range(0, width - span + 1, span), width - span})


def sparse_table(preceding: int, base: int = 4) -> str:
    """Exact, one sort: level k holds the frame of base^k rows ending at the
    row (the greatest of `base` lags of level k - 1); the frame is then a few
    lags of the last level (sparse_levels)."""

    def shifted(column: str, offset: int) -> str:
        return column if offset == 0 else f"lag({column}, {offset}) {OVER}"

    spans, offsets = sparse_levels(preceding + 1, base)
    ctes, source, span = [], SALES, 1
    columns = dict.fromkeys(FUNCTIONS, "amount")
    for level in spans:
        items = []
        for alias, function in FUNCTIONS.items():
            terms = ", ".join(shifted(columns[alias], span * i) for i in range(base))
            items.append(f"{function}({terms}) as {alias}_{level}")
        done = "" if span == 1 else f" except ({', '.join(columns.values())})"
        ctes.append(f"level_{level} as (select *{done}, {', '.join(items)} from {source})")
        source, span = f"level_{level}", level
        columns = {alias: f"{alias}_{level}" for alias in FUNCTIONS}
    final = [
        f"{function}({', '.join(shifted(columns[alias], o) for o in offsets)}) as {alias}"
        for alias, function in FUNCTIONS.items()
    ]
    helpers = f" except ({', '.join(columns.values())})" if spans else ""
    select = f"select *{helpers}, {', '.join(final)} from {source}"
    return "with " + ",\n".join(ctes) + "\n" + select if ctes else select


def alternatives(dbt: DbtProject, preceding: int) -> dict[str, Query]:
    frame = f"rows between {preceding} preceding and current row"
    spark_frame = ", ".join(
        f"{native_frame_sql(aggregate, 'store_id', 'id', frame)} as {alias}"
        for alias, aggregate in ROLLING_EXTREMES.items()
    )
    return {
        ONE_SORT: ONE_SORT_SQL,
        FLOOR: two_directions_floor(preceding),
        MACRO: dbt.compile_inline(
            f"{{{{ rolling_select('{SALES}', {ROLLING_EXTREMES!r}, 'id', "
            f"partition_by='store_id', preceding={preceding}) }}}}"
        ),
        SEGMENT_TREE: Configured(f"select *, {spark_frame} from {SALES}", SEGMENT_TREE_CONF),
        SPARSE: sparse_table(preceding),
    }


def sales_bench(rows: int, state: str) -> DbtProject:
    """A bench process on its own Spark state (`state`, under the project)
    with the bench's schema and its `sales` table of `rows` rows."""
    use_bench_environment(ROOT, state)
    dbt = DbtProject(ROOT, schema=SCHEMA)
    dbt.create_schema()
    for statement in sales_statements(rows):
        dbt.sql(statement)
    return dbt


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=4_000_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--preceding", type=int, default=1000)
    parser.add_argument("--output", type=Path, default=OUTPUT)
    args = parser.parse_args()
    dbt = sales_bench(args.rows, ".state/bench_extremes")
    queries = alternatives(dbt, args.preceding)
    family = f"min and max, ROWS {args.preceding} preceding"
    with tqdm(total=len(queries) * (args.runs + 2), desc="timing", unit="query") as progress:
        timings = time_family(
            dbt.spark(), family, queries, args.runs, progress, checked={MACRO, SEGMENT_TREE, SPARSE}
        )
    report = Report(args.rows, args.runs, timings)
    args.output.mkdir(parents=True, exist_ok=True)
    data = report.as_json(targets=False)  # the targets are bench-macros' families'
    (args.output / "extremes.json").write_text(json.dumps(data, indent=2) + "\n")
    (args.output / "extremes.md").write_text(report.table())
    print(report.table())
    dbt.drop_schema()


if __name__ == "__main__":
    main()
