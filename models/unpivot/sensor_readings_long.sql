-- Mixed types: a double, a bigint and a string column. stack() and UNPIVOT
-- both reject the mix, so the macro casts all three to their common type
-- (string) first. NULL readings are kept.
{{ unpivot(
    ref('sensor_readings_wide'),
    exclude=['sensor_id'],
    name_column='reading',
    value_column='reading_value',
    include_nulls=true
) }}
