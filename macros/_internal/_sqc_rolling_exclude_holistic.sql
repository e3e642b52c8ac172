{#-
    Holistic aggregates (median, percentile_cont, percentile_disc, mode)
    with rolling_select's `exclude`: each frame's values are collected with
    the row they come from (a number, `rolling_row_id`, and its order
    keys), and the excluded rows' values are filtered out before the sort
    (_sqc_rolling_holistic.sql). What is excluded is what the frame holds
    of it, whatever the frame kind: a ROWS frame whose edge cuts through
    the row's peers loses only the peers inside it, and a row outside its
    own frame loses nothing. The cost is the sorted frame's, rows x width.
    The other aggregates of the call take their own forms first
    (_sqc_rolling_exclude.sql), and these are computed over that query.
-#}

{#- The query: `relation_sql`'s columns and each of `items` over `window`
    with `exclude` applied, in the order given. -#}
{% macro _sqc_rolling_exclude_holistic_sql(relation_sql, relation, items, window, exclude) %}
    {%- set macro_name = "rolling_select" -%}
    {%- set holistic = [] -%}
    {%- set others = [] -%}
    {%- for item in items -%}
        {%- do (holistic if spark_query_catalog._sqc_parse_holistic(item.sql, macro_name, "aggregates") is not none
            else others).append(item) -%}
    {%- endfor -%}
    {%- if not holistic or window.empty -%}
        {{- return(spark_query_catalog._sqc_rolling_exclude_sql(relation_sql, relation, items, window, exclude)) -}}
    {%- endif -%}
    {%- set source = relation_sql if not others else "(\n" ~ spark_query_catalog._sqc_rolling_exclude_sql(
        relation_sql, relation, others, window, exclude) | indent(4, first=true) ~ "\n) as rolling_excluded" -%}
    {#- Any number that tells the rows apart: no window, no sort. -#}
    {%- set numbered = "select\n    *,\n    monotonically_increasing_id() as rolling_row_id\nfrom " ~ source -%}
    {%- set source = "(\n" ~ numbered | indent(4, first=true) ~ "\n) as rolling_rows" -%}
    {%- set helpers = ["rolling_row_id"] -%}
    {%- set grouped_frame = window.frame_kind == "groups" -%}
    {%- if grouped_frame -%}
        {#- A GROUPS frame is the RANGE frame over numbered peer groups, and
            the number tells the peers. -#}
        {%- set grouped = spark_query_catalog._sqc_numbered_groups(source, window) -%}
        {%- set source, window = grouped.sql, grouped.window -%}
        {%- do helpers.append("rolling_group") -%}
    {%- endif -%}
    {%- set heads = [] -%}
    {%- for key in window.order_keys -%}
        {%- do heads.append(spark_query_catalog._sqc_key_head(key)) -%}
    {%- endfor -%}
    {%- set peer = heads[0] if heads | length == 1 else "struct(" ~ heads | join(", ") ~ ")" -%}
    {#- With no order key, every row is a peer of every other; a group's
        number is never NULL, so `!=` tells its peers. -#}
    {%- set others_only = "false" if not heads else ("e.peer != rolling_group" if grouped_frame
        else "not e.peer <=> " ~ peer) -%}
    {%- set predicate = {
        "current row": "e.row_id != rolling_row_id",
        "group": others_only,
        "ties": "e.row_id = rolling_row_id or " ~ others_only
    }[exclude] -%}
    {%- set fields = ["rolling_row_id as row_id"] + ([peer ~ " as peer"] if heads and exclude != "current row" else []) -%}
    {%- set kept = {"fields": fields, "predicate": predicate} -%}
    {%- set columns = [] -%}
    {%- for item in holistic -%}
        {%- do columns.append(spark_query_catalog._sqc_native_call_sql(item.sql, window, 4, macro_name, "aggregates",
            relation, kept) ~ " as " ~ spark_query_catalog._sqc_quote(item.alias)) -%}
    {%- endfor -%}
    {%- set query = "select\n    * except (" ~ helpers | join(", ") ~ "),\n" ~ spark_query_catalog._sqc_list_lines(columns, 4)
        ~ "\nfrom " ~ source -%}
    {#- The others' columns come first: put every column in the order given. -#}
    {{- return(spark_query_catalog._sqc_items_in_order(query, items, others + holistic)) -}}
{% endmacro %}
