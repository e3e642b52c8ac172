"""The project installed as a package into other dbt projects
(integration_tests/): a consumer that lists it and changes nothing of it, and
one that opts in to its dispatch overrides."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from sqc.paths import INTEGRATION_TESTS, ROOT
from sqc.testing.dbt_harness import DbtProject
from sqc.testing.lint import described

CONSUMER = INTEGRATION_TESTS / "consumer"
OPT_IN = INTEGRATION_TESTS / "opt_in"
PACKAGE = "spark_query_catalog"


def _package_user(directory: Path, target: str, schema: str) -> Iterator[DbtProject]:
    """A project that installs this one with `dbt deps`, on an empty schema
    that is dropped again afterwards."""
    dbt = DbtProject(directory, target=target, schema=schema)
    dbt.invoke("deps")
    dbt.drop_schema()
    yield dbt
    dbt.drop_schema()


@pytest.fixture(scope="module")
def consumer(target: str) -> Iterator[DbtProject]:
    yield from _package_user(CONSUMER, target, "pytest_package_consumer")


@pytest.fixture(scope="module")
def opt_in(target: str) -> Iterator[DbtProject]:
    yield from _package_user(OPT_IN, target, "pytest_package_opt_in")


def test_parse_runs_no_query(consumer: DbtProject) -> None:
    """While dbt parses, discovery and introspection return early: dbt logs
    no SQL at all (a query of the consumer's, by contrast, is logged)."""
    consumer.invoke("parse", "--no-partial-parse")
    assert consumer.queries == []
    consumer.ping()
    assert any("select 1 as one" in query for query in consumer.queries), consumer.queries


def test_the_callable_macros_are_the_documented_ones(consumer: DbtProject) -> None:
    """What a consumer can call (from a model, or with `dbt run-operation`)
    is what macros/macros.yml documents: no tooling of this repository's.
    Private helpers start with `_`; `default__<name>` is the dispatched body
    of a documented macro."""
    consumer.invoke("parse")
    manifest = json.loads((CONSUMER / "target" / "manifest.json").read_text())
    ours = {m["name"] for m in manifest["macros"].values() if m["package_name"] == PACKAGE}
    callable_ = {name for name in ours if not name.startswith(("_", "default__"))}
    documented = {
        entry["name"]
        for entry in yaml.safe_load((ROOT / "macros" / "macros.yml").read_text())["macros"]
    }
    assert callable_ == documented
    bodies = {name.removeprefix("default__") for name in ours if name.startswith("default__")}
    assert bodies <= documented


def test_the_package_adds_no_node(consumer: DbtProject) -> None:
    """Installed as a package, the project adds macros, generic tests and a
    materialization: none of its seeds, models, tests or unit tests, though
    the consumer's seeds are named like the catalog's (metrics, teams,
    events)."""
    consumer.invoke("ls", "--output", "json", "--resource-type", "all")
    listed = [json.loads(line) for line in consumer.infos if line.startswith("{")]
    packages = {node["package_name"] for node in listed}
    assert packages == {"catalog_consumer"}
    assert {"seed.catalog_consumer.metrics", "seed.catalog_consumer.teams"} <= {
        node["unique_id"] for node in listed
    }


def test_every_macro_on_every_relation_kind(consumer: DbtProject) -> None:
    """dbt build: every public macro that reads a relation on a ref (in every
    form), a view, a quoted source, a Relation without a schema, a temporary
    view's name, a global temporary view, schema- and catalog-qualified
    names, and an ephemeral model with values given, a feature table under
    incremental_windows, a summary and a feature table over it (a chain),
    sessions under incremental_sessions and a feature table over them
    (span_end), and one under dbt's microbatch (three yearly batches whose
    frames reach over their edges), each output equal to rows worked out by
    hand; and none of the package's tables (or temporary views) in the
    consumer's schema."""
    # `show tables` lists the temporary views other tests left in this Spark
    # session too, in any schema (the consumer's is not created yet).
    earlier = {r.tableName for r in consumer.sql("show tables in default") if r.isTemporary}
    result = consumer.invoke("build")
    statuses = {r.node.name: str(r.status) for r in result.result.results}
    assert set(statuses.values()) <= {"success", "pass"}, statuses
    checks = {name for name in statuses if name.startswith("every_macro_on_")}
    assert len(checks) == 8, checks
    assert "consumer_models" in statuses
    assert statuses["reading_features_by_batch"] == "success"
    # Run again, the daily summary reads what changed since: nothing (up to
    # date with its upstream, it reads no row of it), and keeps its days.
    again = consumer.invoke("build", "--select", "user_event_features+", "user_sessions+")
    assert {str(r.status) for r in again.result.results} <= {"success", "pass"}
    assert "consumer_models" in {r.node.name for r in again.result.results}
    assert any("\nwhere false" in query for query in consumer.queries)
    assert not any("spark_query_catalog_changed_at > " in query for query in consumer.queries)
    rows = consumer.sql(f"show tables in {consumer.schema}")
    # dbt-spark stages each microbatch batch, and an incremental run's rows,
    # in a temporary view `<model>__dbt_tmp` of its own (of any project run
    # in this Spark session: `show tables` lists temporary views).
    staged = {r.tableName for r in rows if r.isTemporary and r.tableName.endswith("__dbt_tmp")}
    assert {"reading_features_by_batch__dbt_tmp", "user_daily_features__dbt_tmp"} <= staged
    for name in staged:
        consumer.sql(f"drop view if exists {name}")
    tables = {r.tableName for r in rows} - staged - earlier
    assert tables == {
        "events", "metrics", "teams", "readings", "expected_macro_outputs", "events_view",
        "team_points_by_country", "device_level_sums", "ephemeral_events_by_kind",
        "user_event_features", "user_daily_features", "user_feature_trends",
        "user_sessions", "user_session_trends", "reading_features_by_batch",
    } | {name for name in tables if name.startswith("consumer_events")}  # fmt: skip
    # The feature table's 2-row frame keeps its state (frame_states=true).
    columns = {
        name
        for name, _ in consumer.columns(f"select * from {consumer.table('user_event_features')}")
    }
    assert {name for name in columns if name.startswith("spark_query_catalog_rows_")} == {
        "spark_query_catalog_rows_2"
    }, columns


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (
            "{{ spark_query_catalog.pivot(ref('events_ephemeral'), 'kind', 'sum(amount)') }}",
            ["is an ephemeral model", "pass `values` explicitly", "materialize the model"],
        ),
        (
            "{{ spark_query_catalog.unpivot(ref('events_ephemeral')) }}",
            ["Unpivoting every column (columns=none)", "pass the columns to unpivot as `columns`"],
        ),
        (
            "{{ spark_query_catalog.pivot_values("
            "api.Relation.create(schema=target.schema, identifier='missing'), 'kind') }}",
            ["does not exist (yet)", "overrides: macros: {pivot_values: [...]}"],
        ),
    ],
)
def test_relations_that_cannot_be_read_are_clear_errors(
    consumer: DbtProject, call: str, words: list[str]
) -> None:
    message = consumer.compile_error(call)
    assert "spark_query_catalog." in message
    for word in words:
        assert word in message, message


