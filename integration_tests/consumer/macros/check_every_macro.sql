{#-
    Every public macro of spark_query_catalog that reads a relation, called
    on `relation` (any kind of relation: the tests in tests/ pass one each),
    each output row compared, as Spark's to_json of the row, with the rows
    worked out by hand in seeds/expected_macro_outputs.csv. Returns the rows
    that differ: none when every macro gives exactly the expected rows.

    Every macro reads its relation through the same two helpers (its SQL
    name and its columns), so each kind of relation gets one call of each
    macro; with every_form=true (on a ref) the macros' other forms run too:
    frames, exclusions, holistic aggregates, distinct counts, methods.

    Under --empty dbt limits ref() and source() to no rows but not names or
    Relations it did not make: the checks then run their SQL and compare
    nothing.
-#}
{% macro check_every_macro(relation, every_form=false) %}
    {%- set values = spark_query_catalog.pivot_values(relation, 'kind') -%}
    {%- set checks = {
        "pivot": spark_query_catalog.pivot(relation, 'kind', 'sum(amount)', group_by='user_id'),
        "pivot_values": "select '" ~ values | join(",") ~ "' as values",
        "unpivot": "select * from (" ~ spark_query_catalog.unpivot(
            relation, columns=['amount', 'bonus'], name_column='measure', remove=['user_id', 'event_at', 'kind']
        ) ~ ") as unpivoted",
        "sessionize": "select event_id, session_start, session_end from ("
            ~ spark_query_catalog.sessionize(relation, 'user_id', 'event_at', '10 minutes') ~ ") as sessionized",
        "session_windows": "select * except (session_id) from (" ~ spark_query_catalog.session_windows(
            relation, 'user_id', 'event_at', '10 minutes', {'events': 'count(*)', 'total': 'sum(amount)'}
        ) ~ ") as sessions",
        "rolling_range": "select event_id, " ~ spark_query_catalog.rolling(
            'count(*)', 'event_at', partition_by='user_id', frame='range', preceding='10 minutes', relation=relation
        ) ~ " as event_count from " ~ relation,
        "rolling_select": "select event_id, top_amount from (" ~ spark_query_catalog.rolling_select(
            relation, {'top_amount': 'max(amount)'}, 'event_id', partition_by='user_id', preceding=1, method='linear'
        ) ~ ") as rolled",
        "rolling_calendar": spark_query_catalog.rolling_calendar(
            relation, {'events': 'count(*)', 'amount': 'sum(amount)'}, 'event_at', step='hour',
            partition_by='user_id', preceding=1, start='2024-01-01 08:00:00', end='2024-01-01 12:00:00', fill='zero'
        )
    } -%}
    {%- set outputs = [] -%}
    {%- for name, sql in checks.items() -%}
        {%- do outputs.append({"name": name, "sql": sql}) -%}
    {%- endfor -%}
    {%- if not every_form -%}
        {{- return(check_outputs(outputs)) -}}
    {%- endif -%}
    {%- set forms = {
        "pivot_grand_total": spark_query_catalog.pivot(relation, 'kind', 'count(*)', group_by=[]),
        "rolling_rows": "select event_id, " ~ spark_query_catalog.rolling(
            'sum(amount)', 'event_at', partition_by='user_id', preceding=1, relation=relation
        ) ~ " as amount_sum from " ~ relation,
        "rolling_linear": "select event_id, " ~ spark_query_catalog.rolling(
            'sum(amount)', 'event_id', partition_by='user_id', preceding=20, relation=relation, method='linear'
        ) ~ " as amount_sum from " ~ relation,
        "rolling_distinct": "select event_id, kinds from (" ~ spark_query_catalog.rolling_select(
            relation, {'kinds': 'count(distinct kind)'}, 'event_id', partition_by='user_id', preceding=2, method='linear'
        ) ~ ") as counted",
        "rolling_distinct_range": "select event_id, kinds from (" ~ spark_query_catalog.rolling_select(
            relation, {'kinds': 'count(distinct kind)'}, 'event_at', partition_by='user_id', frame='range',
            preceding='20 minutes', method='linear'
        ) ~ ") as counted",
        "rolling_groups": "select event_id, amount_sum from (" ~ spark_query_catalog.rolling_select(
            relation, {'amount_sum': 'sum(amount)'}, 'kind', partition_by='user_id', frame='groups', preceding=1
        ) ~ ") as grouped",
        "rolling_exclude": "select event_id, others, others_top, other_kinds from (" ~ spark_query_catalog.rolling_select(
            relation, {'others': 'sum(amount)', 'others_top': 'max(amount)', 'other_kinds': 'count(distinct kind)'},
            'event_id', partition_by='user_id', frame='range', preceding='unbounded', following='unbounded',
            exclude='current row'
        ) ~ ") as excluded",
        "rolling_exclude_rows": "select event_id, others, others_top, other_kinds from (" ~ spark_query_catalog.rolling_select(
            relation, {'others': 'sum(amount)', 'others_top': 'max(amount)', 'other_kinds': 'count(distinct kind)'},
            'kind', partition_by='user_id', preceding='unbounded', following='unbounded', exclude='group'
        ) ~ ") as excluded_rows",
        "rolling_percentiles": "select event_id, med, middle, usual from (" ~ spark_query_catalog.rolling_select(
            relation, {'med': 'median(amount)', 'middle': 'percentile_disc(0.5) within group (order by amount)',
            'usual': 'mode() within group (order by kind)'}, 'event_id', partition_by='user_id', preceding=2
        ) ~ ") as ranked",
        "rolling_percentiles_wide": "select event_id, med, middle from (" ~ spark_query_catalog.rolling_select(
            relation, {'med': 'median(amount)', 'middle': 'percentile_disc(0.5) within group (order by amount)'},
            'event_id', partition_by='user_id', preceding=63
        ) ~ ") as blocked",
        "rolling_percentiles_excluded": "select event_id, med, others_n, usual from (" ~ spark_query_catalog.rolling_select(
            relation, {'med': 'median(amount)', 'others_n': 'count(*)', 'usual': 'mode() within group (order by kind)'},
            'event_id', partition_by='user_id', frame='range', preceding='unbounded', following='unbounded',
            exclude='current row'
        ) ~ ") as ranked_others",
        "rolling_empty": "select event_id, events, amount_sum from (" ~ spark_query_catalog.rolling_select(
            relation, {'events': 'count(*)', 'amount_sum': 'sum(amount)'}, 'event_at', partition_by='user_id',
            preceding=1, following=-2
        ) ~ ") as emptied",
        "rolling_unordered": "select event_id, " ~ spark_query_catalog.rolling(
            'sum(amount)', [], partition_by='user_id', frame='range', relation=relation
        ) ~ " as amount_sum from " ~ relation
    } -%}
    {%- for name, sql in forms.items() -%}
        {%- do outputs.append({"name": name, "sql": sql}) -%}
    {%- endfor -%}
    {%- set stacked = "select * from (" ~ spark_query_catalog.unpivot(
        relation, columns=['amount', 'bonus'], name_column='measure', remove=['user_id', 'event_at', 'kind'],
        method='stack'
    ) ~ ") as stacked" -%}
    {%- do outputs.append({"name": "unpivot", "sql": stacked, "label": "unpivot, method=stack"}) -%}
    {%- set distinct_native = "select event_id, " ~ spark_query_catalog.rolling(
        'count(distinct kind)', 'event_id', partition_by='user_id', preceding=2, relation=relation
    ) ~ " as kinds from " ~ relation -%}
    {%- do outputs.append({"name": "rolling_distinct", "sql": distinct_native, "label": "rolling_distinct, native"}) -%}
    {#- approx_count_distinct is the exact linear count here. -#}
    {%- set distinct_approx = "select event_id, kinds from (" ~ spark_query_catalog.rolling_select(
        relation, {'kinds': 'approx_count_distinct(kind)'}, 'event_id', partition_by='user_id', preceding=2,
        method='linear'
    ) ~ ") as counted" -%}
    {%- do outputs.append({"name": "rolling_distinct", "sql": distinct_approx, "label": "rolling_distinct, approx"}) -%}
    {#- RANGE frames wholly before the row: over a bigint key (three records
        a row) and over a timestamp (the lean form, NULL keys told apart). -#}
    {%- set before_ids = "select event_id, kinds from (" ~ spark_query_catalog.rolling_select(
        relation, {'kinds': 'count(distinct kind)'}, 'event_id', partition_by='user_id', frame='range',
        preceding=2, following=-1, method='linear'
    ) ~ ") as counted" -%}
    {%- do outputs.append({"name": "rolling_distinct_before", "sql": before_ids, "label": "rolling_distinct_before, ids"}) -%}
    {%- set before_times = "select event_id, kinds from (" ~ spark_query_catalog.rolling_select(
        relation, {'kinds': 'count(distinct kind)'}, 'event_at', partition_by='user_id', frame='range',
        preceding='30 minutes', following='-1 minute', method='linear'
    ) ~ ") as counted" -%}
    {%- do outputs.append({"name": "rolling_distinct_before", "sql": before_times,
        "label": "rolling_distinct_before, times"}) -%}
    {{- return(check_outputs(outputs)) -}}
{%- endmacro %}


{#- The rows of each output ({"name", "sql"[, "label"]}, or a dict of name to
    SQL) that differ from its expected rows: `missing` or `unexpected`. -#}
{% macro check_outputs(outputs) %}
    {%- if outputs is mapping -%}
        {%- set listed = [] -%}
        {%- for name, sql in outputs.items() -%}
            {%- do listed.append({"name": name, "sql": sql}) -%}
        {%- endfor -%}
        {%- set outputs = listed -%}
    {%- endif -%}
    {%- for output in outputs %}
{{ "with " if loop.first else "" }}output_{{ loop.index }} as (
    select to_json(struct(*)) as row_json
    from (
{{ output.sql }}
    ) as macro_output
),

expected_{{ loop.index }} as (
    select row_json
    from {{ ref('expected_macro_outputs') }}
    where check_name = '{{ output.name }}'
),
    {%- endfor %}

differences as (
    {%- for output in outputs %}
    select '{{ output.label or output.name }}' as macro_call, 'missing' as difference, row_json
    from (select * from expected_{{ loop.index }} except all select * from output_{{ loop.index }}) as missing
    union all
    select '{{ output.label or output.name }}' as macro_call, 'unexpected' as difference, row_json
    from (select * from output_{{ loop.index }} except all select * from expected_{{ loop.index }}) as unexpected
    {{- "\n    union all" if not loop.last }}
    {%- endfor %}
)

select * from differences
{%- if flags.EMPTY %}
where false
{%- endif %}
{%- endmacro %}
