"""The SQL incremental_windows runs, clean under sqlfluff's default rules,
and its config's compile errors. Rendered with dbt's Jinja from a model's
config, no Spark (the run's questions to Spark are given as their answers,
`bounds`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from sqc.testing.jinja import CompileError, Library, Relation

EVENTS = "spark_query_catalog_events__analytics__features"
EVENT_COLUMNS = ["event_id", "card", "event_at", "amount", "loaded_at"]
WINDOWS = {
    "amount_7d": {"expression": "sum(amount)", "frame": "range", "preceding": "7 days"},
    "events_next_1h": {"expression": "count(*)", "frame": "range", "preceding": 0,
                       "following": "1 hour"},
    "amount_avg_20": {"expression": "avg(amount)", "frame": "rows", "preceding": 19},
    "amount_sum_2_1": {"expression": "sum(amount)", "frame": "rows", "preceding": 2,
                       "following": 1},
}  # fmt: skip
CONFIG = {
    "keys": "card",
    "order_by": "event_at",
    "windows": WINDOWS,
    "event_key": "event_id",
    "loaded_at": "loaded_at",
}
TABLE = {
    "relation": Relation("features", "analytics"),
    "data_columns": [
        *EVENT_COLUMNS, *sorted(WINDOWS), "spark_query_catalog_loaded_at",
        "spark_query_catalog_changed_at",
    ],
}  # fmt: skip
BOUNDS = {
    "is_new": "loaded_at > 41",
    "broadcast_new": True,
    "probe_start": "2024-03-01",
    "probe_margin": "2024-03-03",
    "last_date": None,
    "older": "2024-02-11",
    "watermark": "44",
}
# The dates a run writes (_sqc_window_written_dates), for its pending table.
WRITTEN_DATES = ["2024-03-10", "2024-03-11"]


def _settings(**config: Any) -> dict[str, Any]:
    library = Library(model_config={**CONFIG, **config})
    return library.call("_sqc_incremental_windows_config")


def _events_sql(table: dict[str, Any] | None, bounds: dict[str, Any] | None, **config: Any) -> str:
    library = Library(model_config={**CONFIG, **config})
    settings = library.call("_sqc_incremental_windows_config")
    return str(
        library.call("_sqc_window_events_sql", settings, EVENT_COLUMNS, table, EVENTS, bounds)
    ).strip()


def test_windows_group_by_frame_and_reach_as_far_as_the_widest() -> None:
    """One rolling_select a frame, in the order of the columns' names; ROWS
    frames ordered by time then event key; the reach of each kind, in rows
    and in seconds."""
    settings = _settings()
    assert settings["aliases"] == sorted(WINDOWS)
    assert [(f["frame"], f["order_by"], sorted(f["aggregates"])) for f in settings["frames"]] == [
        ("range", "event_at", ["amount_7d"]),
        ("rows", ["event_at", "event_id"], ["amount_avg_20"]),
        ("rows", ["event_at", "event_id"], ["amount_sum_2_1"]),
        ("range", "event_at", ["events_next_1h"]),
    ]
    reach = {k: settings[k] for k in ("rows_back", "rows_forward", "range_back", "range_forward")}
    assert reach == {
        "rows_back": 19, "rows_forward": 1, "range_back": 604800, "range_forward": 3600,
    }  # fmt: skip


def test_the_full_refresh_reads_every_distinct_event(lints_clean: Callable[[str], None]) -> None:
    text = _events_sql(None, None)
    lints_clean(text)
    assert "partition by card, event_at, event_id" in text
    assert "from stored_reads" not in text


@pytest.mark.parametrize("copies", ["first", "last"])
def test_copies_keep_the_first_loaded_or_the_last(
    copies: str, lints_clean: Callable[[str], None]
) -> None:
    """A stored row (source 0) comes before a new copy (1) with 'first', after
    it with 'last'; among new copies, the first or the last loaded."""
    for table, bounds in [(None, None), (TABLE, BOUNDS)]:
        text = _events_sql(table, bounds, copies=copies)
        lints_clean(text)
        order = {
            "first": "order by windows_source, spark_query_catalog_loaded_at\n",
            "last": "order by windows_source desc, spark_query_catalog_loaded_at desc\n",
        }[copies]
        assert order in text
        assert "max(spark_query_catalog_loaded_at) over (" in text


@pytest.mark.parametrize("older", ["2024-02-11", "all", None])
def test_an_incremental_run_reads_the_new_events_and_the_rows_they_change(
    older: str | None,
    lints_clean: Callable[[str], None],
) -> None:
    """The probe from probe_start; keys short of rows read from `older`
    (none: no key is); every pass laid out as the macros' SQL."""
    text = _events_sql(TABLE, {**BOUNDS, "older": older})
    lints_clean(text)
    assert "stored_events.spark_query_catalog_date >= date '2024-03-01'" in text
    assert ("short_keys as (" in text) == (older is not None)
    older_read = "stored_events.spark_query_catalog_date >= date '2024-02-11'"
    assert (older_read in text) == (older == "2024-02-11")
    # ROWS: 1 row before the first new event is rewritten (1 following), its
    # frame reaches 19 rows further back; RANGE: an hour before, 7 days after.
    assert "windows_rows_before <= 1" in text
    assert "windows_rows_after <= 19" in text
    assert "event_at >= windows_first_new - interval 3600 seconds" in text
    assert "event_at <= windows_last_new + interval 604800 seconds" in text
    # What the run's ROWS question reads off each stored row (the key's, from
    # this pass): covered when it holds the widest frame's rows before the
    # rewritten ones (19) and the row a following frame shifts (1), and the
    # RANGE reach from the margin on; the days before its key's first new.
    assert (
        "coalesce(\n"
        "            windows_found_before >= greatest(windows_rewrite_before, 1) + 19\n"
        "            and to_date(windows_read_from) >= date '2024-03-03',\n"
        "            false\n"
        "        ) as windows_covered"
    ) in text
    assert "cast(null as boolean) as windows_covered" in text
    assert text.endswith(
        "windows_covered,\n    windows_halo_days\nfrom event_copies\nwhere windows_copy = 1"
    )


