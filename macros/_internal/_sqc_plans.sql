{#-
    Physical plans, read the one way that the `plan` test, the plan recorder
    and the catalog page share.
-#}

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


{#- The recorded plan of a relation: {"tree": [lines], "operators": [names]},
    or none when nothing is recorded. -#}
{% macro _sqc_recorded_plan(relation) %}
    {%- set properties = {} -%}
    {%- for row in run_query("show tblproperties " ~ relation) -%}
        {%- do properties.update({row[0]: row[1]}) -%}
    {%- endfor -%}
    {%- if "spark_query_catalog.physical_plan" not in properties or "spark_query_catalog.plan_operators" not in properties -%}
        {{- return(none) -}}
    {%- endif -%}
    {{- return({
        "tree": properties["spark_query_catalog.physical_plan"].split("\n"),
        "operators": properties["spark_query_catalog.plan_operators"].split(",")
    }) -}}
{% endmacro %}
