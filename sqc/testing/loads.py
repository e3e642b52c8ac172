"""Events loaded batch by batch into incremental models: the lab project
that holds the models (over a table `events` of its schema), the events
table, and random batches with late arrivals and copies."""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import yaml
from hypothesis import strategies as st

from sqc.testing.dbt_harness import DbtProject, values_sql
from sqc.testing.seed_project import write_project


def write_lab(directory: Path, models: dict[str, str]) -> None:
    """A dbt project on the package, its models (name to SQL) as parquet tables."""
    write_project(directory)
    project = yaml.safe_load((directory / "dbt_project.yml").read_text())
    project["models"]["seed_lab"] = {"+file_format": "parquet"}
    (directory / "dbt_project.yml").write_text(yaml.safe_dump(project, sort_keys=False))
    (directory / "models").mkdir()
    for name, sql in models.items():
        (directory / "models" / f"{name}.sql").write_text(sql)


def lab_project(
    directory: Path, models: dict[str, str], target: str, schema: str
) -> Iterator[DbtProject]:
    """The lab, in a schema of its own for the fixture's life."""
    write_lab(directory, models)
    dbt = DbtProject(directory, target=target, schema=schema)
    dbt.invoke("deps")
    dbt.drop_schema()
    dbt.create_schema()
    yield dbt
    dbt.drop_schema()


# The lab models' broadcast_rows, from the environment
# (`broadcast_rows=env_var(BROADCAST_ROWS, '200000') | int`): dbt parses
# again only the files that read a changed variable, where a changed
# `--vars` makes it parse the whole project and the package (about 5 s).
BROADCAST_ROWS = "SPARK_QUERY_CATALOG_LAB_BROADCAST_ROWS"
# The lab models' config line that reads it.
BROADCAST_ROWS_CONFIG = f"broadcast_rows=env_var('{BROADCAST_ROWS}', '200000') | int"


# The lab models' fault seam (`_spark_query_catalog_fault_injection`,
# macros/materializations/shared/faults.sql), from the environment likewise.
FAULT_INJECTION = "SPARK_QUERY_CATALOG_LAB_FAULT_INJECTION"
FAULT_INJECTION_CONFIG = f"_spark_query_catalog_fault_injection=env_var('{FAULT_INJECTION}', '')"


@contextmanager
def _lab_variable(name: str, value: str) -> Iterator[None]:
    """The environment variable `name` set to `value` for the block."""
    os.environ[name] = value
    try:
        yield
    finally:
        del os.environ[name]


def run_with_broadcast_rows(lab: DbtProject, rows: int) -> None:
    """`dbt run` of the lab, its models broadcasting up to `rows` new rows."""
    with _lab_variable(BROADCAST_ROWS, str(rows)):
        lab.invoke("run")


def run_stopped_after(lab: DbtProject, step: str, model: str) -> None:
    """`dbt run` of the lab's `model`, stopped after its `step` ('pending' or
    'overwrite'): the run fails, saying so."""
    with _lab_variable(FAULT_INJECTION, step):
        lab.invoke("run", "--select", model, expect_success=False)
    assert "stopped after" in "\n".join(lab.errors), lab.errors


def reset_events(lab: DbtProject, columns: list[tuple[str, str]], models: list[str]) -> None:
    """An empty events table, and none of the models' tables (pending ones included)."""
    table = lab.table("events")
    lab.sql(f"drop table if exists {table}")
    names = ", ".join(f"{name} {kind}" for name, kind in columns)
    lab.sql(f"create table {table} ({names}) using parquet")
    for name in models:
        lab.sql(f"drop table if exists {lab.table(name)}")
        lab.sql(f"drop table if exists {lab.table(name + '__spark_query_catalog_pending')}")


def load_events(
    lab: DbtProject, rows: list[tuple[Any, ...]], columns: list[tuple[str, str]]
) -> None:
    if rows:
        lab.sql(f"insert into {lab.table('events')} " + values_sql(rows, columns))


def shuffled_batches(
    data: st.DataObject, events: list[tuple[Any, ...]], count: int
) -> list[list[tuple[Any, ...]]]:
    """The events in `count` batches, in shuffled order (late events), some
    delivered again in a later batch (copies); each row ends with its batch's
    number from 1 (its loaded_at)."""
    order = data.draw(st.permutations(events))
    cuts = sorted(
        data.draw(st.lists(st.integers(0, len(order)), min_size=count - 1, max_size=count - 1))
    )
    bounds = [0, *cuts, len(order)]
    batches = [list(order[a:b]) for a, b in itertools.pairwise(bounds)]
    again = data.draw(st.lists(st.sampled_from(events), max_size=4))
    for event in again:
        batches[data.draw(st.integers(0, count - 1))].append(event)
    return [[(*event, index + 1) for event in batch] for index, batch in enumerate(batches)]


def side_by_side(tables: list[list[tuple[Any, ...]]]) -> list[tuple[Any, ...]]:
    """Several drawn tables of rows (key first) as one: table k's keys
    renamed a -> a1, ..., so that one query checks them all (a Spark query
    costs about half a second, however few its rows). The NULL keys of all
    the tables share one partition: still an input like any other, as the
    reference sees it too."""
    return [
        (None if row[0] is None else f"{row[0]}{k}", *row[1:])
        for k, rows in enumerate(tables)
        for row in rows
    ]
