{#- Columns and keys named by the caller: found in the relation's columns, quoted as Spark needs. -#}

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
