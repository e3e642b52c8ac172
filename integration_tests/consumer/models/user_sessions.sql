-- The consumer's sessions under the package's materialization: a user's
-- events with less than 12 minutes between them are one session.
{{ config(
    materialized='incremental_sessions',
    keys='user_id',
    timestamp_column='event_at',
    gap='12 minutes',
    aggregates={'event_count': 'count(*)'},
    event_key='event_id',
    loaded_at='loaded_at'
) }}

select
    event_id,
    user_id,
    event_at,
    1 as loaded_at
from {{ ref('events') }}
