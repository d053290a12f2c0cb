"""mslint.analysis.training_code.may_update_weights: whether a module's own code may
change the weights of what it builds."""

from __future__ import annotations

import textwrap

import astroid
import pytest

from mslint.analysis import training_code

PRELUDE = "import numpy as np\nimport mindspore as ms\nfrom mindspore import nn, ops\n"


@pytest.mark.parametrize(("code", "updates"), [
    # forward passes and printed or compared gradients change no weight
    ("net = nn.Dense(2, 2)\nprint(net(x))\n", False),
    ("g = ms.grad(f, 2)(x, w)\nprint(g)\n", False),
    ("grad_fn = ops.GradOperation(get_all=True)\ng = grad_fn(net)(x)[0].asnumpy()\nprint(np.all(np.abs(g - t) < 1e-3))\n",
     False),
    ("def f(x):\n    z = net(x)\n    return loss_fn(z), z\ngrads, (z,) = ms.grad(f, has_aux=True)(x)\nprint(grads, z)\n", False),
    ("net.fc.weight.set_data(ms.Tensor(np.eye(2)))\ng = ms.grad(f)(x)\nprint(g)\n", False),
    # an optimizer, a training call, a checkpoint, a gradient applied or handed on
    ("opt = nn.SGD(net.trainable_params(), 0.1)\n", True),
    ("model.train(1, data)\n", True),
    ("ms.load_param_into_net(net, ms.load_checkpoint('a.ckpt'))\n", True),
    ("g = ms.grad(f, 2)(x, w)\nops.assign(w, w - 0.1 * g)\n", True),
    ("grads = ms.grad(f, None, params)(x)\nfor p, g in zip(params, grads):\n    p.set_data(p - 0.1 * g)\n", True),
    ("grads = ms.grad(f, None, params)(x)\nupdate(params, grads)\n", True),
    ("def step(x):\n    return ms.grad(f, None, params)(x)\n", True),
    ("g = ms.grad(f, 2)(x, w)\nstate.w = w - g\n", True),
])
def test_may_update_weights(code: str, updates: bool) -> None:
    module = astroid.parse(PRELUDE + textwrap.dedent(code))
    assert training_code.may_update_weights(module) is updates
