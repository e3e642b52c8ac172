-- pivot over the consumer's own `teams`, values discovered.
{{ spark_query_catalog.pivot(ref('teams'), 'name', 'sum(points)', group_by='country') }}
