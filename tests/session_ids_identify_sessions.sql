-- session_id is one value per (user, session start), and different sessions
-- never share one. Returns the offending ids.
with sessionized as (
    select
        user_id,
        session_start,
        session_id
    from {{ ref('user_events_sessionized') }}
),

ids_per_session as (
    select
        user_id,
        session_start
    from sessionized
    group by user_id, session_start
    having count(distinct session_id) != 1
),

sessions_per_id as (
    select session_id
    from sessionized
    group by session_id
    having count(distinct user_id, session_start) != 1
)

select
    user_id,
    cast(session_start as string) as problem
from ids_per_session
union all
select
    session_id as user_id,
    'shared by several sessions' as problem
from sessions_per_id
