{#-
    approx_count_distinct(x[, relativeSD]) over a frame. Spark evaluates it
    over a sliding frame by building the frame's HyperLogLog again for every
    row: rows x frame width.

    rolling_select answers it with the exact linear distinct count
    (_sqc_rolling_distinct.sql) wherever that form applies: exact, so within
    any error bound, deterministic, and measured faster than both Spark's
    frame and HLL sketches merged in the block form of min and max (4M rows,
    ROWS 1,000, about 10,000 values a store, median of 3: 6.07 s exact,
    12.57 s sketches, 40.20 s Spark's frame; docs/measurements.md).
    Elsewhere it is Spark's frame.

    Quantiles (percentile_approx, approx_percentile) have no such form and
    stay on Spark's frame: KLL sketches (kll_sketch_agg_*) in the block form
    would be faster, but Spark's KLL compacts at random and the same query
    answers differently from one run to the next.
-#}

{#- {"argument", "relative_sd" (its text, or none)} of
    `approx_count_distinct(x[, relativeSD])`, or none. -#}
{% macro _sqc_parse_approx_distinct(expression) %}
    {%- set match = modules.re.match("^\s*approx_count_distinct\s*\((.*)\)\s*$",
        expression, modules.re.IGNORECASE + modules.re.DOTALL) -%}
    {%- set arguments = spark_query_catalog._sqc_split_arguments(match.group(1)) if match is not none else none -%}
    {%- if arguments is none or arguments | length > 2
        or modules.re.match("^distinct\s", arguments[0], modules.re.IGNORECASE) -%}
        {{- return(none) -}}
    {%- endif -%}
    {{- return({"argument": arguments[0], "relative_sd": arguments[1] if arguments | length == 2 else none}) -}}
{% endmacro %}


{#- Whether approx_count_distinct over `window` is the exact linear count
    (as count(distinct) is: _sqc_distinct_is_linear, which makes
    method='linear' where there is none an error saying why). A relativeSD
    that is not a plain number stays with Spark, which checks it. -#}
{% macro _sqc_approx_distinct_is_exact(window, parsed, macro_name, helpers) %}
    {%- if parsed.relative_sd is not none
        and not modules.re.match("^(\d+\.?\d*|\.\d+)([eE]-?\d+)?[dD]?$", parsed.relative_sd) -%}
        {%- if window.method == "linear" -%}
            {{- spark_query_catalog._sqc_fail(macro_name, "method", "'auto' or 'native' here: relativeSD must be"
                ~ " a plain number for the exact linear form", window.method) -}}
        {%- endif -%}
        {{- return(false) -}}
    {%- endif -%}
    {{- return(spark_query_catalog._sqc_distinct_is_linear(window, macro_name, helpers)) -}}
{% endmacro %}
