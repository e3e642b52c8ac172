-- From "What's new in Apache Spark 3.2.0 - session windows": every event with
-- its session, for a fixed 10 minute inactivity gap.
{{ sessionize(ref('user_events'), 'user_id', 'event_at', '10 minutes') }}
