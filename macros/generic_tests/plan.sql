{#-
    plan(model, present=none, absent=none, exchanges=none, max_exchanges=none)

    Passes when the model's recorded physical plan (see record_physical_plan) has
    every operator in `present`, none in `absent`, exactly `exchanges`
    shuffle Exchange nodes and at most `max_exchanges`. Operators are named
    as EXPLAIN prints them: Exchange, BroadcastExchange, HashAggregate,
    ObjectHashAggregate, SortAggregate, Window, WindowGroupLimit, Generate,
    Expand, Sort, SortMergeJoin, BroadcastHashJoin, Project, Filter, ...
    (`Exchange` is a shuffle; a broadcast is `BroadcastExchange`).

    Each failing row is one broken expectation with the offending plan lines;
    the whole plan is printed in dbt's log as well. Under `--empty` the test
    passes without reading a plan: the model's query then reads no rows, and
    Spark plans it as such.

    Example:
        data_tests:
          - spark_query_catalog.plan:
              arguments: {present: [HashAggregate], absent: [ObjectHashAggregate], exchanges: 2}
-#}
{% test plan(model, present=none, absent=none, exchanges=none, max_exchanges=none) %}
    {{- return(adapter.dispatch("test_plan", "spark_query_catalog")(
        model, present, absent, exchanges, max_exchanges
    )) -}}
{% endtest %}


{% macro default__test_plan(model, present, absent, exchanges, max_exchanges) %}
    {%- set present = spark_query_catalog._sqc_string_list(present, "plan", "present") -%}
    {%- set absent = spark_query_catalog._sqc_string_list(absent, "plan", "absent") -%}
    {%- for argument, value in [("exchanges", exchanges), ("max_exchanges", max_exchanges)] -%}
        {%- if value is not none and not spark_query_catalog._sqc_is_whole_number(value) -%}
            {{- spark_query_catalog._sqc_fail("plan", argument, "a whole number of Exchange nodes, 0 or more", value) -}}
        {%- endif -%}
    {%- endfor -%}
    {%- if present | length + absent | length == 0 and exchanges is none and max_exchanges is none -%}
        {{- spark_query_catalog._sqc_error(
            "plan", "give at least one of `present`, `absent`, `exchanges`, `max_exchanges`"
        ) -}}
    {%- endif -%}
    {%- set passing = "select\n    cast(null as string) as expected,\n    cast(null as string) as plan_lines\nwhere false" -%}
    {%- if not execute or flags.EMPTY -%}
        {{- return(passing) -}}
    {%- endif -%}

    {%- set recorded = spark_query_catalog._sqc_recorded_plan(model) -%}
    {%- if recorded is none -%}
        {{- spark_query_catalog._sqc_error("plan",
            "no physical plan is recorded on " ~ model ~ ". Build the model with the post-hook "
            ~ "`{{ spark_query_catalog.record_physical_plan() }}` (a `+post-hook` in dbt_project.yml)."
        ) -}}
    {%- endif -%}
    {%- set tree = recorded.tree -%}
    {%- set operators = recorded.operators -%}

    {%- set failures = [] -%}
    {%- for operator in present if operator not in operators -%}
        {%- do failures.append({"expected": "a " ~ operator ~ " node", "lines": "none in the plan"}) -%}
    {%- endfor -%}
    {%- for operator in absent if operator in operators -%}
        {%- do failures.append({
            "expected": "no " ~ operator ~ " node",
            "lines": spark_query_catalog._sqc_plan_lines(tree, operators, operator) | join("; ")
        }) -%}
    {%- endfor -%}
    {%- set shuffles = spark_query_catalog._sqc_plan_lines(tree, operators, "Exchange") -%}
    {%- if exchanges is not none and shuffles | length != exchanges -%}
        {%- do failures.append({
            "expected": exchanges ~ " Exchange node(s), found " ~ shuffles | length,
            "lines": shuffles | join("; ") or "none in the plan"
        }) -%}
    {%- endif -%}
    {%- if max_exchanges is not none and shuffles | length > max_exchanges -%}
        {%- do failures.append({
            "expected": "at most " ~ max_exchanges ~ " Exchange node(s), found " ~ shuffles | length,
            "lines": shuffles | join("; ")
        }) -%}
    {%- endif -%}

    {%- if failures | length == 0 -%}
        {{- return(passing) -}}
    {%- endif -%}
    {%- set report = [] -%}
    {%- for failure in failures -%}
        {%- do report.append("  expected " ~ failure.expected ~ ": " ~ failure.lines) -%}
    {%- endfor -%}
    {%- do log("plan test on " ~ model ~ " failed:\n" ~ report | join("\n")
        ~ "\nits physical plan:\n" ~ tree | join("\n"), info=true) -%}
    {%- set rows = [] -%}
    {%- for failure in failures -%}
        {%- do rows.append("(" ~ spark_query_catalog._sqc_string_literal(failure.expected) ~ ", "
            ~ spark_query_catalog._sqc_string_literal(failure.lines) ~ ")") -%}
    {%- endfor -%}
    {{- return("select\n    failures.expected,\n    failures.plan_lines\nfrom values\n"
        ~ spark_query_catalog._sqc_list_lines(rows, 4) ~ " as failures (expected, plan_lines)") -}}
{% endmacro %}


{#- The lines of a plan tree whose operator is `operator`, without the tree's drawing. -#}
{% macro _sqc_plan_lines(tree, operators, operator) %}
    {%- set lines = [] -%}
    {%- for line in tree -%}
        {%- if operators[loop.index0] == operator -%}
            {%- do lines.append(line.lstrip(" :+-*")) -%}
        {%- endif -%}
    {%- endfor -%}
    {{- return(lines) -}}
{% endmacro %}
