-- From "WindowExec Unary Physical Operator": RANGE 1 PRECEDING covers ids
-- within 1 of the current id.
select
    id,
    device,
    level,
    {{ rolling(
        'sum(level)', 'id', partition_by='device', frame='range', preceding=1
    ) }} as level_sum
from {{ ref('metrics') }}
