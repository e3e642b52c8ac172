-- Several value columns at once: (units, revenue) per quarter. A quarter with
-- no units and no revenue is dropped, as Spark's UNPIVOT drops it.
{{ unpivot(
    ref('quarterly_sales_wide'),
    columns={
        'q1': ['q1_units', 'q1_revenue'],
        'q2': ['q2_units', 'q2_revenue']
    },
    name_column='quarter',
    value_column=['units', 'revenue']
) }}
