-- From "Spark SQL pivot table":
-- teams.groupBy("country").pivot("name").sum("points"). The team names are
-- discovered from the data when the model runs.
{{ pivot(ref('teams'), 'name', 'sum(points)', group_by='country') }}
