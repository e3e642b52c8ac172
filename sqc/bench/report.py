"""The benchmark's report: medians, ratios, targets, markdown and chart."""

from __future__ import annotations

import json
import statistics
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from sqc.bench.families import (
    AGGREGATING_VIEWS,
    MACRO,
    MACRO_TOLERANCES,
    NATIVE_FRAME,
    ROLLING_MACRO,
    ROLLING_TARGETS,
    SEGMENT_TREE,
    UNION_ALL,
    UNPIVOT_MACRO,
    unpivot_family,
)

TOLERANCE = 1.05
UNPIVOT_TARGET = 5.0


@dataclass
class Timing:
    family: str
    name: str
    seconds: list[float] = field(default_factory=list)
    # Executor CPU time of each run (all its tasks, in seconds): the work
    # done, which the machine's scheduling and I/O waits move much less than
    # the wall-clock time.
    cpu_seconds: list[float] = field(default_factory=list)
    # The alternatives of the family whose physical plan is the same as this
    # one's (but for expression ids): a difference in time between them is noise.
    same_plan_as: list[str] = field(default_factory=list)
    # Rows of the family's data, when not the report's (a family run again
    # at another size with --families).
    rows: int | None = None
    # Another engine's time on the same data (DuckDB's): for scale, never
    # the family's fastest; its CPU time is the whole process's.
    yardstick: bool = False

    @property
    def median(self) -> float:
        return statistics.median(self.seconds)

    @property
    def cpu_median(self) -> float:
        return statistics.median(self.cpu_seconds)


@dataclass
class Target:
    target: str
    met: bool  # on the wall-clock medians
    measured: str
    cpu_met: bool  # on the medians of the executors' CPU time
    cpu_measured: str


# A query: SQL text, or a function of the SparkSession giving a DataFrame.


