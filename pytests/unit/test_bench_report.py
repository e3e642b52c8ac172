"""The bench report's arithmetic: a DuckDB line (another engine's time on
the same data) is shown for scale but is never a family's fastest, so the
macros' ratios and targets are against Spark's alternatives alone. And a
run of some families keeps the others' results."""

from __future__ import annotations

import json

from sqc.bench.families import DUCKDB, ROLLING_MACRO
from sqc.bench.report import Report, Timing
from sqc.bench.run import OUTPUT, kept_families


def test_a_duckdb_line_is_never_the_fastest() -> None:
    macro = Timing("f", ROLLING_MACRO, [2.0, 2.2, 1.8], [4.0, 4.0, 4.0])
    other = Timing("f", "Spark's frame (by hand)", [4.0, 4.0, 4.0], [8.0, 8.0, 8.0])
    duck = Timing("f", DUCKDB, [0.5, 0.5, 0.5], [1.0, 1.0, 1.0], yardstick=True)
    report = Report(100, 3, [macro, other, duck])
    assert report.fastest("f") is macro
    assert report.ratio(other) == 2.0 and report.ratio(duck) == 0.25
    assert report.cpu_ratio(macro) == 1.0
    targets = {t.target: t.met for t in report.targets()}
    assert targets == {f"f: {ROLLING_MACRO} within 1.05x of the fastest": True}
    again = Report.from_json(report.as_json())
    assert [t.yardstick for t in again.timings] == [False, False, True]
    assert "DuckDB line" in report.table()


def test_a_run_of_some_families_keeps_every_family_of_the_report() -> None:
    """`--match ... --keep` rewrites bench.json with the families it ran and
    the earlier results of the others it knows: every family in the
    committed report must be one of those, or its results would vanish."""
    report = json.loads((OUTPUT / "bench.json").read_text())
    families = {timing["family"] for timing in report["timings"]}
    assert families - kept_families() == set()
