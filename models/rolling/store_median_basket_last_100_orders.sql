-- The median basket over each store's last 100 orders (the order and the 99
-- before it). Spark refuses median() over a frame; rolling interpolates
-- between the two middle values of the frame's baskets, sorted for each row
-- (rows x 100), as Spark's percentile(basket, 0.5) does.
with medians as (
    select
        store_id,
        order_number,
        basket,
        {{ rolling(
            'median(basket)',
            'order_number',
            partition_by='store_id',
            preceding=99,
            relation=ref('store_orders')
        ) | indent(4) }} as median_basket
    from {{ ref('store_orders') }}
)

select
    store_id,
    order_number,
    basket,
    cast(median_basket as decimal(10, 3)) as median_basket_last_100_orders
from medians
