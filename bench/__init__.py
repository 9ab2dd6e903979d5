"""The bench: what runs the methods of `baselines` on the problems of `problems` and keeps what they did.

A trial spec (`spec`) expands from a config into a sparse grid (`grid`); the runner (`runner`) runs one trial from
its initial design (`design`) with its surrogate (`models`) on a pinned numerical platform (`numerics`) and writes
one record with its provenance (`records`, `provenance`); finished records are archived (`archive`); the cost model
(`cost`, `estimate`) sizes the workflow's jobs; `scaling` times one iteration; `cli` is the `b3o` command.
It sits on its own floor above `problems` and `baselines`, which import nothing of it; `analysis` reads its records.
"""
