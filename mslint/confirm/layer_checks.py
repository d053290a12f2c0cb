"""Worker side: confirm layer findings by building the flagged call.

Only the call's literal arguments are used (channel counts that are not
literals are replaced by a stand-in, which the detail names); the callee is the
MindSpore class the linter resolved it to, imported from mindspore, never from
the user's module. What is measured (MindSpore 2.10, FACTS.md):

* ms-conv-padding-ignored, ms-torch-positional-args, ms-torch-argument-type:
  construction raises, or
  (``nn.Dense(a, b, False)``) PyTorch's bias flag went to weight_init: every
  weight starts at the same value (0 for False, 1 for True) and the bias stays;
* ms-dropout-keep-prob: the fraction of activations the layer keeps, in
  training mode, on 100 000 ones, against PyTorch's ``1 - p`` (or construction
  raises: ``nn.Dropout(0.0)``, PyTorch's "no dropout");
* ms-conv-implicit-pad-mode, ms-pool-implicit-stride: the output shape on a
  16-wide input, against PyTorch's formula for the same arguments;
* ms-batchnorm-momentum: how far one training step moves the running mean
  towards the batch mean (the weight of the new batch), against the meaning the
  value has in the other framework.
"""

from __future__ import annotations

import importlib
import inspect
import math
import re

from mslint.confirm import literals, rules
from mslint.confirm.errors import first_useful_line

SPATIAL = 16


def _result(status: str, detail: str) -> dict:
    return {"status": status, "detail": detail}


def import_qname(qname: str):
    parts = qname.split(".")
    if parts[0] != "mindspore":
        raise ImportError(f"{qname} is not a MindSpore name")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for name in parts[cut:]:
            obj = getattr(obj, name)
        return obj
    raise ImportError(qname)


def _error_text(error: BaseException) -> str:
    return f"{type(error).__name__}: {first_useful_line(str(error)) or type(error).__name__}"


