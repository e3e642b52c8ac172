{{ config(materialized='view') }}
-- A permanent view over the events seed.
select * from {{ ref('events') }}
