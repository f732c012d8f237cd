"""The bottom layer: cards, moves, the immutable table, errors, share codes."""
