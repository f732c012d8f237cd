"""Whole games: dealing, setup, bots, the game runner, records and the conformance run."""
