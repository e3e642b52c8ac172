-- Fails when it runs (more values than max_values): proves a failing model
-- leaves no table behind. Enabled only by the test that needs it.
{{ config(enabled=var('broken_model_enabled')) }}
{{ spark_query_catalog.pivot(ref('orders'), 'status', 'sum(amount)', max_values=1) }}
