-- Per-transaction card features (the amount of the last 7 days, the
-- transactions of the last 24 hours), built by dbt's microbatch in yearly
-- batches. dbt cuts ref('card_transactions') to each batch; rolling_select
-- reads the rows its frame reaches before the batch, computes the window and
-- keeps the batch's rows: each batch equals the full history's rows.
{{ config(
    materialized='incremental',
    incremental_strategy='microbatch',
    event_time='txn_at',
    begin='2023-01-01',
    batch_size='year',
    lookback=0,
    partition_by=['txn_date'],
    post_hook="drop view if exists {{ this.identifier }}__dbt_tmp"
) }}

with last_7_days as (
    {{ rolling_select(
        ref('card_transactions'),
        {'amount_last_7_days': 'sum(amount)'},
        'txn_at',
        partition_by='card_id',
        frame='range',
        preceding='7 days'
    ) | indent(4) }}
),

last_24_hours as (
    {{ rolling_select(
        ref('card_transactions'),
        {'txns_last_24_hours': 'count(*)'},
        'txn_at',
        partition_by='card_id',
        frame='range',
        preceding='24 hours'
    ) | indent(4) }}
)

select
    last_7_days.*,
    last_24_hours.txns_last_24_hours,
    to_date(last_7_days.txn_at) as txn_date
from last_7_days
inner join last_24_hours on last_7_days.txn_id = last_24_hours.txn_id
