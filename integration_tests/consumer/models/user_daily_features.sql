-- The consumer's daily summary of its feature table: each run reads only the
-- days that hold a row the feature table's last runs changed, and replaces
-- those days.
{{ config(
    materialized='incremental',
    incremental_strategy='insert_overwrite',
    file_format='parquet',
    partition_by=['event_date']
) }}

select
    user_id,
    count(*) as events,
    sum(amount_last_15_minutes) as amount_last_15_minutes,
    max(spark_query_catalog_changed_at) as spark_query_catalog_changed_at,
    spark_query_catalog_date as event_date
from (
    {{ spark_query_catalog.changed_rows(
        ref('user_event_features'), groups='spark_query_catalog_date'
    ) }}
) as features
group by user_id, spark_query_catalog_date
