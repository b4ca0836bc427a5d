"""Benchmarks: each prints budget, figure and ratio; ``python -m benchmarks`` runs them all."""
