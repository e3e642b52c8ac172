{#-
    approx_count_distinct(x[, relativeSD]) over a frame. Spark evaluates it
    over a sliding frame by building the frame's HyperLogLog again for every
    row: rows x frame width.

    The sketch form (rolling_select, ROWS frames with both ends bounded) is
    the block form of min and max (_sqc_rolling_blocks.sql) with a mergeable
    sketch for the value: rows are numbered and cut into blocks of the
    frame's width w; within each block a running HLL sketch
    (hll_sketch_agg) from the block's end and from its start; a frame of w
    rows lies in at most two adjacent blocks, so its sketch is the union
    (hll_union) of the sketch to the end of the block where it starts and
    the sketch from the start of the block where it ends, and its count is
    hll_sketch_estimate of that union. The sketches to the block's end are
    taken first: the lookup after the second running window then needs no
    sort of rows that carry a sketch (1.4x faster, measured).

    Accuracy: Apache DataSketches' HLL with K = 2^lgK buckets, the smallest
    K whose relative standard error 1.04 / sqrt(K) is within the relativeSD
    asked of approx_count_distinct (default 0.05: K = 512, 4.6%). That is
    the standard error, as for Spark's own HLL++: about 95% of frames within
    two of it, 99.7% within three. Below about K / 4 values a sketch keeps
    every value's hash and the count is exact. The answer is deterministic
    (the values' hashes, not a random draw) but is not Spark's HLL++ value:
    each is within the same error of the exact count.

    Values go into the sketch as themselves for int and bigint, otherwise as
    xxhash64 of the value (the hash Spark's approx_count_distinct applies):
    DataSketches skips empty strings, which Spark counts, and takes no other
    type. NULLs are skipped, as approx_count_distinct skips them.

    Over frames where the exact distinct count is linear (RANGE frames with
    interval bounds), approx_count_distinct is that exact count: within any
    error bound, and the faster form there. Quantiles (percentile_approx,
    approx_percentile) have no sketch form: Spark's KLL sketches
    (kll_sketch_agg_*) answer differently from one run of the same query to
    the next; they stay on Spark's frame, which is deterministic.
-#}

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


{#- {"argument", "relative_sd" (its text, or none)} of
    `approx_count_distinct(x[, relativeSD])`, or none. -#}
{% macro _sqc_parse_approx_distinct(expression) %}
    {%- set match = modules.re.match("^\s*approx_count_distinct\s*\((.*)\)\s*$",
        expression, modules.re.IGNORECASE + modules.re.DOTALL) -%}
    {%- set arguments = spark_query_catalog._sqc_split_arguments(match.group(1)) if match is not none else none -%}
    {%- if arguments is none or arguments | length > 2
        or modules.re.match("^distinct\s", arguments[0], modules.re.IGNORECASE) -%}
        {{- return(none) -}}
    {%- endif -%}
    {{- return({"argument": arguments[0], "relative_sd": arguments[1] if arguments | length == 2 else none}) -}}
{% endmacro %}


{#- lgK of the HLL sketch for a relativeSD (its SQL text; none is Spark's
    default 0.05): the smallest K = 2^lgK with 1.04 / sqrt(K) within it, or
    none when it is not a plain number or needs more than 2^21 buckets. -#}
{% macro _sqc_hll_lg_k(relative_sd) %}
    {%- set text = "0.05" if relative_sd is none else relative_sd | trim -%}
    {%- if not modules.re.match("^(\d+\.?\d*|\.\d+)([eE]-?\d+)?[dD]?$", text) -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- set sd = text.rstrip("dD") | float -%}
    {%- for lg_k in range(4, 22) if 1.04 / ((2 ** lg_k) ** 0.5) <= sd -%}
        {{- return(lg_k) -}}
    {%- endfor -%}
    {{- return(none) -}}
{% endmacro %}


{#- The form of approx_count_distinct over `window`: 'sketch' (ROWS, the
    HLL block form), 'exact' (the linear distinct count, where there is
    one), or 'native' (Spark's frame). method='linear' where there is none
    is an error saying why; 'auto' takes a ROWS frame from
    _sqc_linear_min_width('count_distinct') rows wide, and the exact form
    for a RANGE frame with an interval bound. -#}
{% macro _sqc_approx_distinct_form(window, parsed, macro_name, helpers) %}
    {%- if not execute or window.method == "native" -%}
        {{- return("native") -}}
    {%- endif -%}
    {%- set reason = none -%}
    {%- set bounded = window.start.kind != "unbounded" and window.end.kind != "unbounded" -%}
    {%- if not helpers -%}
        {%- set reason = "approx_count_distinct needs helper columns: use rolling_select" -%}
    {%- elif spark_query_catalog._sqc_hll_lg_k(parsed.relative_sd) is none -%}
        {%- set reason = "relativeSD must be a number from 0.00072 (2^21 buckets) up, written out: got "
            ~ parsed.relative_sd -%}
    {%- elif not bounded -%}
        {%- set reason = "approx_count_distinct is linear over frames with both ends bounded" -%}
    {%- elif window.frame_kind == "rows" -%}
        {%- set width = window.end.position - window.start.position + 1 -%}
        {{- return("sketch" if window.method == "linear"
            or width >= spark_query_catalog._sqc_linear_min_width("count_distinct") else "native") -}}
    {%- else -%}
        {%- set reason = spark_query_catalog._sqc_distinct_linear_reason(window, helpers) -%}
    {%- endif -%}
    {%- if reason is not none -%}
        {%- if window.method == "linear" -%}
            {{- spark_query_catalog._sqc_fail(macro_name, "method", "'auto' or 'native' here: there is no"
                ~ " linear form (" ~ reason ~ ")", window.method) -}}
        {%- endif -%}
        {{- return("native") -}}
    {%- endif -%}
    {{- return("exact" if window.method == "linear" or window.start.kind == "interval"
        or window.end.kind == "interval" else "native") -}}
{% endmacro %}


{#- What goes into the sketch for `argument`: itself for int and bigint,
    an int for tinyint and smallint, else its xxhash64 where it is not NULL. -#}
{% macro _sqc_sketch_value_sql(argument, argument_type) %}
    {%- set name = (argument_type or "") | trim | lower -%}
    {%- if name in ["int", "integer", "bigint", "long"] -%}
        {{- return(argument) -}}
    {%- elif name in ["tinyint", "byte", "smallint", "short"] -%}
        {{- return("cast(" ~ argument ~ " as int)") -}}
    {%- endif -%}
    {{- return("case\n    when " ~ argument ~ " is not null\n        then xxhash64(" ~ argument ~ ")\nend") -}}
{% endmacro %}


{#- Every column of `relation_sql` and each approximate distinct count
    ({argument, argument_type, lg_k, alias}) over the ROWS frame of
    `window`, in the HLL block form. -#}
{% macro _sqc_block_sketches_sql(relation_sql, window, sketches) %}
    {%- set lo = window.start.position | int -%}
    {%- set hi = window.end.position | int -%}
    {%- set width = hi - lo + 1 -%}
    {%- set block_keys = window.partition_keys + ["rolling_block"] -%}
    {%- set block_window = {"partition_clause": "partition by " ~ block_keys | join(", "), "order_keys": ["rolling_row"]} -%}
    {%- set block_window_desc = {"partition_clause": block_window.partition_clause, "order_keys": ["rolling_row desc"]} -%}
    {%- set row_window = {"partition_clause": window.partition_clause, "order_keys": ["rolling_block", "rolling_row"]} -%}
    {%- set running = "rows between unbounded preceding and current row" -%}
    {%- set whole = "rows between unbounded preceding and unbounded following" -%}
    {%- set whole_sql = spark_query_catalog._sqc_over_sql(row_window, whole, 8) -%}

    {%- set helpers = ["rolling_row", "rolling_block"] -%}
    {%- set blocks = ["*", "(rolling_row - 1) div " ~ width ~ " as rolling_block"] -%}
    {%- set ends = ["*"] -%}
    {%- set starts = ["*"] -%}
    {#- Where the frame is, against the partition's rows 1..n (`rolling_rows`). -#}
    {%- set frames = ["*"] -%}
    {%- if hi > 0 -%}
        {%- do frames.extend([
            "count(*)" ~ whole_sql ~ " as rolling_rows",
            "max(rolling_block)" ~ whole_sql ~ " as rolling_last_block",
            spark_query_catalog._sqc_shifted("rolling_block", lo, row_window) | indent(8) ~ " as rolling_start_block"
        ]) -%}
        {%- do helpers.extend(["rolling_rows", "rolling_last_block", "rolling_start_block"]) -%}
    {%- endif -%}
    {%- set select = [] -%}
    {%- for sketch in sketches -%}
        {%- set name = "rolling_" ~ loop.index0 -%}
        {%- set value = spark_query_catalog._sqc_sketch_value_sql(sketch.argument, sketch.argument_type) -%}
        {%- do blocks.append(value | indent(8) ~ " as " ~ name ~ "_value") -%}
        {%- set call = "hll_sketch_agg(" ~ name ~ "_value, " ~ sketch.lg_k ~ ")" -%}
        {%- do ends.append(call ~ spark_query_catalog._sqc_over_sql(block_window_desc, running, 8)
            ~ " as " ~ name ~ "_to_block_end") -%}
        {%- do starts.append(call ~ spark_query_catalog._sqc_over_sql(block_window, running, 8)
            ~ " as " ~ name ~ "_from_block_start") -%}
        {%- do helpers.extend([name ~ "_value", name ~ "_to_block_end", name ~ "_from_block_start"]) -%}
        {%- set parts = {"at_start": name ~ "_to_block_end", "at_end": name ~ "_from_block_start"} -%}
        {%- for part, column, offset in [("at_start", name ~ "_to_block_end", lo), ("at_end", name ~ "_from_block_start", hi)]
            if offset != 0 -%}
            {%- do frames.append(spark_query_catalog._sqc_shifted(column, offset, row_window) | indent(8)
                ~ " as " ~ name ~ "_" ~ part) -%}
            {%- do helpers.append(name ~ "_" ~ part) -%}
            {%- do parts.update({part: name ~ "_" ~ part}) -%}
        {%- endfor -%}
        {%- if hi > 0 -%}
            {%- do frames.append("last_value(" ~ name ~ "_from_block_start)" ~ whole_sql ~ " as " ~ name ~ "_last_block") -%}
            {%- do helpers.append(name ~ "_last_block") -%}
        {%- endif -%}
        {%- if lo < 0 and hi > 0 -%}
            {%- do frames.append(call ~ whole_sql ~ " as " ~ name ~ "_partition") -%}
            {%- do helpers.append(name ~ "_partition") -%}
        {%- endif -%}
        {%- set lookup = spark_query_catalog._sqc_sketch_lookup_sql(name, parts, lo, hi) -%}
        {%- do select.append(("coalesce(\n    hll_sketch_estimate(\n        " ~ lookup | indent(8)
            ~ "\n    ),\n    0\n)") | indent(4) ~ " as " ~ sketch.alias) -%}
    {%- endfor -%}
    {%- set ctes = [
        {"name": "rolling_sketch_rows", "from": relation_sql | indent(4), "columns": [
            "*", "row_number()" ~ spark_query_catalog._sqc_over_sql(window, none, 8) ~ " as rolling_row"]},
        {"name": "rolling_sketch_blocks", "from": "rolling_sketch_rows", "columns": blocks},
        {"name": "rolling_sketch_ends", "from": "rolling_sketch_blocks", "columns": ends},
        {"name": "rolling_sketch_starts", "from": "rolling_sketch_ends", "columns": starts}
    ] -%}
    {%- if frames | length > 1 -%}
        {%- do ctes.append({"name": "rolling_sketch_frames", "from": "rolling_sketch_starts", "columns": frames}) -%}
    {%- endif -%}
    {%- set select = ["* except (\n" ~ spark_query_catalog._sqc_list_lines(helpers, 8) ~ "\n    )"] + select -%}
    {{- return(spark_query_catalog._sqc_with_sql(ctes, "select\n" ~ spark_query_catalog._sqc_list_lines(select, 4)
        ~ "\nfrom " ~ ctes[-1].name)) -}}
{% endmacro %}


{#-
    The sketch of the frame [row + lo, row + hi] of the partition's rows
    1..n, from the block sketches at its ends (`parts`: at_start, the
    sketch to the end of the block where the frame starts; at_end, from the
    start of the block where it ends). With s = row + lo and e = row + hi:
      s < 1 and e > n   the whole partition's sketch
      s < 1             at_end, from the start of block 0 to e (NULL when
                        e < 1: an empty frame)
      e <= n            the union of at_start and at_end
      otherwise         at_start, to the partition's end, and the last
                        block's rows when that block is after s's (NULL
                        when s > n)
-#}
{% macro _sqc_sketch_lookup_sql(name, parts, lo, hi) %}
    {%- set both = "hll_union(" ~ parts.at_start ~ ", " ~ parts.at_end ~ ")" -%}
    {%- set before_first = "rolling_row - " ~ (0 - lo) ~ " < 1" -%}
    {%- set branches = [] -%}
    {%- if lo < 0 and hi > 0 -%}
        {%- do branches.append("when " ~ before_first ~ " and rolling_row + " ~ hi ~ " > rolling_rows\n    then "
            ~ name ~ "_partition") -%}
    {%- endif -%}
    {%- if lo < 0 -%}
        {%- do branches.append("when " ~ before_first ~ "\n    then " ~ parts.at_end) -%}
    {%- endif -%}
    {%- if hi > 0 -%}
        {%- do branches.append("when rolling_row + " ~ hi ~ " <= rolling_rows\n    then " ~ both) -%}
        {%- do branches.append("when rolling_start_block < rolling_last_block\n    then hll_union("
            ~ parts.at_start ~ ", " ~ name ~ "_last_block)") -%}
        {%- do branches.append("else " ~ parts.at_start) -%}
    {%- else -%}
        {%- do branches.append("else " ~ both) -%}
    {%- endif -%}
    {%- if branches | length == 1 -%}
        {#- A frame of the row alone: its own block. -#}
        {{- return(both) -}}
    {%- endif -%}
    {{- return("case\n    " ~ branches | join("\n") | indent(4) ~ "\nend") -}}
{% endmacro %}
