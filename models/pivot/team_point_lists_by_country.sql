-- From "Spark SQL Query Engine Deep Dive (10) - HashAggregateExec &
-- ObjectHashAggregateExec": collect_list keeps an object buffer, so Spark runs
-- it on ObjectHashAggregate instead of HashAggregate. Lists are sorted (and
-- shown as JSON) so that the output does not depend on row order; a team with
-- no points in a country gets [], as collect_list never gives NULL.
{{ pivot(
    ref('teams'),
    'name',
    'to_json(array_sort(collect_list(points)))',
    group_by='country'
) }}
