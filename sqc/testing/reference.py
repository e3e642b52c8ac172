"""Pure-Python references that tests compare the macros' Spark SQL with.

Written from Spark's documented semantics, not from the macros.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta


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
