-- From "Stack operation in Apache Spark SQL": the pivoted table back to one row
-- per (id, team), relabelling teamN as teamN_new. One scan, no shuffle.
{{ unpivot(
    ref('team_points_wide'),
    columns={'team1_new': 'team1', 'team2_new': 'team2', 'team3_new': 'team3'},
    name_column='team',
    value_column='points'
) }}
