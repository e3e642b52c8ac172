"""The `plan` test reads the physical plan a model was built with: good plans
pass, a deliberately bad variant fails showing the offending plan lines, and
bad arguments or a model without a recorded plan are clear errors."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from sqc.testing.dbt_harness import DbtProject
from sqc.testing.seed_project import write_csv, write_project

MODELS = {
    # A sum pivot: two hash aggregations (PivotFirst), two shuffles.
    "points_pivot": "{{ spark_query_catalog.pivot(ref('points'), 'team', 'sum(points)', "
    "values=['a', 'b'], group_by='country') }}",
    # The same pivot with collect_list: an object buffer, ObjectHashAggregate.
    "points_lists_pivot": "{{ spark_query_catalog.pivot(ref('points'), 'team', "
    "'collect_list(points)', values=['a', 'b'], group_by='country') }}",
    # A window with and without a partition: one shuffle either way, but
    # without a partition every row goes to one task.
    "running_by_country": "select *, {{ spark_query_catalog.rolling('sum(points)', 'points', "
    "partition_by='country', preceding=1) }} as running from {{ ref('points') }}",
    "running_overall": "select *, {{ spark_query_catalog.rolling('sum(points)', 'points', "
    "preceding=1) }} as running from {{ ref('points') }}",
    # Outside models/recorded/, which has the post-hook: nothing recorded.
    "unrecorded": "select 1 as one",
}
TESTS = {
    "points_pivot": {
        "present": ["HashAggregate"],
        "absent": ["ObjectHashAggregate"],
        "exchanges": 2,
    },
    "points_lists_pivot": {"present": ["HashAggregate"], "absent": ["ObjectHashAggregate"]},
    "running_by_country": {"present": ["Window"], "exchanges": 1},
    "running_overall": {"present": ["Window"], "max_exchanges": 0},
    "unrecorded": {"exchanges": 0},
}


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory, target: str) -> Iterator[DbtProject]:
    directory = tmp_path_factory.mktemp("plan_lab")
    seeds = write_project(directory)
    write_csv(seeds / "points.csv", ["country", "team", "points"], [
        ["PL", "a", "1"], ["PL", "b", "2"], ["FR", "a", "3"], ["FR", "a", "4"],
    ])  # fmt: skip
    project = yaml.safe_load((directory / "dbt_project.yml").read_text())
    project["models"]["seed_lab"] = {
        "+materialized": "table",
        "+file_format": "parquet",
        "recorded": {"+post-hook": "{{ spark_query_catalog.record_physical_plan() }}"},
    }
    (directory / "dbt_project.yml").write_text(yaml.safe_dump(project, sort_keys=False))
    models = directory / "models"
    (models / "recorded").mkdir(parents=True)
    for name, sql in MODELS.items():
        folder = models if name == "unrecorded" else models / "recorded"
        (folder / f"{name}.sql").write_text(sql + "\n")
    (models / "models.yml").write_text(
        yaml.safe_dump(
            {
                "version": 2,
                "models": [
                    {
                        "name": name,
                        "data_tests": [{"spark_query_catalog.plan": {"arguments": args}}],
                    }
                    for name, args in TESTS.items()
                ],
            },
            sort_keys=False,
        )
    )
    dbt = DbtProject(directory, target=target, schema="pytest_plan_lab")
    dbt.invoke("deps")
    dbt.drop_schema()
    dbt.invoke("seed")
    dbt.invoke("run")
    yield dbt
    dbt.drop_schema()


def _test_result(lab: DbtProject, model: str) -> tuple[str, list[str]]:
    """The plan test's status on `model`, and the log lines it wrote."""
    result = lab.invoke("test", "--select", model, expect_success=False)
    statuses = [str(r.status) for r in result.result.results]
    assert len(statuses) == 1, statuses
    return statuses[0], list(lab.infos)


def test_good_plans_pass(lab: DbtProject) -> None:
    assert _test_result(lab, "points_pivot")[0] == "pass"
    assert _test_result(lab, "running_by_country")[0] == "pass"


def test_an_object_buffer_aggregate_fails_with_its_lines(lab: DbtProject) -> None:
    status, log = _test_result(lab, "points_lists_pivot")
    assert status == "fail"
    report = "\n".join(log)
    assert "plan test on" in report and "points_lists_pivot failed" in report
    assert "expected a HashAggregate node: none in the plan" in report
    assert "expected no ObjectHashAggregate node: ObjectHashAggregate (" in report
    assert "+- ObjectHashAggregate (" in report  # the whole plan follows


def test_a_shuffle_over_the_limit_fails_with_its_lines(lab: DbtProject) -> None:
    status, log = _test_result(lab, "running_overall")
    assert status == "fail"
    assert "expected at most 0 Exchange node(s), found 1: Exchange (" in "\n".join(log)


def test_a_model_without_a_recorded_plan_is_a_clear_error(lab: DbtProject) -> None:
    status, _ = _test_result(lab, "unrecorded")
    assert status == "error"
    message = "\n".join(lab.errors)
    assert "spark_query_catalog.plan: no physical plan is recorded on" in message
    assert "record_physical_plan()" in message


@pytest.mark.parametrize(
    ("arguments", "words"),
    [
        ("{exchanges: -1}", "argument `exchanges` must be a whole number of Exchange nodes"),
        ("{max_exchanges: 'two'}", "argument `max_exchanges` must be a whole number"),
        ("{present: 3}", "argument `present` must be a string or a list of strings"),
        ("{}", "give at least one of `present`, `absent`, `exchanges`, `max_exchanges`"),
    ],
)
def test_bad_arguments_are_compile_errors(lab: DbtProject, arguments: str, words: str) -> None:
    models = Path(lab.project_dir) / "models"
    (models / "bad_arguments.yml").write_text(
        "version: 2\nmodels:\n  - name: running_by_country_copy\n    data_tests:\n"
        f"      - spark_query_catalog.plan:\n          arguments: {arguments}\n"
    )
    (models / "running_by_country_copy.sql").write_text(MODELS["running_by_country"])
    try:
        lab.invoke("test", "--select", "running_by_country_copy", expect_success=False)
        assert words in "\n".join(lab.errors)
    finally:
        (models / "bad_arguments.yml").unlink()
        (models / "running_by_country_copy.sql").unlink()
