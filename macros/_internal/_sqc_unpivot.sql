{#- unpivot's parts: what to unpivot, to which types, and its two SQL forms. -#}

{#- entries: [{"label": text or none, "columns": [column names]}], from `columns`
    (or every column not excluded or removed). -#}
{% macro _sqc_unpivot_entries(columns, relation_columns, exclude_names, remove_names, width, relation_sql) %}
    {%- set macro_name = "unpivot" -%}
    {%- set entries = [] -%}
    {%- set allowed = "a list of columns, a dict of label to column, or a dict of label to a list of "
        ~ width ~ " columns (one per `value_column`)" -%}
    {%- if columns is none -%}
        {%- if width > 1 -%}
            {{- spark_query_catalog._sqc_fail(macro_name, "columns", "given explicitly for a multi-value unpivot", columns) -}}
        {%- endif -%}
        {%- set left_out = spark_query_catalog._sqc_as_columns(exclude_names + remove_names) -%}
        {%- for column in relation_columns if spark_query_catalog._sqc_find_column(left_out, column.name) is none -%}
            {%- do entries.append({"label": none, "columns": [column.name]}) -%}
        {%- endfor -%}
    {%- elif columns is mapping and columns | length > 0 -%}
        {%- for label, source in columns.items() -%}
            {%- if label is not string or label == "" -%}
                {{- spark_query_catalog._sqc_fail(macro_name, "columns", allowed, columns) -}}
            {%- endif -%}
            {%- set source = [source] if source is string else source -%}
            {%- if source is not iterable or source is mapping or source | length != width -%}
                {{- spark_query_catalog._sqc_fail(macro_name, "columns", allowed, columns) -}}
            {%- endif -%}
            {%- do entries.append({"label": label, "columns": spark_query_catalog._sqc_string_list(source | list, macro_name, "columns")}) -%}
        {%- endfor -%}
    {%- elif columns is iterable and columns is not string and columns | length > 0 and width == 1 -%}
        {%- for name in spark_query_catalog._sqc_string_list(columns | list, macro_name, "columns") -%}
            {%- do entries.append({"label": none, "columns": [name]}) -%}
        {%- endfor -%}
    {%- else -%}
        {{- spark_query_catalog._sqc_fail(macro_name, "columns", allowed, columns) -}}
    {%- endif -%}
    {%- if entries | length == 0 -%}
        {{- spark_query_catalog._sqc_error(macro_name, "no column is left to unpivot in " ~ relation_sql
            ~ " after `exclude` and `remove`.") -}}
    {%- endif -%}
    {{- return(entries) -}}
{% endmacro %}


{#- Names as minimal column records, for _sqc_find_column. -#}
{% macro _sqc_as_columns(names) %}
    {%- set result = [] -%}
    {%- for name in names -%}
        {%- do result.append({"name": spark_query_catalog._sqc_unquote(name), "data_type": none}) -%}
    {%- endfor -%}
    {{- return(result) -}}
{% endmacro %}


{#- Per value position, the type its columns are cast to: `cast_to`, or their
    common type when they differ, or none (no cast). -#}
{% macro _sqc_unpivot_types(entries, relation_columns, cast_types, width) %}
    {%- set target_types = [] -%}
    {%- for position in range(width) -%}
        {%- if cast_types is not none -%}
            {%- do target_types.append(cast_types[position]) -%}
        {%- elif relation_columns is none -%}
            {%- do target_types.append(none) -%}
        {%- else -%}
            {%- set types = [] -%}
            {%- for entry in entries -%}
                {%- do types.append(spark_query_catalog._sqc_find_column(relation_columns, entry.columns[position]).data_type) -%}
            {%- endfor -%}
            {%- set common = spark_query_catalog._sqc_common_type(types) -%}
            {#- Only cast when the types differ; identical types need no cast. -#}
            {%- set cast_needed = (types | reject("equalto", common) | list | length) > 0 -%}
            {%- do target_types.append(common if cast_needed else none) -%}
        {%- endif -%}
    {%- endfor -%}
    {{- return(target_types) -}}
{% endmacro %}


{#- The label an entry gives the name column: its label, or its column's name. -#}
{% macro _sqc_unpivot_label(entry) %}
    {{- return(entry.label if entry.label is not none else spark_query_catalog._sqc_unquote(entry.sql[0])) -}}
{% endmacro %}


{#- Spark's UNPIVOT clause, over a projection that casts or removes columns when needed. -#}
{% macro _sqc_unpivot_clause_sql(relation, relation_sql, relation_columns, entries, target_types, removed, output) %}
    {%- set macro_name = "unpivot" -%}
    {%- set width = output.value_sql | length -%}
    {%- set needs_projection = removed | length > 0 or (target_types | select("string") | list | length > 0) -%}
    {%- if needs_projection and relation_columns is none -%}
        {#- Columns unknown (a CTE, an ephemeral model): leave out what is
            removed or recast, and add the casts; `cast_to` needs no introspection. -#}
        {%- set left_out = removed | list -%}
        {%- set casts = [] -%}
        {%- for entry in entries -%}
            {%- for column_sql in entry.sql -%}
                {%- set cast = target_types[loop.index0] -%}
                {%- if cast is not none -%}
                    {%- do left_out.append(column_sql) -%}
                    {%- do casts.append("cast(" ~ column_sql ~ " as " ~ cast ~ ") as " ~ column_sql) -%}
                {%- endif -%}
            {%- endfor -%}
        {%- endfor -%}
        {%- set projected = ["* except (" ~ left_out | unique | join(", ") ~ ")"] + casts -%}
        {%- set from_sql = spark_query_catalog._sqc_derived_table(projected, relation_sql, "unpivot_source") -%}
    {%- elif needs_projection -%}
        {%- set projected = [] -%}
        {%- for column in relation_columns -%}
            {%- set column_sql = spark_query_catalog._sqc_quote(column.name) -%}
            {%- set ns = namespace(cast=none) -%}
            {%- for entry in entries -%}
                {%- for name in entry.columns -%}
                    {%- if spark_query_catalog._sqc_find_column([column], name) is not none -%}
                        {%- set ns.cast = target_types[loop.index0] -%}
                    {%- endif -%}
                {%- endfor -%}
            {%- endfor -%}
            {%- if column_sql in removed -%}
            {%- elif ns.cast is not none and ns.cast | lower != column.data_type -%}
                {%- do projected.append("cast(" ~ column_sql ~ " as " ~ ns.cast ~ ") as " ~ column_sql) -%}
            {%- else -%}
                {%- do projected.append(column_sql) -%}
            {%- endif -%}
        {%- endfor -%}
        {%- set from_sql = spark_query_catalog._sqc_derived_table(projected, relation_sql, "unpivot_source") -%}
    {%- else -%}
        {%- set from_sql = relation_sql -%}
    {%- endif -%}

    {%- set in_sql = [] -%}
    {%- for entry in entries -%}
        {%- set item = entry.sql[0] if width == 1 else "(" ~ entry.sql | join(", ") ~ ")" -%}
        {%- if entry.label is not none and (width > 1 or spark_query_catalog._sqc_unquote(entry.columns[0]) != entry.label) -%}
            {%- set item = item ~ " as " ~ spark_query_catalog._sqc_quote(entry.label) -%}
        {%- endif -%}
        {%- do in_sql.append(item) -%}
    {%- endfor -%}
    {%- set values_sql = output.value_sql[0] if width == 1 else "(" ~ output.value_sql | join(", ") ~ ")" -%}
    {%- set lines = [
        "select *",
        "from " ~ from_sql,
        "    unpivot " ~ ("include" if output.include_nulls else "exclude") ~ " nulls (",
        "        " ~ values_sql ~ " for " ~ output.name_sql ~ " in (",
        spark_query_catalog._sqc_list_lines(in_sql, 12),
        "        )",
        "    )"
    ] -%}
    {{- return(lines | join("\n")) -}}
{% endmacro %}


{#-
    stack() in a LATERAL VIEW, as "Stack operation in Apache Spark SQL"
    writes it: one Generate, no shuffle. Casts go inline; the source's
    unpivoted and removed columns are left out with `* except`, so no
    projection (and no introspection) is needed. Both sides are qualified:
    the name column may reuse the name of a column it unpivots, as UNPIVOT
    allows. Rows whose values are all NULL are dropped unless include_nulls,
    as UNPIVOT's `exclude nulls` drops them.
-#}
{% macro _sqc_stack_sql(relation_sql, relation_columns, entries, target_types, left_out, output) %}
    {%- set pairs = [] -%}
    {%- for entry in entries -%}
        {%- set values = [] -%}
        {%- for column_sql in entry.sql -%}
            {%- set cast = target_types[loop.index0] -%}
            {%- set column = spark_query_catalog._sqc_find_column(relation_columns, column_sql) -%}
            {%- if cast is not none and (column is none or column.data_type != cast | lower) -%}
                {%- do values.append("cast(" ~ column_sql ~ " as " ~ cast ~ ")") -%}
            {%- else -%}
                {%- do values.append(column_sql) -%}
            {%- endif -%}
        {%- endfor -%}
        {%- set label = spark_query_catalog._sqc_string_literal(spark_query_catalog._sqc_unpivot_label(entry)) -%}
        {%- do pairs.append(([label] + values) | join(", ")) -%}
    {%- endfor -%}
    {%- set lines = [
        "select",
        "    stack_source.* except (" ~ left_out | unique | join(", ") ~ "),",
        "    stacked.*",
        "from " ~ relation_sql ~ " as stack_source",
        "    lateral view stack(",
        "        " ~ entries | length ~ ",",
        spark_query_catalog._sqc_list_lines(pairs, 8),
        "    ) stacked as " ~ ([output.name_sql] + output.value_sql) | join(", ")
    ] -%}
    {%- if not output.include_nulls -%}
        {%- set present = [] -%}
        {%- for value in output.value_sql -%}
            {%- do present.append("stacked." ~ value ~ " is not null") -%}
        {%- endfor -%}
        {%- do lines.append("where " ~ present | join(" or ")) -%}
    {%- endif -%}
    {{- return(lines | join("\n")) -}}
{% endmacro %}
