-- depends_on: {{ ref('events') }}
-- Every macro of the package on a view.
{{ check_every_macro(ref('events_view')) }}
