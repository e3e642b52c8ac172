{#-
    Relations: what every macro's `relation` argument may be, how it is
    rendered, and how its columns are read.

    `relation` is a Relation (`ref()`, `source()`) or a string naming a table,
    a view or a CTE. A string is looked up as a table or view (`name` in the
    target schema, or `schema.name`); when nothing is found it is taken to be
    a CTE of the calling model, which can be selected from but not introspected.
-#}

{% macro _sqc_is_relation(value) %}
    {{- return(
        value is not none and value is not string
        and value.render is defined and value.identifier is defined
    ) -}}
{% endmacro %}


{#- The relation as FROM-clause text; fails clearly on anything else. -#}
{% macro _sqc_relation_sql(relation, macro_name) %}
    {%- if spark_query_catalog._sqc_is_relation(relation) -%}
        {{- return(relation.render()) -}}
    {%- endif -%}
    {%- if relation is string and relation | trim != "" -%}
        {{- return(relation | trim) -}}
    {%- endif -%}
    {{- spark_query_catalog._sqc_fail(
        macro_name, "relation",
        "a Relation (ref() or source()) or a string naming a table, a view or a CTE",
        relation
    ) -}}
{% endmacro %}


{#- The Relation to introspect, or none when `relation` is a CTE or not built yet. -#}
{% macro _sqc_queryable_relation(relation) %}
    {%- if not execute -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- if spark_query_catalog._sqc_is_relation(relation) -%}
        {%- set found = adapter.get_relation(
            database=relation.database, schema=relation.schema,
            identifier=relation.identifier
        ) -%}
        {{- return(found) -}}
    {%- endif -%}
    {%- set name = relation | trim -%}
    {%- set match = modules.re.match("^([A-Za-z0-9_]+\.)?([A-Za-z0-9_]+)$", name) -%}
    {%- if match is none -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- set schema = (match.group(1) or (target.schema ~ ".")) [:-1] -%}
    {{- return(adapter.get_relation(database=none, schema=schema, identifier=match.group(2))) -}}
{% endmacro %}


{#-
    The columns of `relation` as a list of {'name', 'data_type'} (data_type
    lower-cased, e.g. 'bigint', 'decimal(10,2)'), or none when they cannot be
    known: while dbt parses, or when `relation` is a CTE.
-#}
{% macro _sqc_columns(relation) %}
    {%- set queryable = spark_query_catalog._sqc_queryable_relation(relation) -%}
    {%- if queryable is none -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- set columns = [] -%}
    {%- for column in adapter.get_columns_in_relation(queryable) -%}
        {%- do columns.append({"name": column.name, "data_type": column.data_type | lower}) -%}
    {%- endfor -%}
    {{- return(columns) -}}
{% endmacro %}


{#- Fails unless the columns are known, naming what needed them. -#}
{% macro _sqc_require_columns(columns, relation, macro_name, needed_for) %}
    {%- if execute and columns is none -%}
        {{- spark_query_catalog._sqc_error(
            macro_name,
            needed_for ~ " needs to read the columns of `relation`, but "
            ~ spark_query_catalog._sqc_repr(relation if relation is string else relation | string)
            ~ " is not a table or view that exists (a CTE cannot be introspected)."
            ~ " Pass a ref() or source(), or a table name, or give the columns explicitly."
        ) -}}
    {%- endif -%}
{% endmacro %}


{#- The column of `columns` named `name` (case-insensitive, as Spark), or none. -#}
{% macro _sqc_find_column(columns, name) %}
    {%- set wanted = spark_query_catalog._sqc_unquote(name) | lower -%}
    {%- for column in columns or [] -%}
        {%- if column.name | lower == wanted -%}
            {{- return(column) -}}
        {%- endif -%}
    {%- endfor -%}
    {{- return(none) -}}
{% endmacro %}


{#-
    A column named by the caller, as SQL text. The name is always a column
    (never an expression), so `2012`, `twenty-twelve` and `an.id` work; when
    the relation's columns are known, an unknown name is a compile error.
-#}
{% macro _sqc_column_sql(name, columns, macro_name, argument) %}
    {%- if columns is not none -%}
        {%- set column = spark_query_catalog._sqc_find_column(columns, name) -%}
        {%- if column is none -%}
            {%- set names = [] -%}
            {%- for c in columns -%}{%- do names.append(c.name) -%}{%- endfor -%}
            {{- spark_query_catalog._sqc_fail(
                macro_name, argument,
                "a column of the relation (" ~ names | join(", ") ~ ")", name
            ) -}}
        {%- endif -%}
        {{- return(spark_query_catalog._sqc_quote(column.name)) -}}
    {%- endif -%}
    {{- return(spark_query_catalog._sqc_quote(spark_query_catalog._sqc_unquote(name))) -}}
{% endmacro %}


{#-
    A column or a SQL expression, for partition_by and order_by. A trailing
    `asc`/`desc` and `nulls first`/`nulls last` are kept. The text is a column
    when it names one of the relation's columns, or is a plain identifier;
    anything else is an expression and passes through unchanged.
-#}
{% macro _sqc_key_sql(item, columns) %}
    {%- set match = modules.re.match(
        "^(.*?)((?:\s+(?:asc|desc))?(?:\s+nulls\s+(?:first|last))?)\s*$",
        item | trim, modules.re.IGNORECASE + modules.re.DOTALL
    ) -%}
    {%- set head = match.group(1) | trim -%}
    {%- set suffix = match.group(2) | lower -%}
    {%- set suffix = modules.re.sub("\s+", " ", suffix) -%}
    {%- set column = spark_query_catalog._sqc_find_column(columns, head) -%}
    {%- if column is not none -%}
        {{- return(spark_query_catalog._sqc_quote(column.name) ~ suffix) -}}
    {%- endif -%}
    {{- return(head ~ suffix) -}}
{% endmacro %}


{#- The bare key of a partition or order item, without asc/desc/nulls. -#}
{% macro _sqc_key_head(key_sql) %}
    {{- return(modules.re.sub(
        "(?i)(\s+(asc|desc))?(\s+nulls\s+(first|last))?$", "", key_sql
    )) -}}
{% endmacro %}


{#- The data type of a key when it is a column of a known relation, else none. -#}
{% macro _sqc_key_type(item, columns) %}
    {%- set column = spark_query_catalog._sqc_find_column(columns, spark_query_catalog._sqc_key_head(item | trim)) -%}
    {{- return(column.data_type if column is not none else none) -}}
{% endmacro %}


{% macro _sqc_is_temporal_type(data_type) %}
    {{- return(data_type is not none and (
        data_type == "date" or data_type.startswith("timestamp")
    )) -}}
{% endmacro %}


{% macro _sqc_is_numeric_type(data_type) %}
    {{- return(data_type is not none and (
        data_type in ["tinyint", "byte", "smallint", "short", "int", "integer", "bigint", "long", "float", "real", "double"]
        or data_type.startswith("decimal") or data_type.startswith("numeric")
    )) -}}
{% endmacro %}


{#- `partition by ...` text, warning when there is none: Spark then sends every row to one task. -#}
{% macro _sqc_partition_clause(partition_keys, macro_name) %}
    {%- if partition_keys | length == 0 -%}
        {%- if execute -%}
            {%- do exceptions.warn(
                "spark_query_catalog." ~ macro_name ~ ": no `partition_by` was given, so Spark"
                ~ " moves all rows to a single partition to compute this window"
                ~ " (WindowExec: \"No Partition Defined for Window operation!\")."
                ~ " Pass `partition_by` unless the data is small."
            ) -%}
        {%- endif -%}
        {{- return("") -}}
    {%- endif -%}
    {{- return("partition by " ~ partition_keys | join(", ")) -}}
{% endmacro %}
