{#- A consumer's override of one macro, picked up through dispatch. -#}
{% macro default__rolling(expression, order_by, partition_by, frame, preceding, following, relation, method) %}
    {{- return("/* overridden */ " ~ spark_query_catalog.default__rolling(
        expression, order_by, partition_by, frame, preceding, following, relation, method
    )) -}}
{% endmacro %}
