-- From "WindowExec Unary Physical Operator": spark.range(0, 13) with group = id
-- % 4. Ids of a group are 4 apart, so RANGE 2 PRECEDING holds only the current
-- row.
with numbers as (
    select
        id,
        id % 4 as `group`
    from range(0, 13)
)

select
    id,
    `group`,
    {{ rolling(
        'sum(id)', 'id', partition_by='`group`', frame='range', preceding=2
    ) }} as id_sum
from numbers
