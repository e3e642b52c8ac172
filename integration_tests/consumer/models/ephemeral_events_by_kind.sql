-- A pivot of an ephemeral model works when the values are given: nothing
-- has to read the CTE while the model compiles.
{{ spark_query_catalog.pivot(
    ref('events_ephemeral'), 'kind', 'sum(amount)', values=['buy', 'click', 'view'], group_by='user_id'
) }}
