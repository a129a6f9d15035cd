"""Torch weights from an exported ONNX model, to fine-tune a shipped model whose torch weights
were not kept (``models/`` holds only the ONNX files, most of them quantised to 8 bits).

The export folds each batch norm into the convolution before it, and quantisation stores every
weight as 8-bit integers with a scale per output channel. :func:`load_onnx_weights` undoes what
can be undone: each ``Conv``/``Gemm`` node of the graph (named after the torch module it came
from, e.g. ``/members.2/features/features.0/features.0.0/Conv``) gives its dequantised weight and
bias to that module; the batch norm after a convolution becomes the identity plus the folded
bias (mean 0, variance 1, scale 1). The torch module then computes what the ONNX model computes,
as long as its batch norms stay in eval mode: fine-tune it with :func:`freeze_norms`.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import torch
from onnx import numpy_helper
from torch import nn


def _constants(graph: onnx.GraphProto) -> dict[str, np.ndarray]:
    """Every initializer, and the output of every DequantizeLinear whose inputs are initializers."""
    values = {init.name: numpy_helper.to_array(init) for init in graph.initializer}
    for node in graph.node:
        if node.op_type != "DequantizeLinear" or not all(name in values for name in node.input):
            continue
        q = values[node.input[0]].astype(np.float64)
        scale = values[node.input[1]].astype(np.float64)
        zero = values[node.input[2]].astype(np.float64) if len(node.input) > 2 else np.zeros_like(scale)
        axis = next((a.i for a in node.attribute if a.name == "axis"), 1)
        if scale.ndim == 1 and scale.size > 1:  # per channel along ``axis``
            shape = [1] * q.ndim
            shape[axis] = scale.size
            scale, zero = scale.reshape(shape), zero.reshape(shape)
        values[node.output[0]] = ((q - zero) * scale).astype(np.float32)
    return values


def _module_name(node_name: str) -> str:
    """``/members.2/embed/embed.0/Gemm`` → ``members.2.embed.0``; ``/rank/Gemm`` → ``rank``."""
    parts = node_name.strip("/").split("/")[:-1]
    last = parts[-1]
    root = last.split(".")[0]
    k = next(i for i, part in enumerate(parts) if part == root or part.split(".")[0] == root)
    return ".".join([*parts[:k], last])


def load_onnx_weights(model: nn.Module, path: Path) -> nn.Module:
    """Fill ``model`` (the architecture the ONNX file at ``path`` was exported from) with its
    weights; answers ``model``. A node whose module ``model`` lacks is a ValueError."""
    graph = onnx.load(str(path)).graph
    values = _constants(graph)
    modules = dict(model.named_modules())
    filled = 0
    for node in graph.node:
        if node.op_type not in ("Conv", "Gemm"):
            continue
        name = _module_name(node.name)
        weight = values[node.input[1]]
        bias = values[node.input[2]] if len(node.input) > 2 else np.zeros(weight.shape[0], np.float32)
        with torch.no_grad():
            if node.op_type == "Gemm":
                linear = modules.get(name)
                if not isinstance(linear, nn.Linear):
                    raise ValueError(f"{path}: node {node.name} has no linear layer {name!r} in the model")
                trans_b = next((a.i for a in node.attribute if a.name == "transB"), 0)
                linear.weight.copy_(torch.from_numpy(weight if trans_b else weight.T))
                linear.bias.copy_(torch.from_numpy(bias))
            else:
                conv = modules.get(name)
                if not isinstance(conv, nn.Conv2d):
                    raise ValueError(f"{path}: node {node.name} has no convolution {name!r} in the model")
                conv.weight.copy_(torch.from_numpy(weight))
                # The batch norm folded into it is the module after it in its block ("x.0" → "x.1").
                parent, _, index = name.rpartition(".")
                norm = modules.get(f"{parent}.{int(index) + 1}") if index.isdigit() else None
                if isinstance(norm, nn.BatchNorm2d) and norm.running_mean is not None and norm.running_var is not None:
                    norm.weight.fill_(1.0)
                    norm.bias.copy_(torch.from_numpy(bias))
                    norm.running_mean.zero_()
                    norm.running_var.fill_(1.0 - norm.eps)
                elif conv.bias is not None:
                    conv.bias.copy_(torch.from_numpy(bias))
                else:
                    raise ValueError(f"{path}: convolution {name!r} has a bias but no bias or batch norm to take it")
        filled += 1
    if not filled:
        raise ValueError(f"{path}: no Conv or Gemm node to take weights from")
    return model


def freeze_norms(model: nn.Module) -> nn.Module:
    """Batch norms in eval mode (their statistics fixed, their scale and shift still learnt), the
    rest as it was: how a model loaded by :func:`load_onnx_weights` is fine-tuned."""
    for module in model.modules():
        if isinstance(module, nn.BatchNorm2d):
            module.eval()
    return model
