{#-
    Relations: what every macro's `relation` argument may be, how it is
    rendered, and how its columns are read.

    `relation` is a Relation (`ref()`, `source()`, `api.Relation.create(...)`)
    or a string. A Relation is rendered as dbt renders it in a model (under
    `--empty`, the empty subquery dbt puts in its place). A string naming a
    table or view (`'name'`, `'schema.name'`, `'catalog.schema.name'`,
    backticks allowed) is read as Spark reads it: a temporary view, a global
    temporary view (`global_temp.name`) or a table; any other string (a CTE
    of the model, a subquery) is used as written and cannot be introspected.

    Columns are read with `describe` on what the relation names, so temporary
    views, quoted sources and relations without a schema are read as the
    model's query will read them.
-#}

{% macro _sqc_is_relation(value) %}
    {{- return(
        value is not none and value is not string
        and value.render is defined and value.identifier is defined
    ) -}}
{% endmacro %}


{#- A dotted name of up to three parts, each plain or in backticks. -#}
{% macro _sqc_is_qualified_name(text) %}
    {%- set part = "(?:[A-Za-z0-9_]+|`(?:[^`]|``)+`)" -%}
    {{- return(modules.re.match("^" ~ part ~ "(?:\\." ~ part ~ "){0,2}$", text) is not none) -}}
{% endmacro %}


{#- The relation as FROM-clause text; fails clearly on anything else. -#}
{% macro _sqc_relation_sql(relation, macro_name) %}
    {%- if spark_query_catalog._sqc_is_relation(relation) -%}
        {{- return(relation | string) -}}
    {%- endif -%}
    {%- if relation is string and relation | trim != "" -%}
        {{- return(relation | trim) -}}
    {%- endif -%}
    {{- spark_query_catalog._sqc_fail(
        macro_name, "relation",
        "a Relation (ref(), source()) or a string naming a table, a view or a CTE",
        relation
    ) -}}
{% endmacro %}


{#-
    What can be described of `relation`: a Relation to pass to
    adapter.get_columns_in_relation (rendered without the `--empty` limit), or
    none for a CTE (an ephemeral model, a unit test's input, a string that is
    not a name).
-#}
{% macro _sqc_describable(relation) %}
    {%- if spark_query_catalog._sqc_is_relation(relation) -%}
        {%- if relation.is_cte -%}
            {{- return(none) -}}
        {%- endif -%}
        {{- return(relation.replace(limit=none, event_time_filter=none)) -}}
    {%- elif relation is string and spark_query_catalog._sqc_is_qualified_name(relation | trim) -%}
        {#- The name is rendered exactly as given (Spark's identifiers are not quoted by dbt-spark). -#}
        {{- return(api.Relation.create(identifier=relation | trim)) -}}
    {%- endif -%}
    {{- return(none) -}}
{% endmacro %}


{#- The parts of a dotted name, backticks removed: 'a.`b c`' gives ['a', 'b c']. -#}
{% macro _sqc_name_parts(text) %}
    {%- set parts = [] -%}
    {%- for part in modules.re.findall("`(?:[^`]|``)+`|[A-Za-z0-9_]+", text) -%}
        {%- do parts.append(spark_query_catalog._sqc_unquote(part)) -%}
    {%- endfor -%}
    {{- return(parts) -}}
{% endmacro %}


{#-
    Whether Spark has a table or view by that rendered name, asked with SHOW
    statements that cannot fail (a failed query would make PySpark log it):
    a name alone is a temporary view or a table of the current database;
    `global_temp.name` a global temporary view; `schema.name` and
    `catalog.schema.name` a table or view of that schema.
-#}
{% macro _sqc_relation_exists(rendered) %}
    {%- set parts = spark_query_catalog._sqc_name_parts(rendered) -%}
    {%- set name = parts[-1] | lower -%}
    {%- if modules.re.search("[*|']", name) -%}
        {#- SHOW ... LIKE cannot match these characters: assume it exists. -#}
        {{- return(true) -}}
    {%- endif -%}
    {%- if parts | length == 1 -%}
        {{- return(run_query("show tables like '" ~ name ~ "'") | length > 0) -}}
    {%- endif -%}
    {%- set schema = parts[-2] | lower -%}
    {%- if parts | length == 3 and run_query("show catalogs like '" ~ parts[0] | lower ~ "'") | length == 0 -%}
        {{- return(false) -}}
    {%- endif -%}
    {%- set namespace = (parts[:-1] | map("lower") | map("string") | list) -%}
    {%- set namespace_sql = namespace | join(".") -%}
    {%- if schema != "global_temp" -%}
        {%- set schemas = run_query("show schemas" ~ (" in " ~ parts[0] if parts | length == 3 else "")
            ~ " like '" ~ schema ~ "'") -%}
        {%- if schemas | length == 0 -%}
            {{- return(false) -}}
        {%- endif -%}
    {%- endif -%}
    {#- SHOW TABLES IN a schema also lists the session's temporary views: only
        a row of that schema counts (of global_temp, for a global view). -#}
    {%- for row in run_query("show tables in " ~ namespace_sql ~ " like '" ~ name ~ "'") -%}
        {%- if (row[0] | lower) == schema -%}
            {{- return(true) -}}
        {%- endif -%}
    {%- endfor -%}
    {{- return(false) -}}
{% endmacro %}


{#-
    The columns of `relation` as a list of {'name', 'data_type'} (data_type
    lower-cased, e.g. 'bigint', 'decimal(10,2)'), or none when they cannot be
    known: while dbt parses, for a CTE, or for a relation that does not exist.
    A Relation with a schema is looked up in dbt's relation cache first; what
    the cache does not know (a temporary view, a table made by a hook, a
    quoted name) is asked of Spark.
-#}
{% macro _sqc_columns(relation) %}
    {%- if not execute -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- set describable = spark_query_catalog._sqc_describable(relation) -%}
    {%- if describable is none -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- set cached = none -%}
    {%- if describable.schema is not none -%}
        {%- set cached = adapter.get_relation(
            database=describable.database, schema=describable.schema, identifier=describable.identifier
        ) -%}
    {%- endif -%}
    {%- if cached is none and not spark_query_catalog._sqc_relation_exists(describable.render()) -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- set columns = [] -%}
    {%- for column in adapter.get_columns_in_relation(cached or describable) -%}
        {%- do columns.append({"name": column.name, "data_type": column.data_type | lower}) -%}
    {%- endfor -%}
    {{- return(columns if columns | length > 0 else none) -}}
{% endmacro %}


{#- The text of a query that reads `relation`'s rows, without the `--empty`
    limit: for value discovery, which reads the data the model's output
    columns come from. -#}
{% macro _sqc_unlimited_sql(relation) %}
    {%- set describable = spark_query_catalog._sqc_describable(relation) -%}
    {{- return(describable.render() if describable is not none else relation | string) -}}
{% endmacro %}


{#-
    Fails unless the columns are known, saying why they are not and what to
    pass instead (`instead`, e.g. "pass `values` explicitly").
-#}
{% macro _sqc_require_columns(columns, relation, macro_name, needed_for, instead) %}
    {%- if not execute or columns is not none -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- set name = spark_query_catalog._sqc_repr(relation) -%}
    {%- if spark_query_catalog._sqc_is_relation(relation) and relation.is_cte -%}
        {%- set why = name ~ " is an ephemeral model (or a unit test's input), which dbt inlines as"
            ~ " a CTE: it cannot be read while the model compiles." -%}
        {%- set fix = instead ~ ", or materialize the model as a view or a table" -%}
    {%- elif spark_query_catalog._sqc_is_relation(relation) -%}
        {%- set why = name ~ " does not exist (yet)." -%}
        {%- set fix = "build it first (dbt build --select +<this model>), or " ~ instead -%}
    {%- elif spark_query_catalog._sqc_is_qualified_name(relation | trim) -%}
        {%- set why = name ~ " is not a table or view that exists (a CTE of the model cannot be"
            ~ " read while it compiles)." -%}
        {%- set fix = "pass a ref() or source(), or a table or view name ('schema.table'), or " ~ instead -%}
    {%- else -%}
        {%- set why = name ~ " is not the name of a table or view." -%}
        {%- set fix = "pass a ref() or source(), or a table or view name, or " ~ instead -%}
    {%- endif -%}
    {{- spark_query_catalog._sqc_error(
        macro_name, needed_for ~ " needs the columns of `relation`, but " ~ why ~ " To fix it, " ~ fix ~ "."
    ) -}}
{% endmacro %}
