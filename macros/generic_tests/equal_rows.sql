{#-
    equal_rows(model, compare_model, compare_columns=none, exclude_columns=none)

    Passes when `model` and `compare_model` hold the same rows, duplicates
    counted (a multiset comparison with EXCEPT ALL both ways; NULLs match
    NULLs). Each failing row is the row, and whether it is `missing` from the
    model or `unexpected` in it.

    Arguments, their defaults and allowed values: macros/macros.yml (the
    README shows them as this macro's table).

    The project's own replacement for dbt_utils.equality, which needs the
    dbt package hub.

    Example:
        data_tests:
          - spark_query_catalog.equal_rows:
              arguments:
                compare_model: ref('orders_expected')
                exclude_columns: [loaded_at]
-#}
{% test equal_rows(model, compare_model, compare_columns=none, exclude_columns=none) %}
    {{- return(adapter.dispatch("test_equal_rows", "spark_query_catalog")(
        model, compare_model, compare_columns, exclude_columns
    )) -}}
{% endtest %}


{% macro default__test_equal_rows(model, compare_model, compare_columns, exclude_columns) %}
    {%- set excluded = spark_query_catalog._sqc_string_list(exclude_columns, "equal_rows", "exclude_columns") | map("lower") | list -%}
    {%- if compare_columns is none -%}
        {%- if not execute -%}
            {{- return("select 1 as placeholder\nwhere false") -}}
        {%- endif -%}
        {#- The model's own columns (under --empty, dbt renders it as an empty subquery). -#}
        {%- set names = [] -%}
        {%- for column in spark_query_catalog._sqc_columns(model) or [] -%}
            {%- do names.append(column.name) -%}
        {%- endfor -%}
    {%- else -%}
        {%- set names = spark_query_catalog._sqc_string_list(compare_columns, "equal_rows", "compare_columns", allow_empty=false) -%}
    {%- endif -%}
    {%- set selected = [] -%}
    {%- for name in names -%}
        {%- if name | lower not in excluded -%}
            {%- do selected.append(spark_query_catalog._sqc_quote(spark_query_catalog._sqc_unquote(name))) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- if selected | length == 0 -%}
        {{- spark_query_catalog._sqc_error("equal_rows", "no column is left to compare after `exclude_columns`.") -}}
    {%- endif -%}
    {%- set column_list = spark_query_catalog._sqc_list_lines(selected, 8) -%}
with actual as (
    select
{{ column_list }}
    from {{ model }}
),

expected as (
    select
{{ column_list }}
    from {{ compare_model }}
),

missing as (
    select
        expected_only.*,
        'missing' as difference
    from (
        select * from expected
        except all
        select * from actual
    ) as expected_only
),

unexpected as (
    select
        actual_only.*,
        'unexpected' as difference
    from (
        select * from actual
        except all
        select * from expected
    ) as actual_only
)

select * from missing
union all
select * from unexpected
{% endmacro %}
