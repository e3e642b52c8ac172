{#- The linear forms' SQL (see _sqc_rolling.sql for why they are linear).
    Each piece is built from column 0 and indented where it is placed. -#}

{#- `text` with every line after the first `spaces` further in. -#}
{% macro _sqc_indented(text, spaces) %}
    {{- return(text | replace("\n", "\n" ~ " " * spaces)) -}}
{% endmacro %}


{#- `function(argument) over (<frame>)`. -#}
{% macro _sqc_prefix_call(function, argument, window, frame_sql) %}
    {%- if argument | length > 40 -%}
        {#- A long argument on a line of its own. -#}
        {{- return(function ~ "(\n    " ~ argument ~ "\n)" ~ spark_query_catalog._sqc_over_sql(window, frame_sql, 0)) -}}
    {%- endif -%}
    {{- return(function ~ "(" ~ argument ~ ")" ~ spark_query_catalog._sqc_over_sql(window, frame_sql, 0)) -}}
{% endmacro %}


{#- The aggregate over the frame as a prefix difference: up to the frame's
    end, less up to just before its start (0 before the partition's start). -#}
{% macro _sqc_prefix_difference(function, argument, window, frames) %}
    {%- set text = spark_query_catalog._sqc_prefix_call(function, argument, window, frames.end) -%}
    {%- if frames.before is not none -%}
        {%- set before = spark_query_catalog._sqc_prefix_call(function, argument, window, frames.before) -%}
        {%- set text = text ~ " - " ~ (before if function == "count" else "coalesce(" ~ before ~ ", 0)") -%}
    {%- endif -%}
    {{- return(text) -}}
{% endmacro %}


{#-
    sum, count or avg over the frame as prefix differences. Empty frames give
    what Spark gives: count 0, sum and avg NULL. A RANGE frame's NULL key is a
    group of its own (every finite bound of a NULL key is NULL: its frame is
    the partition's NULL-key rows), taken from the whole partition. Types are
    Spark's own: a decimal(p, s) sum is decimal(p + 10, s); an avg of integers
    is a double, of decimal(p, s) a decimal(p + 4, s + 4) rounded half up, as
    Spark's Average divides, with digits enough that no earlier rounding can
    move the result. An avg of int over a frame of more than 2^22 values
    raises plan.guard (_sqc_int_avg_guard).
-#}
{% macro _sqc_linear_sum_sql(window, aggregate, plan, margin) %}
    {%- set frames = spark_query_catalog._sqc_prefix_frames(window, window.key) -%}
    {%- set argument = aggregate.argument -%}
    {%- set counts = spark_query_catalog._sqc_prefix_difference("count", argument, window, frames) -%}
    {%- if aggregate.function != "count" -%}
        {%- if spark_query_catalog._sqc_long_totals_wrap(plan.argument_type) -%}
            {%- set value = spark_query_catalog._sqc_prefix_difference("sum", argument, window, frames) -%}
        {%- else -%}
            {%- set summed = spark_query_catalog._sqc_linear_summand(argument, plan.argument_type) -%}
            {%- set sums = spark_query_catalog._sqc_prefix_difference("sum", summed, window, frames) -%}
            {%- set value = spark_query_catalog._sqc_linear_value_sql(aggregate.function, plan.argument_type, sums, counts, window) -%}
        {%- endif -%}
    {%- endif -%}

    {%- set branches = [] -%}
    {%- if window.frame_kind == "range" -%}
        {#- A NULL key's frame runs from its NULL peers to the partition's end
            when the frame ends at unbounded following and NULLs sort first. -#}
        {%- set counted = "1" if argument == "*" else argument -%}
        {%- set to_the_end = window.end.kind == "unbounded"
            and spark_query_catalog._sqc_nulls_first(window.order_keys[0]) -%}
        {%- set null_group = spark_query_catalog._sqc_prefix_call(aggregate.function,
            argument if to_the_end else "case when " ~ window.key.sql ~ " is null then " ~ counted ~ " end", window,
            "rows between unbounded preceding and unbounded following") -%}
        {%- do branches.append("when " ~ window.key.sql ~ " is null\n    then " ~ spark_query_catalog._sqc_indented(null_group, 4)) -%}
    {%- endif -%}
    {%- if aggregate.function == "count" -%}
        {%- if branches | length == 0 -%}
            {{- return(spark_query_catalog._sqc_indented(counts, margin)) -}}
        {%- endif -%}
        {%- do branches.append("else\n    " ~ spark_query_catalog._sqc_indented(counts, 4)) -%}
    {%- else -%}
        {%- if plan.guard is not none -%}
            {%- do branches.append("when\n    " ~ spark_query_catalog._sqc_indented(counts, 4) ~ " > " ~ plan.guard.limit
                ~ "\n    then\n        raise_error(\n            "
                ~ spark_query_catalog._sqc_indented(spark_query_catalog._sqc_string_lines_sql(plan.guard.message, 48), 12)
                ~ "\n        )") -%}
        {%- endif -%}
        {%- do branches.append("when\n    " ~ spark_query_catalog._sqc_indented(counts, 4) ~ " > 0\n    then\n        "
            ~ spark_query_catalog._sqc_indented(value, 8)) -%}
    {%- endif -%}
    {%- set text = "case\n    " ~ spark_query_catalog._sqc_indented(branches | join("\n"), 4) ~ "\nend" -%}
    {{- return(spark_query_catalog._sqc_indented(text, margin)) -}}
{% endmacro %}


{#-
    Whether a linear sum of `argument_type` adds up bigint values as they
    are, in a running bigint total that may wrap past 2^63. Without ANSI
    mode (dbt-spark turns it off on every connection) Spark adds longs
    modulo 2^64, in its own sum over a frame too: the difference of two
    wrapped running totals is the frame's sum modulo 2^64, which is what
    Spark's frame gives, whether that sum fits or not. Under ANSI mode a
    running total that passes 2^63 would fail where the frame's own sum
    does not: a project that runs its models with ANSI on sets the var
    spark_query_catalog_ansi, and bigint sums run as decimal(20, 0)
    (_sqc_linear_summand), several times slower.
-#}
{% macro _sqc_long_totals_wrap(argument_type) %}
    {{- return((argument_type or "") | trim | lower in ["bigint", "long"] and not var("spark_query_catalog_ansi", false)) -}}
{% endmacro %}


{#- What a linear sum adds up when its running total must not wrap: a
    bigint as decimal(20, 0), whose running total cannot overflow
    (_sqc_prefix_overflow_reason); any other argument as it is. -#}
{% macro _sqc_linear_summand(argument, argument_type) %}
    {%- if (argument_type or "") | trim | lower in ["bigint", "long"] -%}
        {{- return("cast(" ~ argument ~ " as decimal(20, 0))") -}}
    {%- endif -%}
    {{- return(argument) -}}
{% endmacro %}


{#- A frame's sum or avg from the exact total of its values (`sums`, of
    _sqc_linear_summand's type or wider) and their count (`counts`), in
    Spark's own type: a bigint's total back to bigint, a decimal(p, s) sum
    as decimal(p + 10, s), an avg of integers a double, of decimal(p, s) a
    decimal(p + 4, s + 4) rounded half up as Spark's Average divides. -#}
{% macro _sqc_linear_value_sql(function, argument_type, sums, counts, window) %}
    {%- set decimal = spark_query_catalog._sqc_decimal_parts(argument_type) -%}
    {%- if function == "sum" and (argument_type or "") | trim | lower in ["bigint", "long"] -%}
        {{- return("cast(\n    " ~ spark_query_catalog._sqc_indented(sums, 4) ~ "\n    as bigint\n)") -}}
    {%- elif function == "sum" and decimal is not none -%}
        {{- return("cast(\n    " ~ spark_query_catalog._sqc_indented(sums, 4) ~ "\n    as decimal("
            ~ ([decimal[0] + 10, 38] | min) ~ ", " ~ decimal[1] ~ ")\n)") -}}
    {%- elif function == "sum" -%}
        {{- return(sums) -}}
    {%- elif decimal is none -%}
        {{- return("cast(\n    " ~ spark_query_catalog._sqc_indented(sums, 4) ~ "\n    as double\n) / (\n    "
            ~ spark_query_catalog._sqc_indented(counts, 4) ~ "\n)") -}}
    {%- endif -%}
    {%- set digits = spark_query_catalog._sqc_linear_avg_digits(window, argument_type) -%}
    {{- return("cast(\n    cast(\n        " ~ spark_query_catalog._sqc_indented(sums, 8)
        ~ "\n        as decimal(" ~ digits[0] ~ ", " ~ (decimal[1] + 4) ~ ")\n    ) / cast(\n        "
        ~ spark_query_catalog._sqc_indented(counts, 8) ~ "\n        as decimal(" ~ digits[1] ~ ", 0)\n    )\n"
        ~ "    as decimal(" ~ (decimal[0] + 4) ~ ", " ~ (decimal[1] + 4) ~ ")\n)") -}}
{% endmacro %}


{#- Whether an order key sorts NULLs first: asc does unless it says nulls
    last; desc does only when it says nulls first. -#}
{% macro _sqc_nulls_first(order_key) %}
    {%- set text = order_key | lower -%}
    {%- if modules.re.search("\\snulls\\s+first$", text) -%}
        {{- return(true) -}}
    {%- elif modules.re.search("\\snulls\\s+last$", text) -%}
        {{- return(false) -}}
    {%- endif -%}
    {{- return(modules.re.search("\\sdesc$", text) is none) -}}
{% endmacro %}
