"""Pure-Python references that tests compare the macros' Spark SQL with.

Written from Spark's documented semantics, not from the macros.
"""

from __future__ import annotations

import calendar
import itertools
from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from decimal import ROUND_HALF_UP, Decimal
from typing import Any


@dataclass(frozen=True)
class Event:
    event_id: int
    key: Hashable
    at: datetime | None
    gap: timedelta | None


@dataclass(frozen=True)
class Sessioned:
    event_id: int
    key: Hashable
    session_start: datetime
    session_end: datetime


def sessionize(events: Iterable[Event]) -> list[Sessioned]:
    """Spark's session_window, per key.

    Events with no time, or with a NULL, zero or negative gap, are dropped
    (session_window filters rows whose window end is not after its start).
    The rest are taken in time order: an event joins the current session
    when its time is at or before the session's end (the latest time + gap
    seen so far), so events exactly `gap` apart stay together; otherwise it
    starts a new session.
    """
    by_key: dict[Hashable, list[Event]] = defaultdict(list)
    for event in events:
        if event.at is None or event.gap is None or event.gap <= timedelta(0):
            continue
        by_key[event.key].append(event)

    result: list[Sessioned] = []
    for key, key_events in by_key.items():
        key_events.sort(key=lambda e: e.at)  # type: ignore[arg-type, return-value]
        sessions: list[list[Event]] = []
        end: datetime | None = None
        for event in key_events:
            assert event.at is not None and event.gap is not None
            if end is None or event.at > end:
                sessions.append([event])
                end = event.at + event.gap
            else:
                sessions[-1].append(event)
                end = max(end, event.at + event.gap)
        for session in sessions:
            start = min(e.at for e in session if e.at is not None)
            stop = max(e.at + e.gap for e in session if e.at and e.gap)
            result.extend(Sessioned(e.event_id, key, start, stop) for e in session)
    return result


def pivot_sum(
    rows: Sequence[tuple[Hashable, Hashable, int | None]],
) -> dict[Hashable, dict[Hashable, int | None]]:
    """sum(value) by (key, pivot value): NULL pivot values are a value too."""
    cells: dict[Hashable, dict[Hashable, int | None]] = defaultdict(dict)
    for key, pivot_value, value in rows:
        cell = cells[key].get(pivot_value)
        if value is not None:
            cell = value if cell is None else cell + value
        cells[key][pivot_value] = cell
    return cells


@dataclass(frozen=True)
class FrameRow:
    row_id: int
    partition: Hashable
    key: Any  # the order key: a number, date or datetime, or None
    value: Any  # int, Decimal or None


def add_months(moment: date, months: int) -> date:
    """Spark's date (or timestamp) + a year-month interval: the same day of
    the target month, or its last day when that month is shorter."""
    month_index = moment.year * 12 + moment.month - 1 + months
    year, month = divmod(month_index, 12)
    last_day = calendar.monthrange(year, month + 1)[1]
    return moment.replace(year=year, month=month + 1, day=min(moment.day, last_day))


def shifted(key: Any, offset: Any) -> Any:
    """key + offset, as a RANGE frame bound: offsets are numbers, timedeltas,
    or ("months", n) for a year-month interval."""
    if isinstance(offset, tuple):
        return add_months(key, offset[1])
    return key + offset


def negated(offset: Any) -> Any:
    if isinstance(offset, tuple):
        return (offset[0], -offset[1])
    return -offset


