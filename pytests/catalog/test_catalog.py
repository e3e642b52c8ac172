"""The catalog: `dbt build` on the target passes, and its SQL lints clean."""

from __future__ import annotations

import functools
import json
import shutil
import subprocess
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from sqlfluff.core import FluffConfig, Linter

from sqc.paths import ROOT, catalog_families
from sqc.testing import lint
from sqc.testing.dbt_harness import DbtProject
from sqc.testing.fingerprint import (
    SAMPLE,
    built_tables,
    catalog_rows,
    differences,
    load_reference,
    sample_selection,
    save_reference,
)

# On the session target, and by its path on the cluster and Spark Connect
# (make test-cluster, test-connect). Not marked `server`: on a Thrift server
# the sample is built, on four threads, and compared with the session's
# tables by servers/test_faults.py's rerun after a killed build.

FAMILIES = catalog_families()
MODELS = sorted((ROOT / "models").rglob("*.sql"))


# The whole catalog on the session target; its sample on the servers
# (sqc.testing.fingerprint.SAMPLE): what a server changes is how statements
# reach Spark, not which query they come from.
WHOLE = ("session",)


@pytest.fixture(scope="module")
def build(project: DbtProject, target: str) -> set[str]:
    """`dbt build` on the target: the tables it reported built."""
    # Compiled SQL of this build only (a renamed model leaves its old file).
    shutil.rmtree(ROOT / "target" / "compiled", ignore_errors=True)
    selection = [] if target in WHOLE else sample_selection()
    # Four threads against a server, as teams build against a shared one
    # (most nodes wait on round trips, not on Spark); the embedded session
    # takes its profile's two, Spark Connect one.
    threads = [] if target in ("session", "connect") else ["--threads", "4"]
    result = project.invoke("build", *selection, *threads)
    statuses = [str(r.status) for r in result.result.results]
    assert statuses, "dbt build ran nothing"
    assert set(statuses) == {"success", "pass"}, statuses
    return built_tables(result)


@pytest.fixture(scope="module")
def built(project: DbtProject, build: set[str]) -> DbtProject:
    return project


@pytest.fixture(scope="module")
def catalog(built: DbtProject, target: str) -> dict[str, list[str]]:
    """Every built table's rows; on the session target, saved as the reference."""
    rows = catalog_rows(built)
    if target == "session":
        save_reference(rows)
    return rows


def test_build_runs_every_seed_model_and_test(
    built: DbtProject, build: set[str], target: str
) -> None:
    """Every family's models exist (the sample's, on a server) and every
    expected-output test ran and passed."""
    tables = {row.tableName for row in built.sql(f"show tables in {built.schema}")}
    assert build <= tables
    if target not in WHOLE:
        assert set(SAMPLE) | set(SAMPLE.values()) <= build
        assert {path.parent.name for path in MODELS if path.stem in build} == set(FAMILIES)
        return
    for family in FAMILIES:
        for model in (ROOT / "models" / family).glob("*.sql"):
            assert model.stem in tables, model
    for seed in (ROOT / "seeds").rglob("*.csv"):
        assert seed.stem in tables, seed


def test_article_pivot_output(built: DbtProject) -> None:
    """The printed table of "Spark SQL pivot table", read straight from the built model."""
    rows = {
        r.country: r.asDict()
        for r in built.sql(f"select * from {built.table('team_points_by_country')}")
    }
    assert rows["Germany"] == {
        "country": "Germany", "team1": None, "team2": None, "team3": 9, "team4": None,
        "team5": None, "team6": 11, "team7": None,
    }  # fmt: skip
    assert rows["France"]["team1"] == 6 and rows["Poland"]["team5"] == 11


def test_same_catalog_as_embedded_spark(
    catalog: dict[str, list[str]], build: set[str], target: str
) -> None:
    """Every table, row for row, equals what embedded Spark builds: the session
    run's tables, or (when that run is missing or older than the project's
    models, seeds and macros) a build in a separate process."""
    if target == "session":
        pytest.skip("the session run is the reference the other targets are compared with")
    # Off the session target a server builds the sample (WHOLE).
    assert set(catalog) == build
    reference = {table: rows for table, rows in load_reference().items() if table in build}
    assert differences(reference, catalog) == []


def _session_only(target: str) -> None:
    if target != "session":
        pytest.skip("lint reads SQL text, the same on every target: checked on session")


