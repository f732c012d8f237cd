"""Teaching: the rulebook, the house-rules sheet, worked examples and lessons."""
