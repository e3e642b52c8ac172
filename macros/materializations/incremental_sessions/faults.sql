{#-
    Where a test may stop an incremental_sessions run halfway, to prove that
    the next run repairs it. The model config `sqc_stop_after` names the
    point ('pending': after the pending table is written; 'overwrite': after
    the partitions are overwritten); it is unset in every real model.
-#}
{% macro _sqc_incremental_fault(point) %}
    {%- if config.get("sqc_stop_after") == point -%}
        {{- spark_query_catalog._sqc_error("incremental_sessions",
            "stopped after the " ~ point ~ " step (sqc_stop_after, a setting for tests).") -}}
    {%- endif -%}
{% endmacro %}
