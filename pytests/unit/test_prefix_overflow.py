"""Which sums and averages take a prefix difference, by the argument's type:
a running total must not overflow, nor round, where the frame's own sum does
not (_sqc_prefix_overflow_reason). Rendered with dbt's Jinja, no Spark; the
values at each type's limits run in pytests/rolling/test_overflow.py."""

from __future__ import annotations

import re

import pytest

from sqc.testing.jinja import Library

TYPES = {
    "tiny": "tinyint", "small": "smallint", "i": "int", "big": "bigint",
    "d28": "decimal(28,2)", "d29": "decimal(29,2)", "f": "double",
}  # fmt: skip
TABLES = {"pytest.t": [("id", "bigint"), ("k", "int"), ("at", "timestamp"), *TYPES.items()]}


@pytest.fixture(scope="module")
def library() -> Library:
    return Library(columns=TABLES)


def _rolling(library: Library, expression: str, frame: str = "preceding=999") -> str:
    order_by = "at" if "range" in frame else "id"
    return library.render(
        f"{{{{ rolling('{expression}', '{order_by}', partition_by='k', {frame}, "
        f"relation='pytest.t') }}}}"
    )


def _is_linear(sql: str) -> bool:
    return "between unbounded preceding and" in sql


@pytest.mark.parametrize(
    ("expression", "frame", "linear"),
    [
        ("sum(tiny)", "preceding=999", True),
        ("sum(i)", "preceding=999", True),
        ("sum(big)", "preceding=999", True),
        ("sum(d28)", "preceding=999", True),
        ("sum(d29)", "preceding=999", False),
        ("avg(tiny)", "frame='range', preceding='1 day'", True),
        ("avg(small)", "preceding=999", True),
        ("avg(i)", "preceding=999", True),
        ("avg(i)", "preceding=4194303", True),
        ("avg(i)", "preceding=4194304", False),
        ("avg(i)", "frame='range', preceding='1 day'", False),
        ("avg(big)", "preceding=999", False),
        ("avg(f)", "preceding=999", False),
        ("count(big)", "preceding=999", True),
    ],
)
def test_the_form_follows_the_type(
    library: Library, expression: str, frame: str, linear: bool
) -> None:
    assert _is_linear(_rolling(library, expression, frame)) == linear


def test_a_bigint_running_total_is_a_decimal(library: Library) -> None:
    """Summed as decimal(20, 0), whose running total cannot overflow; the
    frame's total cast back to bigint, Spark's type for sum(bigint)."""
    sql = _rolling(library, "sum(big)")
    assert sql.count("sum(cast(big as decimal(20, 0)))") == 2
    assert re.search(r"\bas bigint\s*\)\s*end$", sql)
    assert "decimal(20, 0)" not in _rolling(library, "sum(i)")


@pytest.mark.parametrize(
    ("expression", "frame", "says"),
    [
        ("avg(big)", "preceding=999", "exact only within 2^53"),
        ("avg(i)", "frame='range', preceding='1 day'", "ROWS frame of up to 2^22 rows"),
        ("sum(d29)", "preceding=999", "could pass 38 digits"),
    ],
)
def test_method_linear_says_why_not(
    library: Library, expression: str, frame: str, says: str
) -> None:
    order_by = "at" if "range" in frame else "id"
    message = library.render_error(
        f"{{{{ rolling('{expression}', '{order_by}', partition_by='k', {frame}, "
        "relation='pytest.t', method='linear') }}"
    )
    assert "rolling" in message and "method" in message and says in message
