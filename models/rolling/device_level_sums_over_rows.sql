-- From "WindowExec Unary Physical Operator": ROWS 1 PRECEDING covers the
-- previous row, however far its id is from the current one.
select
    id,
    device,
    level,
    {{ rolling(
        'sum(level)', 'id', partition_by='device', frame='rows', preceding=1
    ) }} as level_sum
from {{ ref('metrics') }}
