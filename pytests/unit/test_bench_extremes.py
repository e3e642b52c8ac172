"""The sparse table that `make bench-extremes` times beside the block form
is exact: its plan, carried out on lists, against the frame's max and min
taken row by row (a brute-force reference)."""

from __future__ import annotations

import random

import pytest

from sqc.bench.extremes import sparse_levels, sparse_table


def _lag(values: list[int | None], offset: int) -> list[int | None]:
    return [values[i - offset] if i >= offset else None for i in range(len(values))]


def _best(function, terms: list[list[int | None]]) -> list[int | None]:
    """greatest / least: the best of the non-NULL terms of each row."""
    rows = []
    for row in zip(*terms, strict=True):
        present = [v for v in row if v is not None]
        rows.append(function(present) if present else None)
    return rows


@pytest.mark.parametrize("base", [2, 3, 4])
@pytest.mark.parametrize("width", [1, 2, 3, 4, 5, 7, 16, 17, 63, 64, 65, 100, 101])
def test_sparse_table_plan_gives_each_frame(width: int, base: int) -> None:
    rng = random.Random(width * 10 + base)
    values = [rng.randrange(1000) for _ in range(150)]
    spans, offsets = sparse_levels(width, base)
    for function in (max, min):
        level, span = list(values), 1
        for next_span in spans:
            level = _best(function, [_lag(level, span * i) for i in range(base)])
            span = next_span
        got = _best(function, [_lag(level, o) for o in offsets])
        expected = [function(values[max(0, j - width + 1) : j + 1]) for j in range(len(values))]
        assert got == expected, (width, base, function.__name__)


def test_sparse_table_sql_levels() -> None:
    """Widths 1,000 and 4: four levels of four lags then lags of 256 rows;
    no level at all (no CTE) below the base."""
    sql = sparse_table(1000)
    assert [f"level_{s} as" in sql for s in (4, 16, 64, 256)] == [True] * 4
    assert "level_1024" not in sql
    assert "lag(amount_max_256, 745)" in sql
    small = sparse_table(2)
    assert small.startswith("select *, least(amount, lag(amount, 1) over")
    assert "with" not in small
