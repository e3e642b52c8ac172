-- The consumer's own feature table under dbt's microbatch, in yearly batches
-- (2024, 2025, 2026 and on): each reading with its sensor's total of the hour
-- up to it and how many readings lie within half an hour either side. dbt
-- cuts ref('readings') to each batch; rolling_select reads the rows its frame
-- reaches beyond the batch, on both sides, and keeps the batch's rows.
{{ config(
    materialized='incremental',
    incremental_strategy='microbatch',
    event_time='read_at',
    begin='2024-01-01',
    batch_size='year',
    lookback=0,
    partition_by=['read_date']
) }}

with last_hour as (
    {{ spark_query_catalog.rolling_select(
        ref('readings'),
        {'value_last_hour': 'sum(value)'},
        'read_at',
        partition_by='sensor_id',
        frame='range',
        preceding='1 hour'
    ) | indent(4) }}
),

around as (
    {{ spark_query_catalog.rolling_select(
        ref('readings'),
        {'readings_around': 'count(*)'},
        'read_at',
        partition_by='sensor_id',
        frame='range',
        preceding='30 minutes',
        following='30 minutes'
    ) | indent(4) }}
)

select
    last_hour.*,
    around.readings_around,
    to_date(last_hour.read_at) as read_date
from last_hour
inner join around on last_hour.reading_id = around.reading_id
