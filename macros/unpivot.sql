{#-
    unpivot(relation, columns=none, exclude=none, name_column='name',
            value_column='value', include_nulls=false, cast_to=none, remove=none)

    A full `select` that turns columns into rows with Spark's native UNPIVOT,
    one scan of the source (an Expand operator: no UNION ALL, no shuffle).

    relation       Relation or string (table, view or CTE) to read.
    columns        The columns to unpivot. A list of columns; a dict of label
                   to column (the label is the value of `name_column`); or a
                   dict of label to a list of columns, to unpivot several value
                   columns at once (`value_column` is then a list of names).
                   none (default): every column not in `exclude` or `remove`.
    exclude        Columns never unpivoted (row identifiers), with columns=none.
    name_column    Name of the output column holding the label ('name').
    value_column   Name of the output value column ('value'), or a list of
                   names for a multi-value unpivot.
    include_nulls  false (default, as Spark's UNPIVOT): a row is dropped when
                   all its values are NULL. true: every row is kept.
    cast_to        none (default): value columns of different types are cast to
                   their common type, read from `relation` (numerics widen to
                   the widest numeric; any mix with strings becomes string).
                   A type name (or one per value column) to cast to instead.
    remove         Columns dropped from the output entirely.

    Every column that is not unpivoted (or removed) is kept as a row
    identifier, as Spark's UNPIVOT keeps it.

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
-#}
{% macro unpivot(relation, columns=none, exclude=none, name_column="name", value_column="value",
                 include_nulls=false, cast_to=none, remove=none) %}
    {{- return(adapter.dispatch("unpivot", "spark_query_catalog")(
        relation, columns, exclude, name_column, value_column, include_nulls, cast_to, remove
    )) -}}
{% endmacro %}


{% macro default__unpivot(relation, columns, exclude, name_column, value_column, include_nulls, cast_to, remove) %}
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

    {#- entries: [{"label": text or none, "columns": [column names]}] -#}
    {%- set entries = [] -%}
    {%- set entries_allowed = "a list of columns, a dict of label to column, or a dict of label to a list of "
        ~ width ~ " columns (one per `value_column`)" -%}
    {%- if columns is none -%}
        {%- do spark_query_catalog._sqc_require_columns(relation_columns, relation, macro_name, "Unpivoting every column (columns=none)") -%}
        {%- if not execute -%}
            {{- return("") -}}
        {%- endif -%}
        {%- if width > 1 -%}
            {{- spark_query_catalog._sqc_fail(macro_name, "columns", "given explicitly for a multi-value unpivot", columns) -}}
        {%- endif -%}
        {%- for column in relation_columns -%}
            {%- if spark_query_catalog._sqc_find_column(spark_query_catalog._sqc_as_columns(exclude_names), column.name) is none
                and spark_query_catalog._sqc_find_column(spark_query_catalog._sqc_as_columns(remove_names), column.name) is none -%}
                {%- do entries.append({"label": none, "columns": [column.name]}) -%}
            {%- endif -%}
        {%- endfor -%}
    {%- elif columns is mapping and columns | length > 0 -%}
        {%- for label, source in columns.items() -%}
            {%- if label is not string or label == "" -%}
                {{- spark_query_catalog._sqc_fail(macro_name, "columns", entries_allowed, columns) -}}
            {%- endif -%}
            {%- if source is string -%}
                {%- set source = [source] -%}
            {%- endif -%}
            {%- if source is not iterable or source is mapping or source | length != width -%}
                {{- spark_query_catalog._sqc_fail(macro_name, "columns", entries_allowed, columns) -}}
            {%- endif -%}
            {%- do entries.append({"label": label, "columns": spark_query_catalog._sqc_string_list(source | list, macro_name, "columns")}) -%}
        {%- endfor -%}
    {%- elif columns is iterable and columns is not string and columns | length > 0 and width == 1 -%}
        {%- for name in spark_query_catalog._sqc_string_list(columns | list, macro_name, "columns") -%}
            {%- do entries.append({"label": none, "columns": [name]}) -%}
        {%- endfor -%}
    {%- else -%}
        {{- spark_query_catalog._sqc_fail(macro_name, "columns", entries_allowed, columns) -}}
    {%- endif -%}
    {%- if entries | length == 0 -%}
        {{- spark_query_catalog._sqc_error(macro_name, "no column is left to unpivot in " ~ relation_sql
            ~ " after `exclude` and `remove`.") -}}
    {%- endif -%}

    {#- Resolve names, and for each value position the common type. -#}
    {%- set unpivoted = [] -%}
    {%- for entry in entries -%}
        {%- for name in entry.columns -%}
            {%- do unpivoted.append(spark_query_catalog._sqc_column_sql(name, relation_columns, macro_name, "columns")) -%}
        {%- endfor -%}
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
            {#- Only cast when the types differ; identical types need no projection. -#}
            {%- set cast_needed = (types | reject("equalto", common) | list | length) > 0 -%}
            {%- do target_types.append(common if cast_needed else none) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- set needs_projection = removed | length > 0 or (target_types | select("string") | list | length > 0) -%}

    {#- The source: the relation itself, or a projection that casts or removes. -#}
    {%- if needs_projection -%}
        {%- do spark_query_catalog._sqc_require_columns(relation_columns, relation, macro_name,
            "Casting value columns or removing columns") -%}
        {%- if not execute -%}
            {{- return("") -}}
        {%- endif -%}
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
        {%- set sources = [] -%}
        {%- for name in entry.columns -%}
            {%- do sources.append(spark_query_catalog._sqc_column_sql(name, relation_columns, macro_name, "columns")) -%}
        {%- endfor -%}
        {%- set item = sources[0] if width == 1 else "(" ~ sources | join(", ") ~ ")" -%}
        {%- if entry.label is not none and (width > 1 or spark_query_catalog._sqc_unquote(entry.columns[0]) != entry.label) -%}
            {%- set item = item ~ " as " ~ spark_query_catalog._sqc_quote(entry.label) -%}
        {%- endif -%}
        {%- do in_sql.append(item) -%}
    {%- endfor -%}
    {%- set value_sql = [] -%}
    {%- for name in value_names -%}
        {%- do value_sql.append(spark_query_catalog._sqc_quote(name)) -%}
    {%- endfor -%}
    {%- set values_sql = value_sql[0] if width == 1 else "(" ~ value_sql | join(", ") ~ ")" -%}

    {%- set lines = [
        "select *",
        "from " ~ from_sql,
        "    unpivot " ~ ("include" if include_nulls else "exclude") ~ " nulls (",
        "        " ~ values_sql ~ " for " ~ spark_query_catalog._sqc_quote(name_column) ~ " in (",
        spark_query_catalog._sqc_list_lines(in_sql, 12),
        "        )",
        "    )"
    ] -%}
    {{- return(lines | join("\n")) -}}
{% endmacro %}


{#- Names as minimal column records, for _sqc_find_column. -#}
{% macro _sqc_as_columns(names) %}
    {%- set result = [] -%}
    {%- for name in names -%}
        {%- do result.append({"name": spark_query_catalog._sqc_unquote(name), "data_type": none}) -%}
    {%- endfor -%}
    {{- return(result) -}}
{% endmacro %}


{#-
    The common type of Spark column types: numerics widen to the widest
    numeric (integers < decimal < double), date with timestamp is timestamp,
    and any other mix (strings included) is string.
-#}
{% macro _sqc_common_type(types) %}
    {#- void (an all-NULL literal column) takes any type, as in Spark. -#}
    {%- set distinct = types | reject("equalto", "void") | unique | list -%}
    {%- if distinct | length == 0 -%}
        {{- return("void") -}}
    {%- endif -%}
    {%- if distinct | length == 1 -%}
        {{- return(distinct[0]) -}}
    {%- endif -%}
    {%- set integer_digits = {"tinyint": 3, "smallint": 5, "int": 10, "bigint": 20} -%}
    {%- set ns = namespace(numeric=true, temporal=true, floating=false, decimal=false,
                           widest_integer=0, digits=0, scale=0) -%}
    {%- for data_type in distinct -%}
        {%- set decimal_match = modules.re.match("^decimal\((\d+),\s*(\d+)\)$", data_type) -%}
        {%- if data_type in integer_digits -%}
            {%- set ns.widest_integer = [ns.widest_integer, integer_digits[data_type]] | max -%}
            {%- set ns.digits = [ns.digits, integer_digits[data_type]] | max -%}
            {%- set ns.temporal = false -%}
        {%- elif decimal_match is not none -%}
            {%- set ns.decimal = true -%}
            {%- set ns.digits = [ns.digits, (decimal_match.group(1) | int) - (decimal_match.group(2) | int)] | max -%}
            {%- set ns.scale = [ns.scale, decimal_match.group(2) | int] | max -%}
            {%- set ns.temporal = false -%}
        {%- elif data_type in ["float", "double"] -%}
            {%- set ns.floating = true -%}
            {%- set ns.temporal = false -%}
        {%- elif data_type in ["date", "timestamp", "timestamp_ntz"] -%}
            {%- set ns.numeric = false -%}
        {%- else -%}
            {%- set ns.numeric = false -%}
            {%- set ns.temporal = false -%}
        {%- endif -%}
    {%- endfor -%}
    {%- if ns.numeric -%}
        {%- if ns.floating -%}
            {{- return("double") -}}
        {%- elif ns.decimal -%}
            {%- set precision = [ns.digits + ns.scale, 38] | min -%}
            {{- return("decimal(" ~ precision ~ "," ~ [ns.scale, precision - ns.digits] | min ~ ")") -}}
        {%- endif -%}
        {%- for name, digits in integer_digits.items() -%}
            {%- if digits == ns.widest_integer -%}
                {{- return(name) -}}
            {%- endif -%}
        {%- endfor -%}
    {%- elif ns.temporal -%}
        {{- return("timestamp") -}}
    {%- endif -%}
    {{- return("string") -}}
{% endmacro %}
