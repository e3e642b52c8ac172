-- A gap per event, read from the inactivity_gap column. Events whose gap is
-- zero or negative are dropped, as session_window drops them.
{{ sessionize(ref('user_events'), 'user_id', 'event_at', 'inactivity_gap') }}
