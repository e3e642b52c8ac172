-- The consumer's own feature table under the package's materialization:
-- each event with its user's amount of the 15 minutes up to it, and how
-- many events the user had in the last two (itself included), a frame that
-- keeps its state (frame_states=true: 'auto' would keep it from 100 rows).
{{ config(
    materialized='incremental_windows',
    keys='user_id',
    order_by='event_at',
    event_key='event_id',
    loaded_at='loaded_at',
    windows={
        'amount_last_15_minutes': {
            'expression': 'sum(amount)', 'frame': 'range', 'preceding': '15 minutes'
        },
        'events_last_2': {'expression': 'count(*)', 'preceding': 1}
    },
    frame_states=true
) }}

select
    event_id,
    user_id,
    event_at,
    amount,
    1 as loaded_at
from {{ ref('events') }}
