{#-
    Spark data types, as dbt reads them from `describe` (lower-cased:
    'bigint', 'decimal(10,2)', 'timestamp_ntz', ...). Every macro that looks
    at a type asks here: one taxonomy for the whole package.
-#}

{#- Integer types and the digits of their largest value. -#}
{% macro _sqc_integral_digits() %}
    {{- return({"tinyint": 3, "byte": 3, "smallint": 5, "short": 5, "int": 10, "integer": 10,
                "bigint": 20, "long": 20}) -}}
{% endmacro %}


{#- (precision, scale) of a decimal type, or none for any other type. -#}
{% macro _sqc_decimal_parts(data_type) %}
    {%- set match = modules.re.match("^(?:decimal|numeric|dec)\s*\((\d+)\s*,\s*(\d+)\)$", (data_type or "") | trim) -%}
    {%- if match is not none -%}
        {{- return([match.group(1) | int, match.group(2) | int]) -}}
    {%- elif (data_type or "") | trim in ["decimal", "numeric", "dec"] -%}
        {{- return([10, 0]) -}}
    {%- endif -%}
    {{- return(none) -}}
{% endmacro %}


{#-
    The class of a type: 'integral', 'decimal', 'floating', 'date',
    'timestamp' (timestamp and timestamp_ntz), 'string', 'boolean', 'void'
    (an all-NULL literal column), 'other', or none when the type is unknown.
-#}
{% macro _sqc_type_class(data_type) %}
    {%- if data_type is none -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- set name = data_type | trim | lower -%}
    {%- if name in spark_query_catalog._sqc_integral_digits() -%}
        {{- return("integral") -}}
    {%- elif spark_query_catalog._sqc_decimal_parts(name) is not none -%}
        {{- return("decimal") -}}
    {%- elif name in ["float", "real", "double"] -%}
        {{- return("floating") -}}
    {%- elif name == "date" -%}
        {{- return("date") -}}
    {%- elif name.startswith("timestamp") -%}
        {{- return("timestamp") -}}
    {%- elif name == "string" or name.startswith("varchar") or name.startswith("char") -%}
        {{- return("string") -}}
    {%- elif name == "boolean" -%}
        {{- return("boolean") -}}
    {%- elif name == "void" -%}
        {{- return("void") -}}
    {%- endif -%}
    {{- return("other") -}}
{% endmacro %}


{% macro _sqc_is_numeric_type(data_type) %}
    {{- return(spark_query_catalog._sqc_type_class(data_type) in ["integral", "decimal", "floating"]) -}}
{% endmacro %}


{% macro _sqc_is_temporal_type(data_type) %}
    {{- return(spark_query_catalog._sqc_type_class(data_type) in ["date", "timestamp"]) -}}
{% endmacro %}


{#-
    The common type of Spark column types, as unpivot and stack need one:
    integers widen to the widest integer, with decimals to a decimal that
    holds both (38 digits at most), with floats to double; date with
    timestamp is timestamp; any other mix (strings included) is string.
    void (an all-NULL literal column) takes any type, as in Spark.
-#}
{% macro _sqc_common_type(types) %}
    {%- set distinct = types | reject("equalto", "void") | unique | list -%}
    {%- if distinct | length == 0 -%}
        {{- return("void") -}}
    {%- endif -%}
    {%- if distinct | length == 1 -%}
        {{- return(distinct[0]) -}}
    {%- endif -%}
    {%- set integral_digits = spark_query_catalog._sqc_integral_digits() -%}
    {%- set ns = namespace(classes=[], widest_integer=0, digits=0, scale=0) -%}
    {%- for data_type in distinct -%}
        {%- set kind = spark_query_catalog._sqc_type_class(data_type) -%}
        {%- do ns.classes.append(kind) -%}
        {%- if kind == "integral" -%}
            {%- set ns.widest_integer = [ns.widest_integer, integral_digits[data_type]] | max -%}
            {%- set ns.digits = [ns.digits, integral_digits[data_type]] | max -%}
        {%- elif kind == "decimal" -%}
            {%- set parts = spark_query_catalog._sqc_decimal_parts(data_type) -%}
            {%- set ns.digits = [ns.digits, parts[0] - parts[1]] | max -%}
            {%- set ns.scale = [ns.scale, parts[1]] | max -%}
        {%- endif -%}
    {%- endfor -%}
    {%- set classes = ns.classes | unique | list -%}
    {%- if classes | reject("in", ["integral", "decimal", "floating"]) | list | length == 0 -%}
        {%- if "floating" in classes -%}
            {{- return("double") -}}
        {%- elif "decimal" in classes -%}
            {%- set precision = [ns.digits + ns.scale, 38] | min -%}
            {{- return("decimal(" ~ precision ~ "," ~ [ns.scale, precision - ns.digits] | min ~ ")") -}}
        {%- endif -%}
        {%- for name in ["tinyint", "smallint", "int", "bigint"] -%}
            {%- if integral_digits[name] == ns.widest_integer -%}
                {{- return(name) -}}
            {%- endif -%}
        {%- endfor -%}
    {%- elif classes | reject("in", ["date", "timestamp"]) | list | length == 0 -%}
        {{- return("timestamp") -}}
    {%- endif -%}
    {{- return("string") -}}
{% endmacro %}


{#- A value read back from Spark as the literal that gives it again: `text`
    is the value cast to string (none for null), `data_type` its type. Dates
    and timestamps come back as text in the session time zone and are read in
    it again. -#}
{% macro _sqc_typed_literal(text, data_type) %}
    {%- if text is none -%}
        {{- return("null") -}}
    {%- endif -%}
    {%- set kind = spark_query_catalog._sqc_type_class(data_type) -%}
    {%- if kind == "string" -%}
        {{- return(spark_query_catalog._sqc_string_literal(text)) -}}
    {%- elif kind == "integral" and data_type in ["tinyint", "smallint", "int", "bigint"] -%}
        {{- return(text) -}}
    {%- elif kind == "boolean" -%}
        {{- return(text | lower) -}}
    {%- elif data_type in ["date", "timestamp", "timestamp_ntz"] -%}
        {{- return(data_type ~ " " ~ spark_query_catalog._sqc_string_literal(text)) -}}
    {%- endif -%}
    {{- return("cast(" ~ spark_query_catalog._sqc_string_literal(text) ~ " as " ~ data_type ~ ")") -}}
{% endmacro %}
