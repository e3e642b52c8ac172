-- Each card's spend on its last three days with transactions: the
-- transaction's day and the two days before it on which the card was used,
-- however far apart, as PostgreSQL writes GROUPS BETWEEN 2 PRECEDING AND
-- CURRENT ROW over the day. Spark 4.3 has no GROUPS frames; rolling_select
-- numbers the card's days and takes the RANGE frame of two numbers back.
{{ rolling_select(
    ref('card_transactions'),
    {'spend_last_three_active_days': 'sum(amount)'},
    'to_date(txn_at)',
    partition_by='card_id',
    frame='groups',
    preceding=2
) }}
