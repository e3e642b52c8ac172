{#-
    rolling(expression, order_by, partition_by=none, frame='rows',
            preceding='unbounded', following=0, relation=none, method='auto')

    A window expression with an explicit frame, for a select list:
        <expression> over (partition by ... order by ... rows|range between ... and ...)

    Arguments, their defaults and allowed values: macros/macros.yml (the
    README shows them as this macro's table).

    The linear form of sum, count and avg is the aggregate over a frame from
    unbounded preceding to the frame's end, less the same up to just before
    its start: Spark evaluates both in one pass, where a sliding frame costs
    rows x frame width. It equals the native frame exactly for integral and
    decimal inputs (and count of anything), and is taken only where no
    running total can overflow or round where the frame's own sum does not
    (_sqc_prefix_overflow_reason: a bigint's may wrap as Spark's own sum
    does, or runs as decimal(20, 0) under ANSI mode; avg of bigint, and
    decimals over 28 digits, stay native). Floating-point sums
    and averages stay native: prefix differences would change their last
    bits. min and max need helper columns: see rolling_select.

    Compile errors: offsets Spark refuses for the order key's type (an
    interval over a numeric key, hours over a date, a number over a
    timestamp), RANGE with several order keys, intervals with ROWS, intervals
    mixing months with days, and an offset or a ROWS frame with no order
    key. A frame that starts after it ends is empty, as in SQL, and with
    no order key a RANGE frame spans the partition (_sqc_window_call_sql).

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
                 relation=none, method="auto") %}
    {{- return(adapter.dispatch("rolling", "spark_query_catalog")(
        expression, order_by, partition_by, frame, preceding, following, relation, method
    )) -}}
{% endmacro %}


{% macro default__rolling(expression, order_by, partition_by, frame, preceding, following, relation, method) %}
    {%- set window = spark_query_catalog._sqc_rolling_window(
        "rolling", expression, order_by, partition_by, frame, preceding, following, relation, method
    ) -%}
    {%- do spark_query_catalog._sqc_warn_rolling_in_batch(window, relation) -%}
    {%- set distinct = spark_query_catalog._sqc_parse_distinct_count(expression) -%}
    {%- if distinct is not none -%}
        {#- An expression has no helper columns: Spark's frame, as a set. -#}
        {%- do spark_query_catalog._sqc_distinct_is_linear(window, "rolling", helpers=false) -%}
        {{- return(spark_query_catalog._sqc_native_distinct_sql(distinct, window, 4)) -}}
    {%- endif -%}
    {%- set approx = spark_query_catalog._sqc_parse_approx_distinct(expression) -%}
    {%- if approx is not none -%}
        {#- Spark's frame, below (the exact linear count needs helper
            columns): method='linear' is an error saying so. -#}
        {%- do spark_query_catalog._sqc_approx_distinct_is_exact(window, approx, "rolling", helpers=false) -%}
    {%- endif -%}
    {%- set aggregate = spark_query_catalog._sqc_parse_aggregate(expression) -%}
    {%- set plan = spark_query_catalog._sqc_rolling_plan(window, aggregate, relation, "rolling") -%}
    {%- if plan.linear -%}
        {{- return(spark_query_catalog._sqc_linear_sum_sql(window, aggregate, plan, 4)) -}}
    {%- endif -%}
    {{- return(spark_query_catalog._sqc_native_call_sql(expression | trim, window, 4, "rolling", "expression", relation)) -}}
{% endmacro %}
