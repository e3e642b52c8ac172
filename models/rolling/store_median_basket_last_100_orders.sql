-- The median basket over each store's last 100 orders (the order and the 99
-- before it). Spark refuses median() over a frame; rolling_select sorts once
-- the baskets that the frames of a block of 10 orders share, reads a few more
-- per order, and interpolates between the two middle values as Spark's
-- percentile(basket, 0.5) does.
select
    store_id,
    order_number,
    basket,
    cast(median_basket as decimal(10, 3)) as median_basket_last_100_orders
from (
    {{ rolling_select(
        ref('store_orders'),
        {'median_basket': 'median(basket)'},
        'order_number',
        partition_by='store_id',
        preceding=99
    ) | indent(4) }}
) as medians