@pytest.mark.parametrize(
    ("short_keys", "older_rows", "older"),
    [(0, 0, None), (2, 0, None), (2, 12, "2024-02-11"), (2, 3, None)],
)  # fmt: skip
def test_rows_frames_read_older_rows_only_where_a_short_key_has_some(
    short_keys: int, older_rows: int, older: str | None, lints_clean: Callable[[str], None]
) -> None:
    """ROWS frames: no question before the run's events are written (from
    the nearby rows alone); then one asked of that table alone, without a
    pass of ranks (its rows carry what the events' own pass found): the
    days back the run read, and how many keys are short of rows there.
    None (most runs): the run reads no older rows, and asks nothing more.
    Some: how many stored rows they have before probe_start; none (keys
    seen for the first time): nothing more. Some: a last question, over
    them too, for the date from which they are needed (none, when none of
    them is: the events stand). Every question lint-clean."""
    table = {**TABLE, "state": {"watermark": 41, "halo_days": 20}, "loaded_type": "int"}
    run_events = "analytics.features__spark_query_catalog_run_events"
    answers = [
        ("select\n    count(*) as new_events", [(7, "2024-03-10", "2024-03-11", "44")]),
        ("with key_reads as", [(short_keys, 21)]),
        ("with new_events as", [(older_rows,)]),
        ("with new_events as", [(older, 22)]),
        ("alter table analytics.features set tblproperties", []),
    ]
    library = Library(model_config=CONFIG, answers=answers)
    settings = library.call("_sqc_incremental_windows_config")
    bounds = library.call("_sqc_window_bounds", settings, table, EVENTS)
    assert len(library.queries) == 1  # the new events' summary alone
    assert bounds["older"] is None  # the events are first written from the nearby rows
    assert bounds["probe_start"] == "2024-02-17"  # 20 days and 2 before the first new
    assert bounds["watermark"] == "44"  # the new events' latest loaded_at, the next watermark
    again = library.call("_sqc_window_rows_reads", settings, table, EVENTS, bounds, run_events)
    assert again == older  # the date the short keys are read from, or none
    assert bounds["older"] is None  # the run's bounds stay as they were built
    (first,) = [q for q in library.queries if q.lstrip().startswith("with key_reads as")]
    lints_clean(first)
    assert f"from {run_events}\n    group by\n        card\n" in first
    assert "bool_or(coalesce(windows_covered, false)) as windows_covered" in first
    questions = [q for q in library.queries if q.lstrip().startswith("with new_events as")]
    assert len(questions) == (0 if not short_keys else 2 if older_rows else 1)
    if short_keys:
        second = questions[0]
        lints_clean(second)
        assert "count_if(" not in second  # no pass of ranks: the events table's rows answer
        assert f"from {run_events}\n    where\n        windows_covered" in second
        # How far back the run read is the first question's answer, not asked again.
        assert "windows_halo_days" not in second
        assert "select count(*) as older_rows\nfrom older_rows" in second
        assert "stored_reads" not in second
        assert "stored_events.spark_query_catalog_date < date '2024-02-17'" in second
    if older_rows:
        lints_clean(questions[1])
        assert questions[1].count("count_if(") == 6  # the nearby pass and the whole one
    halo = 22 if older_rows else 21
    assert library.queries[-1] == (
        "alter table analytics.features set tblproperties "
        f"('spark_query_catalog.halo_days' = '{halo}')"
    )
    assert table["state"]["halo_days"] == halo


def test_range_frames_only_need_no_ranks(lints_clean: Callable[[str], None]) -> None:
    windows = {k: v for k, v in WINDOWS.items() if v["frame"] == "range"}
    bounds = {**BOUNDS, "last_date": "2024-03-20", "older": None}
    text = _events_sql({**TABLE, "data_columns": [*EVENT_COLUMNS, *sorted(windows)]}, bounds,
                       windows=windows)  # fmt: skip
    lints_clean(text)
    assert "count_if" not in text and "short_keys" not in text
    assert "stored_events.spark_query_catalog_date <= date '2024-03-20'" in text
    assert "event_at >= windows_first_new - interval 608400 seconds" in text


# Two frames' queries as _sqc_window_stages gives them (each over the one before).
STAGES = {
    "ctes": [
        {"name": "windows_1", "sql": "select\n    *,\n    sum(amount) over (w) as total\n"
                                     "from spark_query_catalog_windows__analytics__features"},
        {"name": "windows_2", "sql": "select\n    *,\n    max(amount) over (w) as largest\n"
                                     "from windows_1"},
    ],
    "last": "windows_2",
}  # fmt: skip


