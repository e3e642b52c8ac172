{#-
    changed_rows(relation, groups=none)

    A full `select` of the rows of an incremental_windows or
    incremental_sessions table that changed since the calling model last
    ran: for a model downstream of a feature or sessions table, so that its
    incremental run reads only what a late event changed.

    Every row of an incremental_windows table carries
    spark_query_catalog_changed_at: the watermark (the latest loaded_at) of
    the run that last changed its values. A run that rewrites a row without
    changing its values keeps its mark. A session's mark is the latest load
    of its events (it changes only when an event joins it). A session merged
    into another is gone, with no row to mark: it lay within the merged
    session, so over sessions a group session_date is every day a changed
    session spans (drop_emptied_partitions drops the days left with no
    session downstream). The calling model keeps the marks it
    has read in a column of the same name (a per-row model selects it; an
    aggregating one selects max(spark_query_catalog_changed_at) per group),
    so that "since my last run" is the largest mark in `{{ this }}`.

    With `groups` (column names of `relation`), every row of each group that
    holds a changed row: an aggregating model recomputes only those groups.
    With dbt-spark's insert_overwrite, the groups are the model's partition
    column(s): a partition is replaced whole.

    Not incremental (the first run, --full-refresh): every row.

    What it asks first: the calling model's largest mark. The upstream table
    records its watermark before its last run (previous_watermark) and the
    dates that run wrote (changed_dates); the marks above the one before
    are few, and Spark skips the row groups without them, so the first
    question reads only what the last runs wrote, and where the calling model
    has read up to that watermark, it takes those dates and asks no more
    (groups by the table's partition column only). Else it reads every
    mark, as it would with no such record. Where the largest mark is the
    upstream's watermark, nothing changed: `where false`, which reads
    nothing.

    Example:
        {{ changed_rows(ref('card_features'), groups=['spark_query_catalog_date']) }}
    compiles, in an incremental run one run behind its upstream, to
        select *
        from card_features
        where
            spark_query_catalog_date in (
                date '2024-06-01',
                date '2024-06-02'
            )
    and further behind to
        with changed_groups as (
            select distinct spark_query_catalog_date
            from card_features
            where spark_query_catalog_changed_at > 1717200000
        )

        select /*+ broadcast(changed_groups) */ upstream_rows.*
        from card_features as upstream_rows
        left semi join changed_groups
            on
                upstream_rows.spark_query_catalog_date
                = changed_groups.spark_query_catalog_date
-#}
{% macro changed_rows(relation, groups=none) %}
    {{- return(adapter.dispatch("changed_rows", "spark_query_catalog")(relation, groups)) -}}
{% endmacro %}


{% macro default__changed_rows(relation, groups) %}
    {%- set macro_name = "changed_rows" -%}
    {%- set mark = "spark_query_catalog_changed_at" -%}
    {%- if not spark_query_catalog._sqc_is_relation(relation) -%}
        {{- spark_query_catalog._sqc_fail(macro_name, "relation",
            "a Relation (ref() of a model built by incremental_windows or incremental_sessions)", relation) -}}
    {%- endif -%}
    {%- set group_names = spark_query_catalog._sqc_string_list(groups, macro_name, "groups") -%}
    {%- set columns = spark_query_catalog._sqc_columns(relation) -%}
    {%- set names = columns | map(attribute="name") | map("lower") | list if columns is not none else [] -%}
    {%- if columns is not none -%}
        {%- if mark not in names -%}
            {{- spark_query_catalog._sqc_error(macro_name, relation ~ " has no column " ~ mark ~ ": changed_rows"
                ~ " reads tables built by incremental_windows or incremental_sessions (rebuild one built"
                ~ " before version 0.10 (windows) or 0.11 (sessions) with --full-refresh).") -}}
        {%- endif -%}
        {%- for name in group_names if spark_query_catalog._sqc_unquote(name) | lower not in names -%}
            {{- spark_query_catalog._sqc_fail(macro_name, "groups", "columns of " ~ relation ~ " ("
                ~ columns | map(attribute="name") | join(", ") ~ ")", name) -}}
        {%- endfor -%}
        {%- do spark_query_catalog._sqc_check_finished(macro_name, relation) -%}
    {%- endif -%}
    {%- set changed = spark_query_catalog._sqc_changed_since(macro_name, mark, relation) -%}
    {%- if changed is none -%}
        {{- return("select *\nfrom " ~ relation) -}}
    {%- endif -%}
    {%- set since = changed.since -%}
    {%- if changed.dates == [] -%}
        {{- return("select *\nfrom " ~ relation ~ "\nwhere false") -}}
    {%- endif -%}
    {%- if not group_names -%}
        {{- return("select *\nfrom " ~ relation ~ "\nwhere " ~ mark ~ " > " ~ since) -}}
    {%- endif -%}
    {#- A late event can merge two sessions: the later one's row disappears.
        Its day lies between the merged session's start and end dates, so a
        session's group by day is every day of its span. -#}
    {%- set partition_column = spark_query_catalog._sqc_marked_day_column(names) -%}
    {%- set days = group_names | map("lower") | list == [partition_column] -%}
    {#- The dates the upstream's last run wrote, all the calling model has
        not read: their partitions, no question. -#}
    {%- if days and changed.dates -%}
        {%- set dates = [] -%}
        {%- for date in changed.dates -%}
            {%- do dates.append("date '" ~ date ~ "'") -%}
        {%- endfor -%}
        {{- return("select *\nfrom " ~ relation ~ "\nwhere\n    " ~ partition_column ~ " in (\n"
            ~ spark_query_catalog._sqc_list_lines(dates, 8) ~ "\n    )") -}}
    {%- endif -%}
    {%- set selected = [] -%}
    {%- for name in group_names -%}
        {%- do selected.append("explode(\n            sequence(session_date, to_date(session_end))\n        ) as session_date"
            if partition_column == "session_date" and spark_query_catalog._sqc_unquote(name) | lower == "session_date"
            else name) -%}
    {%- endfor -%}
    {#- The days (the table's partitions, never NULL) are few: broadcast, and
        joined by `=`, so that Spark reads only their partitions (dynamic
        partition pruning). Other groups may be NULL: `<=>`. -#}
    {%- set match = [] -%}
    {%- for name in group_names -%}
        {%- set condition = "upstream_rows." ~ name ~ (" = " if days else " <=> ") ~ "changed_groups." ~ name -%}
        {%- do match.append(condition if condition | length <= 64
            else condition | replace(" <=", "\n        <=") | replace(" = ", "\n        = ")) -%}
    {%- endfor -%}
    {%- set query -%}
with changed_groups as (
    select distinct
{%- if selected | length == 1 and "\n" not in selected[0] %} {{ selected[0] }}
{%- else %}
{{ spark_query_catalog._sqc_list_lines(selected, 8) }}
{%- endif %}
    from {{ relation }}
    where {{ mark }} > {{ since }}
)

select{{ " /*+ broadcast(changed_groups) */" if days }} upstream_rows.*
from {{ relation }} as upstream_rows
left semi join changed_groups
    on
        {{ match | join("\n        and ") }}
    {%- endset -%}
    {{- return(query) -}}
{% endmacro %}


{#- The day column, the partitions, of a marked table with the columns
    `names` (lower case): session_date for a sessions table, else
    spark_query_catalog_date (a feature table's). -#}
{% macro _sqc_marked_day_column(names) %}
    {{- return("session_date" if "session_date" in names and "session_end" in names
        else "spark_query_catalog_date") -}}
{% endmacro %}


{#- What the calling model has read, or none where it reads every row (not
    an incremental run, or an empty table): {since: its largest mark (a
    literal), dates: the dates `relation` changed since, where they are
    known (its last run's where `since` is the watermark before that run,
    an empty list where `since` is its watermark: nothing changed), else
    none}. -#}
{% macro _sqc_changed_since(macro_name, mark, relation) %}
    {%- if not execute or not is_incremental() -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- set own = adapter.get_columns_in_relation(this) -%}
    {%- set found = own | selectattr("name", "equalto", mark) | list -%}
    {%- if not found -%}
        {{- spark_query_catalog._sqc_error(macro_name, this ~ " has no column " ~ mark ~ ": a model that reads"
            ~ " changed rows keeps the marks it has read, to know where its next run starts. Select the column"
            ~ " (a row per upstream row) or max(" ~ mark ~ ") as " ~ mark ~ " (a row per group), then rebuild the"
            ~ " model with --full-refresh.") -}}
    {%- endif -%}
    {%- set mark_type = found[0].data_type | lower -%}
    {%- set largest = "select " ~ spark_query_catalog._sqc_loaded_text("max(" ~ mark ~ ")", mark_type)
        ~ "\nfrom " ~ this -%}
    {#- Its table's name, without the limit of `dbt build --empty`. -#}
    {%- set table = spark_query_catalog._sqc_describable(relation) -%}
    {%- set upstream = {"watermark": none, "previous_watermark": none} -%}
    {%- if table is not none -%}
        {%- set upstream = spark_query_catalog._sqc_table_state(
            table, ["watermark", "previous_watermark", "changed_dates"]
        ) -%}
    {%- endif -%}
    {%- set before = upstream.previous_watermark -%}
    {%- set text = run_query(largest ~ "\nwhere " ~ mark ~ " > " ~ before).rows[0][0] if before else none -%}
    {%- if text is none and before
        and run_query("select 1\nfrom " ~ this ~ "\nwhere " ~ mark ~ " = " ~ before ~ "\nlimit 1").rows -%}
        {{- return({"since": before, "dates": upstream.changed_dates.split(",") if upstream.changed_dates else none}) -}}
    {%- endif -%}
    {%- if text is none -%}
        {%- set text = run_query(largest).rows[0][0] -%}
    {%- endif -%}
    {%- if text is none -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- set since = spark_query_catalog._sqc_loaded_literal(text, mark_type) -%}
    {#- Read up to the upstream's watermark, its largest mark: nothing
        changed since. Both literals are written from the same text by the
        same macro, so where the types are the same, equal values are equal
        strings (other types take the question). -#}
    {{- return({"since": since, "dates": [] if since == upstream.watermark else none}) -}}
{% endmacro %}
