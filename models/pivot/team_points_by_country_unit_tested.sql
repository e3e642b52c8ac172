-- team_points_by_country, with the team names read by pivot_values and
-- passed as `values`: the model's unit test (in its properties file) gives
-- them instead, as dbt runs no query in a unit test.
{{ pivot(
    ref('teams'),
    'name',
    'sum(points)',
    values=pivot_values(ref('teams'), 'name'),
    group_by='country'
) }}
