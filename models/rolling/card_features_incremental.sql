-- Per-transaction card features kept up to date load by load: the amount of
-- the last 7 days, the transactions of the last 24 hours and the average of
-- the last 20 transactions. Each run reads the new loads, rewrites the rows
-- whose frames they change (late transactions included), and equals a full
-- refresh. `card_transaction_loads` (a variable) stops at an earlier load.
{{ config(
    materialized='incremental_windows',
    keys='card_id',
    order_by='txn_at',
    event_key='txn_id',
    loaded_at='loaded_at',
    windows={
        'amount_last_7_days': {
            'expression': 'sum(amount)', 'frame': 'range', 'preceding': '7 days'
        },
        'txns_last_24_hours': {
            'expression': 'count(*)', 'frame': 'range', 'preceding': '24 hours'
        },
        'amount_avg_last_20': {
            'expression': 'avg(cast(amount as decimal(10, 2)))',
            'frame': 'rows',
            'preceding': 19
        }
    }
) }}

select
    txn_id,
    card_id,
    txn_at,
    amount,
    loaded_at
from {{ ref('card_transaction_loads') }}
where loaded_at <= {{ var('card_transaction_loads', 3) }}
