{#-
    Durations and intervals, read the one way that sessions (the gap) and
    rolling (interval frames) share, with Spark's own rules:

      - a duration string is numbers and units, e.g. '7 days',
        '1 hour 30 minutes', '1 year 2 months' (units microsecond to year,
        singular or plural);
      - an interval literal is passed as written, e.g.
        "interval '1-1' year to month", "interval '7' day", 'interval 2 hours'.

    Spark types an interval by its fields: year-month (years, months) or
    day-time (weeks and days down to microseconds), and refuses both in one
    literal. Only seconds take a fraction.
-#}

{% macro _sqc_interval_units() %}
    {{- return({
        "year": "year_month", "month": "year_month",
        "week": "day_time", "day": "day_time", "hour": "day_time", "minute": "day_time",
        "second": "day_time", "millisecond": "day_time", "microsecond": "day_time"
    }) -}}
{% endmacro %}


{#-
    What an interval-shaped text is, or none when the text is not one:
      sql        the interval as SQL: interval '7 days'
      duration   the normalized duration string ('7 days'), none for a literal
      fields     'year_month' or 'day_time'
      smallest   the smallest unit named ('day', 'hour', ...)
      sign       1, 0 or -1 (a literal: -1 when it starts with a minus)
      amount     seconds (months for year-month) when the text says it plainly
                 (a duration string, or one number and one unit), else none
      type       Spark's type of it: 'interval day', 'interval day to hour', ...
      error      why Spark refuses it (mixed fields, a fraction of a unit other
                 than seconds), or none
-#}
{% macro _sqc_interval(text) %}
    {%- if text is not string -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- set units = spark_query_catalog._sqc_interval_units() -%}
    {%- set unit_pattern = "(microsecond|millisecond|second|minute|hour|day|week|month|year)s?" -%}
    {%- set value = text | trim -%}
    {%- set duration = modules.re.match("^(?:-?\d+(?:\.\d+)?\s+" ~ unit_pattern ~ "\s*)+$", value, modules.re.IGNORECASE) -%}
    {%- set literal = modules.re.match("^interval\s+(.+)$", value, modules.re.IGNORECASE + modules.re.DOTALL) -%}
    {%- if duration is not none -%}
        {%- set normalized = modules.re.sub("\s+", " ", value) | lower -%}
        {%- set body = normalized -%}
        {%- set parts = modules.re.findall("(-?\d+(?:\.\d+)?)\s+" ~ unit_pattern, normalized) -%}
        {%- set sql = "interval " ~ spark_query_catalog._sqc_string_literal(normalized) -%}
    {%- elif literal is not none -%}
        {%- set body = literal.group(1) | trim -%}
        {%- set outside = modules.re.sub("'[^']*'", " ", body) -%}
        {%- set inside = modules.re.findall("'([^']*)'", body) | join(" ") -%}
        {%- set named = modules.re.findall(unit_pattern, outside | lower) -%}
        {%- if named | length > 0 -%}
            {#- interval '1-1' year to month, interval 7 days: the units are outside the quotes. -#}
            {%- set numbers = modules.re.findall("-?\d+(?:\.\d+)?", (inside ~ " " ~ outside) | lower) -%}
            {%- set parts = [] -%}
            {%- for unit in named -%}
                {%- do parts.append([numbers[0] if numbers else "1", unit]) -%}
            {%- endfor -%}
        {%- else -%}
            {#- interval '7 days': a duration string in quotes. -#}
            {%- set parts = modules.re.findall("(-?\d+(?:\.\d+)?)\s+" ~ unit_pattern, inside | lower) -%}
        {%- endif -%}
        {%- if parts | length == 0 -%}
            {{- return(none) -}}
        {%- endif -%}
        {%- set normalized = none -%}
        {%- set sql = "interval " ~ body -%}
    {%- else -%}
        {{- return(none) -}}
    {%- endif -%}

    {%- set ordered = ["year", "month", "week", "day", "hour", "minute", "second", "millisecond", "microsecond"] -%}
    {%- set state = namespace(fields=[], smallest=none, total=0, error=none) -%}
    {%- for number, unit in parts -%}
        {%- set state.fields = state.fields + [units[unit]] -%}
        {%- if state.smallest is none or ordered.index(unit) > ordered.index(state.smallest) -%}
            {%- set state.smallest = unit -%}
        {%- endif -%}
        {%- if "." in number and unit != "second" -%}
            {%- set state.error = "only seconds take a fraction (Spark: INVALID_TYPED_LITERAL)" -%}
        {%- endif -%}
        {%- set state.total = state.total + (number | float) * (
            {"year": 12, "month": 1, "week": 604800, "day": 86400, "hour": 3600, "minute": 60,
             "second": 1, "millisecond": 0.001, "microsecond": 0.000001}[unit]) -%}
    {%- endfor -%}
    {%- set fields = state.fields | unique | list -%}
    {%- if fields | length > 1 -%}
        {%- set state.error = "years and months cannot be mixed with days or smaller units in one interval"
            ~ " (Spark: Cannot mix year-month and day-time fields)" -%}
    {%- endif -%}
    {%- if duration is not none -%}
        {%- set sign = 1 if state.total > 0 else (-1 if state.total < 0 else 0) -%}
    {%- else -%}
        {%- set digits = modules.re.sub("[^0-9]", "", inside ~ outside) -%}
        {%- set sign = -1 if modules.re.match("^'?\s*-", body) else (0 if digits | replace("0", "") == "" else 1) -%}
    {%- endif -%}
    {#- The amount (seconds, or months for year-month) when the text says it
        plainly: a duration string, or one number and one unit. -#}
    {%- set plain = duration is not none or (parts | length == 1 and " to " not in body | lower) -%}
    {#- Spark's interval type: its largest and smallest field (weeks are
        days, fractions of a second are seconds), or the literal's own. -#}
    {%- set field_of = {"week": "day", "millisecond": "second", "microsecond": "second"} -%}
    {%- set named_range = modules.re.search("(year|month|day|hour|minute|second)\\s+to\\s+(year|month|day|hour|minute|second)",
        (body if duration is none else "") | lower) -%}
    {%- if named_range is not none -%}
        {%- set type_fields = [named_range.group(1), named_range.group(2)] -%}
    {%- else -%}
        {%- set used = [] -%}
        {%- for number, unit in parts -%}
            {%- do used.append(ordered.index(unit)) -%}
        {%- endfor -%}
        {%- set type_fields = [ordered[used | min], ordered[used | max]] -%}
    {%- endif -%}
    {%- set type_fields = type_fields | map("replace", "week", "day") | map("replace", "millisecond", "second")
        | map("replace", "microsecond", "second") | list -%}
    {%- set type_name = type_fields[0] if type_fields[0] == type_fields[1] else type_fields | join(" to ") -%}
    {{- return({
        "sql": sql, "duration": normalized, "fields": fields[0], "smallest": state.smallest,
        "sign": sign, "error": state.error, "amount": state.total if plain else none,
        "type": "interval " ~ type_name
    }) -}}
{% endmacro %}


{#- The units of a fixed duration (a session gap), as the docs and errors
    name them: "weeks, days, ... or microseconds". -#}
{% macro _sqc_duration_units_text() %}
    {%- set names = [] -%}
    {%- for unit, fields in spark_query_catalog._sqc_interval_units().items() if fields == "day_time" -%}
        {%- do names.append(unit ~ "s") -%}
    {%- endfor -%}
    {{- return(names[:-1] | join(", ") ~ " or " ~ names[-1]) -}}
{% endmacro %}


{#- A fixed session gap: a positive day-time duration string, normalized
    ('30 minutes'), or none when `text` is not a duration string (a per-row
    SQL expression). A duration Spark refuses is an error naming the macro,
    and so is text shaped like one whose unit is unknown ('30 minuts'): as
    SQL it would fail only when the model runs. -#}
{% macro _sqc_duration(text, macro_name="sessionize", argument="gap") %}
    {%- set interval = spark_query_catalog._sqc_interval(text) -%}
    {%- set units_text = spark_query_catalog._sqc_duration_units_text() -%}
    {%- if interval is none and text is string and modules.re.match("^\s*(?:-?\d+(?:\.\d+)?\s+[a-z_]+\s*)+$", text | lower) -%}
        {%- set units = spark_query_catalog._sqc_interval_units() -%}
        {%- set unknown = [] -%}
        {%- for word in modules.re.findall("\d\s+([a-z_]+)", text | lower) if modules.re.sub("s$", "", word) not in units -%}
            {%- do unknown.append("'" ~ word ~ "'") -%}
        {%- endfor -%}
        {{- spark_query_catalog._sqc_fail(macro_name, argument, "a duration of " ~ units_text
            ~ " (only seconds take a fraction), or a SQL expression: " ~ unknown | join(", ") ~ " is no unit", text) -}}
    {%- endif -%}
    {%- if interval is none or interval.duration is none -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- if interval.error is not none or interval.fields != "day_time" -%}
        {{- spark_query_catalog._sqc_fail(macro_name, argument,
            "a duration of " ~ units_text ~ " (only seconds take a fraction)"
            ~ (": " ~ interval.error if interval.error is not none else ""), text) -}}
    {%- endif -%}
    {{- return(interval.duration) -}}
{% endmacro %}
