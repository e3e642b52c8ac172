-- rolling over the consumer's own `metrics`: the current and the previous id.
select
    id,
    device,
    {{ spark_query_catalog.rolling(
        'sum(level)', 'id', partition_by='device', frame='range', preceding=1, relation=ref('metrics')
    ) }} as level_sum
from {{ ref('metrics') }}
