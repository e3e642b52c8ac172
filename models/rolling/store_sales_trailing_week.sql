-- An interval RANGE: each sale with the store's sales of the 7 days up to
-- it, boundaries included.
select
    store_id,
    sold_at,
    amount,
    {{ rolling(
        'sum(amount)',
        'sold_at',
        partition_by='store_id',
        frame='range',
        preceding='7 days',
        relation=ref('store_sales')
    ) }} as amount_last_7_days
from {{ ref('store_sales') }}
