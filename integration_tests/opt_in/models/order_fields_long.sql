-- Introspection of column types (int and string cast to string).
{{ spark_query_catalog.unpivot(ref('orders'), columns=['amount', 'status'], remove=['ordered_at']) }}
