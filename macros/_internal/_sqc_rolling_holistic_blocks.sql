{#-
    Exact percentiles (median, percentile_cont, percentile_disc) over a
    ROWS frame of the `w` rows up to the current row, without sorting each
    frame (docs/rolling.md: the shared core). Rows are numbered and cut into
    blocks of b rows, b about the square root of w. Every frame that ends in
    block c holds the m whole blocks before it (the core, m = (w - b) div b
    blocks), plus the rows of c up to its own and at most 2b - 1 rows
    before the core (the near values). So per block: the core's values
    sorted once; per row: the 3b or fewer near values, and a slice of the
    core around the rank it wants. The k-th smallest (from 0) of the core
    and s other values lies among the core's (k - s)-th to (k + 1)-th and
    those s: that slice and the s values, sorted, hold it (and the next, to
    interpolate) at min(k, s). The cost is about b values a row and
    w log w a block, where the sorted frame sorts w values a row.
-#}

{#- Whether the block form fits `holistic` (parsed) over `window`: `auto`,
    a ROWS frame from a bounded offset to the current row, at least 64 rows
    wide (measured: narrower, the sorted frame is as fast), a percentile
    (mode has no rank to slice at), and for percentile_cont a value whose
    doubles the sorted frame would take too (integers and decimals). -#}
{% macro _sqc_holistic_blocks_fit(window, holistic, relation) %}
    {%- if window.method != "auto" or window.frame_kind != "rows" or window.start.kind != "offset"
        or window.end.kind != "current" or spark_query_catalog._sqc_rows_width(window) < 64
        or holistic.function == "mode" -%}
        {{- return(false) -}}
    {%- endif -%}
    {{- return(holistic.function == "disc" or spark_query_catalog._sqc_type_class(spark_query_catalog._sqc_argument_type(
        holistic.value, window.columns, relation)) in ["integral", "decimal"]) -}}
{% endmacro %}


{#- The query: `relation_sql`'s columns, then each of `items` (holistic
    aggregates the block form fits) over `window`, in that order. Each
    value set k (a distinct value expression; doubles for percentile_cont)
    has its frame's count (rolling_k_count) and, per block, its values
    with their row's number (rolling_k_values), its sorted core
    (rolling_k_core) and the values of the blocks before the core
    (rolling_k_edge); per row, its near values (rolling_k_near). Fraction
    j of item i has its position from 0 (rolling_i_j_pos), the value there
    and the next (rolling_i_j_pair) and, for percentile_cont, the weight of
    the next (rolling_i_j_weight). Stages: rolling_numbered, rolling_ranked
    (positions), rolling_blocks, rolling_cores, rolling_nears (per row, in
    the block's row: no copy of the core) and rolling_answers (exploded). -#}
{% macro _sqc_holistic_blocks_sql(relation_sql, window, items) %}
    {%- set reach = -window.start.position | int -%}
    {%- set size = [(((reach + 1) ** 0.5) | round | int), 8] | max -%}
    {%- set core_blocks = (reach + 1 - size) // size -%}
    {%- set edge_blocks = (reach + size - 1) // size -%}
    {%- set partitions = [] -%}
    {%- set names = [] -%}
    {%- for key in window.partition_keys -%}
        {%- do partitions.append(key ~ " as rolling_partition_" ~ loop.index0) -%}
        {%- do names.append("rolling_partition_" ~ loop.index0) -%}
    {%- endfor -%}
    {%- set block_window = {
        "partition_clause": "partition by " ~ names | join(", ") if names else "",
        "order_keys": ["rolling_block"]
    } -%}
    {%- set frames = spark_query_catalog._sqc_prefix_frames(window, window.key) -%}
    {%- set numbered = ["*", "row_number()" ~ spark_query_catalog._sqc_over_sql(window, none, 8) ~ " as rolling_row"] -%}
    {%- set ranked = ["*"] -%}
    {%- set blocked = [
        "(rolling_row - 1) div " ~ size ~ " as rolling_block",
        "collect_list(struct(*)) as rolling_rows"
    ] -%}
    {%- set cores = ["*"] -%}
    {%- set nears = ["r as rolling_values"] -%}
    {%- set pairs = ["p.rolling_values"] -%}
    {%- set helpers = ["rolling_row"] -%}
    {%- set answers = [] -%}
    {%- set sets = [] -%}
    {%- for item in items -%}
        {%- set i = loop.index0 -%}
        {%- set holistic = spark_query_catalog._sqc_parse_holistic(item.sql, "rolling_select", "aggregates") -%}
        {%- set typed = "double(" ~ holistic.value ~ ")" if holistic.function == "cont" else holistic.value -%}
        {%- if typed not in sets -%}
            {%- set k = "rolling_" ~ sets | length -%}
            {%- do sets.append(typed) -%}
            {%- do numbered.append(spark_query_catalog._sqc_indented(spark_query_catalog._sqc_prefix_difference(
                "count", holistic.value, window, frames), 8) ~ " as " ~ k ~ "_count") -%}
            {%- do helpers.append(k ~ "_count") -%}
            {%- do blocked.append("array_sort(collect_list(if(\n            " ~ holistic.value ~ " is null,\n            null,\n"
                ~ "            struct(" ~ typed ~ " as val, rolling_row)\n        ))) as " ~ k ~ "_values") -%}
            {%- do cores.append("sort_array(flatten(\n            collect_list(transform(" ~ k ~ "_values, e -> e.val))"
                ~ spark_query_catalog._sqc_over_sql(block_window, "rows between " ~ core_blocks ~ " preceding and 1 preceding", 12)
                ~ "\n        )) as " ~ k ~ "_core") -%}
            {%- do cores.append("flatten(collect_list(" ~ k ~ "_values)"
                ~ spark_query_catalog._sqc_over_sql(block_window, "rows between " ~ edge_blocks ~ " preceding and "
                ~ (core_blocks + 1) ~ " preceding", 8) ~ ") as " ~ k ~ "_edge") -%}
            {%- do nears.append("concat(\n    transform(\n        filter(\n            " ~ k ~ "_values,\n"
                ~ "            e -> e.rolling_row <= r.rolling_row\n        ),\n        e -> e.val\n    ),\n"
                ~ "    transform(\n        filter(\n            " ~ k ~ "_edge,\n"
                ~ "            e -> e.rolling_row >= r.rolling_row - " ~ reach ~ "\n        ),\n        e -> e.val\n    )\n"
                ~ ") as " ~ k ~ "_near") -%}
        {%- endif -%}
        {%- set k = "rolling_" ~ sets.index(typed) -%}
        {%- set values = [] -%}
        {%- for fraction in holistic.fractions -%}
            {%- set at = "rolling_" ~ i ~ "_" ~ loop.index0 -%}
            {%- set count = k ~ "_count" -%}
            {%- if holistic.function == "cont" -%}
                {%- set f = spark_query_catalog._sqc_one_minus(fraction) if holistic.descending else fraction -%}
                {%- do ranked.append("double(" ~ f ~ ") * greatest(" ~ count ~ " - 1, 0) as " ~ at ~ "_pos") -%}
                {%- set position = "int(floor(p." ~ at ~ "_pos))" -%}
                {%- do values.append("get(rolling_answers." ~ at ~ "_pair, 0)\n+ rolling_answers." ~ at ~ "_weight * (\n"
                    ~ "    try_element_at(rolling_answers." ~ at ~ "_pair, -1)\n    - get(rolling_answers." ~ at ~ "_pair, 0)\n)") -%}
                {%- do pairs.append("p." ~ at ~ "_pos\n- floor(p." ~ at ~ "_pos) as " ~ at ~ "_weight") -%}
            {%- else -%}
                {#- The first value whose share of the frame reaches f,
                    from the other end when descending. -#}
                {%- set rank = "greatest(int(ceil(" ~ fraction ~ " * " ~ count ~ ")), 1)" -%}
                {%- do ranked.append(("greatest(" ~ count ~ ", 1)\n        - " ~ rank if holistic.descending else rank ~ " - 1")
                    ~ " as " ~ at ~ "_pos") -%}
                {%- set position = "p." ~ at ~ "_pos" -%}
                {%- do values.append("get(rolling_answers." ~ at ~ "_pair, 0)") -%}
            {%- endif -%}
            {%- do helpers.append(at ~ "_pos") -%}
            {%- do nears.append("r." ~ at ~ "_pos") -%}
            {%- do pairs.append("slice(\n    sort_array(concat(\n        slice(\n            " ~ k ~ "_core,\n"
                ~ "            greatest(\n                1,\n                " ~ position ~ "\n"
                ~ "                - size(p." ~ k ~ "_near) + 1\n            ),\n"
                ~ "            size(p." ~ k ~ "_near) + 2\n        ),\n        p." ~ k ~ "_near\n    )),\n"
                ~ "    least(\n        " ~ position ~ ",\n        size(p." ~ k ~ "_near)\n    ) + 1,\n    2\n) as "
                ~ at ~ "_pair") -%}
        {%- endfor -%}
        {#- An empty frame's percentiles are NULL, not an array of NULLs. -#}
        {%- set value = values[0] if not holistic.array else "if(\n    rolling_values." ~ k ~ "_count = 0,\n    null,\n"
            ~ "    array(\n        " ~ spark_query_catalog._sqc_indented(values | join(",\n"), 8) ~ "\n    )\n)" -%}
        {%- do answers.append(value ~ " as " ~ spark_query_catalog._sqc_quote(item.alias)) -%}
    {%- endfor -%}
    {%- set stages = [
        ("rolling_numbered", numbered, relation_sql | indent(4), none),
        ("rolling_ranked", ranked, "rolling_numbered", none),
        ("rolling_blocks", partitions + blocked, "rolling_ranked", names + ["rolling_block"]),
        ("rolling_cores", cores, "rolling_blocks", none)
    ] -%}
    {%- set lines = [] -%}
    {%- for name, columns, source, group in stages -%}
        {%- do lines.append(("with " if loop.first else "") ~ name ~ " as (\n    select\n"
            ~ spark_query_catalog._sqc_list_lines(columns, 8) ~ "\n    from " ~ source
            ~ ("\n    group by " ~ group | join(", ") if group else "") ~ "\n),\n") -%}
    {%- endfor -%}
    {%- do lines.append("rolling_nears as (\n    select\n        *,\n        transform(\n            rolling_rows,\n"
        ~ "            r -> struct(\n" ~ spark_query_catalog._sqc_list_lines(nears, 0) | indent(16, first=true) ~ "\n            )\n        ) as rolling_pending\n    from rolling_cores\n),\n") -%}
    {%- do lines.append("rolling_answers as (\n    select\n        inline(transform(\n            rolling_pending,\n"
        ~ "            p -> struct(\n" ~ spark_query_catalog._sqc_list_lines(pairs, 0) | indent(16, first=true)
        ~ "\n            )\n        ))\n    from rolling_nears\n)\n") -%}
    {%- do lines.append("select\n    rolling_values.* except (\n" ~ spark_query_catalog._sqc_list_lines(helpers, 8)
        ~ "\n    ),\n" ~ spark_query_catalog._sqc_list_lines(answers, 0) | indent(4, first=true) ~ "\nfrom rolling_answers") -%}
    {{- return(lines | join("\n")) -}}
{% endmacro %}