def test_the_pending_table_and_the_full_refresh_chain_their_frames(
    lints_clean: Callable[[str], None],
) -> None:
    library = Library(model_config=CONFIG)
    settings = library.call("_sqc_incremental_windows_config")
    pending = str(library.call(
        "_sqc_create_windows_pending_sql",
        Relation("features__spark_query_catalog_pending", "analytics"),
        settings,
        TABLE,
        "spark_query_catalog_windows__analytics__features",
        STAGES,
        BOUNDS,
        WRITTEN_DATES,
    )).strip()  # fmt: skip
    lints_clean(pending)
    # The kept rows of the touched dates, named as literals: Spark reads those partitions only.
    assert (
        "where\n    stored_events.spark_query_catalog_date in (\n"
        "        date '2024-03-10',\n        date '2024-03-11'\n    )"
    ) in pending
    full = str(library.call(
        "_sqc_create_windows_table_sql", Relation("features", "analytics"), settings, EVENT_COLUMNS,
        STAGES,
    )).strip()  # fmt: skip
    lints_clean(full)
    assert "partitioned by (spark_query_catalog_date)" in full
    # Each frame a CTE over the one before, the rows read from the last.
    for text in (pending, full):
        assert (
            "with windows_1 as (\n    select\n        *,\n        sum(amount) over (w) as total\n"
            "    from spark_query_catalog_windows__analytics__features\n),\n\n"
            "windows_2 as (\n    select\n        *,\n        max(amount) over (w) as largest\n"
            "    from windows_1\n)"
        ) in text
        assert "from windows_2\n" in text + "\n"


@pytest.mark.parametrize(
    ("windows", "words"),
    [
        ({"total": {"expression": "sum(amount)", "frame": "rows"}},
         "window total (rows between unbounded preceding and current row): an unbounded end reaches"
         " every earlier row of its partition"),
        ({"total": {"expression": "count(*)", "frame": "rows", "preceding": 0,
                    "following": "unbounded"}},
         "an unbounded end reaches every later row"),
        ({"total": {"expression": "sum(amount)", "frame": "range", "preceding": "1 year"}},
         "give the interval a fixed length, such as '7 days' (months have none)"),
        ({"total": {"expression": "sum(amount)", "preceding": 2, "rows": 1}},
         "argument `windows.total` must be a dict with 'expression'"),
        ({"total": {"expression": "sum(amount)", "frame": "rows", "preceding": "7 days"}},
         "intervals need frame='range'"),
        ({}, "argument `windows` must be a non-empty dict"),
        ({"total": {"expression": "sum(amount)", "preceding": 2, "following": -3}},
         "window total (rows between 2 preceding and 3 preceding): the frame starts after it ends"),
    ],
)  # fmt: skip
def test_a_frame_it_cannot_keep_is_a_clear_compile_error(windows: Any, words: str) -> None:
    library = Library(model_config={**CONFIG, "windows": windows})
    message = library.error("_sqc_incremental_windows_config")
    assert message.startswith("spark_query_catalog.incremental_windows: "), message
    assert words in message, message


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"order_by": None}, "argument `order_by` must be set in the model's config"),
        ({"order_by": "a.b"}, "argument `order_by` must be one column of the events"),
        ({"event_key": []}, "argument `event_key` must be a column name or a non-empty list"),
        ({"broadcast_rows": -1}, "argument `broadcast_rows` must be a whole number of rows"),
        (
            {"copies": "latest"},
            "argument `copies` must be 'first' (the first loaded copy of an event is kept)"
            " or 'last' (a newer version replaces it). Got: 'latest'",
        ),
    ],
)
def test_bad_settings_are_clear_compile_errors(change: dict[str, Any], words: str) -> None:
    library = Library(model_config={**CONFIG, **change})
    with pytest.raises(CompileError, match="incremental_windows"):
        library.call("_sqc_incremental_windows_config")
    assert words in library.error("_sqc_incremental_windows_config")


TYPED_COLUMNS = [
    {"name": "event_id", "data_type": "int"},
    {"name": "card", "data_type": "string"},
    {"name": "event_at", "data_type": "timestamp"},
    {"name": "amount", "data_type": "bigint"},
    {"name": "loaded_at", "data_type": "int"},
]


def _state_settings(library: Library) -> dict[str, Any]:
    settings = library.call("_sqc_incremental_windows_config")
    return library.call(
        "_sqc_window_states", settings, TYPED_COLUMNS, "select * from analytics.events"
    )


