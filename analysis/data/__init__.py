"""Records to tables: the tidy table, the per-trial and per-iteration tables a run commits, means over seeds with
their bootstrap intervals (`resampling`: the one resampling convention), where the published tables live. The lowest
of analysis' job packages: it imports none of the others. Nothing here decides or draws."""
