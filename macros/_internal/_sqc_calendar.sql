{#-
    rolling_calendar's parts: the steps, the checks of its arguments, and the
    fills that need more than a coalesce.
-#}

{#- Each step: `index`, its number from a value of the step's `type` ({}
    is the value: a date, or a timestamp for hours), and `value`, the
    step's start from its number. Weeks start on Monday, as
    date_trunc('week') has them; hours are the epoch's, so they are the
    session time zone's hours wherever its offset is whole hours. -#}
{% macro _sqc_calendar_steps() %}
    {{- return({
        "hour": {"type": "timestamp", "index": "floor(unix_seconds({}) / 3600)",
            "value": "timestamp_seconds(calendar_step * 3600)"},
        "day": {"type": "date", "index": "datediff({}, date '1970-01-01')",
            "value": "date_add(date '1970-01-01', calendar_step)"},
        "week": {"type": "date", "index": "floor(datediff({}, date '1970-01-05') / 7)",
            "value": "date_add(date '1970-01-05', int(calendar_step) * 7)"},
        "month": {"type": "date", "index": "int(months_between(trunc({}, 'MM'), date '1970-01-01'))",
            "value": "add_months(date '1970-01-01', calendar_step)"}
    }) -}}
{% endmacro %}


{#- `value` (SQL) as the step's type: to_date(value), timestamp(value). -#}
{% macro _sqc_calendar_typed(value, step) %}
    {{- return(("to_date(" if step.type == "date" else "timestamp(") ~ value ~ ")") -}}
{% endmacro %}


{#- `at` must be a date or a timestamp (a timestamp for hours), when the
    relation's columns are known. -#}
{% macro _sqc_check_calendar_at(at, columns, step, macro_name) %}
    {%- set column = spark_query_catalog._sqc_find_column(columns, at) -%}
    {%- if column is none -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- set kind = spark_query_catalog._sqc_type_class(column.data_type) -%}
    {%- if kind not in ["date", "timestamp"] or (step == "hour" and kind == "date") -%}
        {{- spark_query_catalog._sqc_fail(macro_name, "at", ("a timestamp column for step='hour' (a date has no hours)"
            if kind == "date" else "a date or timestamp column"), at ~ " (" ~ column.data_type ~ ")") -}}
    {%- endif -%}
{% endmacro %}


{#- A frame offset in steps: a whole number, or 'unbounded'. -#}
{% macro _sqc_calendar_offset(value, side, macro_name) %}
    {%- if value is string and value | trim | lower in ["unbounded", "current row"] -%}
        {{- return(value | trim | lower if value | trim | lower == "unbounded" else 0) -}}
    {%- elif spark_query_catalog._sqc_is_whole_number(value) -%}
        {{- return(value | int) -}}
    {%- endif -%}
    {{- spark_query_catalog._sqc_fail(macro_name, side, "a whole number of steps (0 = the row's own step) or 'unbounded'", value) -}}
{% endmacro %}


{#- A bound as a value of the step's type: an ISO date ('2024-01-01') or
    timestamp ('2024-01-01 06:00:00') as a literal, anything else as an
    expression (`current_date()`, `date_sub(current_date(), 30)`). -#}
{% macro _sqc_calendar_bound(value, side, step, macro_name) %}
    {%- if value is not string or value | trim == "" -%}
        {{- spark_query_catalog._sqc_fail(macro_name, side, "an ISO date or timestamp ('2024-01-01') or a SQL expression"
            ~ " of one (`current_date()`)", value) -}}
    {%- endif -%}
    {%- set text = value | trim -%}
    {%- if modules.re.match("^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?$", text) -%}
        {#- A date step takes the literal's date, as Spark's to_date would. -#}
        {{- return("date '" ~ text[:10] ~ "'" if step.type == "date" else "timestamp '" ~ text ~ "'") -}}
    {%- endif -%}
    {{- return(spark_query_catalog._sqc_calendar_typed(text, step)) -}}
{% endmacro %}


{#- `fill` as {alias: rule}: one rule for every aggregate, or a dict of some
    of them (the others 'null'). -#}
{% macro _sqc_calendar_fills(fill, items, macro_name) %}
    {%- set rules = ["null", "zero", "previous", "linear"] -%}
    {%- set allowed = "one of '" ~ rules | join("', '") ~ "', or a dict of output column to one of them" -%}
    {%- set given = fill if fill is mapping else {} -%}
    {%- if fill is not mapping and (fill is not string or fill | lower not in rules) -%}
        {{- spark_query_catalog._sqc_fail(macro_name, "fill", allowed, fill) -}}
    {%- endif -%}
    {%- set aliases = items | map(attribute="alias") | list -%}
    {%- for alias, rule in given.items() -%}
        {%- if alias not in aliases or rule is not string or rule | lower not in rules -%}
            {{- spark_query_catalog._sqc_fail(macro_name, "fill", allowed ~ " (the columns: " ~ aliases | join(", ") ~ ")", fill) -}}
        {%- endif -%}
    {%- endfor -%}
    {%- set result = {} -%}
    {%- for alias in aliases -%}
        {%- do result.update({alias: (given.get(alias, "null") if fill is mapping else fill) | lower}) -%}
    {%- endfor -%}
    {{- return(result) -}}
{% endmacro %}


{#- For a linear fill, each value's last value before the step and its
    step, and its first value after and its step: running frames in each
    direction (a frame to unbounded following would be evaluated again for
    every row). `values` are the columns' names (calendar_<n>). -#}
{% macro _sqc_calendar_neighbours(values, partition_clause) %}
    {%- set before = spark_query_catalog._sqc_over_sql({"partition_clause": partition_clause,
        "order_keys": ["calendar_step"]}, "rows between unbounded preceding and 1 preceding", 8) -%}
    {%- set after = spark_query_catalog._sqc_over_sql({"partition_clause": partition_clause,
        "order_keys": ["calendar_step desc"]}, "rows between unbounded preceding and 1 preceding", 8) -%}
    {%- set items = [] -%}
    {%- for value in values -%}
        {%- set step_of = "if(" ~ value ~ " is null, null, calendar_step)" -%}
        {%- do items.append("last(" ~ value ~ ", true)" ~ before ~ " as " ~ value ~ "_before") -%}
        {%- do items.append("last(" ~ step_of ~ ", true)" ~ before ~ " as " ~ value ~ "_before_step") -%}
        {%- do items.append("last(" ~ value ~ ", true)" ~ after ~ " as " ~ value ~ "_after") -%}
        {%- do items.append("last(" ~ step_of ~ ", true)" ~ after ~ " as " ~ value ~ "_after_step") -%}
    {%- endfor -%}
    {{- return(items) -}}
{% endmacro %}


{#- A linear fill of `value`, as `alias`, for a select list 8 spaces in:
    the value where there is one, else the point on the line from the last
    value before to the first after (NULL before the first value and after
    the last). -#}
{% macro _sqc_calendar_line(value, alias) %}
    {%- set before, after = value ~ "_before", value ~ "_after" -%}
    {%- set lines = [
        "coalesce(",
        "    " ~ value ~ ",",
        "    " ~ before,
        "    + (" ~ after ~ " - " ~ before ~ ")",
        "    * (calendar_step - " ~ before ~ "_step)",
        "    / (" ~ after ~ "_step - " ~ before ~ "_step)",
        ") as " ~ alias
    ] -%}
    {{- return(lines | join("\n        ")) -}}
{% endmacro %}
