{{ spark_query_catalog.session_windows(
    ref('orders'), 'customer_id', 'ordered_at', '30 minutes', {'order_count': 'count(*)'}
) }}
