"""Rules as data: powers, loading and composing fragments into a Variant, the schema, the play-on matrix."""
