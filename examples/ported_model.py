"""A small classifier ported from PyTorch with the mistakes mslint exists to catch.

Run ``mslint examples/`` to see them; each comment says what goes wrong.
"""
# pylint: disable=missing-docstring
import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor


class Block(nn.Cell):
    def __init__(self, channels):
        super().__init__()
        # PyTorch's Conv2d(c, c, 3, padding=1): MindSpore raises ValueError (pad_mode is "same")
        self.conv = nn.Conv2d(channels, channels, 3, padding=1)
        # PyTorch momentum 0.1 means "weight of the new batch"; MindSpore's means the opposite
        self.norm = nn.BatchNorm2d(channels, momentum=0.1)
        # PyTorch's MaxPool2d(2) halves the size; MindSpore's stride defaults to 1
        self.pool = nn.MaxPool2d(2)

    def construct(self, x):
        return self.pool(ops.relu(self.norm(self.conv(x))))


class Classifier(nn.Cell):
    def __init__(self, classes=10):
        super().__init__()
        self.block = Block(16)
        # nn.Dropout(0.1) keeps 10% of activations in MindSpore
        self.dropout = nn.Dropout(0.1)
        self.head = nn.Dense(16, classes)

    def construct(self, x):
        features = self.block(x)
        # numpy on a tensor: compiles under LAX, but the gradient through it is zero
        pooled = Tensor(np.mean(features, axis=(2, 3)), ms.float32)
        return self.head(self.dropout(pooled))


class FixedClassifier(nn.Cell):
    """The same network, written for MindSpore: mslint finds nothing here."""

    def __init__(self, classes=10):
        super().__init__()
        self.conv = nn.Conv2d(16, 16, 3, pad_mode="pad", padding=1)
        self.norm = nn.BatchNorm2d(16, momentum=0.9)
        self.pool = nn.MaxPool2d(2, stride=2)
        self.dropout = nn.Dropout(p=0.1)
        self.head = nn.Dense(16, classes)

    def construct(self, x):
        features = self.pool(ops.relu(self.norm(self.conv(x))))
        return self.head(self.dropout(features.mean(axis=(2, 3))))
