-- Frames of 100 rows, computed in linear time: the sum as the running sum
-- less the running sum 100 rows back, the max and min by van Herk /
-- Gil-Werman blocks of 100 rows. The cast gives the sum's argument a type
-- that rolling can see (a CTE cannot be introspected), which its exact
-- linear form needs.
with readings as (
    select
        id,
        id % 4 as group_id,
        (id * 37) % 101 as reading
    from range(0, 1000)
),

reading_frames as (
    {{ rolling_select(
        'readings',
        {
            'reading_sum': 'sum(cast(reading as bigint))',
            'reading_max': 'max(reading)',
            'reading_min': 'min(reading)'
        },
        'id',
        partition_by='group_id',
        preceding=99
    ) | indent(4) }}
)

select * from reading_frames
