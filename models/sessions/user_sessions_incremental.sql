-- Sessions kept up to date from a stream of event loads (loaded_at is the
-- load's number). Load 2 brings a late event (4, at 10:48) that bridges two
-- of user a's sessions into one, a second copy of event 2, and b's event at
-- exactly the gap. Each run reads only new events and the sessions they touch.
{{ config(
    materialized='incremental_sessions',
    keys='user_id',
    timestamp_column='event_at',
    gap='30 minutes',
    aggregates={
        'event_count': 'count(*)',
        'first_event_id': 'min_by(event_id, event_at)',
        'last_event_id': 'max_by(event_id, event_at)'
    },
    event_key='event_id',
    loaded_at='loaded_at'
) }}

select
    event_id,
    user_id,
    event_at,
    loaded_at
from {{ ref('user_event_stream') }}
