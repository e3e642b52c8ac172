-- Discovery runs through the package's helpers when the model runs.
{{ spark_query_catalog.pivot(ref('orders'), 'status', 'sum(amount)', group_by='customer_id') }}