def test_sum_count_avg_frames_ending_at_the_row_keep_their_state(
    lints_clean: Callable[[str], None],
) -> None:
    """Which frames keep a state: ROWS frames ending at the row whose
    aggregates are all sums, counts and avgs with an exact linear form; a
    frame with a following row, a max, or a bigint avg (Spark's double sum)
    reads the rows it reaches. The run then reads one stored row before the
    rewritten ones for a state frame, and as many as the widest other frame
    reaches for the rest."""
    windows = {
        **WINDOWS,
        "amount_sum_20": {"expression": "sum(amount)", "frame": "rows", "preceding": 19},
        "amount_max_5": {"expression": "max(amount)", "frame": "rows", "preceding": 5},
        "events_50": {"expression": "count(*)", "frame": "rows", "preceding": 49},
    }
    library = Library(model_config={**CONFIG, "windows": windows, "frame_states": True})
    settings = _state_settings(library)
    states = {tuple(sorted(o["alias"] for o in s["outputs"])): s for s in settings["states"]}
    # avg of bigint (amount_avg_20) shares its frame with a sum: that frame reads its rows.
    assert sorted(states) == [("events_50",)]
    assert states[("events_50",)]["width"] == 49
    assert settings["rows_read_back"] == 19  # amount_avg_20's frame, read as before
    assert settings["rows_back"] == 49  # rows rewritten after the new events

    only = {"amount_sum_20": windows["amount_sum_20"], "events_50": windows["events_50"]}
    library = Library(model_config={**CONFIG, "windows": only, "frame_states": True})
    settings = _state_settings(library)
    assert len(settings["states"]) == 2 and settings["rows_read_back"] == 1
    table = {**TABLE, "data_columns": [*EVENT_COLUMNS, *sorted(only)]}
    bounds = {**BOUNDS, "older": None}
    text = str(
        library.call("_sqc_window_events_sql", settings, EVENT_COLUMNS, table, EVENTS, bounds)
    )
    lints_clean(text.strip())
    assert "windows_rows_before <= windows_rewrite_before + 1\n" in text
    assert "windows_rows_after <= 49" in text  # the rows whose frames shift are rewritten
    # Each stored row brings its frames' states; a new one has none yet.
    assert "spark_query_catalog_rows_1 as windows_state_1" in text
    assert "null as windows_state_2" in text
    # By default ('auto') only frames of 100 rows or more keep a state; false: none.
    wide = {**only, "events_100": {"expression": "count(*)", "preceding": 99}}
    for frame_states, kept in [("auto", [["events_100"]]), (False, [])]:
        library = Library(model_config={**CONFIG, "windows": wide, "frame_states": frame_states})
        settings = _state_settings(library)
        assert [[o["alias"] for o in s["outputs"]] for s in settings["states"]] == kept
    with pytest.raises(CompileError, match="argument `frame_states` must be 'auto'"):
        _settings(frame_states="yes")


def test_the_state_statements_are_laid_out_as_documented(
    lints_clean: Callable[[str], None],
) -> None:
    """A full refresh's state column, and an incremental run's anchors,
    heads and stage: lint-clean, and the stage's records as documented
    (u's state at 0, rows entering at i and leaving at i + w + 1, heads
    leaving at j + d + 1)."""
    windows = {
        "amount_avg_20": {"expression": "avg(cast(amount as decimal(12, 2)))", "preceding": 19},
        "amount_sum_20": {"expression": "sum(amount)", "preceding": 19},
        "events_20": {"expression": "count(*)", "preceding": 19},
    }
    library = Library(model_config={**CONFIG, "windows": windows, "frame_states": True})
    settings = _state_settings(library)
    (state,) = settings["states"]
    assert [v["argument"] for v in state["values"]] == ["cast(amount as decimal(12, 2))", "amount"]
    full = str(library.call("_sqc_window_state_full_sql", settings, state, "select * from t"))
    lints_clean(full)
    assert "lag(named_struct('at', event_at, 'key_1', event_id), 19)" in full
    assert "sum(cast(amount as decimal(20, 0)))" in full  # a bigint's total cannot overflow
    anchors = str(library.call("_sqc_window_anchors_sql", settings, state, EVENTS)).strip()
    lints_clean(anchors)
    heads = str(library.call(
        "_sqc_window_heads_sql", settings, state, TABLE, "anchors", "2024-01-01", "2024-01-05",
        True,
    )).strip()  # fmt: skip
    lints_clean(heads)
    assert "spark_query_catalog_date <= date '2024-01-05'" in heads
    # The questions between them: the heads' dates, and the keys short of heads.
    needed = (
        "least(\n    anchors.windows_anchor.rows,\n"
        "    anchors.windows_written - 20 + anchors.windows_anchor.rows + 1\n)"
    )
    assert needed.replace("\n", "\n        ") + " as windows_needed" in heads
    span = str(library.call("_sqc_window_anchor_span_sql", "anchors")).strip()
    lints_clean(span)
    assert "where anchors.windows_anchor is not null" in span
    short = str(
        library.call(
            "_sqc_window_short_keys_sql", settings, state, TABLE, "anchors", "2024-01-01",
            "2024-01-05", True,
        )
    ).strip()  # fmt: skip
    lints_clean(short)
    # A key is short when it has fewer stored rows from its anchor's start
    # (within the dates read) than it needs: a count, no window.
    assert "< " + needed.replace("\n", "\n    ") in short
    assert "count(*) as windows_found" in short and " over (" not in short
    assert "spark_query_catalog_date <= date '2024-01-05'" in short
    results = str(library.call(
        "_sqc_window_state_results_sql", settings, state, EVENTS, "anchors", "heads"
    )).strip()  # fmt: skip
    lints_clean(results)
    for axis in ("0 as windows_axis", "'windows_axis', windows_index + 20,",
                 "'windows_axis', windows_index + 1,",
                 "windows_head + windows_skip as windows_index"):  # fmt: skip
        assert axis in results
    # The written rows and the heads are each read once, for all their records:
    # Spark computes a CTE or a view again wherever a statement names it.
    assert results.count("from windows_written\n") == 1 and results.count("from heads\n") == 1
    assert results.count("from windows_entering\n") == results.count("from windows_leaving\n") == 1
    assert "as decimal(16, 6)" in results  # the decimal avg's type, as Spark's Average gives it
    stage = str(library.call("_sqc_window_state_stage_sql", settings, state, EVENTS, "results"))
    lints_clean(stage.strip())
    assert "left join results as windows_results" in stage
    # The last state frame's results are the written rows, whole: CTEs of the
    # pending table's statement, the row's other columns carried on its record.
    carried = library.call(
        "_sqc_window_state_results_sql", settings, state, EVENTS, "anchors", "heads",
        ["event_id", "event_at", "amount", "spark_query_catalog_loaded_at"],
    )  # fmt: skip
    whole = f"with {str(carried['ctes']).strip()}\n\n{str(carried['select']).strip()}"
    lints_clean(whole)
    assert "'event_at', event_at," in whole
    assert "'windows_written_row', windows_written_row," in whole
    assert "'windows_written_row', null," in whole and "null as windows_written_row" in whole
    assert "select\n    frames.windows_written_row.*,\n" in whole
    assert "    true as windows_write" in whole
    assert "windows_order" not in str(carried["select"])
    # No key writes more rows than the frame holds (the anchors' most_written
    # against w): a written row's leaving and start records would lie past
    # every written row, and are left out.
    unshifted = str(library.call(
        "_sqc_window_state_results_sql", settings, state, EVENTS, "anchors", "heads", shifted=False
    )).strip()  # fmt: skip
    lints_clean(unshifted)
    assert "'windows_axis', windows_index + 20," in results
    assert "'windows_axis', windows_index + 20," not in unshifted
    assert "'windows_axis', windows_index + 19," not in unshifted
    assert "'windows_axis', windows_index,\n" in unshifted
    assert "max(anchors.windows_written) as most_written" in span
    # The anchors are one aggregate: no window finds the first written row.
    assert " over (" not in anchors and "events.windows_before" in anchors


