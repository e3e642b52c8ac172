{#-
    The temporary view of a run's events, which both materializations
    read the model's SQL through.
-#}


{#- The temporary view of a run's events: one name per model, so that
    threads building several models on one Spark session never share it. -#}
{% macro _sqc_events_view_name(relation) %}
    {{- return("spark_query_catalog_events__" ~ relation.schema ~ "__" ~ relation.identifier) -}}
{% endmacro %}


{% macro _sqc_create_events_view_sql(events_view, events_sql) %}
create or replace temporary view {{ events_view }} as
{{ events_sql }}
{%- endmacro %}
