"""The verdict engine and the statistics the tables report, on paired samples and with no claim in sight: the tests
and verdicts (`verdicts`, `mean_tests`, `robust`), the error spending of looks (`sequential`), familywise
corrections, normalised scores and runtime ECDFs, and Theorem 1's and the illustrations' computations. Reads
`analysis.data`; the paper's claims that run on it (`analysis.claims`) sit above it, and it imports nothing of them.
Draws and prints nothing."""
