"""Where things are in this repository, found in one place.

The repository is two dbt projects in one folder (dbt_project.yml): the
package, which is its macros, and the query catalog, which dbt parses only
when HOME_VARIABLE is `true`. The catalog's families are its folders under
models/: adding a family is adding a folder.
"""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MODELS = ROOT / "models"
SEEDS = ROOT / "seeds"
INTEGRATION_TESTS = ROOT / "integration_tests"
STATE = ROOT / ".state"

# Set to `true` for this repository's own dbt runs (the Makefile exports it,
# DbtProject sets it for ROOT only): dbt then parses the catalog's models,
# seeds and tests. Installed as a package, the project never sees it.
HOME_VARIABLE = "SPARK_QUERY_CATALOG_HOME"


def catalog_families() -> list[str]:
    """The catalog's families (pivot, rolling, ...): the folders of models/."""
    return sorted(path.name for path in MODELS.iterdir() if path.is_dir())


def is_home(project_dir: Path) -> bool:
    return project_dir.resolve() == ROOT


def home_environment() -> dict[str, str]:
    """This process's environment for a dbt process of this repository's
    own project (the catalog parsed), whatever set_home last did here."""
    return {**os.environ, HOME_VARIABLE: "true"}


def set_home(project_dir: Path) -> None:
    """Parse the catalog for this repository's own project, and never for
    another project (a consumer that installs the package) in this process."""
    if is_home(project_dir):
        os.environ[HOME_VARIABLE] = "true"
    else:
        os.environ.pop(HOME_VARIABLE, None)
