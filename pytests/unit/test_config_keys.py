"""Both materializations take their keys as `keys`; `partition_by`, which in
dbt-spark is a table's partition column, is still read for the keys until
0.7, with a warning that names the new key. Rendered with dbt's Jinja."""

from __future__ import annotations

import pytest

from pytests.unit.test_incremental_statements import CONFIG as SESSIONS_CONFIG
from pytests.unit.test_window_statements import CONFIG as WINDOWS_CONFIG
from sqc.testing.jinja import CompileError, Library

MATERIALIZATIONS = {
    "incremental_sessions": ("_sqc_incremental_sessions_config", SESSIONS_CONFIG),
    "incremental_windows": ("_sqc_incremental_windows_config", WINDOWS_CONFIG),
}


@pytest.mark.parametrize("name", MATERIALIZATIONS)
def test_keys_are_the_keys(name: str) -> None:
    library = Library(model_config={"keys": ["user_id", "device"]})
    assert library.call("_sqc_config_keys", name) == ["user_id", "device"]
    assert library.warnings == []


@pytest.mark.parametrize("name", MATERIALIZATIONS)
def test_partition_by_is_read_as_the_keys_with_a_warning(name: str) -> None:
    library = Library(model_config={"partition_by": ["user_id", "device"]})
    assert library.call("_sqc_config_keys", name) == ["user_id", "device"]
    [warning] = library.warnings
    assert warning.startswith(f"spark_query_catalog.{name}: model ")
    assert "`partition_by`" in warning and "until 0.7" in warning
    assert warning.endswith("rename it to `keys`")


@pytest.mark.parametrize("name", MATERIALIZATIONS)
def test_the_deprecated_spelling_gives_the_same_settings(name: str) -> None:
    macro, config = MATERIALIZATIONS[name]
    keys = config["keys"]
    renamed = {k: v for k, v in config.items() if k != "keys"} | {"partition_by": keys}
    old, new = Library(model_config=renamed), Library(model_config=config)
    assert old.call(macro) == new.call(macro)
    assert len(old.warnings) == 1 and new.warnings == []


@pytest.mark.parametrize(
    ("config", "argument", "words"),
    [
        ({"keys": "user_id", "partition_by": "user_id"}, "partition_by", "left out when `keys`"),
        ({}, "keys", "set in the model's config"),
        ({"keys": []}, "keys", "non-empty list"),
    ],
)
@pytest.mark.parametrize("name", MATERIALIZATIONS)
def test_keys_given_twice_or_not_at_all_is_an_error(
    name: str, config: dict[str, object], argument: str, words: str
) -> None:
    with pytest.raises(CompileError) as error:
        Library(model_config=config).call("_sqc_config_keys", name)
    message = str(error.value)
    assert message.startswith(f"spark_query_catalog.{name}: argument `{argument}`")
    assert words in message
