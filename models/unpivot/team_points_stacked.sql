-- From "Stack operation in Apache Spark SQL", as the article writes it:
-- stack(3, 'team1_new', team1, ...) as (team, points). Spark runs it as a
-- Generate over one scan: no shuffle.
{{ unpivot(
    ref('team_points_wide'),
    columns={'team1_new': 'team1', 'team2_new': 'team2', 'team3_new': 'team3'},
    name_column='team',
    value_column='points',
    method='stack'
) }}
