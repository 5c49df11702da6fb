"""Benchmarks: each measures a figure and its baseline in the same run and prints a ratio."""