def test_an_incremental_run_keeps_its_events_and_results_in_tables_of_its_own() -> None:
    """An incremental run writes its events and each state frame's results
    as tables named after the model (read by its later statements: Spark
    4.3 does not use a cached view inside a statement with a WITH clause);
    a full refresh reads its events once, from a temporary view, and has
    no tables of its own. A state frame's anchors are a table too (four
    statements read them); its heads stay a temporary view."""
    only = {
        "amount_sum_200": {"expression": "sum(amount)", "frame": "rows", "preceding": 199},
        "events_7d": {"expression": "count(*)", "frame": "range", "preceding": "7 days"},
    }
    library = Library(model_config={**CONFIG, "windows": only})
    settings = _state_settings(library)
    relation = Relation("features", "analytics")
    run = library.call("_sqc_window_view_names", relation, settings, True)
    assert run["events"] == "analytics.features__spark_query_catalog_run_events"
    assert run["run_events"].render() == run["events"]
    assert [table.render() for table in run["run_results"]] == [
        "analytics.features__spark_query_catalog_run_results_1"
    ]
    assert [table.render() for table in run["anchors"]] == [
        "analytics.features__spark_query_catalog_run_anchors_1"
    ]
    assert run["heads"] == ["spark_query_catalog_windows__analytics__features__heads_1"]
    full = library.call("_sqc_window_view_names", relation, settings, False)
    assert full["events"] == "spark_query_catalog_windows__analytics__features"
    # Whichever the run, the names of the tables a run that died may have left.
    tables = [run["run_events"], *run["anchors"], *run["run_results"]]
    assert [full["run_events"], *full["anchors"], *full["run_results"]] == tables
    # A full refresh writes none of them: its events are a temporary view.
    full_library = Library(
        model_config={**CONFIG, "windows": only},
        columns={full["events"]: [(c["name"], c["data_type"]) for c in TYPED_COLUMNS]},
    )
    full_settings = _state_settings(full_library)
    full_library.answers = [("create or replace temporary view", [])]
    full_library.call("_sqc_window_stages", full_settings, EVENT_COLUMNS, None, EVENTS, None, full)
    assert [q.split(" as", 1)[0] for q in full_library.queries] == [
        f"create or replace temporary view {full['events']}"
    ]


