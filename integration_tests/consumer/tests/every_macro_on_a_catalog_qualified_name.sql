-- depends_on: {{ ref('events') }}
-- Every macro of the package on a catalog qualified name.
{{ check_every_macro('spark_catalog.' ~ target.schema ~ '.events') }}
