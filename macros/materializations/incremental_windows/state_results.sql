{#-
    A state frame's values for the rows a run rewrites: one running sum
    over the records (state_records.sql), and the stage that carries them.
-#}


{#- An incremental run's results for a state frame over `source` (the view
    before it): per written row, its keys and order (windows_order), the
    frame's window columns and its state, from the anchors and heads views.
    Given `carried` (the names of source's other columns that the pending
    table keeps), each written row instead, whole: its keys, those columns
    (carried on its record of the axis, as one struct, windows_written_row)
    and the frame's, and windows_write, so that no join brings them back;
    as {ctes, select}, for the CTEs of the statement that reads them.
    Not `shifted` (no key writes more rows than the frame's w + 1: no
    written row leaves a written row's frame, or starts it), a written row
    has its own record alone: its leaving and its start would lie past the
    key's last row (lab, rows 1,000: 1.8M records -> 1.0M, and 0.45 s of
    a 1.9 s statement). -#}
{% macro _sqc_window_state_results_sql(settings, state, source, anchors_view, heads_view, carried=none, shifted=true) %}
    {%- set width = state.width -%}
    {%- set keys = settings.key_columns | join(", ") -%}
    {%- set order = spark_query_catalog._sqc_window_order_sql(settings) -%}
    {%- set written_items = settings.key_columns + spark_query_catalog._sqc_window_value_items(state)
        + [order ~ " as windows_order"] -%}
    {%- set written = {} -%}
    {%- if carried is not none -%}
        {%- set fields = [] -%}
        {%- for column in carried -%}
            {%- do fields.append("'" ~ spark_query_catalog._sqc_unquote(column) ~ "', " ~ column) -%}
        {%- endfor -%}
        {%- do written_items.append("named_struct(\n" ~ spark_query_catalog._sqc_list_lines(fields, 4)
            ~ "\n) as windows_written_row") -%}
        {%- do written.update({"written": "windows_written_row"}) -%}
    {%- endif -%}
    {%- do written_items.append("row_number() over (\n    partition by " ~ keys ~ "\n    order by "
        ~ ([settings.order_by] + settings.event_keys) | join(", ") ~ "\n) as windows_index") -%}
    {%- set nothing = {"written": "null"} if carried is not none else {} -%}
    {#- Each written row and each head with its values' sums and counts
        (entering the frame: the head's enter as a written row's leave). -#}
    {%- set moved_items = spark_query_catalog._sqc_window_moved_items(state) -%}
    {%- set entering = {"sums": [], "counts": []} -%}
    {%- set leaving = {"sums": [], "counts": []} -%}
    {%- set zeros = [] -%}
    {%- for value in state["values"] -%}
        {%- for kind in ["sum", "count"] -%}
            {%- do entering[kind ~ "s"].append("windows_" ~ kind ~ "_" ~ value.field) -%}
            {%- do leaving[kind ~ "s"].append("-windows_" ~ kind ~ "_" ~ value.field) -%}
        {%- endfor -%}
        {%- do zeros.append("0") -%}
    {%- endfor -%}
    {%- set records = [
        spark_query_catalog._sqc_window_records_sql(settings, state, anchors_view, [dict(nothing, axis="0", row="false",
            order="null", start="windows_start", rows="windows_rows", sums=entering.sums, counts=entering.counts)]),
        spark_query_catalog._sqc_window_records_sql(settings, state, "windows_entering", [
            dict(written, axis="windows_index", row="true", order="windows_order", start="null", rows="1",
                sums=entering.sums, counts=entering.counts)
        ] + ([
            dict(nothing, axis="windows_index + " ~ (width + 1), row="false", order="null", start="null",
                rows="-1", sums=leaving.sums, counts=leaving.counts),
            dict(nothing, axis="windows_index + " ~ width, row="false", order="null", start="windows_order",
                rows="0", sums=zeros, counts=zeros)
        ] if shifted else [])),
        spark_query_catalog._sqc_window_records_sql(settings, state, "windows_leaving", [
            dict(nothing, axis="windows_index + 1", row="false", order="null", start="null",
                rows="-1", sums=leaving.sums, counts=leaving.counts),
            dict(nothing, axis="windows_index", row="false", order="null", start="windows_order",
                rows="0", sums=zeros, counts=zeros)
        ])
    ] -%}
    {%- set over = " over (\n    partition by " ~ keys ~ "\n    order by windows_axis\n"
        ~ "    range between unbounded preceding and current row\n)" -%}
    {%- set frame_items = settings.key_columns + ["windows_axis", "windows_row", "windows_order"]
        + (["windows_written_row"] if carried is not none else [])
        + ["last(windows_start, true)" ~ over ~ " as windows_start", "sum(windows_rows)" ~ over ~ " as windows_rows"] -%}
    {%- set sums = [] -%}
    {%- set counts = [] -%}
    {%- for value in state["values"] -%}
        {%- if value.summed -%}
            {%- do frame_items.append("sum(windows_sum_" ~ value.field ~ ")" ~ over ~ " as windows_sum_" ~ value.field) -%}
        {%- endif -%}
        {%- do frame_items.append("sum(windows_count_" ~ value.field ~ ")" ~ over ~ " as windows_count_" ~ value.field) -%}
        {%- do sums.append("windows_sum_" ~ value.field) -%}
        {%- do counts.append("windows_count_" ~ value.field) -%}
    {%- endfor -%}
    {#- Carried, the select names the frames (`frames`): the written row's
        columns are a struct's fields. -#}
    {%- set prefix = "frames." if carried is not none else "" -%}
    {%- set simple = [] -%}
    {%- set computed = [] -%}
    {%- for item in spark_query_catalog._sqc_window_state_outputs(state, prefix) -%}
        {%- do (simple if item.startswith(prefix ~ "windows_rows as ") else computed).append(item) -%}
    {%- endfor -%}
    {%- set result_items = (["frames.windows_written_row.*"] + spark_query_catalog._sqc_prefixed(settings.key_columns, prefix)
        + ["true as windows_write"] if carried is not none else settings.key_columns + ["windows_order"]) + simple + computed
        + [spark_query_catalog._sqc_window_state_struct_sql(state, prefix ~ "windows_rows", prefix ~ "windows_start",
            spark_query_catalog._sqc_prefixed(sums, prefix), spark_query_catalog._sqc_prefixed(counts, prefix))
            ~ " as " ~ state.column] -%}
    {%- set ctes -%}
windows_written as (
    select
{{ spark_query_catalog._sqc_list_lines(written_items | map("indent", 8) | list, 8) }}
    from {{ source }}
    where windows_write
),

windows_entering as (
    select
{{ spark_query_catalog._sqc_list_lines(settings.key_columns + ["windows_index", "windows_order"]
    + (["windows_written_row"] if carried is not none else []) + moved_items, 8) }}
    from windows_written
),

windows_leaving as (
    select
{{ spark_query_catalog._sqc_list_lines(settings.key_columns + ["windows_order", "windows_head + windows_skip as windows_index"]
    + moved_items, 8) }}
    from {{ heads_view }}
),

windows_records as (
    {{ records | join("\n    union all\n    ") }}
),

windows_frames as (
    select
{{ spark_query_catalog._sqc_list_lines(frame_items | map("indent", 8) | list, 8) }}
    from windows_records
)
    {%- endset -%}
    {%- set select -%}
select
{{ spark_query_catalog._sqc_list_lines(result_items | map("indent", 4) | list, 4) }}
from windows_frames{{ " as frames" if carried is not none }}
where {{ prefix }}windows_row
    {%- endset -%}
    {%- if carried is not none -%}
        {{- return({"ctes": ctes, "select": select}) -}}
    {%- endif -%}
    {{- return("with " ~ ctes ~ "\n\n" ~ select) -}}
{% endmacro %}


{#- An incremental run's stage for a state frame: every row of `source`, the
    written ones with the frame's window columns and state from `results`
    (a cached view: the records above are computed once). -#}
{% macro _sqc_window_state_stage_sql(settings, state, source, results) %}
    {%- set match = [] -%}
    {%- for column in settings.key_columns -%}
        {%- do match.append("windows_source." ~ column ~ " <=> windows_results." ~ column) -%}
    {%- endfor -%}
    {%- do match.append("windows_source." ~ settings.order_by ~ " = windows_results.windows_order.at") -%}
    {%- for column in settings.event_keys -%}
        {%- do match.append("windows_source." ~ column ~ " <=> windows_results.windows_order.key_" ~ loop.index) -%}
    {%- endfor -%}
    {%- set outputs = [] -%}
    {%- for output in state.outputs -%}
        {%- do outputs.append("windows_results." ~ spark_query_catalog._sqc_quote(output.alias)) -%}
    {%- endfor -%}
select
{{ spark_query_catalog._sqc_list_lines(["windows_source.*"] + outputs + ["windows_results." ~ state.column], 4) }}
from {{ source }} as windows_source
left join {{ results }} as windows_results
    on
        {{ match | join("\n        and ") }}
{%- endmacro %}
