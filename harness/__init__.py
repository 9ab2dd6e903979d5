"""The harness's ground floor: plumbing that problems, baselines and analysis share and the method library does not
need - plugin registries (`harness.registry`) and the seed streams the trial runner draws besides the method's own
(`harness.seeding`). `b3o` imports nothing from here, so it reads as a trieste extension alone."""