def test_models_lint_clean(built: DbtProject, target: str) -> None:
    """`sqlfluff lint` of the models and singular tests (dbt templater,
    sparksql dialect, the project's .sqlfluff)."""
    _session_only(target)
    config = FluffConfig.from_root(overrides={"dialect": "sparksql"})
    linted = Linter(config=config).lint_paths(("models", "tests"))
    violations = _violations(linted)
    sources = sorted(ROOT.glob("models/**/*.sql")) + sorted(ROOT.glob("tests/**/*.sql"))
    assert len(linted.as_records()) == len(sources)
    assert violations == []


def lint_emitted(sql: str, name: str) -> list[str]:
    """sqlfluff's default rules (but AM04: PIVOT and UNPIVOT select * because
    their columns come from the data) on SQL text the project emitted."""
    return [f"{name}:{v}" for v in lint.violations(sql.strip())]


def test_compiled_sql_lints_clean(built: DbtProject, target: str) -> None:
    """The SQL the macros generate (every model's compiled SQL) and the SQL of
    the project's generic tests (equal_rows, plan) pass sqlfluff's default
    rules. Read as text: .sqlfluffignore keeps target/ out of `make lint`."""
    _session_only(target)
    compiled = ROOT / "target" / "compiled" / "spark_query_catalog"
    models = sorted(compiled.glob("models/*/*.sql"))
    # A microbatch model compiles once per batch, into a folder of its name.
    batches = sorted(p for p in compiled.glob("models/*/*/*.sql") if p.parent.suffix != ".yml")
    assert batches, "the catalog's microbatch model compiled no batch"
    names = {p.stem for p in models} | {p.parent.name for p in batches}
    assert sorted(names) == sorted(p.stem for p in MODELS)
    tests = sorted(
        p
        for p in compiled.glob("models/*/*.yml/*.sql")
        if p.name.startswith(("equal_rows_", "plan_"))
    )
    assert len(tests) == _generic_tests("equal_rows") + _generic_tests("plan")
    violations = [
        v for path in models + batches + tests for v in lint_emitted(path.read_text(), path.name)
    ]
    assert violations == []


def _generic_tests(name: str) -> int:
    """How many uses of a generic test the catalog's properties files make."""
    return sum(path.read_text().count(f"      - {name}:") for path in ROOT.glob("models/*/*.yml"))


def _violations(linted: object) -> list[str]:
    return [
        f"{record['filepath']}:{v['start_line_no']}: {v['code']} {v['description']}"
        for record in linted.as_records()  # type: ignore[attr-defined]
        for v in record["violations"]
    ]


def test_docs_site_renders_in_chromium(built: DbtProject, target: str, tmp_path: Path) -> None:
    """`dbt docs generate` works on Spark, and the site, served over HTTP and
    rendered by headless Chromium, shows the catalog's models with their
    descriptions and columns."""
    _session_only(target)
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    assert chromium, "needs Debian's chromium (apt-get install chromium chromium-driver)"
    built.invoke("docs", "generate")
    site = ROOT / "target"
    catalog = json.loads((site / "catalog.json").read_text())
    model = "model.spark_query_catalog.team_points_by_country"
    assert "team7" in {c.lower() for c in catalog["nodes"][model]["columns"]}

    handler = functools.partial(QuietHandler, directory=str(site))
    with ThreadingHTTPServer(("127.0.0.1", 0), handler) as server:
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{server.server_address[1]}/index.html"
        overview = _render(chromium, f"{base}#!/overview", tmp_path / "overview")
        page = _render(chromium, f"{base}#!/model/{model}", tmp_path / "model")
        server.shutdown()
    # The project tree in the sidebar lists every catalog family's folder and model.
    for family in FAMILIES:
        assert f">{family}<" in overview.replace(" ", "") or family in overview, family
    for path in (ROOT / "models").rglob("*.sql"):
        assert path.stem in overview, f"{path.stem} not listed in the docs site"
    # A model's page: its description (from the yml) and its columns.
    assert "Spark SQL pivot table" in page and "team_points_by_country" in page
    assert "team7" in page


class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def _render(chromium: str, url: str, profile: Path) -> str:
    """The DOM of `url` after its scripts ran, from headless Chromium."""
    result = subprocess.run(
        [
            chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
            "--no-first-run", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", f"--user-data-dir={profile}", "--virtual-time-budget=20000",
            "--dump-dom", url,
        ],
        capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    return result.stdout