def test_a_run_table_is_written_in_one_statement_and_cleared_only_on_demand() -> None:
    """A run writes each of its tables with one CREATE (no probe for a
    directory left behind); clearing what a run that died left drops each
    run table and the directories of those and of the pending table."""
    library = Library(model_config=CONFIG)
    settings = _state_settings(library)
    relation = Relation("features", "analytics")
    names = library.call("_sqc_window_view_names", relation, settings, True)
    library.answers = [("create table", [])]
    library.call("_sqc_create_run_table", names["run_events"], "select 1 as one")
    assert library.queries == [
        "create table analytics.features__spark_query_catalog_run_events\n"
        "using parquet\nas\nselect 1 as one"
    ]
    assert library.cached == [names["events"]]  # rolling_select describes it once
    library.queries.clear()
    pending = Relation("features__spark_query_catalog_pending", "analytics")
    run_tables = [names["run_events"], *names["anchors"], *names["run_results"]]
    cleared = [*run_tables, pending]
    library.answers = [("drop table if exists", [])] * len(run_tables) + [
        answer
        for table in cleared
        for answer in [
            ("create table if not exists", []),
            ("describe table extended", [("Location", f"file:/w/a.db/{table.identifier}__probe")]),
            ("alter table", []),
            ("drop table", []),
        ]
    ]  # fmt: skip
    library.call("_sqc_clear_run_tables", names, pending)
    assert library.answers == [] and library.cached == []
    drops = [q for q in library.queries if q.startswith("drop table if exists")]
    assert drops == [f"drop table if exists {table.render()}" for table in run_tables]
    probes = [q for q in library.queries if q.startswith("alter table") and "set location" in q]
    assert [q.rsplit("/", 1)[1] for q in probes] == [
        *(f"{table.identifier}'" for table in run_tables),
        "features__spark_query_catalog_pending'",
    ]


def _stages_library(windows: dict[str, Any]) -> tuple[Library, dict[str, Any], dict[str, Any]]:
    """A library whose events view has the typed columns, the model's
    settings, and an incremental run's names."""
    relation = Relation("features", "analytics")
    view = "spark_query_catalog_windows__analytics__features"
    library = Library(
        model_config={**CONFIG, "windows": windows},
        columns={view: [(c["name"], c["data_type"]) for c in TYPED_COLUMNS]},
    )
    settings = _state_settings(library)
    names = library.call("_sqc_window_view_names", relation, settings, True)
    assert names["view"] == view
    return library, settings, names


def test_a_run_of_range_frames_writes_no_table_of_its_own(
    lints_clean: Callable[[str], None],
) -> None:
    """RANGE frames that keep no state, whose queries read the events once:
    the run's events are a temporary view, its frames CTEs of the pending
    table's statement, and the stored rows it keeps those outside each
    key's reach of its new events (every stored row inside it is written),
    in partitions asked of the new events alone."""
    windows = {k: v for k, v in WINDOWS.items() if v["frame"] == "range"}
    library, settings, names = _stages_library(windows)
    assert settings["states"] == []
    library.answers = [("create or replace temporary view", [])]
    stages = library.call(
        "_sqc_window_stages", settings, EVENT_COLUMNS, TABLE, EVENTS, BOUNDS, names
    )
    assert library.answers == []
    (view,) = library.queries
    assert view.startswith(f"create or replace temporary view {names['view']} as\nwith new_events")
    assert stages["tables"] == [] and stages["views"] == [names["view"]]
    assert [cte["name"] for cte in stages["ctes"]] == ["windows_1", "windows_2"]
    # The dates: each key's, from its first new event less the reach forward
    # (1 hour) to its last plus the reach back (7 days).
    library.answers = [("with new_events as", [('["2024-03-11", "2024-03-10"]',)])]
    dates = library.call("_sqc_window_written_dates", settings, names, stages, BOUNDS)
    assert dates == ["2024-03-10", "2024-03-11"]
    question = library.queries[-1]
    lints_clean(question)
    assert "to_date(windows_first_new - interval 3600 seconds)" in question
    assert "to_date(windows_last_new + interval 604800 seconds)" in question
    assert f"from {EVENTS}\n" in question and "from new_keys" in question
    pending = str(
        library.call(
            "_sqc_create_windows_pending_sql",
            Relation("features__spark_query_catalog_pending", "analytics"),
            settings,
            TABLE,
            names["events"],
            stages,
            BOUNDS,
            dates,
        )
    ).strip()
    assert pending.startswith("create table analytics.features__spark_query_catalog_pending")
    lints_clean(pending.split("\nas\n", 1)[1])
    assert names["events"] not in pending  # no table of the run's own
    assert pending.count(f"from {names['view']}\n") == 1  # the frames read the events once
    assert (
        "written_spans as (\n    select\n        card,\n"
        "        windows_first_new - interval 3600 seconds as windows_written_from,\n"
        "        windows_last_new + interval 604800 seconds as windows_written_to\n"
        "    from new_keys\n)"
    ) in pending
    assert (
        "stored_events.event_at\n        between written_spans.windows_written_from\n"
        "        and written_spans.windows_written_to"
    ) in pending
    assert "from windows_2\nwhere windows_write" in pending
    assert "touched_dates" not in pending  # no marker rows: no partition is emptied


