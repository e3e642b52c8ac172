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
        ("avg(i)", "preceding=4194304", True),
        ("avg(i)", "frame='range', preceding='1 day'", True),
        ("avg(big)", "preceding=999", False),
        ("avg(f)", "preceding=999", False),
        ("count(big)", "preceding=999", True),
    ],
)
def test_the_form_follows_the_type(
    library: Library, expression: str, frame: str, linear: bool
) -> None:
    assert _is_linear(_rolling(library, expression, frame)) == linear


def test_a_bigint_running_total_is_a_bigint(library: Library) -> None:
    """Without ANSI mode a bigint's running total wraps as Spark's own sum
    does: summed as it is, the frame's sum the plain difference."""
    sql = _rolling(library, "sum(big)")
    assert sql.count("sum(big) over") == 2
    assert "decimal" not in sql and "cast(" not in sql


def test_under_ansi_mode_a_bigint_running_total_is_a_decimal() -> None:
    """With the var spark_query_catalog_ansi: summed as decimal(20, 0), whose
    running total cannot overflow; the frame's total cast back to bigint,
    Spark's type for sum(bigint)."""
    library = Library(columns=TABLES, vars={"spark_query_catalog_ansi": True})
    sql = _rolling(library, "sum(big)")
    assert sql.count("sum(cast(big as decimal(20, 0)))") == 2
    assert re.search(r"\bas bigint\s*\)\s*end$", sql)
    assert "decimal(20, 0)" not in _rolling(library, "sum(i)")


@pytest.mark.parametrize(
    ("expression", "frame", "says"),
    [
        ("avg(big)", "preceding=999", "exact only within 2^53"),
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


@pytest.mark.parametrize(
    ("expression", "frame", "guarded"),
    [
        ("avg(i)", "preceding=4194303", False),
        ("avg(i)", "preceding=4194304", True),
        ("avg(i)", "frame='range', preceding='1 day'", True),
        ("avg(small)", "frame='range', preceding='1 day'", False),
        ("sum(i)", "frame='range', preceding='1 day'", False),
    ],
)
def test_an_int_avg_over_more_than_2_22_values_stops(
    library: Library, expression: str, frame: str, guarded: bool
) -> None:
    """Spark sums int as doubles: exact up to 2^22 values of at most 2^31.
    A frame that could hold more raises an error that names the macro and
    says what to do, when the frame's count passes 2^22."""
    sql = _rolling(library, expression, frame)
    guard = re.search(
        r"when\s+(count\(i\).*?)\s+> 4194304\s+then\s+raise_error\(\s*concat\((.*?)\)\s*\)\s+when",
        sql,
        re.DOTALL,
    )
    assert (guard is not None) == guarded
    if guard:
        pieces = re.findall(r"'((?:[^'\\]|\\.)*)'", guard.group(2))
        assert all(len(p) <= 50 for p in pieces)  # lines of a careful width
        message = "".join(pieces).replace("\\'", "'")
        assert message.startswith("spark_query_catalog.rolling: avg(i) over a frame of more than")
        assert "cast the argument to a decimal" in message and 'method="native"' in message
        # The guard counts the frame's values: the same count the avg divides by.
        assert sql.count(guard.group(1)) >= 2
