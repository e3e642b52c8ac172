-- depends_on: {{ ref('events') }}
-- Every macro of the package on a relation without schema.
{{ check_every_macro(api.Relation.create(identifier='consumer_events_view')) }}