def test_docs_generate(consumer: DbtProject) -> None:
    """dbt docs generate on a project that uses the package: the consumer's
    models are documented with their columns, none of the package's."""
    consumer.invoke("docs", "generate")
    catalog = json.loads((CONSUMER / "target" / "catalog.json").read_text())
    assert {key.split(".")[1] for key in catalog["nodes"]} == {"catalog_consumer"}
    pivoted = catalog["nodes"]["model.catalog_consumer.team_points_by_country"]["columns"]
    assert {name.lower() for name in pivoted} == {"country", "alpha", "beta", "gamma"}


def test_a_model_calling_the_package_lints_with_sqlfluffs_dbt_templater(
    consumer: DbtProject, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the README tells an analyst: sqlfluff's dbt templater compiles
    the consumer's model (its .sqlfluff is the README's), the package's
    pivot expanded in it, and the SQL it wrote is clean under sqlfluff's
    default rules."""
    from sqlfluff.core import FluffConfig, Linter

    model = CONSUMER / "models" / "ephemeral_events_by_kind.sql"
    # As the analyst runs it: from the project's directory, against which
    # dbt's path selector (the templater's) resolves the model's path.
    monkeypatch.chdir(CONSUMER)
    # This repository's .sqlfluffignore leaves integration_tests/ out of `make lint`.
    linter = Linter(config=FluffConfig.from_path(str(CONSUMER)))
    result = linter.lint_paths((str(model),), ignore_files=False)
    (linted,) = result.paths[0].files
    assert "for kind in (\n            'buy' as buy," in linted.templated_file.templated_str
    assert described(linted.get_violations()) == []


def test_build_empty(consumer: DbtProject) -> None:
    """dbt build --empty: every model builds with no rows and every test
    passes, the pivots included (their values are still discovered)."""
    result = consumer.invoke("build", "--empty")
    assert {str(r.status) for r in result.result.results} <= {"success", "pass"}
    rows = consumer.sql(f"select * from {consumer.table('team_points_by_country')}")
    assert rows == []
    names = [
        name
        for name, _ in consumer.columns(f"select * from {consumer.table('team_points_by_country')}")
    ]
    assert names == ["country", "alpha", "beta", "gamma"]


def test_opt_in_build_through_the_package(opt_in: DbtProject) -> None:
    opt_in.invoke("build")
    pivoted = f"select * from {opt_in.table('amount_by_customer_and_status')}"
    names = [name for name, _ in opt_in.columns(pivoted)]
    assert names == ["customer_id", "null", "placed", "returned", "shipped"]
    rows = {r.customer_id: r for r in opt_in.sql(pivoted)}
    assert (rows["c1"].placed, rows["c1"].shipped, rows["c1"].returned) == (11, 20, None)
    assert (rows["c2"].placed, rows["c2"].returned) == (5, 7)
    long = f"select * from {opt_in.table('order_fields_long')}"
    assert dict(opt_in.columns(long))["value"] == "string"
    # Order 6 has no status and no time: through the package's seed loader
    # its status is NULL, not 'None'.
    assert len(opt_in.sql(long)) == 11
    orders = opt_in.table("orders")
    assert len(opt_in.sql(f"select * from {orders} where status is null")) == 1
    # Only the consumer's own models and seeds were built, not the catalog's.
    tables = {row.tableName for row in opt_in.sql(f"show tables in {opt_in.schema}")}
    assert "teams" not in tables and "team_points_by_country" not in tables


def test_opt_in_dispatch_override_is_used(opt_in: DbtProject) -> None:
    compiled = (
        OPT_IN
        / "target"
        / "compiled"
        / "catalog_consumer_opt_in"
        / "models"
        / "running_amounts.sql"
    ).read_text()
    assert "/* overridden */ sum(amount) over (" in compiled


def test_opt_in_failing_model_leaves_no_table(opt_in: DbtProject) -> None:
    result = opt_in.invoke(
        "run",
        "--select",
        "broken_pivot",
        "--vars",
        "{broken_model_enabled: true}",
        expect_success=False,
    )
    assert not result.success
    message = "\n".join(opt_in.errors)
    assert "spark_query_catalog.pivot:" in message and "`max_values` (1)" in message
    tables = {row.tableName for row in opt_in.sql(f"show tables in {opt_in.schema}")}
    assert "broken_pivot" not in tables
    assert "amount_by_customer_and_status" in tables


# Cases taken from other projects' pivot and unpivot tests and Spark's own:
# each failed before the fix that made it pass.

AMOUNTS_CTE = (
    "with amounts as (\n"
    "    select * from values (1, 5, 1), (2, 3, null), (3, null, null)"
    " as t(event_id, amount, bonus)\n"
    ")\n"
)


@pytest.mark.parametrize("method", ["unpivot", "stack"])
def test_unpivot_of_a_cte_with_cast_to_needs_no_columns(consumer: DbtProject, method: str) -> None:
    """`cast_to` and the columns given: nothing to read, on every method."""
    sql = consumer.compile_inline(
        AMOUNTS_CTE + "{{ spark_query_catalog.unpivot('amounts', columns=['amount', 'bonus'],"
        f" name_column='measure', cast_to='bigint', method='{method}') }}}}"
    )
    assert consumer.columns(sql) == [
        ("event_id", "int"), ("measure", "string"), ("value", "bigint"),
    ]  # fmt: skip
    rows = sorted(tuple(row) for row in consumer.sql(sql))
    # Event 3 has only NULLs: dropped, as UNPIVOT's exclude nulls does.
    assert rows == [(1, "amount", 5), (1, "bonus", 1), (2, "amount", 3)]


def _table(consumer: DbtProject, name: str, select: str) -> str:
    consumer.create_schema()
    consumer.sql(f"drop table if exists {consumer.table(name)}")
    consumer.sql(f"create table {consumer.table(name)} using parquet as {select}")
    return f"api.Relation.create(schema=target.schema, identifier='{name}')"


def test_pivot_of_an_empty_table_selects_the_row_keys_with_a_warning(
    consumer: DbtProject,
) -> None:
    """An empty table is a normal state: the row keys and no rows, and a
    warning naming the relation; on_no_values='fail' keeps the error."""
    relation = _table(
        consumer, "no_events", "select 'u1' as user_id, 'view' as kind, 1 as amount where false"
    )
    call = f"{{{{ spark_query_catalog.pivot({relation}, 'kind', 'sum(amount)', group_by='user_id'"
    # Compiled with dbt's log on, so that the warning is seen.
    result = consumer.invoke("compile", "--inline", call + ") }}")
    warning = "\n".join(consumer.warnings)
    assert f"{consumer.schema}.no_events has no rows" in warning, consumer.warnings
    assert "on_no_values='fail'" in warning
    sql = str(result.result.results[0].node.compiled_code)
    assert [name for name, _ in consumer.columns(sql)] == ["user_id"]
    assert consumer.sql(sql) == []
    message = consumer.compile_error(call + ", on_no_values='fail') }}")
    assert "spark_query_catalog.pivot:" in message and "has no values in kind" in message
    message = consumer.compile_error(call + ", on_no_values='skip') }}")
    assert "argument `on_no_values` must be 'warn' or 'fail'. Got: 'skip'" in message


def test_pivot_on_array_values_through_the_package(consumer: DbtProject) -> None:
    """Discovered array values are written as from_json literals: the pivot
    runs, with Spark's names for the columns. pivot_values (whose values go
    to `values=`, scalars) and a map column (which Spark cannot pivot on)
    are compile errors naming the column and its type."""
    relation = _table(
        consumer,
        "tagged_events",
        "select * from values ('u1', array(1, 1), map('a', 1), 3), "
        "('u2', array(2), map('b', 2), 4), ('u1', array(2), map('a', 1), 5)"
        " as t(user_id, tags, attributes, amount)",
    )
    call = f"spark_query_catalog.pivot({relation}, 'tags', 'sum(amount)', group_by='user_id')"
    sql = consumer.compile_inline("{{ " + call + " }}")
    assert [name for name, _ in consumer.columns(sql)] == ["user_id", "[1, 1]", "[2]"]
    assert {row.user_id: row.asDict() for row in consumer.sql(sql)} == {
        "u1": {"user_id": "u1", "[1, 1]": 3, "[2]": 5},
        "u2": {"user_id": "u2", "[1, 1]": None, "[2]": 4},
    }
    for macro, arguments, given in [
        ("pivot_values", "'tags'", "tags (array<int>)"),
        (
            "pivot",
            "'attributes', 'sum(amount)', group_by='user_id'",
            "attributes (map<string,int>)",
        ),
    ]:
        message = consumer.compile_error(
            f"{{{{ spark_query_catalog.{macro}({relation}, {arguments}) }}}}"
        )
        assert f"spark_query_catalog.{macro}: argument `pivot_column` must be" in message
        assert f"Got: '{given}'" in message


@pytest.mark.parametrize("macro", ["sessionize", "session_windows"])
def test_a_per_row_gap_of_a_number_is_a_compile_error(consumer: DbtProject, macro: str) -> None:
    """Spark's session_window takes a string or a calendar interval per row."""
    relation = _table(
        consumer,
        "gapped_events",
        "select 'u1' as user_id, timestamp'2024-01-01 10:00:00' as event_at, 5 as gap_minutes",
    )
    aggregates = ", {'events': 'count(*)'}" if macro == "session_windows" else ""
    message = consumer.compile_error(
        f"{{{{ spark_query_catalog.{macro}({relation}, 'user_id', 'event_at',"
        f" 'gap_minutes'{aggregates}) }}}}"
    )
    assert f"spark_query_catalog.{macro}: argument `gap` must be" in message
    assert "type string" in message and "interval" in message
    assert "Got: 'gap_minutes (int)'" in message
