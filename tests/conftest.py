import os

from baselines.numerics import PINNED, pinned

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
# In-process trials (the regression fixtures, the runner tests) run on the pinned numerical platform, as `b3o run-trial`
# does; set before anything imports NumPy.
if pinned():
    os.environ.update(PINNED)

#: the modules that run the real Snakefile for minutes (about 320 and 270 CPU s on the CI machine, a third of the
#: suite): collected first, so that under `--dist loadfile` each starts on a worker at once and the other modules fill
#: in around them, instead of both starting last and one worker finishing them alone
FIRST = ("test_workflow.py", "test_workflow_looks.py")


def pytest_collection_modifyitems(config, items):
    items.sort(key=lambda item: item.path.name not in FIRST)  # stable: each module keeps its own order
