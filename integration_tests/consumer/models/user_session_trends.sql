-- A feature table over the consumer's sessions (a chain): each session with
-- the events of the user's last two sessions and how many sessions started
-- in the hour up to it. A late event that merges two sessions removes one
-- upstream; span_end makes the merged session replace it here too.
{{ config(
    materialized='incremental_windows',
    keys='user_id',
    order_by='session_start',
    event_key='session_id',
    span_end='session_end',
    loaded_at='sessions_changed_at',
    copies='last',
    windows={
        'events_last_2_sessions': {'expression': 'sum(event_count)', 'preceding': 1},
        'sessions_last_hour': {'expression': 'count(*)', 'frame': 'range', 'preceding': '1 hour'}
    }
) }}

select
    session_id,
    user_id,
    session_start,
    session_end,
    event_count,
    spark_query_catalog_changed_at as sessions_changed_at
from {{ ref('user_sessions') }}
