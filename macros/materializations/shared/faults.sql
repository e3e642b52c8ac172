{#-
    Fault injection, for this repository's tests only: a test stops an
    incremental_sessions or incremental_windows run halfway to prove that the next run repairs it.
    The private model config `_spark_query_catalog_fault_injection` names the
    step to stop after ('pending': the pending table is written; 'overwrite':
    the partitions are overwritten). No real model sets it (CONTRIBUTING.md).
-#}
{% macro _sqc_incremental_fault(materialization, step) %}
    {%- if config.get("_spark_query_catalog_fault_injection") == step -%}
        {{- spark_query_catalog._sqc_error(materialization,
            "stopped after the " ~ step ~ " step, as the model's config"
            ~ " _spark_query_catalog_fault_injection asks (a setting for this package's tests).") -}}
    {%- endif -%}
{% endmacro %}
