"""The README's generated parts, each from its one source.

    python -m sqc.docs           rewrite them in README.md
    python -m sqc.docs --check   exit 1 when README.md is not up to date

- Each public macro's arguments (type, default, allowed values, units) are
  written once, in macros/macros.yml (which `dbt docs` shows too); the README
  shows them as a table under the macro's signature, between
  `<!-- BEGIN arguments of NAME -->` and `<!-- END arguments of NAME -->`.
  The macros' header comments give the signature, what the macro emits and
  an example, and no argument text.
- The figures of "Measurements" come from the benchmarks' own output
  (docs/bench/*.json), between `<!-- BEGIN measurements -->` and
  `<!-- END measurements -->`.

pytests/unit/test_docs.py fails when either is out of date.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from typing import Any

import yaml

from sqc.bench.families import NATIVE_FRAME, SEGMENT_TREE
from sqc.paths import ROOT

README = ROOT / "README.md"
MACROS_YML = ROOT / "macros" / "macros.yml"
BENCH = ROOT / "docs" / "bench"

BLOCK = re.compile(r"(<!-- BEGIN (.+?) -->\n)(.*?)(<!-- END \2 -->)", re.S)


def macros() -> dict[str, dict[str, Any]]:
    entries = yaml.safe_load(MACROS_YML.read_text())["macros"]
    return {entry["name"]: entry for entry in entries}


def _cell(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def arguments_table(name: str) -> str:
    """A macro's arguments as a markdown table, from macros.yml."""
    entry = macros()[name]
    lines = ["| argument | type | what it takes |", "| --- | --- | --- |"]
    for argument in entry.get("arguments", []):
        # A generic test's model is given by dbt; "As for sessionize." rows
        # are said in the text above the table.
        if argument["name"] == "model" or argument["description"].startswith("As for "):
            continue
        lines.append(
            f"| `{argument['name']}` | {_cell(argument.get('type', ''))} "
            f"| {_cell(argument.get('description', ''))} |"
        )
    return "\n".join(lines) + "\n"


def _family(timings: list[dict[str, Any]], prefix: str) -> dict[str, dict[str, Any]]:
    families: dict[str, dict[str, Any]] = {}
    for timing in timings:
        if timing["family"].startswith(prefix):
            families.setdefault(timing["family"], {})[timing["name"]] = timing
    return families


def _macro(alternatives: dict[str, Any]) -> dict[str, Any]:
    """A family's default macro alternative: the first whose name starts with 'macro'."""
    return next(t for name, t in alternatives.items() if name.startswith("macro"))


def _windows_rows() -> list[tuple[str, str]]:
    """incremental_windows at the largest history, per model (docs/bench/windows.json)."""
    path = BENCH / "windows.json"
    if not path.exists():
        return []
    records = json.loads(path.read_text())["records"]
    rows = []
    for model in dict.fromkeys(r["model"] for r in records):
        mine = [r for r in records if r["model"] == model]
        small, large = mine[0], mine[-1]
        medians = large["medians"]
        # The growth, where the model was measured at two sizes of history.
        growth = (
            f"{medians['incremental'] / small['medians']['incremental']:.2f}x the run at "
            f"{small['events'] // 1_000_000}M, "
            if small is not large
            else ""
        )
        rows.append((
            f"`incremental_windows` run at {large['events'] // 1_000_000}M events of history"
            f" ({model})",
            f"{medians['incremental']:.2f} s: {growth}"
            f"{100 * medians['incremental'] / medians['full refresh']:.1f}% of a full refresh; "
            f"with nothing new, {large['statements_medians']['incremental, nothing new']:.2f} s"
            " of its own statements",
        ))  # fmt: skip
    return rows


