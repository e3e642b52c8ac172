{#-
    Physical plans, recorded when a model is built and checked by the `plan` test.

    sqc_record_plan()   A post-hook: runs EXPLAIN FORMATTED on the model's
                        compiled SQL and stores the operator tree of the
                        physical plan in the table's (or view's) property
                        `sqc.physical_plan`. Set it for the models whose plans
                        you test:
                            models:
                              +post-hook: "{{ spark_query_catalog.sqc_record_plan() }}"

    The tree is what EXPLAIN FORMATTED prints under `== Physical Plan ==`, one
    operator per line with its number, e.g. `+- Exchange (4)`. With adaptive
    execution on (Spark's default) it is the plan before execution.
-#}
{% macro sqc_record_plan() %}
    {{- return(adapter.dispatch("sqc_record_plan", "spark_query_catalog")()) -}}
{% endmacro %}


{% macro default__sqc_record_plan() %}
    {#- Only where the model's SQL is the table's query: not for
        incremental_sessions, whose SQL selects the events. -#}
    {%- if not execute or model is not mapping or model.resource_type != "model"
        or model.config.materialized not in ["table", "view", "incremental"] -%}
        {{- return("") -}}
    {%- endif -%}
    {%- set kind = "view" if model.config.materialized == "view" else "table" -%}
    {%- set tree = spark_query_catalog._sqc_physical_plan(model.compiled_code) -%}
    {{- return(
        "alter " ~ kind ~ " " ~ this.render() ~ " set tblproperties ('sqc.physical_plan' = "
        ~ spark_query_catalog._sqc_string_literal(tree | join("\n")) ~ ")"
    ) -}}
{% endmacro %}


{#- The operator tree of `sql`'s physical plan: a list of lines. -#}
{% macro _sqc_physical_plan(sql) %}
    {%- set text = run_query("explain formatted " ~ sql).rows[0][0] -%}
    {%- set tree = [] -%}
    {%- set state = {"in_plan": false} -%}
    {%- for line in text.split("\n") -%}
        {%- if line.strip() == "== Physical Plan ==" -%}
            {%- do state.update({"in_plan": true}) -%}
        {%- elif state.in_plan and line.strip() == "" and tree | length > 0 -%}
            {%- do state.update({"in_plan": false}) -%}
        {%- elif state.in_plan and line.strip() != "" -%}
            {%- do tree.append(line.rstrip()) -%}
        {%- endif -%}
    {%- endfor -%}
    {{- return(tree) -}}
{% endmacro %}


{#- An operator tree line's operator: `:  +- HashAggregate (5)` gives HashAggregate,
    `+- Scan parquet spark_catalog.s.t (1)` gives `Scan parquet`. -#}
{% macro _sqc_plan_operator(line) %}
    {%- set text = line.lstrip(" :+-*") -%}
    {%- set name = text.rsplit(" (", 1)[0] -%}
    {%- if name.startswith("Scan ") -%}
        {%- set name = " ".join(name.split(" ")[:2]) -%}
    {%- endif -%}
    {{- return(name) -}}
{% endmacro %}


{#-
    plan(model, present=[], absent=[], exchanges=none, max_exchanges=none)

    Passes when the model's recorded physical plan (see sqc_record_plan) has
    every operator in `present`, none in `absent`, exactly `exchanges`
    shuffle Exchange nodes and at most `max_exchanges`. Operators are named
    as EXPLAIN prints them: Exchange, BroadcastExchange, HashAggregate,
    ObjectHashAggregate, SortAggregate, Window, WindowGroupLimit, Generate,
    Expand, Sort, SortMergeJoin, BroadcastHashJoin, Project, Filter, ...
    (`Exchange` is a shuffle; a broadcast is `BroadcastExchange`).

    Each failing row is one broken expectation with the offending plan lines;
    the whole plan is printed in dbt's log as well.
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
        {%- if value is not none and (value is not number or value is boolean or value < 0 or value != value | int) -%}
            {{- spark_query_catalog._sqc_fail("plan", argument, "a whole number of Exchange nodes, 0 or more", value) -}}
        {%- endif -%}
    {%- endfor -%}
    {%- if present | length + absent | length == 0 and exchanges is none and max_exchanges is none -%}
        {{- spark_query_catalog._sqc_error(
            "plan", "give at least one of `present`, `absent`, `exchanges`, `max_exchanges`"
        ) -}}
    {%- endif -%}
    {%- if not execute -%}
        {{- return("select 1 as placeholder where false") -}}
    {%- endif -%}

    {%- set recorded = run_query(
        "show tblproperties " ~ model ~ " ('sqc.physical_plan')"
    ).rows -%}
    {%- set text = recorded[0][1] if recorded | length > 0 else "" -%}
    {%- if recorded | length == 0 or "does not have property" in text -%}
        {{- spark_query_catalog._sqc_error("plan",
            "no physical plan is recorded on " ~ model ~ ". Build it with the post-hook "
            ~ "`{{ spark_query_catalog.sqc_record_plan() }}` (see macros/plans.sql)."
        ) -}}
    {%- endif -%}
    {%- set tree = text.split("\n") -%}
    {%- set operators = [] -%}
    {%- for line in tree -%}
        {%- do operators.append(spark_query_catalog._sqc_plan_operator(line)) -%}
    {%- endfor -%}

    {%- set failures = [] -%}
    {%- for operator in present if operator not in operators -%}
        {%- do failures.append({"expected": "a " ~ operator ~ " node", "lines": "none in the plan"}) -%}
    {%- endfor -%}
    {%- for operator in absent if operator in operators -%}
        {%- set lines = [] -%}
        {%- for line in tree if spark_query_catalog._sqc_plan_operator(line) == operator -%}
            {%- do lines.append(line.lstrip(" :+-*")) -%}
        {%- endfor -%}
        {%- do failures.append({"expected": "no " ~ operator ~ " node", "lines": lines | join("; ")}) -%}
    {%- endfor -%}
    {%- set shuffles = [] -%}
    {%- for line in tree if spark_query_catalog._sqc_plan_operator(line) == "Exchange" -%}
        {%- do shuffles.append(line.lstrip(" :+-*")) -%}
    {%- endfor -%}
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
        {{- return("select cast(null as string) as expected, cast(null as string) as plan_lines where false") -}}
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
    {{- return("select * from values " ~ rows | join(", ") ~ " as failures(expected, plan_lines)") -}}
{% endmacro %}
