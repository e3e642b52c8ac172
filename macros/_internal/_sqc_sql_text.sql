{#-
    Rendering names and values as Spark SQL text.
-#}

{#- Words Spark cannot take as a bare column name or alias. -#}
{% macro _sqc_reserved_words() %}
    {{- return([
        "all", "and", "any", "anti", "as", "asc", "between", "both", "by",
        "case", "cast", "check", "collate", "column", "constraint", "create",
        "cross", "current_date", "current_time", "current_timestamp",
        "current_user", "desc", "distinct", "else", "end", "except", "exclude",
        "false", "fetch", "for", "foreign", "from", "full", "grant", "group",
        "having", "in", "include", "inner", "intersect", "interval", "into",
        "is", "join", "lateral", "leading", "left", "like", "limit", "minus",
        "natural", "not", "null", "nulls", "of", "offset", "on", "only", "or",
        "order", "outer", "over", "overlaps", "partition", "pivot", "primary",
        "range", "references", "right", "rows", "select", "semi",
        "session_user", "some", "table", "then", "time", "to", "trailing",
        "true", "union", "unique", "unknown", "unpivot", "user", "using",
        "values", "when", "where", "window", "with"
    ]) -}}
{% endmacro %}


{% macro _sqc_is_plain_identifier(name) %}
    {{- return(
        modules.re.match("^[A-Za-z_][A-Za-z0-9_]*$", name) is not none
        and (name | lower) not in spark_query_catalog._sqc_reserved_words()
    ) -}}
{% endmacro %}


{#- An identifier, in backticks only when Spark needs them (`2012`, `an.id`). -#}
{% macro _sqc_quote(name) %}
    {%- set name = name | string -%}
    {%- if spark_query_catalog._sqc_is_plain_identifier(name) -%}
        {{- return(name) -}}
    {%- endif -%}
    {{- return("`" ~ name.replace("`", "``") ~ "`") -}}
{% endmacro %}


{#- A name already written in backticks by the caller, e.g. '`an.id`'. -#}
{% macro _sqc_is_backquoted(name) %}
    {{- return(modules.re.match("^`(?:[^`]|``)+`$", name) is not none) -}}
{% endmacro %}


{% macro _sqc_unquote(name) %}
    {%- if spark_query_catalog._sqc_is_backquoted(name) -%}
        {{- return(name[1:-1].replace("``", "`")) -}}
    {%- endif -%}
    {{- return(name) -}}
{% endmacro %}


{#- A string literal that no value can break out of: quotes and backslashes are escaped. -#}
{% macro _sqc_string_literal(text) %}
    {{- return("'" ~ (text | string).replace("\\", "\\\\").replace("'", "\\'") ~ "'") -}}
{% endmacro %}


{#- A long string as a concat of literals of about `width` characters, one
    a line, cut between words (each piece keeps its trailing space). -#}
{% macro _sqc_string_lines_sql(text, width) %}
    {%- set pieces = [] -%}
    {%- set line = {"text": ""} -%}
    {%- for word in (text | string).split(" ") -%}
        {%- if line.text and (line.text ~ " " ~ word) | length > width -%}
            {%- do pieces.append(line.text ~ " ") -%}
            {%- do line.update({"text": word}) -%}
        {%- else -%}
            {%- do line.update({"text": (line.text ~ " " ~ word) if line.text else word}) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- do pieces.append(line.text) -%}
    {%- set literals = [] -%}
    {%- for piece in pieces -%}
        {%- do literals.append(spark_query_catalog._sqc_string_literal(piece)) -%}
    {%- endfor -%}
    {%- if literals | length == 1 -%}
        {{- return(literals[0]) -}}
    {%- endif -%}
    {{- return("concat(\n    " ~ literals | join(",\n    ") ~ "\n)") -}}
{% endmacro %}


{#- A Jinja value (none, bool, number, string) as a Spark literal. -#}
{% macro _sqc_literal(value) %}
    {%- if value is none -%}
        {{- return("null") -}}
    {%- elif value is sameas true -%}
        {{- return("true") -}}
    {%- elif value is sameas false -%}
        {{- return("false") -}}
    {%- elif value is number -%}
        {{- return(value | string) -}}
    {%- else -%}
        {{- return(spark_query_catalog._sqc_string_literal(value)) -}}
    {%- endif -%}
{% endmacro %}


{#- The text a value gives as a column alias: none is 'null', true is 'true'. -#}
{% macro _sqc_value_label(value) %}
    {%- if value is none or value is sameas true or value is sameas false -%}
        {{- return(spark_query_catalog._sqc_literal(value)) -}}
    {%- endif -%}
    {{- return(value | string) -}}
{% endmacro %}


{#- "a,\n    b" style list: one item a line, trailing commas, `spaces` of indent. -#}
{% macro _sqc_list_lines(items, spaces) %}
    {{- return((" " * spaces) ~ (items | join(",\n" ~ (" " * spaces)))) -}}
{% endmacro %}


{#- "(\n    select\n        a,\n        b\n    from relation\n) as alias" -#}
{% macro _sqc_derived_table(columns, relation_sql, alias) %}
    {{- return("(\n    select\n" ~ spark_query_catalog._sqc_list_lines(columns, 8)
        ~ "\n    from " ~ relation_sql ~ "\n) as " ~ alias) -}}
{% endmacro %}


{#- `query`, whose last columns are the aggregates `produced` (parsed, in
    the order the query has them), with those columns in the order of
    `items` (as _sqc_in_order). -#}
{% macro _sqc_items_in_order(query, items, produced) %}
    {%- set aliases = {"given": [], "produced": []} -%}
    {%- for item in items -%}
        {%- do aliases.given.append(spark_query_catalog._sqc_quote(item.alias)) -%}
    {%- endfor -%}
    {%- for item in produced -%}
        {%- do aliases.produced.append(spark_query_catalog._sqc_quote(item.alias)) -%}
    {%- endfor -%}
    {{- return(spark_query_catalog._sqc_in_order(query, aliases.given, aliases.produced)) -}}
{% endmacro %}


{#- `query`, whose last columns are `produced` (aliases), with those
    columns in the order `aliases` gives: as it is where the orders agree,
    else under a projection that lists them again. -#}
{% macro _sqc_in_order(query, aliases, produced) %}
    {%- if aliases == produced -%}
        {{- return(query) -}}
    {%- endif -%}
    {{- return("select\n    * except (" ~ aliases | join(", ") ~ "),\n" ~ spark_query_catalog._sqc_list_lines(aliases, 4)
        ~ "\nfrom (\n" ~ query | indent(4, first=true) ~ "\n) as rolling_aggregates") -}}
{% endmacro %}


{#- `sql as alias` in a select list, or the alias alone when `sql` is it. -#}
{% macro _sqc_select_item(sql, alias) %}
    {{- return(alias if sql == alias else sql ~ " as " ~ alias) -}}
{% endmacro %}


{#- The arguments of a call split at its top-level commas, or none when its
    parentheses do not balance or an argument is empty. -#}
{% macro _sqc_split_arguments(text) %}
    {%- set arguments = [] -%}
    {%- set state = {"depth": 0, "start": 0} -%}
    {%- for character in text -%}
        {%- if character == "(" -%}
            {%- do state.update({"depth": state.depth + 1}) -%}
        {%- elif character == ")" -%}
            {%- do state.update({"depth": state.depth - 1}) -%}
        {%- elif character == "," and state.depth == 0 -%}
            {%- do arguments.append(text[state.start:loop.index0] | trim) -%}
            {%- do state.update({"start": loop.index}) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- do arguments.append(text[state.start:] | trim) -%}
    {%- if state.depth != 0 or "" in arguments -%}
        {{- return(none) -}}
    {%- endif -%}
    {{- return(arguments) -}}
{% endmacro %}


{#- `sql as alias` for a select list `margin` spaces in (`later` more once
    the query is nested), within 80 characters where it can be
    (_sqc_wrapped). -#}
{% macro _sqc_wrapped_item(sql, alias, margin=8, later=0) %}
    {{- return(spark_query_catalog._sqc_wrapped(sql, margin, (" as " ~ alias ~ ",") | length, later) ~ " as " ~ alias) -}}
{% endmacro %}


{#- `sql` as written, or where it would pass 80 characters `margin` spaces
    in (`later` more once nested) with `tail` characters after it: a
    difference `a - b` with `- b` on a line of its own, a call's arguments
    on lines of their own, each wrapped the same way. Text already laid
    out on lines of its own is kept as it is. -#}
{% macro _sqc_wrapped(sql, margin, tail, later=0) %}
    {%- if later + margin + sql | length + tail <= 80 or "\n" in sql -%}
        {{- return(sql) -}}
    {%- endif -%}
    {#- Where the parentheses' depth is 0, and the least depth inside a
        leading call's parentheses. -#}
    {%- set scan = namespace(depth=0, least=0, minus=none) -%}
    {%- for character in sql -%}
        {%- if character == "(" -%}
            {%- set scan.depth = scan.depth + 1 -%}
        {%- elif character == ")" -%}
            {%- set scan.depth = scan.depth - 1 -%}
        {%- elif scan.depth == 0 and sql[loop.index0:loop.index0 + 3] == " - " and scan.minus is none -%}
            {%- set scan.minus = loop.index0 -%}
        {%- endif -%}
        {%- if scan.depth == 0 and not loop.last and loop.index0 > 0 and character == ")" -%}
            {%- set scan.least = -1 -%}
        {%- endif -%}
    {%- endfor -%}
    {%- if scan.minus is not none -%}
        {{- return(sql[:scan.minus] ~ "\n" ~ " " * margin ~ "- "
            ~ spark_query_catalog._sqc_wrapped(sql[scan.minus + 3:], margin + 2, tail, later)) -}}
    {%- endif -%}
    {%- set call = modules.re.match("^(\w+)\((.*)\)$", sql) -%}
    {#- A call only when its first parenthesis closes at the end. -#}
    {%- set arguments = spark_query_catalog._sqc_split_arguments(call.group(2))
        if call is not none and scan.least == 0 else none -%}
    {%- if arguments is none -%}
        {{- return(sql) -}}
    {%- endif -%}
    {%- set lines = [] -%}
    {%- for argument in arguments -%}
        {%- do lines.append(" " * (margin + 4) ~ spark_query_catalog._sqc_wrapped(argument, margin + 4, 1, later)
            ~ ("," if not loop.last else "")) -%}
    {%- endfor -%}
    {{- return(call.group(1) ~ "(\n" ~ lines | join("\n") ~ "\n" ~ " " * margin ~ ")") -}}
{% endmacro %}
