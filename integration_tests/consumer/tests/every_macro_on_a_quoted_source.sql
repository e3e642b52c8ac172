-- depends_on: {{ ref('events') }}
-- Every macro of the package on a quoted source.
{{ check_every_macro(source('shop', 'events')) }}
