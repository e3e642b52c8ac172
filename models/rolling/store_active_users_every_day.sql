-- Distinct users and visits in the 7 days up to each calendar day, per
-- store, on every day from its first visit to its last, days without
-- visits included (RANGE frames only give rows that exist).
{{ rolling_calendar(
    ref('store_visits'),
    {'active_users_7d': 'count(distinct user_id)', 'visits_7d': 'count(*)'},
    'visited_at',
    partition_by='store_id',
    preceding=6
) }}
