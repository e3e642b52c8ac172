-- A card's daily summary over its per-transaction features, kept
-- incrementally: each run reads only the days that hold a transaction whose
-- features the last runs of card_features_incremental changed (a late
-- transaction changes the 7-day amounts after it), and replaces those days.
{{ config(
    materialized='incremental',
    incremental_strategy='insert_overwrite',
    file_format='parquet',
    partition_by=['txn_date']
) }}

with features as (
    {{ spark_query_catalog.changed_rows(
        ref('card_features_incremental'), groups='spark_query_catalog_date'
    ) | indent(4) }}
),

daily as (
    select
        card_id,
        spark_query_catalog_date as txn_date,
        count(*) as transaction_count,
        sum(amount) as amount,
        max(amount_last_7_days) as peak_amount_last_7_days,
        max(spark_query_catalog_changed_at) as spark_query_catalog_changed_at
    from features
    group by card_id, spark_query_catalog_date
)

-- dbt-spark's insert_overwrite takes the partition column last.
select
    card_id,
    transaction_count,
    amount,
    peak_amount_last_7_days,
    spark_query_catalog_changed_at,
    txn_date
from daily
