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
    {%- set source_name = "sqc_seed_source_" ~ this.identifier -%}

    {%- if method == "csv" -%}
        {%- set path = agate_table.original_abspath -%}
        {%- set file = spark_query_catalog._sqc_seed_inspect_file(model, source_name, path) -%}
        {%- do run_query(spark_query_catalog._sqc_seed_csv_view_sql(
            source_name, columns, path, model["config"].get("delimiter", ","), file.line_separator
        )) -%}
        {#- Parsed once, kept in memory for the checks and the insert. -#}
        {%- do run_query("cache table " ~ source_name ~ "_parsed as select monotonically_increasing_id() + 1 as sqc_row, * from " ~ source_name) -%}
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
        {%- do spark_query_catalog._sqc_clear_orphaned_location(this) -%}
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


{#-
    A value as dbt reads seeds: empty and 'null' are NULL, in any case and
    with any whitespace around them (dbt's reader strips tabs and newlines
    too, which Spark's trim does not).
-#}
{% macro _sqc_seed_value_sql(column) %}
    {{- return("case when lower(regexp_replace(" ~ column.alias ~ ", '(?U)^\\\\s+|\\\\s+$', ''))"
        ~ " in ('', 'null') then null else " ~ column.alias ~ " end") -}}
{% endmacro %}


{% macro _sqc_seed_cast_sql(column) %}
    {%- set value = spark_query_catalog._sqc_seed_value_sql(column) -%}
    {%- if column.type == "string" -%}
        {{- return(value) -}}
    {%- endif -%}
    {{- return("cast(" ~ value ~ " as " ~ column.type ~ ")") -}}
{% endmacro %}


{#-
    What the CSV reader must know of the file, read through Spark as lines:
    its row separator ('\r\n' or '\n', from the header line; Spark's reader
    otherwise rewrites a '\r\n' inside a quoted value of a '\r\n' file as
    '\n'), and whether a quote is left open: an odd number of '"' in the file
    means a quoted field runs to its end. That is an error naming the line
    where the unclosed field starts (Python's csv module and Spark's reader
    would both silently load the rest of the file into that one value).
-#}
{% macro _sqc_seed_inspect_file(model, view_name, path) %}
    {%- set lines_view = view_name ~ "_lines" -%}
    {%- do run_query("create or replace temporary view " ~ lines_view
        ~ " using text options (path " ~ spark_query_catalog._sqc_string_literal(path)
        ~ ", lineSep '\\n')") -%}
    {%- set numbered_lines -%}
select
    monotonically_increasing_id() as line_index,
    value,
    length(value) - length(replace(value, '"', '')) as quote_count
from {{ lines_view }}
    {%- endset -%}
    {%- set query -%}
select
    min_by(endswith(value, '\r'), line_index) as is_crlf,
    coalesce(sum(quote_count) % 2 = 1, false) as has_open_quote
from ({{ numbered_lines }}) as numbered_lines
    {%- endset -%}
    {%- set result = run_query(query).rows[0] -%}
    {%- if result[1] -%}
        {#- Rare: find the line after the last point where every quote was closed. -#}
        {%- set locate -%}
select count(*) + 1 as open_line_number
from ({{ numbered_lines }}) as numbered_lines
where line_index <= (
    select coalesce(max(line_index), -1)
    from (
        select
            line_index,
            sum(quote_count) over (order by line_index) % 2 = 0 as is_closed_after
        from ({{ numbered_lines }}) as lines_again
    ) as parity
    where is_closed_after
)
        {%- endset -%}
        {%- set open_line = run_query(locate).rows[0][0] -%}
        {%- do run_query("drop view if exists " ~ lines_view) -%}
        {{- exceptions.raise_compiler_error(
            "seed " ~ model.name ~ " (" ~ model.original_file_path ~ "), line " ~ open_line
            ~ ": a quoted value starts here and its closing quote is missing, so it would run"
            ~ " to the end of the file. Close the quote (a quote inside a quoted value is"
            ~ " written twice: \"\"). Nothing was loaded."
        ) -}}
    {%- endif -%}
    {%- do run_query("drop view if exists " ~ lines_view) -%}
    {{- return({"line_separator": "\r\n" if result[0] else "\n"}) -}}
{% endmacro %}


{#- A temporary view reading the CSV file as strings, columns c0, c1, ... -#}
{% macro _sqc_seed_csv_view_sql(view_name, columns, path, delimiter, line_separator) %}
    {%- set fields = [] -%}
    {%- for column in columns -%}
        {%- do fields.append(column.alias ~ " string") -%}
    {%- endfor -%}
    {%- do fields.append("sqc_corrupt string") -%}
    {%- set options = {
        "path": path, "header": "true", "multiLine": "true", "quote": '"', "escape": '"',
        "sep": delimiter, "encoding": "UTF-8", "mode": "PERMISSIVE",
        "columnNameOfCorruptRecord": "sqc_corrupt",
        "nullValue": "", "emptyValue": "", "enforceSchema": "true", "lineSep": line_separator
    } -%}
    {%- set option_sql = [] -%}
    {%- for key, value in options.items() -%}
        {%- do option_sql.append(key ~ " " ~ spark_query_catalog._sqc_string_literal(value)) -%}
    {%- endfor -%}
    {{- return("create or replace temporary view " ~ view_name ~ " (" ~ fields | join(", ")
        ~ ") using csv options (" ~ option_sql | join(", ") ~ ")") -}}
{% endmacro %}


{#- The seed's values, escaped, in batches into a staging table of strings. -#}
{% macro _sqc_seed_stage_rows(staging, columns, agate_table) %}
    {%- set fields = ["sqc_row bigint"] -%}
    {%- for column in columns -%}
        {%- do fields.append(column.alias ~ " string") -%}
    {%- endfor -%}
    {%- do run_query("drop table if exists " ~ staging) -%}
    {%- do spark_query_catalog._sqc_clear_orphaned_location(
        this.incorporate(path={"identifier": "sqc_seed_source_" ~ this.identifier})
    ) -%}
    {%- do run_query("create table " ~ staging ~ " (" ~ fields | join(", ") ~ ") using parquet") -%}
    {%- set batch_size = get_batch_size() -%}
    {%- for chunk in agate_table.rows | batch(batch_size) -%}
        {%- set offset = loop.index0 * batch_size -%}
        {%- set rows_sql = [] -%}
        {%- for row in chunk -%}
            {%- set cells = [(offset + loop.index) | string] -%}
            {%- for value in row -%}
                {%- if value is none -%}
                    {%- do cells.append("null") -%}
                {%- else -%}
                    {%- set text = value.isoformat() if value.isoformat is defined else value | string -%}
                    {%- do cells.append("'" ~ text.replace("\\", "\\\\").replace("'", "\\'") ~ "'") -%}
                {%- endif -%}
            {%- endfor -%}
            {%- do rows_sql.append("(" ~ cells | join(", ") ~ ")") -%}
        {%- endfor -%}
        {%- do run_query("insert into " ~ staging ~ " values\n" ~ rows_sql | join(",\n")) -%}
    {%- endfor -%}
{% endmacro %}


{#-
    Every value must fit its column's type: the first that does not stops
    the load, with the file, row and column named, before the seed's table
    is touched.
-#}
{% macro _sqc_seed_validate(model, columns, rows_sql, source_relation, method) %}
    {%- if method == "csv" -%}
        {#- Spark reads no file for a query of the corrupt-record column alone. -#}
        {%- set ragged = run_query("select sqc_row, c0 from (" ~ rows_sql
            ~ ") as seed_rows where sqc_corrupt is not null order by sqc_row limit 1") -%}
        {%- if ragged.rows | length > 0 -%}
            {%- do spark_query_catalog._sqc_seed_drop_source(source_relation, method) -%}
            {{- exceptions.raise_compiler_error(
                "seed " ~ model.name ~ " (" ~ model.original_file_path ~ "), row " ~ ragged.rows[0][0]
                ~ ": the row does not have " ~ columns | length ~ " values, as the header has"
                ~ " (a ragged row). Fix the row. Nothing was loaded."
            ) -}}
        {%- endif -%}
    {%- endif -%}
    {%- set checks = [] -%}
    {%- for column in columns if column.type != "string" -%}
        {%- set value = spark_query_catalog._sqc_seed_value_sql(column) -%}
        {%- do checks.append({
            "column": column,
            "sql": "(" ~ value ~ ") is not null and try_cast(" ~ value ~ " as " ~ column.type ~ ") is null"
        }) -%}
    {%- endfor -%}
    {%- if checks | length == 0 -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- set conditions = [] -%}
    {%- set labels = [] -%}
    {%- for check in checks -%}
        {%- do conditions.append(check.sql) -%}
        {%- do labels.append("when " ~ check.sql ~ " then " ~ loop.index0) -%}
    {%- endfor -%}
    {%- set query -%}
select sqc_row, case {{ labels | join(" ") }} end as bad_check
from ({{ rows_sql }}) as seed_rows
where {{ conditions | join(" or ") }}
order by sqc_row
limit 1
    {%- endset -%}
    {%- set bad = run_query(query) -%}
    {%- if bad.rows | length > 0 -%}
        {%- set row_number = bad.rows[0][0] -%}
        {%- set column = checks[bad.rows[0][1] | int].column -%}
        {%- set value_query = "select " ~ column.alias ~ " from (" ~ rows_sql ~ ") as seed_rows where sqc_row = " ~ row_number -%}
        {%- set value = run_query(value_query).rows[0][0] -%}
        {%- do spark_query_catalog._sqc_seed_drop_source(source_relation, method) -%}
        {{- exceptions.raise_compiler_error(
            "seed " ~ model.name ~ " (" ~ model.original_file_path ~ "), row " ~ row_number
            ~ ", column `" ~ column.name ~ "`: the value " ~ spark_query_catalog._sqc_repr(value | string)
            ~ " does not fit the column's type " ~ column.type
            ~ ". Fix the value, or set the column's type with the seed config `column_types`."
            ~ " Nothing was loaded."
        ) -}}
    {%- endif -%}
{% endmacro %}


{#- csv: the cached parse (`<view>_parsed`) and the file's view; insert: the staging table. -#}
{% macro _sqc_seed_drop_source(source_relation, method) %}
    {%- if method == "csv" -%}
        {%- set file_view = modules.re.sub("_parsed$", "", source_relation) -%}
        {%- do run_query("uncache table if exists " ~ source_relation) -%}
        {%- do run_query("drop view if exists " ~ source_relation) -%}
        {%- do run_query("drop view if exists " ~ file_view) -%}
    {%- else -%}
        {%- do run_query("drop table if exists " ~ source_relation) -%}
    {%- endif -%}
{% endmacro %}


{#- dbt's seed materialization creates (or empties) the table, then loads
    it. Here the load replaces the table in one statement instead (reading
    the column types once, there), so these only name the table in the
    seed's SQL. A seed with a header and no rows is never loaded: its empty
    table is replaced here, as dbt-spark does. -#}
{% macro spark__create_csv_table(model, agate_table) %}
    {%- if agate_table.rows | length > 0 -%}
        {{- return("/* " ~ this.render() ~ ": created with its rows by the statement below */") -}}
    {%- endif -%}
    {%- set column_override = model["config"].get("column_types", {}) -%}
    {%- set quote_columns = model["config"].get("quote_columns", None) -%}
    {%- set fields = [] -%}
    {%- for column_name in agate_table.column_names -%}
        {%- set kind = column_override.get(column_name, adapter.convert_type(agate_table, loop.index0)) -%}
        {%- do fields.append(adapter.quote_seed_column(column_name | string, quote_columns) ~ " " ~ kind) -%}
    {%- endfor -%}
    {%- set sql = "create table " ~ this.render() ~ " (" ~ fields | join(", ") ~ ") " ~ file_format_clause() -%}
    {%- do adapter.drop_relation(this.incorporate(type="table")) -%}
    {%- do spark_query_catalog._sqc_clear_orphaned_location(this) -%}
    {%- do run_query(sql) -%}
    {{- return(sql) -}}
{% endmacro %}


{% macro spark__reset_csv_table(model, full_refresh, old_relation, agate_table) %}
    {{- return(spark_query_catalog.spark__create_csv_table(model, agate_table)) -}}
{% endmacro %}
