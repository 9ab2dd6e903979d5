import os

from b3o import quiet
from bench.numerics import PINNED, pinned

quiet.install()  # TensorFlow's first import in a worker without its CUDA chatter, as the `b3o` command does
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
# In-process trials (the regression fixtures, the runner tests) run on the pinned numerical platform, as `b3o run-trial`
# does; set before anything imports NumPy.
if pinned():
    os.environ.update(PINNED)
