-- depends_on: {{ ref('events') }}
-- Every macro of the package on a ref, in every form.
{{ check_every_macro(ref('events'), every_form=true) }}
