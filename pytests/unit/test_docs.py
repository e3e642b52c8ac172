"""Each fact about a macro is written once: its arguments in macros.yml,
the README's tables generated from it, the README's figures from the
benchmarks' output, the units of a duration from the parser's own list."""

from __future__ import annotations

import re

import pytest
import yaml

from sqc import docs
from sqc.paths import ROOT
from sqc.testing.jinja import Library, macro_definitions


def test_the_readme_is_generated_from_its_sources() -> None:
    """The argument tables (macros.yml) and the figures (docs/bench/*.json)
    in README.md are what `python -m sqc.docs` writes."""
    text = docs.README.read_text()
    assert docs.render(text) == text, "README.md is out of date: run python -m sqc.docs"


def test_every_documented_macro_with_arguments_has_its_table_in_the_readme() -> None:
    text = docs.README.read_text()
    for name, entry in docs.macros().items():
        shown = name.removeprefix("test_")
        if entry.get("arguments") and not name.startswith(("spark__", "materialization_")):
            assert f"<!-- BEGIN arguments of {shown} -->" in text, name


PUBLIC = [
    (path, name, arguments)
    for path, name, arguments in macro_definitions()
    if path.parent.name in ("sql", "generic_tests") and not name.startswith(("_", "default__"))
]


@pytest.mark.parametrize(("path", "name", "arguments"), PUBLIC, ids=[n for _, n, _ in PUBLIC])
def test_headers_describe_no_argument(path: object, name: str, arguments: list[str]) -> None:
    """A header gives the signature, what the macro emits and an example;
    an argument's text lives in macros.yml only, where it cannot drift."""
    header = re.match(r"\{#-\n(.*?)\n-#\}", path.read_text(), re.S)  # type: ignore[attr-defined]
    assert header, path
    for argument in arguments:
        assert not re.search(rf"(?m)^    {argument}\s{{2,}}\S", header.group(1)), (name, argument)


def _argument(macro: str, name: str) -> str:
    entry = docs.macros()[macro]
    return next(a["description"] for a in entry["arguments"] if a["name"] == name)


def test_the_gap_units_are_the_parsers() -> None:
    """The units a fixed gap takes, as the parser lists them, are the ones
    macros.yml names and the error names (milliseconds included)."""
    library = Library()
    units = library.call("_sqc_duration_units_text")
    parsed = library.call("_sqc_interval_units")
    day_time = [unit for unit, fields in parsed.items() if fields == "day_time"]
    assert units == ", ".join(f"{u}s" for u in day_time[:-1]) + f" or {day_time[-1]}s"
    assert "milliseconds" in units and "microseconds" in units
    assert units in " ".join(_argument("sessionize", "gap").split())
    message = library.error("_sqc_duration", "1 month", "sessionize")
    assert f"a duration of {units}" in message


def test_macros_yml_is_the_reference_dbt_docs_shows() -> None:
    """Every argument has a type and a description; no description is empty."""
    entries = yaml.safe_load((ROOT / "macros" / "macros.yml").read_text())["macros"]
    for entry in entries:
        assert entry["description"].strip(), entry["name"]
        for argument in entry.get("arguments", []):
            assert argument["type"].strip() and argument["description"].strip(), argument
