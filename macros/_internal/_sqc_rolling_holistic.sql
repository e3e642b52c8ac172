{#-
    Exact holistic aggregates over a frame, as analysts write them in
    PostgreSQL and DuckDB, in forms Spark 4.3 takes over a window frame
    (it refuses median, percentile_cont and percentile_disc there:
    INVALID_WINDOW_SPEC_FOR_AGGREGATION_FUNC):

      median(x)                          percentile_cont(0.5), below
      percentile_cont(f) within group (order by x)
                                         the frame's values sorted, interpolated
                                         at f * (n - 1) as Spark's percentile
                                         (which it is over floating-point
                                         values); descending, at 1 - f
      percentile_disc(f) within group (order by x)
                                         the frame's values sorted, the
                                         ceil(f * n)-th (the first whose
                                         cumulative share reaches f; SQL's
                                         rule, and Spark's own aggregate's)
      mode(x), mode() within group (order by x)
                                         mode(x, true): of values tied for the
                                         most rows, the smallest; descending,
                                         the largest (as PostgreSQL)

    `f` is a fraction from 0 to 1, or several as array(f1, f2, ...) (or
    array[...]), which gives an array. NULLs are skipped; an empty frame
    gives NULL. Each still reads the whole frame for every row, as Spark's
    own frame does (docs/rolling.md: where the floor lies).
-#}

{#- `expression` over Spark's frame of `window`, a holistic aggregate in
    a form Spark takes. `argument` names the macro's argument in errors.
    With `kept` ({fields (a list), predicate}: rolling_select's `exclude`), the
    frame's values (`val`) are collected beside `fields`, and those whose
    element `e` meets `predicate` are kept and sorted, whatever the
    aggregate (mode too, and percentile_cont of any type). -#}
{% macro _sqc_native_call_sql(expression, window, margin, macro_name, argument, relation=none, kept=none) %}
    {%- set holistic = spark_query_catalog._sqc_parse_holistic(expression, macro_name, argument) -%}
    {%- if holistic is none -%}
        {{- return(spark_query_catalog._sqc_window_call_sql(expression, window, margin)) -}}
    {%- endif -%}
    {%- set value = holistic.value -%}
    {#- mode(x, true) is Spark's mode with ties to the smallest value; the
        largest has only the within group spelling. -#}
    {%- if holistic.function == "mode" and kept is none -%}
        {{- return(spark_query_catalog._sqc_window_call_sql("mode() within group (order by " ~ value ~ " desc)"
            if holistic.descending else "mode(" ~ value ~ ", true)", window, margin)) -}}
    {%- endif -%}
    {%- set cont = holistic.function == "cont" -%}
    {%- set fractions = [] -%}
    {%- for fraction in holistic.fractions -%}
        {%- do fractions.append(spark_query_catalog._sqc_one_minus(fraction) if cont and holistic.descending else fraction) -%}
    {%- endfor -%}
    {#- percentile_cont of floating-point values (whose infinities and NaNs
        Spark's percentile treats by rules of its own), or of values of a
        type not known, is Spark's percentile; so is any with
        method='native': it counts the frame's distinct values in a hash
        map, faster than a sort where a frame holds few of them. -#}
    {%- if cont and kept is none and (window.method == "native" or spark_query_catalog._sqc_type_class(spark_query_catalog._sqc_argument_type(value, window.columns,
        relation)) not in ["integral", "decimal"]) -%}
        {{- return(spark_query_catalog._sqc_window_call_sql("percentile(" ~ value ~ ", "
            ~ ("array(" ~ fractions | join(", ") ~ ")" if holistic.array else fractions[0]) ~ ")", window, margin)) -}}
    {%- endif -%}
    {#- Both read the frame's values once, sorted (sort_array: array_sort
        compares through a lambda). Spark computes a window call as often as
        it is written, so the sorted frame is bound to `rolling_sorted` by a
        lambda over a one-element array. percentile_disc picks the first
        value whose share of the frame reaches f; percentile_cont
        interpolates at position f * (n - 1) (`rolling_pos`), in doubles,
        as Spark's percentile does. Several fractions are a transform over
        them (`picks`), one is `one`. An empty frame gives NULL
        (try_element_at, get), and so does an array of several fractions,
        as percentile's. -#}
    {%- set typed = "double(" ~ value ~ ")" if cont else value -%}
    {%- if kept is none -%}
        {%- set values = spark_query_catalog._sqc_window_call_sql("collect_list(" ~ typed ~ ")", window, margin + 8) -%}
    {%- else -%}
        {#- A NULL value is no element: collect_list skips it. -#}
        {%- set collected = spark_query_catalog._sqc_window_call_sql("collect_list(\n" ~ " " * (margin + 20) ~ "if(" ~ value
            ~ " is null, null, struct(\n" ~ " " * (margin + 24) ~ (kept.fields + [typed ~ " as val"])
            | join(",\n" ~ " " * (margin + 24)) ~ "\n"
            ~ " " * (margin + 20) ~ "))\n" ~ " " * (margin + 16) ~ ")", window, margin + 16) -%}
        {%- set values = "transform(\n" ~ " " * (margin + 12) ~ "filter(\n" ~ " " * (margin + 16) ~ collected ~ ",\n"
            ~ " " * (margin + 16) ~ "e -> " ~ kept.predicate ~ "\n" ~ " " * (margin + 12) ~ "),\n"
            ~ " " * (margin + 12) ~ "e -> e.val\n" ~ " " * (margin + 8) ~ ")" -%}
    {%- endif -%}
    {%- set sorted = "sort_array(" ~ values ~ (", false)" if holistic.descending and not cont else ")") -%}
    {%- if holistic.function == "mode" -%}
        {#- The first of the longest runs of equal values in the sorted
            frame (the smallest value; descending, the largest): `m` holds
            the last value, its run, and the mode and its run so far. -#}
        {%- set one = "aggregate(\n    slice(rolling_sorted, 2, size(rolling_sorted)),\n    named_struct(\n"
            ~ "        'prev', get(rolling_sorted, 0),\n        'run', 1,\n        'mode', get(rolling_sorted, 0),\n"
            ~ "        'top', 1\n    ),\n    (m, x) -> named_struct(\n        'prev', x,\n"
            ~ "        'run', if(x = m.prev, m.run + 1, 1),\n        'mode', if(x = m.prev and m.run >= m.top, x, m.mode),\n"
            ~ "        'top', greatest(m.top, if(x = m.prev, m.run + 1, 1))\n    ),\n    m -> m.mode\n)" -%}
    {%- elif cont -%}
        {%- set positions = [] -%}
        {%- for fraction in fractions -%}
            {%- do positions.append("double(" ~ fraction ~ ") * (size(rolling_sorted) - 1)") -%}
        {%- endfor -%}
        {%- set picks = "transform(\n    array(" ~ (positions[0] if positions | length == 1 else "\n        "
            ~ positions | join(",\n        ") ~ "\n    ") ~ "),\n    rolling_pos -> get(\n        rolling_sorted,"
            ~ " int(floor(rolling_pos))\n    )\n    + (rolling_pos - floor(rolling_pos))\n    * (\n"
            ~ "        get(rolling_sorted, int(ceil(rolling_pos)))\n"
            ~ "        - get(rolling_sorted, int(floor(rolling_pos)))\n    )\n)" -%}
        {%- set one = "element_at(\n    " ~ spark_query_catalog._sqc_indented(picks, 4) ~ ",\n    1\n)" -%}
    {%- else -%}
        {%- set pick = "try_element_at(\n    rolling_sorted,\n    greatest(cast(ceil(%s * size(rolling_sorted)) as int), 1)\n)" -%}
        {%- set picks = "transform(\n    array(" ~ fractions | join(", ") ~ "),\n    rolling_fraction -> "
            ~ spark_query_catalog._sqc_indented(pick | format("rolling_fraction"), 4) ~ "\n)" -%}
        {%- set one = pick | format(fractions[0]) -%}
    {%- endif -%}
    {%- set body = "if(\n    size(rolling_sorted) = 0,\n    null,\n    " ~ spark_query_catalog._sqc_indented(picks, 4) ~ "\n)"
        if holistic.array else one -%}
    {{- return("element_at(\n" ~ " " * (margin + 4) ~ "transform(\n" ~ " " * (margin + 8) ~ "array(" ~ sorted ~ "),\n"
        ~ " " * (margin + 8) ~ "rolling_sorted -> " ~ spark_query_catalog._sqc_indented(body, margin + 8) ~ "\n"
        ~ " " * (margin + 4) ~ "),\n" ~ " " * (margin + 4) ~ "1\n" ~ " " * margin ~ ")") -}}
{% endmacro %}


{#- A holistic aggregate's parts: {function ('cont', 'disc' or 'mode'),
    value, fractions (texts), array, descending}, or none for anything
    else. -#}
{% macro _sqc_parse_holistic(expression, macro_name, argument) %}
    {%- set flags = modules.re.IGNORECASE + modules.re.DOTALL -%}
    {%- set text = expression | trim -%}
    {%- set within = modules.re.match("^(percentile_cont|percentile_disc|mode)\s*\((.*?)\)\s*within\s+group\s*\(\s*order\s+by\s+(.+?)(\s+(asc|desc))?\s*\)$", text, flags) -%}
    {%- set plain = modules.re.match("^(median|mode)\s*\((.*)\)$", text, flags) if within is none else none -%}
    {%- set arguments = spark_query_catalog._sqc_split_arguments(plain.group(2)) if plain is not none else none -%}
    {%- if within is none and (arguments is none or arguments | length != 1) -%}
        {{- return(none) -}}
    {%- elif within is none -%}
        {%- set median = plain.group(1) | lower == "median" -%}
        {{- return({"function": "cont" if median else "mode", "value": arguments[0] | trim,
            "fractions": ["0.5"] if median else [], "array": false, "descending": false}) -}}
    {%- endif -%}
    {%- set function = within.group(1) | lower -%}
    {%- set inside = within.group(2) | trim -%}
    {%- set descending = (within.group(5) or "") | lower == "desc" -%}
    {%- if function == "mode" -%}
        {%- if inside != "" -%}
            {{- spark_query_catalog._sqc_fail(macro_name, argument, "mode() within group (order by x), with nothing"
                ~ " between mode's parentheses", expression) -}}
        {%- endif -%}
        {{- return({"function": "mode", "value": within.group(3) | trim, "fractions": [], "array": false, "descending": descending}) -}}
    {%- endif -%}
    {%- set listed = modules.re.match("^array\s*[\(\[](.*)[\)\]]$", inside, flags) -%}
    {%- set fractions = [] -%}
    {%- for fraction in (listed.group(1) if listed is not none else inside).split(",") -%}
        {%- set fraction = fraction | trim -%}
        {%- if modules.re.match("^(0(\.\d+)?|1(\.0+)?|\.\d+)$", fraction) is none -%}
            {{- spark_query_catalog._sqc_fail(macro_name, argument, function ~ " of a fraction from 0 to 1, or of"
                ~ " array(...) of them, e.g. " ~ function ~ "(0.95) within group (order by latency)", expression) -}}
        {%- endif -%}
        {%- do fractions.append("0" ~ fraction if fraction.startswith(".") else fraction) -%}
    {%- endfor -%}
    {{- return({"function": function[11:], "value": within.group(3) | trim, "fractions": fractions,
        "array": listed is not none, "descending": descending}) -}}
{% endmacro %}


{#- 1 - `fraction`, exactly, as text: '0.95' gives '0.05'. -#}
{% macro _sqc_one_minus(fraction) %}
    {%- set parts = (fraction ~ ".").split(".") -%}
    {%- set scale = parts[1] | length -%}
    {{- return(spark_query_catalog._sqc_steps_text(10 ** scale - (parts[0] ~ parts[1]) | int, scale)) -}}
{% endmacro %}
