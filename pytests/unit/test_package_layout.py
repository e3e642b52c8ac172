"""What a package user gets: macros, generic tests and a materialization,
and none of the catalog's nodes; how the catalog is laid out; and one
source of truth for each macro's signature."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
import yaml

from sqc.paths import HOME_VARIABLE, MODELS, ROOT, SEEDS
from sqc.testing.jinja import macro_definitions


def _paths(home: bool) -> dict[str, list[str]]:
    """dbt_project.yml's resource paths as dbt renders them, with the home
    variable set or not (dbt's own renderer, the one every dbt command uses)."""
    from dbt.config.renderer import DbtProjectYamlRenderer
    from dbt_common.context import set_invocation_context

    previous = os.environ.pop(HOME_VARIABLE, None)
    if home:
        os.environ[HOME_VARIABLE] = "true"
    try:
        set_invocation_context(dict(os.environ))
        rendered = DbtProjectYamlRenderer(None, {}).render_data(
            yaml.safe_load((ROOT / "dbt_project.yml").read_text())
        )
    finally:
        os.environ.pop(HOME_VARIABLE, None)
        if previous is not None:
            os.environ[HOME_VARIABLE] = previous
    keys = ("macro-paths", "model-paths", "seed-paths", "test-paths", "snapshot-paths")
    return {key: rendered[key] for key in keys} | {"analysis-paths": rendered["analysis-paths"]}


def test_installed_as_a_package_dbt_parses_macros_only() -> None:
    """One place decides that the catalog builds: dbt_project.yml's paths.
    Without the home variable (every project that installs the package)
    they name macros/ and folders that do not exist."""
    paths = _paths(home=False)
    assert paths["macro-paths"] == ["macros"] and paths["analysis-paths"] == []
    for key in ("model-paths", "seed-paths", "test-paths", "snapshot-paths"):
        assert [(ROOT / path).exists() for path in paths[key]] == [False], (key, paths[key])
    home = _paths(home=True)
    assert (home["model-paths"], home["seed-paths"], home["test-paths"]) == (
        ["models"],
        ["seeds"],
        ["tests"],
    )


def test_no_catalog_node_decides_for_itself() -> None:
    """No properties file or SQL file of the catalog sets `enabled`."""
    for path in [*MODELS.rglob("*"), *SEEDS.rglob("*"), *(ROOT / "tests").rglob("*")]:
        if path.suffix in (".yml", ".sql"):
            assert "enabled" not in path.read_text(), path


def _properties(path: Path) -> dict:
    return yaml.safe_load(path.read_text())


def test_a_catalog_query_is_three_files() -> None:
    """models/<family>/<name>.sql, its properties beside it in <name>.yml
    (the model, its tests, its expected seed's description, its unit tests),
    and seeds/<family>/<name>_expected.csv when it has its own expected rows."""
    seeds = {path.stem: path for path in SEEDS.rglob("*.csv")}
    for sql in sorted(MODELS.rglob("*.sql")):
        properties = _properties(sql.with_suffix(".yml"))
        assert [entry["name"] for entry in properties["models"]] == [sql.stem], sql
        for seed in properties.get("seeds", []):
            assert seed["name"] == f"{sql.stem}_expected", sql
            assert seeds[seed["name"]].parent.name == sql.parent.name, seed["name"]
        for unit_test in properties.get("unit_tests", []):
            assert unit_test["model"] == sql.stem, sql
    ymls = {path.with_suffix(".sql") for path in MODELS.rglob("*.yml")}
    assert ymls == set(MODELS.rglob("*.sql"))


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


def test_benchmark_families_are_catalog_folders() -> None:
    """The benchmark and the catalog page key their families by the folders
    of models/: a renamed folder fails here instead of dropping silently."""
    from sqc.bench.families import CATALOG_FAMILIES, FAMILIES
    from sqc.paths import catalog_families

    assert set(FAMILIES) <= set(catalog_families())
    assert set(CATALOG_FAMILIES) <= set(catalog_families())


def test_no_macro_file_is_over_250_lines() -> None:
    """One question a file, short enough to read whole (CONTRIBUTING)."""
    long = {
        str(path.relative_to(ROOT)): lines
        for path in (ROOT / "macros").rglob("*.sql")
        if (lines := len(path.read_text().splitlines())) > 250
    }
    assert not long, long
