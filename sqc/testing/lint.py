"""sqlfluff over one rendered statement, as the catalog's models are linted."""

from __future__ import annotations

import functools
from typing import Any

from sqlfluff.core import FluffConfig, Linter

# sqlfluff's default rules, as for the SQL the catalog's models compile to
# (.sqlfluff), less AM04: a statement may select * from a CTE it wrote.
RULES = {"core": {"dialect": "sparksql", "templater": "raw", "exclude_rules": "AM04"}}


@functools.cache
def _linter() -> Linter:
    return Linter(config=FluffConfig(configs=RULES))


def violations(text: str) -> list[str]:
    """Each rule `text` breaks, as 'line: code description'; [] when clean."""
    return described(_linter().lint_string(text + "\n").get_violations())


def described(found: list[Any]) -> list[str]:
    """sqlfluff's violations, each as 'line: code description'."""
    return [f"{v.line_no}: {v.rule_code()} {v.desc()}" for v in found]
