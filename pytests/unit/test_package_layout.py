"""What a package user gets: macros, generic tests and a materialization,
and none of the catalog's nodes; and one source of truth for each macro's
signature."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from sqc.testing.jinja import ROOT, macro_definitions

CATALOG_ONLY = (
    "{{ var('spark_query_catalog_build_catalog', project_name == 'spark_query_catalog') }}"
)
PROPERTIES = [*sorted((ROOT / "models").glob("*/*.yml")), ROOT / "seeds" / "seeds.yml"]


def _tests(entry: dict) -> list[tuple[str, dict]]:
    found = []
    for test in entry.get("data_tests", []) or []:
        ((name, body),) = test.items()
        found.append((name, body))
    for column in entry.get("columns", []) or []:
        found.extend(_tests(column))
    return found


@pytest.mark.parametrize("path", PROPERTIES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_catalog_node_and_test_builds_only_at_home(path: Path) -> None:
    """Each model and seed, and each test on it, is enabled only when this
    project is the root project (or a consumer sets the variable): installed
    as a package, none of them is built or run."""
    properties = yaml.safe_load(path.read_text())
    for key in ("models", "seeds"):
        for entry in properties.get(key, []) or []:
            assert entry["config"]["enabled"] == CATALOG_ONLY, (path, entry["name"])
            for name, body in _tests(entry):
                assert body["config"]["enabled"] == CATALOG_ONLY, (path, entry["name"], name)


def test_every_catalog_file_has_properties() -> None:
    """A model, seed or singular test without its catalog-only config would
    be built in every consumer's project."""
    named = set()
    for path in PROPERTIES:
        properties = yaml.safe_load(path.read_text())
        for key in ("models", "seeds"):
            named |= {entry["name"] for entry in properties.get(key, []) or []}
    files = {p.stem for p in (ROOT / "models").rglob("*.sql")}
    files |= {p.stem for p in (ROOT / "seeds").rglob("*.csv")}
    assert files - named == set()
    for path in (ROOT / "tests").rglob("*.sql"):
        head = " ".join(path.read_text().split())
        assert head.startswith(
            "{{ config(enabled=var( 'spark_query_catalog_build_catalog', "
            "project_name == 'spark_query_catalog' )) }}"
        ), path


def _public_macros() -> dict[str, list[str]]:
    """Public macros (and generic tests) with their arguments, from the code."""
    public = {}
    for path, name, arguments in macro_definitions():
        top = path.relative_to(ROOT / "macros").parts[0]
        if top in ("sql", "generic_tests", "hooks") and not name.startswith(("default__", "_")):
            public[name] = arguments
    return public


def test_the_public_macros_are_the_documented_ones() -> None:
    documented = yaml.safe_load((ROOT / "macros" / "macros.yml").read_text())["macros"]
    names = {entry["name"] for entry in documented}
    assert set(_public_macros()) <= names
    assert "materialization_incremental_sessions_spark" in names


@pytest.mark.parametrize("name", sorted(_public_macros()))
def test_signatures_agree_in_code_header_macros_yml_and_readme(name: str) -> None:
    """The macro's arguments, its header comment's first line, its entry in
    macros.yml and its signature in the README name the same arguments, in
    the same order."""
    arguments = _public_macros()[name]
    shown = name.removeprefix("test_")
    documented = {
        entry["name"]: [a["name"] for a in entry.get("arguments", [])]
        for entry in yaml.safe_load((ROOT / "macros" / "macros.yml").read_text())["macros"]
    }
    assert documented[name] == arguments
    path = next(p for p, n, _ in macro_definitions() if n == name)
    header = re.search(
        r"\{#-\s*\n\s*" + re.escape(shown) + r"\((.*?)\)\s*\n\s*\n", path.read_text(), re.S
    )
    assert header, f"{path.name}: the header comment starts with the signature"
    assert (
        _names(header.group(1)) == [a for a in arguments if a != "model"]
        or _names(header.group(1)) == arguments
    )
    readme = (ROOT / "README.md").read_text()
    signature = re.search(r"`" + re.escape(shown) + r"\((.*?)\)`", readme, re.S)
    assert signature, f"the README shows `{shown}(...)`"
    assert _names(signature.group(1)) in (arguments, [a for a in arguments if a != "model"])


def _names(signature: str) -> list[str]:
    return [
        part.split("=")[0].strip()
        for part in re.split(r",\s*", " ".join(signature.split()))
        if part.strip()
    ]


def test_error_messages_name_macros_and_arguments_not_files() -> None:
    """Inside dbt_packages/, a repository path means nothing to a user."""
    for path in (ROOT / "macros").rglob("*.sql"):
        for message in re.findall(r"_sqc_(?:error|fail)\((.*?)\)\s*-?}}", path.read_text(), re.S):
            assert not re.search(r"macros/\w", message), (path, message)
