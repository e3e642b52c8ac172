{#- Config that incremental_sessions and incremental_windows read alike. -#}

{#-
    The key columns of a materialization's sessions or windows, from the
    config `keys`. dbt-spark's `partition_by` is a table's partition column,
    which these materializations choose themselves: a model that still sets
    `partition_by` for its keys gets them, with a warning naming `keys`,
    until 0.7. Both at once is an error.
-#}
{% macro _sqc_config_keys(name) %}
    {%- set keys = config.get("keys") -%}
    {%- set legacy = config.get("partition_by") -%}
    {%- if keys is not none and legacy is not none -%}
        {{- spark_query_catalog._sqc_fail(name, "partition_by", "left out when `keys` is set (the table's"
            ~ " partitions are the materialization's own; the keys are `keys`)", legacy) -}}
    {%- elif legacy is not none -%}
        {%- do exceptions.warn("spark_query_catalog." ~ name ~ ": model "
            ~ (model.name if model is defined else this) ~ " sets its keys as `partition_by`, which is"
            ~ " deprecated and read until 0.7 (dbt-spark's partition_by is a table's partition column):"
            ~ " rename it to `keys`") -%}
        {%- set keys = legacy -%}
    {%- elif keys is none -%}
        {{- spark_query_catalog._sqc_fail(name, "keys", "set in the model's config", keys) -}}
    {%- endif -%}
    {{- return(spark_query_catalog._sqc_string_list(keys, name, "keys", allow_empty=false)) -}}
{% endmacro %}
