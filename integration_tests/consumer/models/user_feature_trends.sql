-- A feature table over the consumer's feature table (a chain): each event's
-- 15-minute amount summed over the user's last two events. Its events are
-- the upstream's rows read by their change marks; a row a late event
-- changed upstream is a newer version of its event (copies='last').
{{ config(
    materialized='incremental_windows',
    keys='user_id',
    order_by='event_at',
    event_key='event_id',
    loaded_at='features_changed_at',
    copies='last',
    windows={
        'amount_15_minutes_last_2': {'expression': 'sum(amount_last_15_minutes)', 'preceding': 1}
    }
) }}

select
    event_id,
    user_id,
    event_at,
    amount_last_15_minutes,
    spark_query_catalog_changed_at as features_changed_at
from {{ ref('user_event_features') }}
