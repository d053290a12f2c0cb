"""Trains the ported classifier in graph mode: the program mslint reads the mode from.

``mslint examples/`` sees that this script selects GRAPH_MODE and builds
``Classifier``, so the numpy call in its ``construct`` is graph code whose gradient
is lost (not an assumption about a library no script runs).
"""
import numpy as np
import mindspore as ms
from mindspore import nn, Tensor

from ported_model import Classifier


def main():
    ms.set_context(mode=ms.GRAPH_MODE)
    net = Classifier(classes=10)
    loss_fn = nn.CrossEntropyLoss()
    optimizer = nn.Momentum(net.trainable_params(), learning_rate=0.01, momentum=0.9)

    def forward(images, labels):
        return loss_fn(net(images), labels)

    grad_fn = ms.value_and_grad(forward, None, optimizer.parameters)
    net.set_train()
    images = Tensor(np.random.rand(8, 16, 32, 32), ms.float32)
    labels = Tensor(np.random.randint(0, 10, (8,)), ms.int32)
    for _ in range(3):
        loss, grads = grad_fn(images, labels)
        optimizer(grads)
        print(loss)


if __name__ == "__main__":
    main()
