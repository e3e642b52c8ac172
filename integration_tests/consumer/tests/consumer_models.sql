-- The consumer's own models that call the package's macros: a pivot over its
-- `teams`, a RANGE frame over its `metrics`, a pivot of an ephemeral model.
{{ check_outputs({
    'team_points_by_country': 'select * from ' ~ ref('team_points_by_country'),
    'device_level_sums': 'select * from ' ~ ref('device_level_sums'),
    'ephemeral_events_by_kind': 'select * from ' ~ ref('ephemeral_events_by_kind')
}) }}
