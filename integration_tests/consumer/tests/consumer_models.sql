-- The consumer's own models that call the package's macros: a pivot over its
-- `teams`, a RANGE frame over its `metrics`, a pivot of an ephemeral model, a
-- feature table under incremental_windows over its `events` with a daily
-- summary that reads only what changed (changed_rows) and a feature table
-- over it (a chain), a feature table over its sessions (a chain over
-- incremental_sessions), and one in
-- yearly microbatch batches over its `readings`.
{{ check_outputs({
    'team_points_by_country': 'select * from ' ~ ref('team_points_by_country'),
    'device_level_sums': 'select * from ' ~ ref('device_level_sums'),
    'ephemeral_events_by_kind': 'select * from ' ~ ref('ephemeral_events_by_kind'),
    'user_event_features': 'select event_id, amount_last_15_minutes, events_last_2 from '
        ~ ref('user_event_features'),
    'user_daily_features': 'select * from ' ~ ref('user_daily_features'),
    'user_feature_trends': 'select event_id, amount_15_minutes_last_2 from '
        ~ ref('user_feature_trends'),
    'user_session_trends': 'select user_id, cast(session_start as string) as session_start,'
        ~ ' event_count, events_last_2_sessions, sessions_last_hour from '
        ~ ref('user_session_trends'),
    'reading_features_by_batch': 'select reading_id, value_last_hour, readings_around from '
        ~ ref('reading_features_by_batch')
}) }}
