{#-
    record_physical_plan()

    A post-hook that keeps a model's physical plan on its table, for the
    `plan` test and the catalog page. It runs EXPLAIN FORMATTED on the
    model's compiled SQL and stores two table (or view) properties:

      spark_query_catalog.physical_plan   the operator tree, as EXPLAIN prints it under
                          `== Physical Plan ==`, one operator a line with its
                          number (`+- Exchange (4)`)
      spark_query_catalog.plan_operators  the operator of each line, comma-separated
                          (`AdaptiveSparkPlan,Exchange,...`)

    With adaptive execution on (Spark's default) the plan is the one before
    execution. Nothing is recorded for a materialization whose SQL is not the
    table's query (incremental_sessions selects its events), nor under
    `--empty`, where the plan is that of a query over no rows.

    Example (dbt_project.yml):
        models:
          +post-hook: "{{ spark_query_catalog.record_physical_plan() }}"
-#}
{% macro record_physical_plan() %}
    {{- return(adapter.dispatch("record_physical_plan", "spark_query_catalog")()) -}}
{% endmacro %}


{% macro default__record_physical_plan() %}
    {%- if not execute or flags.EMPTY or model is not mapping or model.resource_type != "model"
        or model.config.materialized not in ["table", "view", "incremental"] -%}
        {{- return("") -}}
    {%- endif -%}
    {%- set kind = "view" if model.config.materialized == "view" else "table" -%}
    {%- set tree = spark_query_catalog._sqc_physical_plan(model.compiled_code) -%}
    {%- set operators = [] -%}
    {%- for line in tree -%}
        {%- do operators.append(spark_query_catalog._sqc_plan_operator(line)) -%}
    {%- endfor -%}
    {{- return(
        "alter " ~ kind ~ " " ~ this.render() ~ " set tblproperties (\n"
        ~ "    'spark_query_catalog.physical_plan' = " ~ spark_query_catalog._sqc_string_literal(tree | join("\n")) ~ ",\n"
        ~ "    'spark_query_catalog.plan_operators' = " ~ spark_query_catalog._sqc_string_literal(operators | join(",")) ~ "\n)"
    ) -}}
{% endmacro %}
