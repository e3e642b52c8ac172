{#-
    rolling(expression, order_by, partition_by=none, frame='rows',
            preceding='unbounded', following=0, relation=none)

    A window expression with an explicit frame:
        <expression> over (partition by ... order by ... rows|range between ... and ...)

    expression    The aggregate or window function, e.g. 'sum(level)'.
    order_by      A column or expression (with asc/desc, nulls first/last),
                  or a list of them.
    partition_by  A column or expression, or a list; none or [] for none
                  (a compile-time warning: Spark then moves all rows to one
                  partition).
    frame         'rows' (physical offsets) or 'range' (offsets on the value
                  of the single order key; rows with equal keys are peers).
    preceding     Start of the frame: an integer (0 = current row; a negative
                  number is after the current row: -2 is `2 following`),
                  'unbounded', or for RANGE over a timestamp or date key an
                  interval such as '7 days'.
    following     End of the frame, same forms (-1 is `1 preceding`);
                  default 0 (current row).
    relation      Optional Relation the window runs over. When given, column
                  names are quoted as needed and the order key's type is
                  checked: an interval RANGE needs a timestamp or date key,
                  a numeric RANGE a numeric key.
    indent        Spaces before the closing parenthesis (default 4, for a
                  window in a select list); the clauses sit 4 further in.

    Compile errors: an interval RANGE on a non-temporal key (when the type is
    known), RANGE with several order keys, intervals with ROWS, and a start
    of the frame after its end.

    Example:
        {{ rolling('sum(level)', 'id', partition_by='device', frame='range',
                   preceding=1) }} as level_sum
    compiles to (inside a select list)
        sum(level) over (
            partition by device
            order by id
            range between 1 preceding and current row
        ) as level_sum
-#}
{% macro rolling(expression, order_by, partition_by=none, frame="rows", preceding="unbounded", following=0,
                 relation=none, indent=4) %}
    {{- return(adapter.dispatch("rolling", "spark_query_catalog")(
        expression, order_by, partition_by, frame, preceding, following, relation, indent
    )) -}}
{% endmacro %}


{% macro default__rolling(expression, order_by, partition_by, frame, preceding, following, relation, indent) %}
    {%- set macro_name = "rolling" -%}
    {%- if expression is not string or expression | trim == "" -%}
        {{- spark_query_catalog._sqc_fail(macro_name, "expression", "a SQL aggregate or window function, e.g. 'sum(amount)'", expression) -}}
    {%- endif -%}
    {%- set order_names = spark_query_catalog._sqc_string_list(order_by, macro_name, "order_by", allow_empty=false) -%}
    {%- set partition_names = spark_query_catalog._sqc_string_list(partition_by, macro_name, "partition_by") -%}
    {%- set frame_kind = frame | lower if frame is string else frame -%}
    {%- if frame_kind not in ["rows", "range"] -%}
        {{- spark_query_catalog._sqc_fail(macro_name, "frame", "'rows' or 'range'", frame) -}}
    {%- endif -%}
    {%- if indent is not integer or indent < 0 -%}
        {{- spark_query_catalog._sqc_fail(macro_name, "indent", "a non-negative integer (spaces before the closing parenthesis)", indent) -}}
    {%- endif -%}
    {%- if relation is not none -%}
        {%- do spark_query_catalog._sqc_relation_sql(relation, macro_name) -%}
    {%- endif -%}
    {%- set columns = spark_query_catalog._sqc_columns(relation) if relation is not none else none -%}

    {%- set order_keys = [] -%}
    {%- for name in order_names -%}
        {%- do order_keys.append(spark_query_catalog._sqc_key_sql(name, columns)) -%}
    {%- endfor -%}
    {%- set partition_keys = [] -%}
    {%- for name in partition_names -%}
        {%- do partition_keys.append(spark_query_catalog._sqc_key_sql(name, columns)) -%}
    {%- endfor -%}

    {%- set start = spark_query_catalog._sqc_frame_bound(preceding, "preceding", frame_kind) -%}
    {%- set end = spark_query_catalog._sqc_frame_bound(following, "following", frame_kind) -%}
    {%- if frame_kind == "range" and order_keys | length > 1 -%}
        {{- spark_query_catalog._sqc_fail(macro_name, "order_by",
            "a single order key with frame='range' (a RANGE frame measures distance on one key)", order_by) -}}
    {%- endif -%}
    {%- if start.position is not none and end.position is not none and start.position > end.position -%}
        {{- spark_query_catalog._sqc_error(macro_name, "the frame starts after it ends: `preceding` " ~ spark_query_catalog._sqc_repr(preceding)
            ~ " is later than `following` " ~ spark_query_catalog._sqc_repr(following)
            ~ ". Use a smaller `preceding` or a larger `following`.") -}}
    {%- endif -%}
    {%- if frame_kind == "range" and (start.interval or end.interval or start.offset or end.offset) -%}
        {%- set key_type = spark_query_catalog._sqc_key_type(order_keys[0], columns) -%}
        {%- if (start.interval or end.interval) and key_type is not none and not spark_query_catalog._sqc_is_temporal_type(key_type) -%}
            {{- spark_query_catalog._sqc_fail(macro_name, "order_by",
                "a timestamp or date column for an interval RANGE frame", order_names[0] ~ " (" ~ key_type ~ ")") -}}
        {%- endif -%}
        {%- if (start.offset or end.offset) and key_type is not none and not spark_query_catalog._sqc_is_numeric_type(key_type) -%}
            {{- spark_query_catalog._sqc_fail(macro_name, "order_by",
                "a numeric column for a numeric RANGE frame (use an interval such as '7 days' for time)",
                order_names[0] ~ " (" ~ key_type ~ ")") -}}
        {%- endif -%}
    {%- endif -%}

    {%- set clauses = [] -%}
    {%- set partition_clause = spark_query_catalog._sqc_partition_clause(partition_keys, macro_name) -%}
    {%- if partition_clause -%}
        {%- do clauses.append(partition_clause) -%}
    {%- endif -%}
    {%- do clauses.append("order by " ~ order_keys | join(", ")) -%}
    {%- do clauses.append(frame_kind ~ " between " ~ start.sql ~ " and " ~ end.sql) -%}
    {%- set margin = " " * indent -%}
    {{- return(expression | trim ~ " over (\n" ~ margin ~ "    " ~ clauses | join("\n" ~ margin ~ "    ")
        ~ "\n" ~ margin ~ ")") -}}
{% endmacro %}


{#-
    One frame bound: {"sql", "position" (rows from the current row, negative
    before it, none for an interval: intervals are unsigned, so an interval
    `preceding` always comes before an interval `following`), "offset" (a
    non-zero numeric offset), "interval"}.
-#}
{% macro _sqc_frame_bound(value, side, frame_kind) %}
    {%- set sign = -1 if side == "preceding" else 1 -%}
    {%- set allowed = "an integer (0 = current row, negative = the other side of it), 'unbounded',"
        ~ " or for frame='range' an interval such as '7 days'" -%}
    {%- set result = {"sql": none, "position": none, "offset": false, "interval": false} -%}
    {%- if value is integer or (value is string and modules.re.match("^\s*-?\d+\s*$", value)) -%}
        {%- set number = value if value is integer else value | trim | int -%}
        {%- set other_side = "following" if side == "preceding" else "preceding" -%}
        {%- if number == 0 -%}
            {%- set bound_sql = "current row" -%}
        {%- elif number > 0 -%}
            {%- set bound_sql = number ~ " " ~ side -%}
        {%- else -%}
            {%- set bound_sql = (0 - number) ~ " " ~ other_side -%}
        {%- endif -%}
        {%- do result.update({"sql": bound_sql, "position": sign * number, "offset": number != 0}) -%}
    {%- elif value is string and value | trim | lower == "unbounded" -%}
        {%- do result.update({"sql": "unbounded " ~ side, "position": sign * 1000000000000}) -%}
    {%- elif value is string and value | trim | lower == "current row" -%}
        {%- do result.update({"sql": "current row", "position": 0}) -%}
    {%- elif value is string and spark_query_catalog._sqc_is_interval(value) -%}
        {%- if frame_kind != "range" -%}
            {{- spark_query_catalog._sqc_fail("rolling", side,
                "an integer or 'unbounded' with frame='rows' (intervals need frame='range')", value) -}}
        {%- endif -%}
        {%- do result.update({
            "sql": "interval '" ~ modules.re.sub("\s+", " ", value | trim) | lower ~ "' " ~ side,
            "interval": true
        }) -%}
    {%- else -%}
        {{- spark_query_catalog._sqc_fail("rolling", side, allowed, value) -}}
    {%- endif -%}
    {{- return(result) -}}
{% endmacro %}


{#- An interval string: numbers and units, e.g. '7 days', '1 hour 30 minutes'. -#}
{% macro _sqc_is_interval(text) %}
    {%- set pattern = "\d+(?:\.\d+)?\s+(microsecond|millisecond|second|minute|hour|day|week)s?" -%}
    {{- return(modules.re.match("^\s*(" ~ pattern ~ "\s*)+$", text, modules.re.IGNORECASE) is not none) -}}
{% endmacro %}
