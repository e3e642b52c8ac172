{#- Where a seed's raw text is put for Spark to read: the CSV file itself, or a staging table. -#}

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
    {%- do fields.append("spark_query_catalog_corrupt_record string") -%}
    {%- set options = {
        "path": path, "header": "true", "multiLine": "true", "quote": '"', "escape": '"',
        "sep": delimiter, "encoding": "UTF-8", "mode": "PERMISSIVE",
        "columnNameOfCorruptRecord": "spark_query_catalog_corrupt_record",
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
    {%- set fields = ["spark_query_catalog_row bigint"] -%}
    {%- for column in columns -%}
        {%- do fields.append(column.alias ~ " string") -%}
    {%- endfor -%}
    {%- do run_query("drop table if exists " ~ staging) -%}
    {%- do spark_query_catalog._sqc_clear_orphaned_location(
        this.incorporate(path={"identifier": "spark_query_catalog_seed__" ~ this.identifier}),
        known_absent=true
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
