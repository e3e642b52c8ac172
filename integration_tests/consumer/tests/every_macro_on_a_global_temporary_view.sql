-- depends_on: {{ ref('events') }}
-- Every macro of the package on a global temporary view.
{{ check_every_macro('global_temp.consumer_events_global_view') }}
