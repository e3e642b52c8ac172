{#-
    unpivot(relation, columns=none, exclude=none, name_column='name',
            value_column='value', include_nulls=false, cast_to=none, remove=none,
            method='unpivot')

    A full `select` that turns columns into rows in one scan of the source,
    with no UNION ALL and no shuffle.

    Arguments, their defaults and allowed values: macros/macros.yml (the
    README shows them as this macro's table).

    Every column that is not unpivoted (or removed) is kept as a row
    identifier, before the name and value columns.

    Example:
        {{ unpivot(ref('team_points_wide'), exclude=['id'],
                   name_column='team', value_column='points') }}
    compiles to
        select *
        from team_points_wide
            unpivot exclude nulls (
                points for team in (
                    team1,
                    team2,
                    team3
                )
            )
    and with method='stack' to
        select
            stack_source.* except (team1, team2, team3),
            stacked.*
        from team_points_wide as stack_source
            lateral view stack(
                3,
                'team1', team1,
                'team2', team2,
                'team3', team3
            ) stacked as team, points
        where stacked.points is not null
-#}
{% macro unpivot(relation, columns=none, exclude=none, name_column="name", value_column="value",
                 include_nulls=false, cast_to=none, remove=none, method="unpivot") %}
    {{- return(adapter.dispatch("unpivot", "spark_query_catalog")(
        relation, columns, exclude, name_column, value_column, include_nulls, cast_to, remove, method
    )) -}}
{% endmacro %}


{% macro default__unpivot(relation, columns, exclude, name_column, value_column, include_nulls, cast_to, remove, method) %}
    {%- set macro_name = "unpivot" -%}
    {%- set relation_sql = spark_query_catalog._sqc_relation_sql(relation, macro_name) -%}
    {%- set exclude_names = spark_query_catalog._sqc_string_list(exclude, macro_name, "exclude") -%}
    {%- set remove_names = spark_query_catalog._sqc_string_list(remove, macro_name, "remove") -%}
    {%- if name_column is not string or name_column | trim == "" -%}
        {{- spark_query_catalog._sqc_fail(macro_name, "name_column", "a non-empty column name", name_column) -}}
    {%- endif -%}
    {%- set value_names = spark_query_catalog._sqc_string_list(value_column, macro_name, "value_column", allow_empty=false) -%}
    {%- set width = value_names | length -%}
    {%- if include_nulls is not sameas true and include_nulls is not sameas false -%}
        {{- spark_query_catalog._sqc_fail(macro_name, "include_nulls", "true or false", include_nulls) -}}
    {%- endif -%}
    {%- if method not in ["unpivot", "stack"] -%}
        {{- spark_query_catalog._sqc_fail(macro_name, "method", "'unpivot' or 'stack'", method) -}}
    {%- endif -%}
    {%- if cast_to is none -%}
        {%- set cast_types = none -%}
    {%- else -%}
        {%- set cast_types = spark_query_catalog._sqc_string_list(cast_to, macro_name, "cast_to") -%}
        {%- if cast_types | length == 1 -%}
            {%- set cast_types = cast_types * width -%}
        {%- elif cast_types | length != width -%}
            {{- spark_query_catalog._sqc_fail(macro_name, "cast_to",
                "one type, or one type per value column (" ~ width ~ ")", cast_to) -}}
        {%- endif -%}
    {%- endif -%}

    {%- set relation_columns = spark_query_catalog._sqc_columns(relation) -%}
    {%- if columns is none -%}
        {%- do spark_query_catalog._sqc_require_columns(relation_columns, relation, macro_name,
            "Unpivoting every column (columns=none)", "pass the columns to unpivot as `columns`") -%}
        {%- if not execute -%}
            {{- return("") -}}
        {%- endif -%}
    {%- endif -%}
    {%- set entries = spark_query_catalog._sqc_unpivot_entries(
        columns, relation_columns, exclude_names, remove_names, width, relation_sql
    ) -%}

    {#- Resolve names, check what the output keeps, and for each value position its type. -#}
    {%- set unpivoted = [] -%}
    {%- for entry in entries -%}
        {%- set sources = [] -%}
        {%- for name in entry.columns -%}
            {%- do sources.append(spark_query_catalog._sqc_column_sql(name, relation_columns, macro_name, "columns")) -%}
        {%- endfor -%}
        {%- do entry.update({"sql": sources}) -%}
        {%- do unpivoted.extend(sources) -%}
    {%- endfor -%}
    {%- set removed = [] -%}
    {%- for name in remove_names -%}
        {%- do removed.append(spark_query_catalog._sqc_column_sql(name, relation_columns, macro_name, "remove")) -%}
    {%- endfor -%}
    {%- for name in exclude_names -%}
        {%- do spark_query_catalog._sqc_column_sql(name, relation_columns, macro_name, "exclude") -%}
    {%- endfor -%}
    {%- for name in [name_column] + value_names -%}
        {%- set clash = spark_query_catalog._sqc_find_column(relation_columns, name) -%}
        {%- if clash is not none and spark_query_catalog._sqc_quote(clash.name) not in unpivoted + removed -%}
            {{- spark_query_catalog._sqc_fail(macro_name, "name_column" if loop.first else "value_column",
                "a name that is not already a column kept in the output", name) -}}
        {%- endif -%}
    {%- endfor -%}
    {%- set target_types = spark_query_catalog._sqc_unpivot_types(entries, relation_columns, cast_types, width) -%}

    {%- set value_sql = [] -%}
    {%- for name in value_names -%}
        {%- do value_sql.append(spark_query_catalog._sqc_quote(name)) -%}
    {%- endfor -%}
    {%- set output = {
        "name_sql": spark_query_catalog._sqc_quote(name_column),
        "value_sql": value_sql,
        "include_nulls": include_nulls
    } -%}
    {%- if method == "stack" -%}
        {{- return(spark_query_catalog._sqc_stack_sql(
            relation_sql, relation_columns, entries, target_types, unpivoted + removed, output
        )) -}}
    {%- endif -%}
    {{- return(spark_query_catalog._sqc_unpivot_clause_sql(
        relation, relation_sql, relation_columns, entries, target_types, removed, output
    )) -}}
{% endmacro %}
