-- hash-aggregation.txt: collect_list keeps an object buffer, so Spark runs it
-- on ObjectHashAggregate instead of HashAggregate. Lists are sorted and
-- joined so that the output does not depend on row order.
{{ pivot(
    ref('teams'),
    'name',
    "array_join(array_sort(collect_list(points)), '|')",
    group_by='country'
) }}
