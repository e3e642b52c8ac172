{{ config(materialized='ephemeral') }}
-- An ephemeral model: dbt inlines it as a CTE, which no macro can read while
-- the model compiles.
select * from {{ ref('events') }}
