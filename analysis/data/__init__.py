"""Records to tables: the tidy table, the per-trial and per-iteration tables a run commits, means over seeds, where
the published tables live, and the rerun check of published records. Nothing here decides or draws."""
