{#-
    Window frame bounds, with Spark's rules for ROWS and RANGE frames.

    A bound is `preceding` or `following` of rolling(): an integer (0 is the
    current row; a negative number is on the other side of it), 'unbounded',
    'current row', for RANGE a number with a fraction (over an integer key
    Spark truncates it), or for RANGE an interval: a duration string ('7 days',
    '1 year 2 months') or an interval literal ("interval '1-1' year to month").
-#}

{#-
    One bound: {
      kind      'unbounded', 'current', 'offset' (a number) or 'interval'
      sql       the bound in the frame clause: '3 preceding', 'current row'
      position  where it is from the current row, negative before it: rows or
                key units for an offset, seconds (months for year-month) for
                an interval; none when an interval does not say it plainly
      magnitude an offset's number without sign, as text ('1.5')
      interval  an interval's record (_sqc_interval), none otherwise
    }
-#}
{% macro _sqc_frame_bound(value, side, frame_kind, macro_name="rolling") %}
    {%- set sign = -1 if side == "preceding" else 1 -%}
    {%- set allowed = "an integer (0 = current row, negative = the other side of it), 'unbounded',"
        ~ " 'current row', or for frame='range' a number or an interval such as '7 days'" -%}
    {%- set text = (value | string | trim | lower) if (value is string or value is number) else "" -%}
    {%- set result = {"kind": none, "sql": none, "position": none, "magnitude": none, "interval": none} -%}
    {%- if value is boolean or value is none -%}
        {{- spark_query_catalog._sqc_fail(macro_name, side, allowed, value) -}}
    {%- elif modules.re.match("^-?\d+(\.\d+)?$", text) -%}
        {%- set magnitude = text.lstrip("-") -%}
        {%- set counted = frame_kind in ["rows", "groups"] -%}
        {%- if counted and "." in magnitude and modules.re.match("^\d+\.0+$", magnitude) is none -%}
            {{- spark_query_catalog._sqc_fail(macro_name, side, "an integer with frame='" ~ frame_kind ~ "' (a "
                ~ frame_kind | upper ~ " frame counts " ~ ("rows" if frame_kind == "rows" else "peer groups") ~ ")", value) -}}
        {%- endif -%}
        {%- set magnitude = magnitude.split(".")[0] if counted else magnitude -%}
        {%- set position = (magnitude | float) * sign * (-1 if text.startswith("-") else 1) -%}
        {%- if position == 0 -%}
            {%- do result.update({"kind": "current", "sql": "current row", "position": 0}) -%}
        {%- else -%}
            {%- do result.update({
                "kind": "offset", "position": position, "magnitude": magnitude,
                "sql": magnitude ~ (" preceding" if position < 0 else " following")
            }) -%}
        {%- endif -%}
    {%- elif text == "unbounded" -%}
        {%- do result.update({"kind": "unbounded", "sql": "unbounded " ~ side, "position": sign * 1e18}) -%}
    {%- elif text == "current row" -%}
        {%- do result.update({"kind": "current", "sql": "current row", "position": 0}) -%}
    {%- elif value is string and spark_query_catalog._sqc_interval(value) is not none -%}
        {%- set interval = spark_query_catalog._sqc_interval(value) -%}
        {%- if frame_kind != "range" -%}
            {{- spark_query_catalog._sqc_fail(macro_name, side,
                "an integer or 'unbounded' with frame='" ~ frame_kind ~ "' (intervals need frame='range')", value) -}}
        {%- endif -%}
        {%- if interval.error is not none -%}
            {{- spark_query_catalog._sqc_fail(macro_name, side, "an interval Spark accepts: " ~ interval.error, value) -}}
        {%- endif -%}
        {%- do result.update({
            "kind": "interval", "interval": interval, "sql": interval.sql ~ " " ~ side,
            "position": sign * interval.amount if interval.amount is not none else none
        }) -%}
    {%- else -%}
        {{- spark_query_catalog._sqc_fail(macro_name, side, allowed, value) -}}
    {%- endif -%}
    {{- return(result) -}}
{% endmacro %}


{#- Both bounds are positions of one scale (rows, key units, seconds, months). -#}
{% macro _sqc_comparable_bounds(start, end) %}
    {%- if start.position is none or end.position is none -%}
        {{- return(false) -}}
    {%- endif -%}
    {%- set fields = [] -%}
    {%- for bound in [start, end] if bound.kind == "interval" -%}
        {%- do fields.append(bound.interval.fields) -%}
    {%- endfor -%}
    {%- set kinds = [start.kind, end.kind] -%}
    {{- return(fields | unique | list | length <= 1 and not ("offset" in kinds and "interval" in kinds)) -}}
{% endmacro %}


{#- Spark refuses a frame whose two bounds have different types: a number
    and an interval, or intervals of different fields ('36 hours' and
    '1 day'; SPECIFIED_WINDOW_FRAME_DIFF_TYPES). -#}
{% macro _sqc_check_frame_types(start, end, preceding, following, macro_name="rolling") %}
    {%- set kinds = [start.kind, end.kind] -%}
    {%- if ("offset" in kinds and "interval" in kinds) or (kinds == ["interval", "interval"]
        and start.interval.type != end.interval.type) -%}
        {%- set types = [] -%}
        {%- for bound in [start, end] -%}
            {%- do types.append(bound.interval.type if bound.kind == "interval" else "a number") -%}
        {%- endfor -%}
        {{- spark_query_catalog._sqc_error(macro_name, "`preceding` " ~ spark_query_catalog._sqc_repr(preceding)
            ~ " and `following` " ~ spark_query_catalog._sqc_repr(following) ~ " have different types ("
            ~ types | join(", ") ~ "): give both bounds the same units, e.g. '36 hours' and '12 hours'"
            ~ " (Spark: SPECIFIED_WINDOW_FRAME_DIFF_TYPES).") -}}
    {%- endif -%}
{% endmacro %}


{#- Whether a frame starts after it ends, and so is empty for every row
    (SQL's rule, as PostgreSQL and DuckDB apply it; Spark refuses such a
    frame: SPECIFIED_WINDOW_FRAME_WRONG_COMPARISON). -#}
{% macro _sqc_frame_is_empty(start, end) %}
    {{- return(spark_query_catalog._sqc_comparable_bounds(start, end) and start.position > end.position) -}}
{% endmacro %}


{#- With no order key every row is a peer of every other (SQL's rule):
    RANGE and GROUPS frames of unbounded and current-row bounds span the
    partition, and an offset has nothing to measure. A ROWS frame would
    take rows in whatever order Spark reads them. -#}
{% macro _sqc_check_unordered_frame(start, end, frame_kind, order_by, macro_name="rolling") %}
    {%- if frame_kind == "rows" -%}
        {{- spark_query_catalog._sqc_fail(macro_name, "order_by", "a column name or a non-empty list of them with"
            ~ " frame='rows' (a ROWS frame over unordered rows would depend on the order Spark reads them;"
            ~ " frame='range' with no order key spans each partition)", order_by) -}}
    {%- endif -%}
    {%- for bound in [start, end] if bound.kind in ["offset", "interval"] -%}
        {{- spark_query_catalog._sqc_fail(macro_name, "order_by", "an order key for a frame with an offset ("
            ~ bound.sql ~ "): with none every row is a peer of every other, and an offset has nothing to"
            ~ " measure; or `preceding` and `following` of 'unbounded' or 'current row'", order_by) -}}
    {%- endfor -%}
{% endmacro %}


{#-
    A RANGE frame's offsets against its order key's type, as Spark allows them
    (Spark: DATATYPE_MISMATCH.RANGE_FRAME_INVALID_TYPE otherwise):
      numeric key    numbers (over an integer key, a fraction is truncated);
                     an interval is refused here too, though Spark would cast
                     it to a number of its own units
      date key       whole numbers of days, and intervals of years, months,
                     weeks or days
      timestamp key  (and timestamp_ntz) intervals only
-#}
{% macro _sqc_check_range_key(bounds, key_name, key_type, macro_name="rolling") %}
    {%- set kind = spark_query_catalog._sqc_type_class(key_type) -%}
    {%- if kind is none -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- set got = key_name ~ " (" ~ key_type ~ ")" -%}
    {%- for bound in bounds -%}
        {%- if bound.kind == "interval" and kind not in ["date", "timestamp"] -%}
            {{- spark_query_catalog._sqc_fail(macro_name, "order_by",
                "a timestamp or date column for an interval RANGE frame (Spark: RANGE_FRAME_INVALID_TYPE)", got) -}}
        {%- elif bound.kind == "interval" and kind == "date" and bound.interval.smallest
            not in ["year", "month", "week", "day"] -%}
            {{- spark_query_catalog._sqc_fail(macro_name, "order_by",
                "a timestamp column for an interval of hours, minutes or seconds (a date key moves in whole"
                ~ " days; Spark: RANGE_FRAME_INVALID_TYPE)", got) -}}
        {%- elif bound.kind == "offset" and kind == "date" and "." in bound.magnitude -%}
            {{- spark_query_catalog._sqc_fail(macro_name, "order_by",
                "a numeric column for a fractional offset (a date key moves in whole days;"
                ~ " Spark: RANGE_FRAME_INVALID_TYPE)", got) -}}
        {%- elif bound.kind == "offset" and kind not in ["integral", "decimal", "floating", "date"] -%}
            {{- spark_query_catalog._sqc_fail(macro_name, "order_by",
                "a numeric column, or a date column for whole days, for a numeric RANGE frame"
                ~ " (use an interval such as '7 days' for a timestamp key; Spark: RANGE_FRAME_INVALID_TYPE)", got) -}}
        {%- endif -%}
    {%- endfor -%}
{% endmacro %}