@pytest.mark.parametrize(
    "window",
    [
        {"expression": "sum(amount)", "frame": "rows", "preceding": 999, "following": 1},
        {
            "expression": "avg(amount)",
            "frame": "range",
            "preceding": "24 hours",
            "following": "1 hour",
        },
        {"expression": "max(amount)", "frame": "rows", "preceding": 999},
        {"expression": "min(amount)", "frame": "range", "preceding": "7 days"},
        {"expression": "count(distinct amount)", "frame": "rows", "preceding": 999},
        {"expression": "count(distinct amount, card)", "frame": "range", "preceding": "7 days"},
        {"expression": "approx_count_distinct(amount)", "frame": "rows", "preceding": 999},
        {"expression": "percentile_approx(amount, 0.5)", "frame": "rows", "preceding": 99},
        {"expression": "median(amount)", "frame": "range", "preceding": "7 days"},
    ],
    ids=lambda window: f"{window['expression']} {window['frame']}",
)
def test_every_frame_form_reads_the_events_once(window: dict[str, Any]) -> None:
    """Why the events may stay a view (a full refresh's, and a run's of
    RANGE frames without state): the statement that computes the frames
    names it once, so Spark computes it once."""
    library, settings, names = _stages_library({"x": window})
    full = library.call(
        "_sqc_window_view_names", Relation("features", "analytics"), settings, False
    )
    library.answers = [("create or replace temporary view", [])]
    stages = library.call("_sqc_window_stages", settings, EVENT_COLUMNS, None, EVENTS, None, full)
    assert library.answers == [] and stages["views"] == [names["view"]]
    ctes = str(library.call("_sqc_window_stage_ctes_sql", stages))
    assert ctes.count(names["view"]) == 1


@pytest.mark.parametrize("older", [None, "2024-02-11"])
def test_a_run_of_rows_frames_asks_its_question_of_its_events_table(older: str | None) -> None:
    """ROWS frames (no state): the run writes its events from the nearby
    rows to its table, asks the ROWS question of that table, and only when
    keys short of rows have older rows writes it again, from `older`; the
    frames are CTEs over the table, in the pending table's statement."""
    windows = {
        "amount_7d": WINDOWS["amount_7d"],
        "amount_sum_2_1": WINDOWS["amount_sum_2_1"],
    }
    library, settings, names = _stages_library(windows)
    library.columns[names["events"]] = library.columns[names["view"]]
    assert settings["states"] == [] and settings["has_rows"]
    table = {**TABLE, "state": {"watermark": 41, "halo_days": 20}, "loaded_type": "int"}
    bounds = {**BOUNDS, "older": None}
    library.answers = [
        ("create table", []),
        ("with key_reads as", [(1, 9)]),
        ("with new_events as", [(4 if older else 0, 9)]),
        ("with new_events as", [(older, 10)]),
        ("alter table analytics.features set tblproperties", []),
        ("drop table if exists", []),
        ("create table", []),
    ]
    stages = library.call(
        "_sqc_window_stages", settings, EVENT_COLUMNS, table, EVENTS, bounds, names
    )
    writes = [q for q in library.queries if q.startswith(f"create table {names['events']}")]
    assert len(writes) == (2 if older else 1)
    assert "short_keys as (" not in writes[0]  # from the nearby rows alone
    assert ("short_keys as (" in writes[-1]) == (older is not None)
    # Written again, the events read the short keys' rows from the date found.
    from_older = f"stored_events.spark_query_catalog_date >= date '{older}'"
    assert (from_older in writes[-1]) == (older is not None)
    assert bounds["older"] is None  # the run's bounds stay as they were built
    asked = library.queries[library.queries.index(writes[0]) + 1]
    assert asked.startswith("with key_reads as") and f"from {names['events']}" in asked
    assert not any(q.startswith("create or replace temporary view") for q in library.queries)
    assert [cte["name"] for cte in stages["ctes"]] == ["windows_1", "windows_2"]
    assert stages["last"] == "windows_2" and stages["views"] == []
    assert f"from {names['events']}" in stages["ctes"][0]["sql"]
    assert library.cached == [names["events"]]


