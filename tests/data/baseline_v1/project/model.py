"""Findings recorded in ../baseline.json and ../baseline.sarif by mslint before
findings became typed (commit fc389bb): old baselines must keep matching."""

import numpy as np
from mindspore import nn, ops


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 4)
        self.conv = nn.Conv2d(3, 8, 3, padding=1)

    def construct(self, x):
        label = "größe"; y = np.exp(x)  # noqa: E702
        y = np.exp(x)
        y = np.exp(x)
        z = nn.Dense(4, 4)(y)
        return ops.relu(z + self.dense(x)), label
