"""The catalog's built tables as data, to compare targets with one another.

    python -m sqc.testing.fingerprint [--target session] [--out .state/fingerprints/session.json]

builds the catalog (`dbt build`) on a target in a schema of its own and writes
every table's rows, each as Spark's `to_json` of the row, sorted. Two targets
built the same catalog when their files are equal.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

from dbt.cli.main import dbtRunnerResult

from sqc.paths import ROOT
from sqc.testing.dbt_harness import DbtProject, use_project_environment

REFERENCE = ROOT / ".state" / "fingerprints" / "session.json"


# What the cluster and Spark Connect targets build, and what the Thrift server
# killed mid-build builds (the session and Thrift targets build it all): one
# query of each macro family and of each materialization, PIVOT's discovery
# included, with the seeds they read (loaded the way the target loads them),
# their expected seeds, and the tests over those alone. What a target changes
# is how statements reach Spark, not which query a statement comes from.
SAMPLE = {
    "team_points_by_country": "team_points_by_country_expected",
    "team_points_stacked": "team_points_long_expected",
    "store_sales_trailing_week": "store_sales_trailing_week_expected",
    "card_features_incremental": "card_features_incremental_expected",
    "card_features_by_batch": "card_features_by_batch_expected",
    "user_events_sessionized": "user_events_sessionized_expected",
    "user_sessions_incremental": "user_sessions_incremental_expected",
}


def sample_selection(without: tuple[str, ...] = ()) -> list[str]:
    """`dbt build` arguments for SAMPLE's models (but those `without`): each
    with its ancestors, its expected seed, and only the tests whose every
    parent is selected."""
    nodes = [
        name
        for model, expected in SAMPLE.items()
        if model not in without
        for name in (f"+{model}", expected)
    ]
    return ["--select", *nodes, "--indirect-selection", "cautious"]


def built_tables(result: dbtRunnerResult) -> set[str]:
    """The tables a `dbt build` made: its models and seeds."""
    return {r.node.name for r in result.result.results if r.node.resource_type in ("model", "seed")}


def catalog_rows(project: DbtProject) -> dict[str, list[str]]:
    """Every table of the project's schema: its rows as sorted JSON texts.
    One query for all of them: a query each cost about a second of planning
    and scheduling apiece, two minutes a target for the catalog's tables."""
    tables = sorted(
        row.tableName
        for row in project.sql(f"show tables in {project.schema}")
        if not row.isTemporary
    )
    rows: dict[str, list[str]] = {table: [] for table in tables}
    if not tables:
        return rows
    query = "\nunion all\n".join(
        f"select '{table}' as table_name, to_json(struct(*)) as row_json "
        f"from {project.table(table)}"
        for table in tables
    )
    for table, row_json in project.sql(query):
        rows[table].append(str(row_json))
    return {table: sorted(texts) for table, texts in rows.items()}


def project_digest() -> str:
    """A digest of what the catalog's tables are built from."""
    digest = hashlib.sha256()
    for folder in ("models", "seeds", "macros"):
        for path in sorted((ROOT / folder).rglob("*")):
            if path.is_file():
                digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    digest.update((ROOT / "dbt_project.yml").read_bytes())
    return digest.hexdigest()


def save_reference(rows: dict[str, list[str]], path: Path = REFERENCE) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"digest": project_digest(), "tables": rows}, indent=1))


def load_reference() -> dict[str, list[str]]:
    """The embedded-Spark catalog for the project as it is now, built in a
    separate process when the saved one is missing or stale."""
    try:
        saved = json.loads(REFERENCE.read_text())
    except (FileNotFoundError, ValueError):
        saved = {}
    if saved.get("digest") != project_digest():
        # Embedded Spark, even when asked from a Spark Connect client (which
        # marks its own process as Connect through these variables).
        connect = ("SPARK_CONNECT_MODE_ENABLED", "SPARK_REMOTE", "SPARK_LOCAL_REMOTE")
        environment = {k: v for k, v in os.environ.items() if k not in connect}
        command = [sys.executable, "-m", "sqc.testing.fingerprint"]
        subprocess.run(command, check=True, cwd=ROOT, env=environment)
        saved = json.loads(REFERENCE.read_text())
    return dict(saved["tables"])


def differences(expected: dict[str, list[str]], actual: dict[str, list[str]]) -> list[str]:
    """What differs between two catalogs, table by table, readably."""
    lines = []
    for table in sorted(set(expected) | set(actual)):
        if table not in actual:
            lines.append(f"{table}: missing")
        elif table not in expected:
            lines.append(f"{table}: not in the reference")
        elif expected[table] != actual[table]:
            only_expected = sorted(set(expected[table]) - set(actual[table]))[:3]
            only_actual = sorted(set(actual[table]) - set(expected[table]))[:3]
            lines.append(
                f"{table}: {len(actual[table])} rows against {len(expected[table])}; "
                f"only in reference {only_expected}, only here {only_actual}"
            )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", default="session")
    parser.add_argument("--out", type=Path, default=REFERENCE)
    args = parser.parse_args(argv)
    # Its own Spark state, even when started from a test run that set another.
    os.environ["SPARK_STATE_DIR"] = ".state/fingerprint"
    use_project_environment(ROOT, ".state/fingerprint")
    project = DbtProject(ROOT, target=args.target, schema="fingerprint_reference")
    project.drop_schema()
    project.create_schema()
    try:
        project.invoke("build")
        rows = catalog_rows(project)
    finally:
        project.drop_schema()
    save_reference(rows, args.out)
    print(f"{len(rows)} tables written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
