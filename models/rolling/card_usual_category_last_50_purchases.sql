-- Each card's most frequent merchant category over its last 50 purchases
-- (the purchase and the 49 before it), as PostgreSQL and DuckDB write it:
-- mode(category) over (... rows between 49 preceding and current row).
-- Spark rebuilds such a frame for every row, and leaves ties to chance; of
-- categories tied for the most purchases, the first in alphabetical order.
select
    card_id,
    txn_id,
    category,
    {{ rolling(
        'mode(category)',
        'txn_id',
        partition_by='card_id',
        preceding=49,
        relation=ref('card_purchases')
    ) }} as usual_category_last_50
from {{ ref('card_purchases') }}
