{#-
    Seed loading (overrides dbt-spark's spark__load_csv_rows).

    dbt-spark's loader asks for each column's type once per cell, and each
    ask scans the column: the cost grows with rows squared. On the session
    method it also pastes values into the SQL unescaped: a NULL string is
    stored as 'None' and an apostrophe breaks the statement.

    Here every column's type is read once, the raw text of the seed is put
    where Spark can read it as strings, every value is checked against its
    column's type, and one INSERT ... SELECT casts each column once:

      method 'csv'     Spark reads the CSV file itself (the session method,
                       or a Thrift server on this machine: the file must be
                       readable by the Spark driver).
      method 'insert'  Escaped values go in batches into a staging table of
                       strings (any server, however remote).

    The method is the seed config `seed_load_method`: 'auto' (default: 'csv'
    for the session method, and for a Thrift or Spark Connect server on this
    machine's loopback address; 'insert' otherwise), 'csv' or 'insert'.

    Values follow dbt's seed rules: an empty field and the text null (any
    case) are NULL; everything else is kept exactly, then cast to the
    column's type (dbt's inferred type, or `column_types`).

    A value that does not fit its type stops the load with an error naming
    the file, the row and the column, and the seed's table is left as it was
    (or absent on a first load). The checked rows then replace the table in
    one CREATE TABLE ... AS SELECT, so nobody ever reads a half-loaded seed:
    `create_csv_table` and `reset_csv_table` below only describe the table.
-#}
{% macro spark__load_csv_rows(model, agate_table) %}
    {%- set column_override = model["config"].get("column_types", {}) -%}
    {%- set columns = [] -%}
    {%- for column_name in agate_table.column_names -%}
        {%- do columns.append({
            "alias": "c" ~ loop.index0,
            "name": column_name,
            "type": column_override.get(column_name, adapter.convert_type(agate_table, loop.index0)) | lower
        }) -%}
    {%- endfor -%}
    {%- set method = spark_query_catalog._sqc_seed_load_method(model) -%}
    {%- set source_name = "spark_query_catalog_seed__" ~ this.identifier -%}

    {%- if method == "csv" -%}
        {%- set path = agate_table.original_abspath -%}
        {%- set file = spark_query_catalog._sqc_seed_inspect_file(model, source_name, path) -%}
        {%- do run_query(spark_query_catalog._sqc_seed_csv_view_sql(
            source_name, columns, path, model["config"].get("delimiter", ","), file.line_separator
        )) -%}
        {#- Parsed once, kept in memory for the checks and the insert. -#}
        {%- do run_query("cache table " ~ source_name ~ "_parsed as select monotonically_increasing_id() + 1 as spark_query_catalog_row, * from " ~ source_name) -%}
        {%- set source_relation = source_name ~ "_parsed" -%}
        {%- set rows_sql = "select * from " ~ source_relation -%}
    {%- else -%}
        {%- set source_relation = this.incorporate(path={"identifier": source_name}).render() -%}
        {%- do spark_query_catalog._sqc_seed_stage_rows(source_relation, columns, agate_table) -%}
        {%- set rows_sql = "select * from " ~ source_relation -%}
    {%- endif -%}

    {%- do spark_query_catalog._sqc_seed_validate(model, columns, rows_sql, source_relation, method) -%}

    {%- set casts = [] -%}
    {%- set quote_columns = model["config"].get("quote_columns", None) -%}
    {%- for column in columns -%}
        {%- do casts.append(spark_query_catalog._sqc_seed_cast_sql(column)
            ~ " as " ~ adapter.quote_seed_column(column.name | string, quote_columns)) -%}
    {%- endfor -%}
    {#- The checked rows replace the table in one CREATE TABLE ... AS SELECT:
        readers see the previous table, none, or the whole new one. -#}
    {%- set sql -%}
create table {{ this.render() }}
{{ file_format_clause() }}
{{ partition_cols(label="partitioned by") }}
{{ clustered_cols(label="clustered by") }}
{{ location_clause() }}
{{ comment_clause() }}
as
select
    {{ casts | join(",\n    ") }}
from {{ source_relation }}
    {%- endset -%}
    {%- do adapter.drop_relation(this.incorporate(type="table")) -%}
    {%- if config.get("location_root") is none -%}
        {%- do spark_query_catalog._sqc_clear_orphaned_location(this, known_absent=true) -%}
    {%- endif -%}
    {%- do run_query(sql) -%}
    {%- do spark_query_catalog._sqc_seed_drop_source(source_relation, method) -%}
    {{- return(sql) -}}
{% endmacro %}


{% macro _sqc_seed_load_method(model) %}
    {%- set method = model["config"].get("seed_load_method", "auto") -%}
    {%- if method not in ["auto", "csv", "insert"] -%}
        {{- spark_query_catalog._sqc_fail("seed " ~ model.name, "seed_load_method",
            "one of 'auto', 'csv', 'insert'", method) -}}
    {%- endif -%}
    {%- if method == "auto" -%}
        {#- `target` does not carry dbt-spark's connection method; the credentials do.
            A server on this machine reads the seed's file as the session does.
            A session with `spark.remote` (or SPARK_REMOTE) is a Spark Connect
            client: local only when the Connect server is on loopback. -#}
        {%- set credentials = adapter.config.credentials -%}
        {%- set loopback = ["127.0.0.1", "localhost", "::1", "[::1]"] -%}
        {%- if (credentials.method | string | lower) == "session" -%}
            {%- set parameters = credentials.server_side_parameters or {} -%}
            {%- set remote = parameters.get("spark.remote") or env_var("SPARK_REMOTE", "") -%}
            {%- set remote_host = (remote | string).split("://")[-1].split("/")[0].rsplit(":", 1)[0] -%}
            {%- set is_local = not remote or (remote_host | lower) in loopback -%}
        {%- else -%}
            {%- set is_local = (credentials.host | string | lower) in loopback -%}
        {%- endif -%}
        {{- return("csv" if is_local else "insert") -}}
    {%- endif -%}
    {{- return(method) -}}
{% endmacro %}
