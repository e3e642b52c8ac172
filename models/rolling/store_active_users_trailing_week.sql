-- Distinct users in the trailing 7 days, per store, on every visit. Spark
-- refuses count(distinct) over a frame; rolling_select counts it exactly,
-- in linear time, with ties and the 7-day boundary as Spark's RANGE frame.
{{ rolling_select(
    ref('store_visits'),
    {'active_users_last_7_days': 'count(distinct user_id)'},
    'visited_at',
    partition_by='store_id',
    frame='range',
    preceding='7 days'
) }}
