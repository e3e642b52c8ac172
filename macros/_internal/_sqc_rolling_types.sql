{#-
    The types behind rolling's choice of form: an aggregate argument's
    type, and which types a running total holds exactly.
-#}


{#-
    Why a prefix difference of `function` (sum or avg) over `argument_type`
    could answer other than Spark's own frame, or none when it cannot. A
    running total spans the partition up to the row, where the frame's own
    sum spans the frame: it must not overflow where the frame's does not.
    Spark's window operator holds a partition in a buffer counted by an int,
    so a partition has fewer than 2^31 rows:
      tinyint, smallint, int  a running bigint total stays under
                              2^31 x 2^31 = 2^62: never overflows
      bigint                  it could, and without ANSI mode may: Spark
                              adds longs modulo 2^64, so the difference of
                              wrapped totals is the frame's wrapped sum, as
                              Spark's frame gives it (_sqc_long_totals_wrap).
                              Under ANSI mode (var spark_query_catalog_ansi)
                              summed as decimal(20, 0), whose running total
                              (under 2^94) fits its type decimal(30, 0), and
                              cast back to bigint: an error where the frame's
                              own sum overflows, as Spark's frame raises
      decimal(p, s)           the running total fits Spark's sum type
                              decimal(p + 10, s) up to p = 28; from 29
                              digits it is capped at 38 and could overflow
    avg of integers is a sum of doubles in Spark, in the frame's order: exact
    while every partial sum stays within 2^53, where the linear form's exact
    total divided by the count is the same double. That holds for tinyint and
    smallint over any frame (2^31 x 2^15 = 2^46), for int over a frame of up
    to 2^22 values (_sqc_int_avg_guard: a larger frame is an error when the
    query runs), never provably for bigint.
-#}
{% macro _sqc_prefix_overflow_reason(window, function, argument_type) %}
    {%- set name = argument_type | trim | lower -%}
    {%- set decimal = spark_query_catalog._sqc_decimal_parts(name) -%}
    {%- if decimal is not none and decimal[0] > 28 -%}
        {{- return("a running total of " ~ argument_type ~ " could pass 38 digits where the frame's own sum"
            ~ " does not (linear up to decimal(28, s))") -}}
    {%- elif function == "avg" and name in ["bigint", "long"] -%}
        {{- return("Spark averages bigint as a sum of doubles, exact only within 2^53: a prefix difference"
            ~ " could differ in the last bits; cast the argument to a decimal for an exact linear form") -}}
    {%- endif -%}
    {{- return(none) -}}
{% endmacro %}


{#-
    The run-time error a linear avg of int raises on a frame of more than
    2^22 values, {"limit": 2^22, "message": its text}, or none where no
    frame can hold that many. Spark sums int as doubles: up to 2^22 values
    of at most 2^31 every partial sum stays within 2^53 and is exact, so
    the prefix difference's exact total gives the same double; past that Spark's sum could round (its sliding frame
    and its segment tree differently), and the query stops rather than
    answer otherwise. Checking at run time keeps RANGE frames linear: a
    fallback would pay Spark's frame on every row for the rare large one.
-#}
{% macro _sqc_int_avg_guard(window, aggregate, argument_type, macro_name) %}
    {%- set limit = 2 ** 22 -%}
    {%- set name = (argument_type or "") | trim | lower -%}
    {%- set width = spark_query_catalog._sqc_rows_width(window) -%}
    {%- if aggregate.function != "avg" or name not in ["int", "integer"] or (width is not none and width <= limit) -%}
        {{- return(none) -}}
    {%- endif -%}
    {{- return({"limit": limit, "message": "spark_query_catalog." ~ macro_name ~ ": " ~ aggregate.function ~ "("
        ~ aggregate.argument ~ ") over a frame of more than " ~ limit ~ " values: Spark sums int as doubles,"
        ~ " which can round past 2^53; cast the argument to a decimal for an exact linear avg, or use"
        ~ " method=\"native\""}) -}}
{% endmacro %}


{#- The type of an aggregate's argument: the type it is cast to, its
    column's, or the relation's answer to `describe query`; none when the
    relation is not known. -#}
{% macro _sqc_argument_type(argument, columns, relation) %}
    {%- set cast = modules.re.match("^cast\\s*\\((.*)\\s+as\\s+([a-z_]+(?:\\s*\\(\\s*\\d+\\s*(?:,\\s*\\d+\\s*)?\\))?)\\s*\\)$",
        argument | trim, modules.re.IGNORECASE + modules.re.DOTALL) -%}
    {%- set column = spark_query_catalog._sqc_find_column(columns, argument) -%}
    {%- if cast is not none -%}
        {{- return(cast.group(2) | lower | replace(" ", "")) -}}
    {%- elif column is not none -%}
        {{- return(column.data_type) -}}
    {%- elif columns is none or not execute -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- set described = run_query("describe query select " ~ argument ~ " as argument from "
        ~ spark_query_catalog._sqc_unlimited_sql(relation)) -%}
    {{- return(described.rows[0][1] | lower) -}}
{% endmacro %}


{#- The digits [numerator precision, count digits] an exact linear avg of a
    decimal(p, s) needs over this frame, or none past 38 (see _sqc_linear_sum_sql). -#}
{% macro _sqc_linear_avg_digits(window, argument_type) %}
    {%- set parts = spark_query_catalog._sqc_decimal_parts(argument_type) -%}
    {%- set width = spark_query_catalog._sqc_rows_width(window) -%}
    {%- if width is not none -%}
        {%- set count_digits = (width | int | string) | length -%}
    {%- else -%}
        {#- A frame of values: up to 10^10 rows. -#}
        {%- set count_digits = 11 -%}
    {%- endif -%}
    {%- if parts[0] + 2 * count_digits + 5 > 38 -%}
        {{- return(none) -}}
    {%- endif -%}
    {{- return([parts[0] + count_digits + 4, count_digits]) -}}
{% endmacro %}
