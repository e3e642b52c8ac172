-- depends_on: {{ ref('events') }}
-- Every macro of the package on a temporary view name.
{{ check_every_macro('consumer_events_view') }}