@dataclass
class Report:
    rows: int
    runs: int
    timings: list[Timing]

    def families(self) -> dict[str, list[Timing]]:
        grouped: dict[str, list[Timing]] = {}
        for timing in self.timings:
            grouped.setdefault(timing.family, []).append(timing)
        return grouped

    def fastest(self, family: str) -> Timing:
        return min(self._spark(family), key=lambda t: t.median)

    def _spark(self, family: str) -> list[Timing]:
        """The family's Spark alternatives (its yardstick left out)."""
        return [t for t in self.families()[family] if not t.yardstick]

    def ratio(self, timing: Timing) -> float:
        return timing.median / self.fastest(timing.family).median

    def label(self, timing: Timing) -> str:
        """The timing's family, with its rows and runs where not the report's."""
        family = timing.family
        if timing.rows not in (None, self.rows):
            family += f" ({timing.rows:,} rows)"
        if len(timing.seconds) != self.runs:
            family += f" (median of {len(timing.seconds)})"
        return family

    def cpu_ratio(self, timing: Timing) -> float:
        """Executor CPU time against the least of the family (median to median)."""
        return timing.cpu_median / min(t.cpu_median for t in self._spark(timing.family))

    def targets(self) -> list[Target]:
        """Each target the issue sets, checked on the wall-clock medians and on
        the executors' CPU time."""
        checks = []
        for family, timings in self.families().items():
            for timing in timings:
                if timing.name.startswith(MACRO) and "method=" not in timing.name:
                    ratio, cpu_ratio = self.ratio(timing), self.cpu_ratio(timing)
                    measured = f"{ratio:.2f}x"
                    fastest = self.fastest(family)
                    if fastest is not timing and fastest.name in timing.same_plan_as:
                        measured += f" (the same physical plan as {fastest.name})"
                    tolerance = MACRO_TOLERANCES.get(family, TOLERANCE)
                    checks.append(
                        Target(f"{family}: {timing.name} within {tolerance}x of the fastest",
                               ratio <= tolerance, measured,
                               cpu_ratio <= tolerance, f"{cpu_ratio:.2f}x")
                    )  # fmt: skip
        for view in AGGREGATING_VIEWS:
            by_name = {t.name: t for t in self.families().get(unpivot_family(view), [])}
            if UNION_ALL in by_name and UNPIVOT_MACRO in by_name:
                union_all = by_name[UNION_ALL]
                macro = by_name[UNPIVOT_MACRO]
                speedup = union_all.median / macro.median
                cpu_speedup = union_all.cpu_median / macro.cpu_median
                checks.append(
                    Target(f"unpivot over the aggregating view {view} at least "
                           f"{UNPIVOT_TARGET}x faster than UNION ALL",
                           speedup >= UNPIVOT_TARGET, f"{speedup:.2f}x",
                           cpu_speedup >= UNPIVOT_TARGET, f"{cpu_speedup:.2f}x")
                )  # fmt: skip
        for family, target in ROLLING_TARGETS.items():
            by_name = {t.name: t for t in self.families().get(family, [])}
            if ROLLING_MACRO in by_name and NATIVE_FRAME in by_name:
                # Against the faster of Spark's frames: sliding, and the
                # segment tree where it applies.
                spark = [by_name[n] for n in (NATIVE_FRAME, SEGMENT_TREE) if n in by_name]
                native = min(spark, key=lambda t: t.median)
                cpu_native = min(t.cpu_median for t in spark)
                macro = by_name[ROLLING_MACRO]
                speedup = native.median / macro.median
                cpu_speedup = cpu_native / macro.cpu_median
                wanted = f"at least {target}x faster than" if target > 1 else "never slower than"
                against = "the faster of Spark's frames" if len(spark) > 1 else "Spark's frame"
                checks.append(
                    Target(f"{family}: the macro {wanted} {against}",
                           speedup >= target, f"{speedup:.2f}x (against {native.name})",
                           cpu_speedup >= target, f"{cpu_speedup:.2f}x")
                )  # fmt: skip
        return checks

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Report:
        names = [f.name for f in fields(Timing)]
        timings = [Timing(**{k: v for k, v in t.items() if k in names}) for t in data["timings"]]
        return cls(data["rows"], data["runs"], timings)

    def write(self, output: Path) -> None:
        """bench.json, bench.md and bench.png in `output`."""
        output.mkdir(parents=True, exist_ok=True)
        (output / "bench.json").write_text(json.dumps(self.as_json(), indent=2))
        (output / "bench.md").write_text(self.markdown())
        self.chart(output / "bench.png")
        print(self.markdown())

    def as_json(self, targets: bool = True) -> dict[str, Any]:
        """The timings with their medians and ratios, and (`targets`) the
        issue's targets checked."""
        data = {
            "rows": self.rows,
            "runs": self.runs,
            "timings": [
                {
                    **asdict(t),
                    "median": t.median,
                    "ratio_to_fastest": self.ratio(t),
                    "cpu_median": t.cpu_median,
                    "cpu_ratio_to_least": self.cpu_ratio(t),
                }
                for t in self.timings
            ],
        }
        if targets:
            data["targets"] = [asdict(target) for target in self.targets()]
        return data

    def table(self) -> str:
        """The timings as a markdown table, after what its columns mean."""
        lines = [
            f"{self.rows:,} rows (unless a family says otherwise), median of {self.runs} runs "
            "after a warm-up, one Spark (`local[2]`), results forced with the `noop` writer. "
            "Median, min, max and ratio: wall-clock time. CPU time: the executors' CPU time "
            "of all the run's tasks (median), and its ratio to the least of the family. Same "
            "plan as: the alternatives whose physical plan is the same but for expression ids "
            "(their difference in time is noise). A DuckDB line is another engine's time on "
            "the same parquet files (2 threads; CPU time: the whole process's), for scale: "
            "never the family's fastest.",
            "",
            "| family | alternative | median | min | max | ratio to fastest "
            "| CPU time | CPU ratio | same plan as |",
            "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
        ]
        for timing in self.timings:
            lines.append(
                f"| {self.label(timing)} | {timing.name} | {timing.median:.2f} s | "
                f"{min(timing.seconds):.2f} s | {max(timing.seconds):.2f} s | "
                f"{self.ratio(timing):.2f}x | {timing.cpu_median:.2f} s | "
                f"{self.cpu_ratio(timing):.2f}x | {', '.join(timing.same_plan_as)} |"
            )
        return "\n".join(lines) + "\n"

    def markdown(self) -> str:
        """The table, then the targets checked."""
        lines = [
            "",
            "Targets, checked on the wall-clock medians and on the executors' CPU time:",
            "",
            "| target | met | measured | met on CPU time | measured on CPU time |",
            "| --- | --- | --- | --- | --- |",
        ]
        for t in self.targets():
            lines.append(
                f"| {t.target} | {'yes' if t.met else '**no**'} | {t.measured} | "
                f"{'yes' if t.cpu_met else '**no**'} | {t.cpu_measured} |"
            )
        return self.table() + "\n".join(lines) + "\n"

    def chart(self, path: Path) -> None:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        families = self.families()
        figure, axes = plt.subplots(
            len(families), 1, figsize=(9, 1.1 + 0.55 * len(self.timings)), squeeze=False
        )
        for axis, (family, timings) in zip(axes[:, 0], families.items(), strict=True):
            names = [t.name for t in timings]
            medians = [t.median for t in timings]
            errors = [
                [t.median - min(t.seconds) for t in timings],
                [max(t.seconds) - t.median for t in timings],
            ]
            colours = [
                "#1f77b4" if t.name.startswith(MACRO) else "#ff7f0e" if t.yardstick else "#aaaaaa"
                for t in timings
            ]
            axis.barh(names, medians, xerr=errors, color=colours, capsize=3)
            axis.plot([t.cpu_median for t in timings], range(len(timings)), "kD", markersize=4)
            axis.invert_yaxis()
            axis.set_title(family, fontsize=9, loc="left")
            axis.tick_params(labelsize=8)
            for index, timing in enumerate(timings):
                axis.text(
                    timing.median, index, f"  {timing.median:.2f} s ({self.ratio(timing):.2f}x)",
                    va="center", fontsize=7,
                )  # fmt: skip
        axes[-1, 0].set_xlabel(
            f"seconds, median of {self.runs} ({self.rows:,} rows); blue: macro; orange: DuckDB; "
            "bars: wall-clock (min to max); diamonds: executor CPU time"
        )
        figure.tight_layout()
        figure.savefig(path, dpi=110)
        plt.close(figure)
