{#-
    rolling_calendar(relation, aggregates, at, step='day', partition_by=none,
                     preceding=0, following=0, start=none, end=none,
                     fill='null', method='auto')

    One row per key per calendar step (hour, day, week or month), days
    without events included, each aggregate over the events of the steps
    from `preceding` steps before to `following` steps after. "7-day active
    users on every day" is
        {{ rolling_calendar(ref('events'), {'active_users_7d': 'count(distinct user_id)'},
                            'event_at', partition_by='app', preceding=6) }}

    Arguments, their defaults and allowed values: macros/macros.yml (the
    README shows them as this macro's table).

    How: each event is numbered by its step (days since 1970-01-01, Monday
    weeks since 1970-01-05, months since January 1970, hours since the epoch);
    each key gets one more row per step from its first to its last (or
    between `start` and `end`), with NULL in every column of `relation`
    (a LEFT JOIN ON FALSE gives them their types, and Spark reads nothing
    for it); rolling_select computes the aggregates over a RANGE frame of
    step numbers over both; the added rows are the output. Steps are
    generated per key, never all keys x all steps. Then `fill` replaces
    what is still NULL: 0, the last value before, or the line between the
    values before and after.
-#}
{% macro rolling_calendar(relation, aggregates, at, step="day", partition_by=none, preceding=0, following=0,
                          start=none, end=none, fill="null", method="auto") %}
    {{- return(adapter.dispatch("rolling_calendar", "spark_query_catalog")(
        relation, aggregates, at, step, partition_by, preceding, following, start, end, fill, method
    )) -}}
{% endmacro %}


{% macro default__rolling_calendar(relation, aggregates, at, step, partition_by, preceding, following, start, end, fill, method) %}
    {%- set macro_name = "rolling_calendar" -%}
    {%- set relation_sql = spark_query_catalog._sqc_relation_sql(relation, macro_name) -%}
    {%- set columns = spark_query_catalog._sqc_columns(relation) -%}
    {%- if aggregates is not mapping or aggregates | length == 0 -%}
        {{- spark_query_catalog._sqc_fail(macro_name, "aggregates", "a non-empty dict of output column to aggregate", aggregates) -}}
    {%- endif -%}
    {%- set items = spark_query_catalog._sqc_aggregates(aggregates, macro_name) -%}
    {%- set steps = spark_query_catalog._sqc_calendar_steps() -%}
    {%- set step_name = step | lower if step is string else step -%}
    {%- if step_name not in steps -%}
        {{- spark_query_catalog._sqc_fail(macro_name, "step", "one of '" ~ steps.keys() | join("', '") ~ "'", step) -}}
    {%- endif -%}
    {%- set at_sql = spark_query_catalog._sqc_column_sql(at, columns, macro_name, "at") if at is string and at | trim != ""
        else spark_query_catalog._sqc_fail(macro_name, "at", "the name of the events' date or timestamp column", at) -%}
    {%- do spark_query_catalog._sqc_check_calendar_at(at, columns, step_name, macro_name) -%}
    {%- set keys = [] -%}
    {%- for name in spark_query_catalog._sqc_string_list(partition_by, macro_name, "partition_by") -%}
        {%- do keys.append(spark_query_catalog._sqc_column_sql(name, columns, macro_name, "partition_by")) -%}
    {%- endfor -%}
    {%- set output_step = "date_" ~ step_name -%}
    {%- set outputs = [] -%}
    {%- for name in keys + [output_step] -%}
        {%- do outputs.append(spark_query_catalog._sqc_unquote(name) | lower) -%}
    {%- endfor -%}
    {%- for item in items if item.alias | lower in outputs or item.alias | lower in ["calendar_step", "calendar_event"] -%}
        {{- spark_query_catalog._sqc_error(macro_name, "the output column `" ~ item.alias ~ "` is also a key or a"
            ~ " column of rolling_calendar's own (" ~ output_step ~ ", calendar_step, calendar_event): give the"
            ~ " aggregate another name.") -}}
    {%- endfor -%}
    {%- for name in ["calendar_step", "calendar_event"] if spark_query_catalog._sqc_find_column(columns, name) is not none -%}
        {{- spark_query_catalog._sqc_error(macro_name, "`relation` has a column `" ~ name ~ "`, a name rolling_calendar"
            ~ " gives a column of its own (the step's number, the event marker): rename it.") -}}
    {%- endfor -%}
    {%- set bounds = {} -%}
    {%- for side, value in [("preceding", preceding), ("following", following)] -%}
        {%- do bounds.update({side: spark_query_catalog._sqc_calendar_offset(value, side, macro_name)}) -%}
    {%- endfor -%}
    {%- set fills = spark_query_catalog._sqc_calendar_fills(fill, items, macro_name) -%}
    {%- do spark_query_catalog._sqc_warn_in_batch(macro_name, relation, "each key's steps, its frames and its fills see",
        "Build it without microbatch (a table, or incremental with insert_overwrite by day), or pass"
        ~ " ref(...).render() for the whole relation.") -%}

    {#- The aggregates over a RANGE frame of step numbers, each named
        calendar_<n> until the end (an output named like a column of
        the relation would be ambiguous beside it); count(*) counts the
        events (every added row has a NULL marker). -#}
    {%- set rolled_aggregates = {} -%}
    {#- Distinct counts first: rolling_select gives each by its name beside
        the other aggregates' expressions, and names read best first. -#}
    {%- set ordered = [] -%}
    {%- for item in items if spark_query_catalog._sqc_parse_distinct_count(item.sql) is not none
        or spark_query_catalog._sqc_parse_approx_distinct(item.sql) is not none -%}
        {%- do ordered.append(item) -%}
    {%- endfor -%}
    {%- for item in items if item not in ordered -%}
        {%- do ordered.append(item) -%}
    {%- endfor -%}
    {%- for item in ordered -%}
        {%- do rolled_aggregates.update({"calendar_" ~ items.index(item): "count(calendar_event)"
            if modules.re.match("^count\s*\(\s*(\*|\d+)\s*\)$", item.sql, modules.re.IGNORECASE) else item.sql}) -%}
    {%- endfor -%}
    {%- set parts = spark_query_catalog._sqc_rolling_select_parts(
        relation, rolled_aggregates, "calendar_step", keys, "range", bounds.preceding, bounds.following, method
    ) -%}
    {#- Every step holds a row of its own, so a frame of n steps holds n
        rows at least: auto decides as for a ROWS frame of n rows. -#}
    {%- set window = dict(parts.window,
        key={"kind": "integral", "type": "int", "scale": 0, "ntz": false, "sql": "calendar_step"},
        min_rows=none if "unbounded" in [bounds.preceding, bounds.following] else bounds.preceding + bounds.following + 1
    ) -%}
    {%- set rolled = spark_query_catalog._sqc_rolling_select_query("calendar_rows", relation, parts.aggregates, window, macro_name) -%}

    {%- set step_kind = steps[step_name] -%}
    {%- set index = step_kind.index -%}
    {%- set first = "min(calendar_step)" if start is none
        else index | replace("{}", spark_query_catalog._sqc_calendar_bound(start, "start", step_kind, macro_name)) -%}
    {%- set last = "max(calendar_step)" if end is none
        else index | replace("{}", spark_query_catalog._sqc_calendar_bound(end, "end", step_kind, macro_name)) -%}
    {#- Both bounds given: each key's steps need no aggregate. -#}
    {%- set given_bounds = start is not none and end is not none -%}
    {%- set bound_keys = [] -%}
    {%- for key in keys -%}
        {%- do bound_keys.append("calendar_bounds." ~ key) -%}
    {%- endfor -%}
    {%- set rest = "* except (" ~ keys | join(", ") ~ ")" if keys else "*" -%}
    {%- set ctes = [
        "calendar_events as (\n    select\n" ~ spark_query_catalog._sqc_list_lines([rest] + keys + [
            "true as calendar_event", spark_query_catalog._sqc_wrapped_item(
                index | replace("{}", spark_query_catalog._sqc_calendar_typed(at_sql, step_kind)), "calendar_step")], 8)
            ~ "\n    from " ~ relation_sql | indent(4) ~ "\n    where " ~ at_sql ~ " is not null\n)",
        "calendar_bounds as (\n    select" ~ (" distinct" if given_bounds else "") ~ "\n"
            ~ spark_query_catalog._sqc_list_lines(keys + [spark_query_catalog._sqc_wrapped_item(first, "first_step"),
                spark_query_catalog._sqc_wrapped_item(last, "last_step")], 8)
            ~ "\n    from calendar_events"
            ~ ("\n    group by " ~ keys | join(", ") if keys and not given_bounds else "") ~ "\n)",
        "calendar_rows as (\n    select * from calendar_events\n    union all\n    select\n"
            ~ spark_query_catalog._sqc_list_lines(["calendar_nothing." ~ rest] + bound_keys + [
                "cast(null as boolean) as calendar_event",
                "explode(\n            sequence(calendar_bounds.first_step, calendar_bounds.last_step)\n"
                ~ "        ) as calendar_step"], 8)
            ~ "\n    from calendar_bounds\n    left join " ~ relation_sql | indent(4)
            ~ " as calendar_nothing on false\n    where calendar_bounds.first_step <= calendar_bounds.last_step\n)"
    ] -%}
    {%- do ctes.append("calendar_rolled as (\n" ~ rolled | indent(4, first=true) ~ "\n)") -%}
    {%- set source = "calendar_rolled\n    where calendar_event is null" -%}
    {%- set step_value = step_kind.value ~ " as " ~ output_step -%}
    {%- set order = spark_query_catalog._sqc_over_sql({"partition_clause": parts.window.partition_clause,
        "order_keys": ["calendar_step"]}, "rows between unbounded preceding and current row", 8) -%}
    {%- set values = [] -%}
    {%- set neighbours = [] -%}
    {%- for item in items -%}
        {%- set value = "calendar_" ~ loop.index0 -%}
        {%- set alias = spark_query_catalog._sqc_quote(item.alias) -%}
        {%- set rule = fills[item.alias] -%}
        {%- if rule == "zero" -%}
            {%- do values.append("coalesce(" ~ value ~ ", 0) as " ~ alias) -%}
        {%- elif rule == "previous" -%}
            {%- do values.append("last(" ~ value ~ ", true)" ~ order ~ " as " ~ alias) -%}
        {%- elif rule == "linear" -%}
            {%- do neighbours.append(value) -%}
            {%- do values.append(spark_query_catalog._sqc_calendar_line(value, alias)) -%}
        {%- else -%}
            {%- do values.append(value ~ " as " ~ alias) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- if neighbours -%}
        {%- do ctes.append("calendar_steps as (\n    select\n" ~ spark_query_catalog._sqc_list_lines(
            ["*"] + spark_query_catalog._sqc_calendar_neighbours(neighbours, parts.window.partition_clause), 8)
            ~ "\n    from " ~ source ~ "\n)") -%}
        {%- set source = "calendar_steps" -%}
    {%- endif -%}
    {#- Each output computed in calendar_values, plain columns first; then
        selected in the output's order: keys, step, aggregates. -#}
    {%- set plain, calculated = [], [] -%}
    {%- for value in values -%}
        {%- do (calculated if "(" in value else plain).append(value) -%}
    {%- endfor -%}
    {%- set computed = plain + [step_value] + calculated -%}
    {%- do ctes.append("calendar_values as (\n    select\n" ~ spark_query_catalog._sqc_list_lines(keys + computed, 8)
        ~ "\n    from " ~ source ~ "\n)") -%}
    {%- set names = [] -%}
    {%- for item in items -%}
        {%- do names.append(spark_query_catalog._sqc_quote(item.alias)) -%}
    {%- endfor -%}
    {{- return("with " ~ ctes | join(",\n\n") ~ "\n\nselect\n" ~ spark_query_catalog._sqc_list_lines(
        keys + [output_step] + names, 4) ~ "\nfrom calendar_values") -}}
{% endmacro %}