@pytest.mark.parametrize(
    ("short_keys", "older", "halo_days"),
    [(0, None, 20), (0, None, 23), (2, None, 23), (2, "2024-02-11", 24)],
)  # fmt: skip
def test_a_state_frame_s_anchors_answer_the_rows_question_and_the_dates(
    short_keys: int, older: str | None, halo_days: int, lints_clean: Callable[[str], None]
) -> None:
    """With a state frame, the run writes its events, then the first state
    frame's anchors, whose span answers the ROWS question (how many keys are
    short, how far back the run read) and the dates written too: neither is
    a question of its own. The days back are recorded only when they differ
    from the table's (20). Keys short of rows that have older rows: the
    events again, with them, then the anchors and their span again."""
    windows = {
        "amount_sum_200": {"expression": "sum(amount)", "frame": "rows", "preceding": 199},
        "amount_7d": WINDOWS["amount_7d"],
    }
    library, settings, names = _stages_library(windows)
    library.columns[names["events"]] = library.columns[names["view"]]
    assert [s["outputs"][0]["alias"] for s in settings["states"]] == ["amount_sum_200"]
    table = {
        **TABLE,
        "data_columns": [*EVENT_COLUMNS, "amount_7d", "amount_sum_200",
                         "spark_query_catalog_rows_1", "spark_query_catalog_loaded_at"],
        "state": {"watermark": 41, "halo_days": 20},
        "loaded_type": "int",
    }  # fmt: skip
    bounds = {**BOUNDS, "older": None}
    span = ("2023-12-01", "2023-12-05", "2024-03-09", 12)
    dates = '["2024-03-11","2024-03-10"]'
    library.answers = [
        ("create table", []),
        ("create table", []),
        ("select\n    cast(", [(*span, short_keys, halo_days, dates)]),
        ("with new_events as", [(4 if older else 0,)]),
        ("with new_events as", [(older, halo_days)]),
        ("alter table analytics.features set tblproperties", []),
        ("drop table if exists", []),
        ("drop table if exists", []),
        ("create table", []),
        ("create table", []),
        ("select\n    cast(", [(*span, 0, halo_days, dates)]),
        ("create or replace temporary view", []),
        ("with windows_stored as", [(0,)]),
    ]
    stages = library.call(
        "_sqc_window_stages", settings, EVENT_COLUMNS, table, EVENTS, bounds, names
    )
    queries = library.queries
    assert not any(q.lstrip().startswith("with key_reads as") for q in queries)
    anchors = [q for q in queries if q.startswith(f"create table {names['anchors'][0].render()}")]
    assert len(anchors) == (2 if older else 1)
    body = anchors[0].split("\nas\n", 1)[1]
    lints_clean(body)
    for column in ("windows_covered", "windows_halo_days", "windows_written_dates"):
        assert f"as {column}" in body and f"anchors.{column}" in body
    (first_span, *_) = [q.strip() for q in queries if q.lstrip().startswith("select\n    cast(")]
    lints_clean(first_span)
    assert "count_if(not anchors.windows_covered) as short_keys" in first_span
    recorded = [q for q in queries if q.startswith("alter table analytics.features")]
    record = "alter table analytics.features set tblproperties ('spark_query_catalog.halo_days'"
    assert recorded == ([] if halo_days == 20 else [f"{record} = '{halo_days}')"])
    assert table["state"]["halo_days"] == halo_days
    # Written again, the events read the short keys' rows from the date found.
    writes = [q for q in queries if q.startswith(f"create table {names['events']}")]
    assert len(writes) == (2 if older else 1)
    from_older = f"stored_events.spark_query_catalog_date >= date '{older}'"
    assert (from_older in writes[-1]) == (older is not None)
    assert bounds["older"] is None  # the run's bounds stay as they were built
    # The dates written come with the span: asked of nothing more.
    asked = len(queries)
    assert library.call("_sqc_window_written_dates", settings, names, stages, bounds) == [
        "2024-03-10", "2024-03-11"
    ]  # fmt: skip
    assert len(library.queries) == asked
    # The state frame's stage uses the anchors written: no second CREATE of them.
    assert stages["tables"] == [names["run_events"], *names["anchors"]]


def test_a_span_end_replaces_the_stored_rows_inside_each_new_event_s_span(
    lints_clean: Callable[[str], None],
) -> None:
    """span_end (sessions that a merge removes): a key's rewritten rows run
    to the end of its last new span; the stored rows inside a new event's
    span are left out of the run's events and of the rows kept, their days
    are written, and a marker row a day tells the apply which day emptied."""
    config = {"span_end": "event_end", "windows": {"amount_sum_2_1": WINDOWS["amount_sum_2_1"]}}
    text = _events_sql(TABLE, {**BOUNDS, "older": None}, **config)
    lints_clean(text)
    assert "max(greatest(event_at, event_end)) as windows_last_new" in text
    assert (
        "    inner join new_keys\n        on stored_events.card <=> new_keys.card\n"
        "    left anti join new_events as replacing\n"
        "        on\n            stored_events.card <=> replacing.card\n"
        "            and stored_events.event_at >= replacing.event_at\n"
        "            and stored_events.event_at <= replacing.event_end\n"
    ) in text
    assert "broadcast(new_keys, replacing)" in text
    library = Library(model_config={**CONFIG, **config})
    settings = library.call("_sqc_incremental_windows_config")
    stages = {**STAGES, "tables": ["run_events"], "written_dates": ["2024-03-11"],
              "events_view": EVENTS}  # fmt: skip
    library.answers = [("with new_events as", [('["2024-03-10", "2024-03-11"]',)])]
    names = {"events": "run_events"}
    dates = library.call("_sqc_window_written_dates", settings, names, stages, BOUNDS)
    assert dates == ["2024-03-10", "2024-03-11"]
    lints_clean(library.queries[-1])
    assert "sequence(\n                to_date(event_at),\n" in library.queries[-1]
    pending = str(library.call(
        "_sqc_create_windows_pending_sql",
        Relation("features__spark_query_catalog_pending", "analytics"),
        settings, TABLE, "run_events", stages, BOUNDS, dates,
    )).strip()  # fmt: skip
    lints_clean(pending.split("\nas\n", 1)[1])
    assert "left anti join new_events as replacing\n    on\n        stored_events.card" in pending
    dates_array = "array(\n                date '2024-03-10',\n                date '2024-03-11'\n"
    assert dates_array in pending
    assert pending.endswith("    true as spark_query_catalog_marker\nfrom written_dates")
    # Without span_end, none of it.
    plain = _events_sql(TABLE, {**BOUNDS, "older": None}, windows=config["windows"])
    assert "replacing" not in plain and "max(event_at) as windows_last_new" in plain


@pytest.mark.parametrize("span_end", [3, "a.b", ["event_end"], ""])
def test_a_bad_span_end_is_a_clear_compile_error(span_end: Any) -> None:
    library = Library(model_config={**CONFIG, "span_end": span_end})
    message = library.error("_sqc_incremental_windows_config")
    words = "argument `span_end` must be one column of the events that ends each event's span"
    assert words in message
