"""What the tables say: the verdict engine and its planned looks, the seed plans checked before a run, verdicts
along the budget, normalised scores and runtime ECDFs, the size of the verdict rule, and Theorem 1's and the
illustrations' computations. Reads `analysis.data`; draws and prints nothing."""
