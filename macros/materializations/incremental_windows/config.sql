{#-
    The model's config for incremental_windows, checked:

      keys              key column(s) of the windows (rolling_select's
                        partition_by; _sqc_config_keys)
      order_by          the event time column (a date or a timestamp): the
                        windows' order and the table's partitions
                        (spark_query_catalog_date = to_date(order_by))
      windows           dict of output column to a window of rolling's
                        arguments: {'expression': 'sum(amount)', 'frame':
                        'range', 'preceding': '7 days', 'following': 0,
                        'method': 'auto'} (frame 'rows' and following 0 by
                        default; both ends must be bounded). Columns in the
                        order of their names: dbt does not keep a config
                        dict's order.
      event_key         column(s) identifying an event within its keys
                        and time: copies (same keys, event_key and time)
                        are one event
      copies            which copy of an event the table keeps: 'first'
                        (default: the first loaded; a copy loaded again
                        changes nothing) or 'last' (a newer version
                        replaces it: events read from a table whose rows
                        change, such as another incremental_windows table's
                        marked rows)
      loaded_at         column that grows with every load (a batch id, a load
                        time): events with a larger value than the table has
                        seen are new
      span_end          column (order_by's type) that ends each event's span,
                        for events that replace one another, such as the
                        sessions of an incremental_sessions table (a merge
                        removes a session): a new event replaces every stored
                        row of its keys whose order_by lies in [order_by,
                        span_end]. Default none: rows never disappear
      broadcast_rows    up to how many new events a run sends whole to every
                        task instead of shuffling (default 200000; 0 never)
      frame_states      which ROWS frames of sums, counts and avgs keep their
                        state (states.sql): 'auto' (default) those reaching
                        100 rows or more, true all, false none

    ROWS frames are ordered by order_by, then event_key, so that rows at one
    instant keep one order on every run; a RANGE frame shares a frame among
    rows of one instant, as Spark does.
-#}
{% macro _sqc_incremental_windows_config() %}
    {%- set name = "incremental_windows" -%}
    {%- set settings = {} -%}
    {%- set key_columns = spark_query_catalog._sqc_config_keys(name) -%}
    {%- for key in ["order_by", "windows", "event_key", "loaded_at"] -%}
        {%- set value = config.get(key) -%}
        {%- if value is none -%}
            {{- spark_query_catalog._sqc_fail(name, key, "set in the model's config", value) -}}
        {%- endif -%}
        {%- do settings.update({key: value}) -%}
    {%- endfor -%}
    {%- for key in ["order_by", "loaded_at"] -%}
        {%- if settings[key] is not string or settings[key] | trim == "" -%}
            {{- spark_query_catalog._sqc_fail(name, key, "a column name or SQL expression (string)", settings[key]) -}}
        {%- endif -%}
    {%- endfor -%}
    {%- if not spark_query_catalog._sqc_is_qualified_name(settings.order_by | trim) or "." in settings.order_by -%}
        {{- spark_query_catalog._sqc_fail(name, "order_by", "one column of the events (a date or a timestamp)", settings.order_by) -}}
    {%- endif -%}
    {%- set frame_states = config.get("frame_states", "auto") -%}
    {%- if frame_states not in ["auto", true, false] -%}
        {{- spark_query_catalog._sqc_fail(name, "frame_states", "'auto' (ROWS frames of sums, counts and avgs"
            ~ " reaching 100 rows or more keep their state), true (every such frame) or false (none)", frame_states) -}}
    {%- endif -%}
    {%- set broadcast_rows = config.get("broadcast_rows", 200000) -%}
    {%- if not spark_query_catalog._sqc_is_whole_number(broadcast_rows) -%}
        {{- spark_query_catalog._sqc_fail(name, "broadcast_rows", "a whole number of rows, 0 or more (0: never broadcast)", broadcast_rows) -}}
    {%- endif -%}
    {%- set copies = config.get("copies", "first") -%}
    {%- if copies not in ["first", "last"] -%}
        {{- spark_query_catalog._sqc_fail(name, "copies", "'first' (the first loaded copy of an event is kept)"
            ~ " or 'last' (a newer version replaces it)", copies) -}}
    {%- endif -%}
    {%- set span_end = config.get("span_end") -%}
    {%- if span_end is not none and (span_end is not string
        or not spark_query_catalog._sqc_is_qualified_name(span_end | trim) or "." in span_end) -%}
        {{- spark_query_catalog._sqc_fail(name, "span_end", "one column of the events that ends each event's span"
            ~ " (such as session_end), or none", span_end) -}}
    {%- endif -%}
    {%- set event_keys = spark_query_catalog._sqc_string_list(settings.event_key, name, "event_key", allow_empty=false) -%}
    {%- do settings.update({
        "order_by": settings.order_by | trim,
        "key_columns": key_columns,
        "event_keys": event_keys,
        "broadcast_rows": broadcast_rows,
        "frame_states": frame_states,
        "copies": copies,
        "span_end": span_end | trim if span_end is not none else none
    }) -%}
    {%- do settings.update(spark_query_catalog._sqc_window_frames(settings)) -%}
    {{- return(settings) -}}
{% endmacro %}


{#-
    The windows of the config, checked with rolling's own rules, grouped by
    frame (one rolling_select a frame), and how far they reach:
      frames        [{frame, preceding, following, method, order_by,
                    aggregates, back, state}]
      aliases       the window columns, in order
      rows_back,
      rows_forward  the most rows a ROWS frame reaches before, after the row
      range_back,
      range_forward the most seconds a RANGE frame reaches before, after it
      rows_read_back  how many stored rows before the rewritten ones a run
                    reads (fewer when a frame keeps its state)
      states        the frames that keep a state
    The last two, and each frame's `state`, are those of a model without
    state frames (none of the frames keeps a state): once the events'
    columns are known, _sqc_window_states (states.sql) gives the run's
    settings, with the same keys.
-#}
{% macro _sqc_window_frames(settings) %}
    {%- set name = "incremental_windows" -%}
    {%- if settings.windows is not mapping or settings.windows | length == 0 -%}
        {{- spark_query_catalog._sqc_fail(name, "windows", "a non-empty dict of output column to"
            ~ " {'expression': ..., 'frame': ..., 'preceding': ..., 'following': ...}", settings.windows) -}}
    {%- endif -%}
    {%- set frames = {} -%}
    {%- set reach = {"rows_back": 0, "rows_forward": 0, "range_back": 0, "range_forward": 0} -%}
    {%- set known = ["expression", "frame", "preceding", "following", "method"] -%}
    {%- for alias, window in settings.windows | dictsort -%}
        {%- set argument = "windows." ~ alias -%}
        {%- if window is not mapping or window.expression is not defined
            or window.keys() | reject("in", known) | list | length > 0 -%}
            {{- spark_query_catalog._sqc_fail(name, argument, "a dict with 'expression' and any of 'frame',"
                ~ " 'preceding', 'following', 'method'", window) -}}
        {%- endif -%}
        {%- set frame = window.get("frame", "rows") -%}
        {%- set preceding = window.get("preceding", "unbounded") -%}
        {%- set following = window.get("following", 0) -%}
        {%- set method = window.get("method", "auto") -%}
        {%- set kind = frame | lower if frame is string else frame -%}
        {%- set order_by = [settings.order_by] + settings.event_keys if kind == "rows" else settings.order_by -%}
        {%- set checked = spark_query_catalog._sqc_rolling_window(
            name, window.expression, order_by, settings.key_columns, frame, preceding, following, none, method
        ) -%}
        {%- set reason = none -%}
        {%- if checked.empty -%}
            {%- set reason = "the frame starts after it ends, so it is empty for every row: give it a"
                ~ " smaller `preceding` or a larger `following`" -%}
        {%- elif checked.start.kind == "unbounded" or checked.end.kind == "unbounded" -%}
            {%- set reason = "an unbounded end reaches every " ~ ("earlier" if checked.start.kind == "unbounded"
                else "later") ~ " row of its partition: one late event would change rows without bound, and"
                ~ " each run would read the partition's whole history. Bound both ends (preceding=999), or"
                ~ " build the model as a table" -%}
        {%- else -%}
            {%- set months = [checked.start, checked.end] | selectattr("kind", "equalto", "interval")
                | rejectattr("position", "number") | list
                + [checked.start, checked.end] | selectattr("kind", "equalto", "interval")
                | selectattr("interval.fields", "equalto", "year_month") | list -%}
            {%- if months -%}
                {%- set reason = "a run finds the rows a frame reaches by their time: give the interval a"
                    ~ " fixed length, such as '7 days' (months have none)" -%}
            {%- endif -%}
        {%- endif -%}
        {%- if reason is not none -%}
            {{- spark_query_catalog._sqc_error(name, "window " ~ alias ~ " (" ~ checked.frame_sql ~ "): " ~ reason ~ ".") -}}
        {%- endif -%}
        {%- set side = "rows" if checked.frame_kind == "rows" else "range" -%}
        {%- do reach.update({
            side ~ "_back": [reach[side ~ "_back"], -checked.start.position, -checked.end.position] | max,
            side ~ "_forward": [reach[side ~ "_forward"], checked.start.position, checked.end.position] | max
        }) -%}
        {%- set group = checked.frame_sql ~ " " ~ method -%}
        {%- if group not in frames -%}
            {%- do frames.update({group: {
                "frame": checked.frame_kind, "preceding": preceding, "following": following,
                "method": method, "order_by": order_by, "aggregates": {}, "state": none,
                "back": [-checked.start.position, -checked.end.position, 0] | max
            }}) -%}
        {%- endif -%}
        {%- do frames[group].aggregates.update({alias: window.expression}) -%}
    {%- endfor -%}
    {%- set groups = [] -%}
    {%- for group in frames.values() -%}
        {%- do groups.append(group) -%}
    {%- endfor -%}
    {{- return({
        "frames": groups,
        "aliases": settings.windows.keys() | sort | list,
        "has_rows": groups | selectattr("frame", "equalto", "rows") | list | length > 0,
        "has_range": groups | selectattr("frame", "equalto", "range") | list | length > 0,
        "rows_back": reach.rows_back | int,
        "rows_read_back": reach.rows_back | int,
        "states": [],
        "rows_forward": reach.rows_forward | int,
        "range_back": reach.range_back,
        "range_forward": reach.range_forward
    }) -}}
{% endmacro %}
