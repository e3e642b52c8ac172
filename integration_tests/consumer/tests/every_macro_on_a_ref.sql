-- depends_on: {{ ref('events') }}
-- Every macro of the package on a ref.
{{ check_every_macro(ref('events')) }}
