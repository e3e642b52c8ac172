-- The p95 latency of each service over the hour up to each request (the
-- requests of that instant included), as PostgreSQL writes it:
-- percentile_cont(0.95) within group (order by latency_ms) over a RANGE frame
-- of 1 hour, which Spark refuses over a frame. rolling_select interpolates
-- in the hour's latencies, sorted once per request, as Spark's percentile
-- does.
select
    service,
    requested_at,
    latency_ms,
    cast(p95_latency as decimal(10, 3)) as p95_latency_last_hour_ms
from (
    {{ rolling_select(
        ref('service_requests'),
        {'p95_latency': 'percentile_cont(0.95) within group (order by latency_ms)'},
        'requested_at',
        partition_by='service',
        frame='range',
        preceding='1 hour'
    ) | indent(4) }}
) as latencies
