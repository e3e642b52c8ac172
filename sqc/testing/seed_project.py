"""A scratch dbt project whose seeds load through this project's seed loader.

Used by the seed tests and the seed benchmark: the project installs
spark_query_catalog as a local package and routes the `dbt` macro namespace
through it (as README's package section recommends), or not, to time
dbt-spark's stock loader.
"""

from __future__ import annotations

import csv
import datetime as dt
from collections.abc import Iterable, Sequence
from decimal import Decimal, localcontext
from pathlib import Path
from typing import Any

import yaml

from sqc.paths import ROOT


def write_project(
    directory: Path,
    seeds_config: dict[str, Any] | None = None,
    use_package_loader: bool = True,
) -> Path:
    """Write dbt_project.yml and packages.yml; return the seeds folder."""
    directory.mkdir(parents=True, exist_ok=True)
    project: dict[str, Any] = {
        "name": "seed_lab",
        "version": "0.1.0",
        "config-version": 2,
        "profile": "spark_query_catalog",
        "flags": {"send_anonymous_usage_stats": False},
        "seed-paths": ["seeds"],
        "models": {"spark_query_catalog": {"+enabled": False}},
        "seeds": {
            "spark_query_catalog": {"+enabled": False},
            "seed_lab": {"+file_format": "parquet", **(seeds_config or {})},
        },
        "data_tests": {"spark_query_catalog": {"+enabled": False}},
    }
    if use_package_loader:
        project["dispatch"] = [
            {"macro_namespace": "dbt", "search_order": ["seed_lab", "spark_query_catalog", "dbt"]}
        ]
    (directory / "dbt_project.yml").write_text(yaml.safe_dump(project, sort_keys=False))
    (directory / "packages.yml").write_text(yaml.safe_dump({"packages": [{"local": str(ROOT)}]}))
    seeds = directory / "seeds"
    seeds.mkdir(exist_ok=True)
    return seeds


def write_csv(
    path: Path, header: Sequence[str], rows: Iterable[Sequence[Any]], delimiter=","
) -> None:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, delimiter=delimiter)
        writer.writerow(header)
        writer.writerows(rows)


def expected_cells(path: Path, types: Sequence[str], delimiter: str = ",") -> list[tuple[Any, ...]]:
    """The file read by Python's csv module, each value converted to its
    declared Spark type under dbt's seed rules: an empty field or the text
    null (trimmed, any case) is NULL."""
    with path.open(newline="", encoding="utf-8") as handle:
        reader = csv.reader(handle, delimiter=delimiter)
        next(reader)
        return [
            tuple(_convert(text, data_type) for text, data_type in zip(row, types, strict=True))
            for row in reader
        ]


def _convert(text: str, data_type: str) -> Any:
    if text.strip().lower() in ("", "null"):
        return None
    if data_type == "string":
        return text
    if data_type in ("bigint", "int"):
        return int(text)
    if data_type == "double":
        return float(text)
    if data_type.startswith("decimal"):
        scale = int(data_type.split(",")[1].rstrip(")"))
        with localcontext() as context:
            context.prec = 80
            return Decimal(text.strip()).quantize(Decimal(1).scaleb(-scale))
    if data_type == "boolean":
        return {"true": True, "false": False}[text.strip().lower()]
    if data_type == "date":
        return dt.date.fromisoformat(text.strip())
    if data_type == "timestamp":
        return dt.datetime.fromisoformat(text.strip())
    raise ValueError(f"no conversion for {data_type}")
