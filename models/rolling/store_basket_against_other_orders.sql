-- Each order beside the average basket of its store's other orders: a
-- leave-one-out average, as target encoding takes it. Spark has no EXCLUDE;
-- rolling_select takes the order's own basket out of its store's total.
{{ rolling_select(
    ref('store_orders'),
    {
        'other_orders': 'count(basket)',
        'other_orders_avg_basket': 'avg(basket)'
    },
    'order_number',
    partition_by='store_id',
    frame='range',
    preceding='unbounded',
    following='unbounded',
    exclude='current row'
) }}
