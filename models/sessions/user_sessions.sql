-- One row per session, for a fixed 10 minute inactivity gap.
{{ session_windows(
    ref('user_events'),
    'user_id',
    'event_at',
    '10 minutes',
    {
        'event_count': 'count(*)',
        'first_event_id': 'min(event_id)',
        'last_event_id': 'max(event_id)'
    }
) }}