def measurements() -> str:
    """The README's figures, worked out from docs/bench/*.json."""
    bench = json.loads((BENCH / "bench.json").read_text())
    timings = bench["timings"]
    # A macro whose physical plan is an alternative's own differs from it by
    # noise only: left out of "within", marked "same plan" in the ratios.
    macros_ = [
        t
        for t in timings
        if t["name"].startswith("macro") and "method=" not in t["name"] and not t["same_plan_as"]
    ]
    worst = max(macros_, key=lambda t: t["ratio_to_fastest"])
    worst_cpu = max(t["cpu_ratio_to_least"] for t in macros_)
    unpivot = {
        family.removeprefix("unpivot over "): alternatives["UNION ALL (dbt_utils style)"]["median"]
        / _macro(alternatives)["median"]
        for family, alternatives in _family(timings, "unpivot over").items()
    }
    rolling = {
        family.removeprefix("rolling "): (
            alternatives[NATIVE_FRAME]["median"] / _macro(alternatives)["median"],
            bool(_macro(alternatives)["same_plan_as"]),
        )
        for family, alternatives in _family(timings, "rolling").items()
    }
    segment_tree = {
        family.removeprefix("rolling "): alternatives[SEGMENT_TREE]["median"]
        / _macro(alternatives)["median"]
        for family, alternatives in _family(timings, "rolling").items()
        if SEGMENT_TREE in alternatives
    }
    sessions = json.loads((BENCH / "sessions.json").read_text())["records"]
    small, large = sessions[0], sessions[-1]
    seeds = json.loads((BENCH / "seeds.json").read_text())
    largest = max(record["rows"] for record in seeds)
    seed = next(r for r in seeds if r["rows"] == largest and r["loader"] == "ours (csv)")
    overhead = json.loads((BENCH / "overhead.json").read_text())["medians"]

    def events(record: dict[str, Any]) -> str:
        return f"{record['events'] // 1_000_000}M"

    rows = [
        (
            "macros against the fastest hand-written query of their family",
            f"within {worst['ratio_to_fastest']:.2f}x on the wall-clock (the most: "
            f"{worst['family']}), {worst_cpu:.2f}x in CPU time; macros whose physical plan "
            "is an alternative's own are left out",
        ),
        (
            "UNPIVOT against UNION ALL",
            ", ".join(f"{ratio:.2f}x faster over {view}" for view, ratio in unpivot.items()),
        ),
        (
            "`rolling` / `rolling_select` against Spark's sliding frame",
            ", ".join(
                f"{ratio:.2f}x on {family}" + (" (the same plan)" if same else "")
                for family, (ratio, same) in rolling.items()
            ),
        ),
        (
            "`rolling` / `rolling_select` against Spark 4.3's segment tree "
            "(`spark.sql.window.segmentTree.enabled`)",
            ", ".join(f"{ratio:.2f}x on {family}" for family, ratio in segment_tree.items())
            or "not measured yet",
        ),
        (
            f"`incremental_sessions` run at {events(large)} events of history",
            f"{large['medians']['incremental']:.2f} s: "
            f"{large['medians']['incremental'] / small['medians']['incremental']:.2f}x the run "
            f"at {events(small)}, "
            f"{100 * large['medians']['incremental'] / large['medians']['full refresh']:.1f}% of "
            "a full refresh, which is "
            f"{large['medians']['full refresh'] / large['medians']['session_windows + write']:.2f}x"
            " `session_windows` + write",
        ),
        *_windows_rows(),
        (
            f"a {largest:,}-row seed (the opt-in loader)",
            f"{seed['ratio_to_spark_read_csv']:.2f}x `spark.read.csv` + `saveAsTable`",
        ),
        (
            "`dbt build` of the catalog",
            f"{overhead['dbt build'] / overhead['bare, the work']:.2f}x the statements that do"
            " its work, run bare in PySpark",
        ),
    ]
    lines = ["| measured | figure |", "| --- | --- |"]
    lines += [f"| {what} | {figure} |" for what, figure in rows]
    lines += [
        "",
        "Medians, alternatives side by side in one process, on a 2-core machine;",
        "every figure with its runs: [docs/measurements.md](docs/measurements.md).",
    ]
    return "\n".join(lines) + "\n"


def render(text: str) -> str:
    """`text` (the README) with every generated block written anew."""
    documented = macros()

    def block(match: re.Match[str]) -> str:
        key = match.group(2)
        if key == "measurements":
            body = measurements()
        elif key.startswith("arguments of "):
            name = key.removeprefix("arguments of ")
            body = arguments_table(name if name in documented else f"test_{name}")
        else:
            raise ValueError(f"README.md: no generator for the block {key!r}")
        return match.group(1) + body + match.group(4)

    return BLOCK.sub(block, text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check; exit 1 if stale")
    args = parser.parse_args(argv)
    text = README.read_text()
    rendered = render(text)
    if args.check:
        if rendered != text:
            print("README.md is out of date: run python -m sqc.docs", file=sys.stderr)
            return 1
        return 0
    README.write_text(rendered)
    return 0


if __name__ == "__main__":
    sys.exit(main())