def check(ms, np, item: dict, made=None) -> dict:
    """The verdict on a layer finding: on ``made`` (mslint.confirm.build.Made,
    the layer the program built at the flagged line, with the values it
    computed) when given, else on the call rebuilt from its literal arguments."""
    symbol, qname = item["symbol"], item["qname"]
    short = qname.replace("mindspore.", "", 1)
    try:
        cls = import_qname(qname)
    except (ImportError, AttributeError) as error:
        return _result(rules.NOT_RUN, f"cannot import {qname}: {error}")
    try:
        signature = inspect.signature(cls)
    except (TypeError, ValueError):
        return _result(rules.NOT_RUN, f"cannot read the signature of {short}")
    if made is not None:
        return _check_built(ms, np, symbol, cls, short, signature, made)
    params = [p for p in signature.parameters.values() if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    args, kwargs, stand_ins = [], {}, []
    group = None
    group_source = item["kwargs"].get("group")
    if group_source is not None and literals.is_literal(group_source):
        group = literals.evaluate_source(group_source)
    for position, source in enumerate(item["args"]):
        name = params[position].name if position < len(params) else f"argument {position + 1}"
        if name == "group" and literals.is_literal(source):
            group = literals.evaluate_source(source)
    stand_in = rules.SIZE_STAND_IN * (group if isinstance(group, int) and group > 0 else 1)
    for position, source in enumerate(item["args"]):
        name = params[position].name if position < len(params) else f"argument {position + 1}"
        value, problem = _literal(name, source, stand_in, stand_ins)
        if problem:
            return _result(rules.NOT_RUN, problem)
        args.append(value)
    for name, source in item["kwargs"].items():
        value, problem = _literal(name, source, stand_in, stand_ins)
        if problem:
            return _result(rules.NOT_RUN, problem)
        kwargs[name] = value
    try:
        bound = signature.bind_partial(*args, **kwargs).arguments
    except TypeError as error:
        return _result(rules.CONFIRMED, f"{short}(...) cannot take these arguments: {error}")
    sizes = [name for name in stand_ins if name in rules.SIZE_PARAMETERS]
    taken = [f"{', '.join(sizes)} taken as {stand_in}"] if sizes else []
    taken += [name.replace(" as ", " taken as ") for name in stand_ins if name not in rules.SIZE_PARAMETERS]
    note = f" ({'; '.join(taken)})" if taken else ""
    try:
        layer = cls(*args, **kwargs)
    except Exception as error:  # noqa: BLE001 - the construction error is the verdict
        return _construction_failed(symbol, short, error, note)
    return _judge(ms, np, symbol, cls, short, layer, bound, args, note)


def _check_built(ms, np, symbol, cls, short, signature, made) -> dict:
    """Judge the layer the program built, with the values it computed."""
    values = ", ".join(
        [_shown(value) for value in made.args] + [f"{name}={_shown(value)}" for name, value in made.kwargs.items()]
    )
    note = f" (built by {made.recipe}: {short}({values}))" if made.recipe else f" ({short}({values}))"
    if made.error is not None:
        return _construction_failed(symbol, short, made.error, note)
    try:
        bound = signature.bind_partial(*made.args, **made.kwargs).arguments
    except TypeError as error:
        return _result(rules.CONFIRMED, f"{short}(...) cannot take these arguments: {error}{note}")
    return _judge(ms, np, symbol, cls, short, made.instance, bound, list(made.args), note)


def _shown(value) -> str:
    text = repr(value)
    return text if len(text) <= 40 else type(value).__name__


def _construction_failed(symbol: str, short: str, error: BaseException, note: str) -> dict:
    if symbol in ("ms-conv-padding-ignored", "ms-torch-positional-args", "ms-torch-argument-type", "ms-dropout-keep-prob"):
        return _result(rules.CONFIRMED, f"{short}(...) raises {_error_text(error)}{note}")
    return _result(rules.NOT_RUN, f"building {short}(...) failed: {_error_text(error)}{note}")


def _judge(ms, np, symbol, cls, short, layer, bound, args, note) -> dict:
    try:
        checker = _CHECKS[symbol]
    except KeyError:
        return _result(rules.NOT_RUN, rules.NO_CHECK)
    try:
        status, detail = checker(ms, np, cls, short, layer, bound, args)
    except Exception as error:  # noqa: BLE001 - a layer that cannot run on this device
        return _result(rules.NOT_RUN, f"running {short}(...) failed: {_error_text(error)}{note}")
    return _result(status, detail + note)


def _literal(name: str, source: str, stand_in: int, stand_ins: list[str]):
    try:
        return literals.evaluate_source(source), None
    except literals.NotLiteral:
        if name in rules.SIZE_PARAMETERS:
            stand_ins.append(name)
            return stand_in, None
        if name == "group":  # changes neither a construction error nor an output shape
            stand_ins.append("group as 1")
            return 1, None
        return None, f"argument {name}={source} is not a literal"


def _builds_without_error(ms, np, cls, short, layer, bound, args):
    return rules.NOT_REPRODUCED, f"{short}(...) builds without error"


def _positional(ms, np, cls, short, layer, bound, args):
    """``nn.Dense(a, b, False)``: PyTorch's bias flag lands in weight_init."""
    names = list(inspect.signature(cls).parameters)
    if len(args) >= 3 and len(names) >= 3 and names[2] == "weight_init" and hasattr(layer, "weight"):
        weights = layer.weight.asnumpy()
        facts = []
        if weights.size and (weights == weights.flat[0]).all():
            facts.append(f"every weight at {float(weights.flat[0]):g}")
        if hasattr(layer, "has_bias") and bool(layer.has_bias) != bool(args[2]):
            facts.append(f"has_bias={bool(layer.has_bias)}")
        if facts:
            return (
                rules.CONFIRMED,
                f"{short}(..., {args[2]!r}) builds with {' and '.join(facts)}: the third positional argument "
                "went to weight_init, not to PyTorch's bias",
            )
    moved = _data_trap_taken(cls, bound, args)
    if moved is not None:
        return rules.CONFIRMED, moved
    return rules.NOT_REPRODUCED, f"{short}(...) builds and keeps the PyTorch meaning of its positional arguments"


def _data_trap_taken(cls, bound, args) -> str | None:
    """A slot of the generated mapping data (apis.DATA_POSITIONAL_TRAPS): the
    built layer's MindSpore parameter there took PyTorch's value."""
    from mslint.knowledge import apis  # noqa: PLC0415 - the parent's table, read in the worker

    for module in ("mindspore.nn", "mindspore.experimental.optim"):
        for trap in apis.DATA_POSITIONAL_TRAPS.get(f"{module}.{cls.__name__}", ()):
            if trap.index < len(args) and trap.ms_param in bound and bound[trap.ms_param] is args[trap.index]:
                return (f"{cls.__name__}(...) builds with {trap.ms_param}={args[trap.index]!r}: positional argument "
                        f"{trap.index + 1} went to {trap.ms_param}, not to PyTorch's {trap.torch_param}")
    return None


def _dropout(ms, np, cls, short, layer, bound, args):
    value = bound.get("keep_prob")
    if not isinstance(value, (int, float)):
        return rules.NOT_REPRODUCED, f"{short}(...) gets no keep_prob"
    layer.set_train(True)
    ones = ms.Tensor(np.ones((100_000,), dtype=np.float32))
    kept = float((layer(ones).asnumpy() != 0).mean())
    torch_kept = 1 - value
    measured = f"{short}({value!r}) keeps {kept:.1%} of activations in training (measured)"
    if abs(kept - value) <= 0.02 and abs(value - torch_kept) > 0.04:
        return rules.CONFIRMED, f"{measured}; PyTorch's Dropout({value!r}) keeps {torch_kept:.0%}"
    return rules.NOT_REPRODUCED, f"{measured}, as PyTorch's Dropout({value!r}) would"


def _dims(cls) -> int:
    match = re.search(r"(\d)d", cls.__name__)
    return int(match.group(1)) if match else 2


def _per_dim(value, dims: int, default):
    if value is None:
        value = default
    if isinstance(value, (list, tuple)):
        if len(value) == dims:
            return [int(v) for v in value]
        if len(value) == 1:
            return [int(value[0])] * dims
        if len(value) == 2 * dims and value[0::2] == value[1::2]:
            return [int(v) for v in value[0::2]]  # MindSpore's (top, bottom, left, right), symmetric
        return None
    return [int(value)] * dims


def _shape_text(shape) -> str:
    return "x".join(str(int(v)) for v in shape)


def _conv_shape(ms, np, cls, short, layer, bound, args):
    dims = _dims(cls)
    transpose = "Transpose" in cls.__name__
    kernel = _per_dim(bound.get("kernel_size"), dims, 1)
    stride = _per_dim(bound.get("stride"), dims, 1)
    dilation = _per_dim(bound.get("dilation"), dims, 1)
    padding = _per_dim(bound.get("padding", 0), dims, 0)
    output_padding = _per_dim(bound.get("output_padding", 0), dims, 0)
    if None in (kernel, stride, dilation, padding, output_padding):
        return rules.NOT_RUN, "kernel_size, stride, dilation or padding has a form runtime mode does not model"
    size = max(SPATIAL, max(d * (k - 1) + 2 for k, d in zip(kernel, dilation)))
    channels = int(bound.get("in_channels", rules.SIZE_STAND_IN))
    data = ms.Tensor(np.ones((1, channels) + (size,) * dims, dtype=np.float32))
    measured = tuple(layer(data).shape[2:])
    if transpose:
        expected = tuple(
            (size - 1) * s - 2 * p + d * (k - 1) + o + 1
            for k, s, p, d, o in zip(kernel, stride, padding, dilation, output_padding)
        )
    else:
        expected = tuple(
            (size + 2 * p - d * (k - 1) - 1) // s + 1 for k, s, p, d in zip(kernel, stride, padding, dilation)
        )
    torch_name = f"ConvTranspose{dims}d" if transpose else f"Conv{dims}d"
    groups = int(bound.get("group", 1) or 1)
    options = {"stride": tuple(stride), "padding": tuple(padding), "dilation": tuple(dilation), "groups": groups}
    if transpose:
        options["output_padding"] = tuple(output_padding)
    expected = _torch_shape(torch_name, channels, size, dims, channels=(channels, groups), kernel_size=tuple(kernel), **options) or expected
    text = f"{short}(...) gives {_shape_text(measured)} on a {_shape_text((size,) * dims)} input"
    if measured != expected:
        return rules.CONFIRMED, f"{text}; PyTorch's {torch_name} with the same arguments gives {_shape_text(expected)}"
    return rules.NOT_REPRODUCED, f"{text}, as PyTorch's {torch_name} does"


def _pool_shape(ms, np, cls, short, layer, bound, args):
    dims = _dims(cls)
    kernel = _per_dim(bound.get("kernel_size"), dims, 1)
    padding = _per_dim(bound.get("padding", 0), dims, 0)
    dilation = _per_dim(bound.get("dilation", 1), dims, 1) if "Max" in cls.__name__ else [1] * dims
    if None in (kernel, padding, dilation):
        return rules.NOT_RUN, "kernel_size, padding or dilation has a form runtime mode does not model"
    ceil_mode = bool(bound.get("ceil_mode", False))
    size = max(SPATIAL, 2 * max(kernel) + 2)
    data = ms.Tensor(np.ones((1, 1) + (size,) * dims, dtype=np.float32))
    measured = tuple(layer(data).shape[2:])
    rounding = math.ceil if ceil_mode else math.floor
    expected = tuple(
        int(rounding((size + 2 * p - d * (k - 1) - 1) / k)) + 1 for k, p, d in zip(kernel, padding, dilation)
    )
    torch_name = cls.__name__
    options = {"padding": tuple(padding), "ceil_mode": ceil_mode}
    if "Max" in torch_name:
        options["dilation"] = tuple(dilation)
    expected = _torch_shape(torch_name, 1, size, dims, kernel_size=tuple(kernel), **options) or expected
    text = f"{short}(...) gives {_shape_text(measured)} on a {_shape_text((size,) * dims)} input"
    if measured != expected:
        return rules.CONFIRMED, f"{text} (stride 1); PyTorch's {torch_name} (stride = kernel_size) gives {_shape_text(expected)}"
    return rules.NOT_REPRODUCED, f"{text}, as PyTorch's {torch_name} does"


def _torch_shape(name: str, width: int, size: int, dims: int, channels: tuple | None = None, **options) -> tuple | None:
    """The output size PyTorch's layer ``name`` gives with the same values on the
    same input, measured when PyTorch is installed (None otherwise, or when
    PyTorch rejects the values: the caller keeps PyTorch's documented formula)."""
    try:
        import torch  # noqa: PLC0415 - optional: the formula stands in without it
    except Exception:  # noqa: BLE001 - not installed, or broken
        return None
    layer_class = getattr(torch.nn, name, None)
    if layer_class is None:
        return None
    try:
        layer = layer_class(channels[0], channels[1], **options) if channels else layer_class(**options)
        with torch.no_grad():
            return tuple(int(v) for v in layer(torch.ones((1, width) + (size,) * dims)).shape[2:])
    except Exception:  # noqa: BLE001
        return None


def _batchnorm(ms, np, cls, short, layer, bound, args):
    momentum = bound.get("momentum")
    if not isinstance(momentum, (int, float)):
        return rules.NOT_REPRODUCED, f"{short}(...) gets no literal momentum"
    follows_torch = cls.__module__.startswith("mindspore.mint")
    channels = int(bound.get("num_features", rules.SIZE_STAND_IN))
    dims = _dims(cls) if re.search(r"\dd$", cls.__name__) else 2
    shape = (2, channels) + ((2,) * dims if dims > 1 else ())
    how = ""
    try:
        layer.set_train(True)
        layer(ms.Tensor(np.ones(shape, dtype=np.float32)))
        weight = float(_running_mean(layer).asnumpy().mean())
    except Exception as error:  # noqa: BLE001 - e.g. mint's BatchNormExt kernel is missing on CPU
        # the stored momentum is the new batch's weight in both (measured):
        # nn keeps 1 - momentum, mint keeps momentum
        weight = float(_stored_momentum(layer))
        how = f" (read from the layer's stored momentum: running it failed with {_error_text(error)})"
    moved = f"one training step moves the running mean {weight:.0%} of the way to the batch mean{how}"
    if follows_torch:
        other = 1 - momentum
        if abs(weight - other) > 0.01:
            return (
                rules.CONFIRMED,
                f"{short}(momentum={momentum!r}): {moved}; nn.BatchNorm's momentum={momentum!r} would move it {other:.0%}",
            )
    else:
        other = momentum
        if abs(weight - other) > 0.01:
            return (
                rules.CONFIRMED,
                f"{short}(momentum={momentum!r}): {moved}; PyTorch's momentum={momentum!r} moves it {other:.0%}",
            )
    return rules.NOT_REPRODUCED, f"{short}(momentum={momentum!r}): {moved}, the same in both frameworks"


def _running_mean(layer):
    """The running mean, wherever the layer keeps it (nn.BatchNorm3d wraps a BatchNorm2d)."""
    for name, parameter in layer.parameters_and_names():
        if name.endswith(("moving_mean", "running_mean")):
            return parameter
    raise AttributeError(f"{type(layer).__name__} has no running mean")


def _stored_momentum(layer):
    for _, cell in layer.cells_and_names():
        if isinstance(getattr(cell, "momentum", None), (int, float)):
            return cell.momentum
    raise AttributeError(f"{type(layer).__name__} has no momentum")


_CHECKS = {
    "ms-conv-padding-ignored": _builds_without_error,
    "ms-torch-argument-type": _builds_without_error,
    "ms-torch-positional-args": _positional,
    "ms-dropout-keep-prob": _dropout,
    "ms-conv-implicit-pad-mode": _conv_shape,
    "ms-pool-implicit-stride": _pool_shape,
    "ms-batchnorm-momentum": _batchnorm,
}
