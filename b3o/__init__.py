"""B3O: Boltzmann batch Bayesian optimisation."""
