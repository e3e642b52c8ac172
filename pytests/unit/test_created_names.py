"""The README's table of what the package creates in a user's schema names
exactly what the code creates: no name the code never makes, none left out.

The code's names are read from the macros: string literals that name a
relation, a column or a table property of the package, the property names
each materialization records, and the run tables' names as
_sqc_window_view_names renders them (they are composed of pieces)."""

from __future__ import annotations

import re

from sqc.paths import ROOT
from sqc.testing.jinja import Library, Relation, macro_definitions

README = ROOT / "README.md"
PREFIX = "spark_query_catalog"
# Names of the package's that are not objects in a user's schema: a model
# config, a project var, and columns that live inside one statement or one
# of the package's own temporary views.
NOT_CREATED = {
    f"{PREFIX}_fault_injection": "a private model config (tests' fault seam)",
    f"{PREFIX}_ansi": "a project var",
    f"{PREFIX}_marker": "a column inside the pending table's statement",
    f"{PREFIX}_copy": "a column inside a run's statement",
    f"{PREFIX}_row": "a column of the seed loader's own views",
    f"{PREFIX}_corrupt_record": "a column of the seed loader's own views",
}


def _readme_names() -> set[str]:
    """The backticked names in the first column of the README's table."""
    text = README.read_text()
    section = text.split("## What the package creates in your schema", 1)[1].split("\n## ", 1)[0]
    names = set()
    for line in section.splitlines():
        if line.startswith("| `"):
            names.update(re.findall(r"`([^`]+)`", line.split(" | ")[0]))
    return names


def _window_run_names() -> set[str]:
    """The names an incremental_windows run gives its tables and views, for a
    model `<model>` in `<schema>` with one frame that keeps its state."""
    names = Library().call(
        "_sqc_window_view_names", Relation("MODEL", "SCHEMA"), {"states": [{}]}, True
    )
    rendered = [names["view"], *names["heads"]] + [
        r.identifier for r in (names["run_events"], *names["anchors"], *names["run_results"])
    ]
    return {
        n.replace("SCHEMA", "<schema>").replace("MODEL", "<model>").replace("_1", "_<n>")
        for n in rendered
    }


def _code_pieces() -> set[str]:
    """Every piece of a created name the macros spell out: string literals
    holding the prefix, and the table properties each materialization
    records (`_sqc_record_state(table, {"name": ...})`)."""
    pieces = set()
    for path in (ROOT / "macros").rglob("*.sql"):
        text = path.read_text()
        code = re.sub(r"\{#.*?#\}", "", text, flags=re.S)  # comments name old things too
        for literal in re.findall(r"\"([^\"\n]*)\"|'([^'\n]*)'", code):
            for match in re.findall(rf"(?:__)?{PREFIX}(?:[._][a-z_]+)?", "".join(literal)):
                if match != f"{PREFIX}.":
                    pieces.add(match)
        for recorded in re.findall(r"_sqc_record_state\(\s*\w+,\s*\{(.*?)\}\s*\)", code, re.S):
            pieces.update(f"{PREFIX}.{name}" for name in re.findall(r"\"(\w+)\":", recorded))
    # A macro's name in a message ("spark_query_catalog.pivot: argument ...").
    macros = {f"{PREFIX}.{name}" for _, name, _ in macro_definitions()}
    return pieces - macros


def test_the_readme_lists_every_name_the_code_creates() -> None:
    listed = " ".join(_readme_names())
    missing = {
        piece
        for piece in _code_pieces() | _window_run_names()
        if piece.strip("_.") not in listed and piece.rstrip("_") not in NOT_CREATED
    }
    assert not missing, f"README's table of created names misses {sorted(missing)}"


def test_every_name_the_readme_lists_is_created_by_the_code() -> None:
    pieces = _code_pieces()
    windows = _window_run_names()
    code = " ".join(p.read_text() for p in (ROOT / "macros").rglob("*.sql"))
    for name in _readme_names():
        if name in windows:
            continue
        fixed = [part for part in re.split(r"<\w+>", name) if part.strip("_")]
        for part in fixed:
            made = any(part.strip("_") in piece for piece in pieces) or f'"{part}"' in code
            assert made, f"README lists {name!r}, but no macro makes {part!r}"