def frame_aggregate(
    rows: Sequence[FrameRow],
    aggregate: str | Callable[[list[Any]], Any],
    frame: str,
    start: Any,
    end: Any,
    descending: bool = False,
    nulls_first: bool | None = None,
    decimal_scale: int | None = None,
    exclude: str | None = None,
) -> dict[int, Any]:
    """Each row's aggregate over its window frame, from Spark's semantics.

    Rows are ordered by key within their partition (ROWS frames need keys
    that do not tie). `start` and `end` are offsets from the current row (a
    negative offset is before it) or None for unbounded. ROWS counts rows;
    GROUPS counts peer groups (SQL:2011, as PostgreSQL has it: rows with
    equal keys are one group, NULL keys one group too, and a frame holds
    the rows whose group lies from `start` to `end` groups from the row's);
    RANGE compares keys: a row is in the frame when its key lies between the
    current key plus `start` and plus `end` (reversed for a descending
    order); a NULL key's frame is every NULL-key row of its partition, up to
    the partition's edge where a bound is unbounded. `aggregate` is sum,
    count (of non-NULL values), count_rows, count_distinct (of non-NULL
    values), avg, min or max, or a function of the frame's non-NULL values:
    sum, avg, min and
    max of an empty frame, or of NULLs only, are NULL; count is 0. An avg of
    decimals is rounded half up to `decimal_scale` + 4 places, as Spark's.
    `exclude` ('current row', 'group' or 'ties', SQL:2011's) takes the row,
    its peers (the rows of its partition with its key), or its peers but
    not the row out of the frame.
    """
    if nulls_first is None:
        nulls_first = not descending
    by_partition: dict[Hashable, list[FrameRow]] = defaultdict(list)
    for row in rows:
        by_partition[row.partition].append(row)
    result: dict[int, Any] = {}
    for members in by_partition.values():
        present = sorted((r for r in members if r.key is not None), key=lambda r: r.key,
                         reverse=descending)  # fmt: skip
        nulls = [r for r in members if r.key is None]
        ordered = nulls + present if nulls_first else present + nulls
        groups = _peer_groups(ordered) if frame == "groups" else []
        for index, row in enumerate(ordered):
            if frame == "groups":
                low = 0 if start is None else groups[index] + start
                high = groups[-1] if end is None else groups[index] + end
                chosen = [
                    other for other, group in zip(ordered, groups, strict=True)
                    if low <= group <= high
                ]  # fmt: skip
            elif frame == "rows":
                low = 0 if start is None else max(index + start, 0)
                high = len(ordered) - 1 if end is None else index + end
                chosen = ordered[low : high + 1] if low <= high else []
            elif row.key is None:
                null_positions = [i for i, r in enumerate(ordered) if r.key is None]
                low = 0 if start is None else null_positions[0]
                high = len(ordered) - 1 if end is None else null_positions[-1]
                chosen = ordered[low : high + 1]
            else:
                chosen = [
                    other for other in ordered
                    if _in_range(other.key, row.key, start, end, descending, nulls_first)
                ]  # fmt: skip
            if exclude is not None:
                chosen = [other for other in chosen if not _excluded(other, row, exclude)]
            result[row.row_id] = _aggregate(aggregate, chosen, decimal_scale)
    return result


def _excluded(other: FrameRow, row: FrameRow, exclude: str) -> bool:
    """Whether `exclude` takes `other` out of `row`'s frame."""
    if exclude == "current row":
        return other.row_id == row.row_id
    peer = other.key == row.key  # NULL keys are peers of each other
    return peer if exclude == "group" else peer and other.row_id != row.row_id


def _peer_groups(ordered: Sequence[FrameRow]) -> list[int]:
    """Each row's peer group, numbered from 0 along `ordered` (NULL keys
    are peers of each other)."""
    groups: list[int] = []
    for number, (_, peers) in enumerate(itertools.groupby(ordered, key=lambda r: r.key)):
        groups += [number] * len(list(peers))
    return groups


def _in_range(
    key: Any, current: Any, start: Any, end: Any, descending: bool, nulls_first: bool
) -> bool:
    """Whether a row's `key` is in the RANGE frame of a row keyed `current`:
    between current + start and current + end, along the order (a descending
    order counts offsets the other way). A NULL key sorts before (or after)
    every value, so only an unbounded side reaches it."""
    if key is None:
        return (start is None and nulls_first) or (end is None and not nulls_first)
    if descending:
        low = None if end is None else shifted(current, negated(end))
        high = None if start is None else shifted(current, negated(start))
    else:
        low = None if start is None else shifted(current, start)
        high = None if end is None else shifted(current, end)
    return (low is None or key >= low) and (high is None or key <= high)


def _aggregate(
    aggregate: str | Callable[[list[Any]], Any], chosen: Sequence[FrameRow],
    decimal_scale: int | None,
) -> Any:  # fmt: skip
    values = [r.value for r in chosen if r.value is not None]
    if callable(aggregate):  # of the frame's non-NULL values
        return aggregate(values)
    if aggregate == "count_rows":
        return len(chosen)
    if aggregate == "count_distinct":
        # count(distinct a, b) skips a row where any of them is NULL: such a
        # row's value is None here.
        return len(set(values))
    if aggregate == "count":
        return len(values)
    if not values:
        return None
    if aggregate == "sum":
        return sum(values)
    if aggregate == "min":
        return min(values)
    if aggregate == "max":
        return max(values)
    if aggregate == "avg":
        if decimal_scale is None:
            return sum(values) / len(values)
        quantum = Decimal(1).scaleb(-(decimal_scale + 4))
        return (Decimal(sum(values)) / Decimal(len(values))).quantize(quantum, ROUND_HALF_UP)
    raise ValueError(aggregate)
