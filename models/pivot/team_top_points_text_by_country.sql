-- From "Spark SQL pivot table", its second strategy: string points are not
-- handled by PivotFirst, so Spark rewrites the aggregate as max(if(name <=>
-- value, points, null)). The values are listed, because a CTE cannot be read to
-- discover them.
with teams_with_text_points as (
    select
        name,
        country,
        cast(points as string) as points_text
    from {{ ref('teams') }}
)

{{ pivot(
    'teams_with_text_points',
    'name',
    'max(points_text)',
    values=['team1', 'team2', 'team3', 'team4', 'team5', 'team6', 'team7'],
    group_by='country'
) }}
