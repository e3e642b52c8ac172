-- Each store's usual basket band (of 50) and its 90th percentile basket over
-- its last 100 orders (the order and the 99 before it), as PostgreSQL writes
-- them: mode() within group and percentile_disc, which Spark refuses over a
-- frame (or, for mode, leaves ties to chance). Of bands tied for the most
-- orders, the lowest; the 90th percentile is a basket of the frame, the
-- first whose share reaches 90%.
select
    store_id,
    order_number,
    basket,
    cast({{ rolling(
        'mode() within group (order by floor(basket / 50) * 50)',
        'order_number',
        partition_by='store_id',
        preceding=99,
        relation=ref('store_orders')
    ) }} as int) as usual_band_last_100_orders,
    {{ rolling(
        'percentile_disc(0.9) within group (order by basket)',
        'order_number',
        partition_by='store_id',
        preceding=99,
        relation=ref('store_orders')
    ) }} as p90_basket_last_100_orders
from {{ ref('store_orders') }}
