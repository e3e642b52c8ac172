-- depends_on: {{ ref('events') }}
-- Every macro of the package on a schema qualified name.
{{ check_every_macro(target.schema ~ '.events') }}
