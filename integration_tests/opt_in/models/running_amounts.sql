select
    order_id,
    customer_id,
    {{ spark_query_catalog.rolling(
        'sum(amount)', 'ordered_at', partition_by='customer_id'
    ) }} as running_amount
from {{ ref('orders') }}
