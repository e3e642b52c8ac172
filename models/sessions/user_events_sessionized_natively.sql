-- The same sessions as user_events_sessionized, from Spark's own
-- session_window aggregate; a test checks that both agree row for row.
{{ sessionize(
    ref('user_events'),
    'user_id',
    'event_at',
    '10 minutes',
    method='session_window'
) }}
