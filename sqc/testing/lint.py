"""sqlfluff over one rendered statement, as the catalog's models are linted."""

from __future__ import annotations

import functools

from sqlfluff.core import FluffConfig, Linter

# sqlfluff's default rules, as for the SQL the catalog's models compile to
# (.sqlfluff), less AM04: a statement may select * from a CTE it wrote.
RULES = {"core": {"dialect": "sparksql", "templater": "raw", "exclude_rules": "AM04"}}


@functools.cache
def _linter() -> Linter:
    return Linter(config=FluffConfig(configs=RULES))


def violations(text: str) -> list[str]:
    """Each rule `text` breaks, as 'line: code description'; [] when clean."""
    linted = _linter().lint_string(text + "\n")
    return [f"{v.line_no}: {v.rule_code()} {v.desc()}" for v in linted.get_violations()]
