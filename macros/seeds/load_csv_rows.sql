{#-
    Seed loading for this project (overrides dbt-spark's spark__load_csv_rows).

    dbt-spark's loader asks for each column's type once per cell (a scan of
    the column each time: quadratic), and on the session target it pastes
    values into the SQL unescaped, so a NULL string is stored as 'None' and
    an apostrophe breaks the statement. Here each column's type is read once,
    every value is an escaped string literal (or null), and one multi-row
    INSERT per batch casts each column once to its type.
-#}
{% macro spark__load_csv_rows(model, agate_table) %}
    {%- set column_override = model["config"].get("column_types", {}) -%}
    {%- set quote_seed_column = model["config"].get("quote_columns", none) -%}
    {%- set casts = [] -%}
    {%- set names = [] -%}
    {%- for column_name in agate_table.column_names -%}
        {%- set inferred_type = adapter.convert_type(agate_table, loop.index0) -%}
        {%- set data_type = column_override.get(column_name, inferred_type) -%}
        {%- set alias = "c" ~ loop.index0 -%}
        {%- do names.append(alias) -%}
        {%- do casts.append("cast(" ~ alias ~ " as " ~ data_type ~ ")") -%}
    {%- endfor -%}

    {%- set statements = [] -%}
    {%- for chunk in agate_table.rows | batch(get_batch_size()) -%}
        {%- set rows_sql = [] -%}
        {%- for row in chunk -%}
            {%- set cells = [] -%}
            {%- for value in row -%}
                {%- do cells.append(spark_query_catalog._sqc_seed_value_sql(value)) -%}
            {%- endfor -%}
            {%- do rows_sql.append("(" ~ cells | join(", ") ~ ")") -%}
        {%- endfor -%}
        {%- set sql -%}
insert into {{ this.render() }}
select {{ casts | join(", ") }}
from values
{{ rows_sql | join(",\n") }}
as seed_rows({{ names | join(", ") }})
        {%- endset -%}
        {%- do adapter.add_query(sql, abridge_sql_log=true) -%}
        {%- if loop.first -%}
            {%- do statements.append(sql) -%}
        {%- endif -%}
    {%- endfor -%}
    {{- return(statements[0] if statements else "") -}}
{% endmacro %}


{#- One CSV value as a string literal Spark casts exactly, or null. -#}
{% macro _sqc_seed_value_sql(value) %}
    {%- if value is none -%}
        {{- return("null") -}}
    {%- elif value is sameas true or value is sameas false -%}
        {{- return("'" ~ (value | string | lower) ~ "'") -}}
    {%- elif value.isoformat is defined -%}
        {{- return(spark_query_catalog._sqc_string_literal(value.isoformat())) -}}
    {%- endif -%}
    {{- return(spark_query_catalog._sqc_string_literal(value | string)) -}}
{% endmacro %}
