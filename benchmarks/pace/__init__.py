"""The pace of an asynchronous game: simulated people playing whole games through the
service, on a fake clock (the model and the figures: :mod:`benchmarks.bench_async`)."""
