"""Export a trained PyTorch classifier to ONNX and prove onnxruntime computes the same thing."""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import torch
from torch import nn

# onnxruntime and PyTorch may round differently; anything larger is a broken export.
TOLERANCE = 1e-3


def export_onnx(
    model: nn.Module, path: Path, input_shape: Sequence[int], input_name: str, output_names: Sequence[str]
) -> float:
    """Write ``model`` (in eval mode) to ``path`` as ONNX opset 17 with a dynamic batch axis.

    ``input_shape`` is one input's shape without the batch axis, e.g. ``(3, 40, 56)``; the graph's input
    and outputs get the given names, in the order the model returns its outputs (one tensor or a tuple).
    Returns the largest absolute difference between onnxruntime and PyTorch on 8 random inputs, and raises
    ``RuntimeError`` when it exceeds :data:`TOLERANCE`.
    """
    import onnxruntime as ort

    model.eval()
    dummy = torch.zeros(2, *input_shape)
    axes = {name: {0: "n"} for name in (input_name, *output_names)}
    with warnings.catch_warnings():  # the TorchScript exporter is deprecated but exact for these plain CNNs
        warnings.simplefilter("ignore", DeprecationWarning)
        torch.onnx.export(
            model,
            (dummy,),
            str(path),
            input_names=[input_name],
            output_names=list(output_names),
            dynamic_axes=axes,
            opset_version=17,
            dynamo=False,
        )
    x = torch.randn(8, *input_shape, generator=torch.Generator().manual_seed(0))
    with torch.no_grad():
        expected = model(x)
    expected = expected if isinstance(expected, tuple) else (expected,)
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    got = session.run(None, {input_name: x.numpy()})
    err = max(float(np.abs(g - e.numpy()).max()) for g, e in zip(got, expected, strict=True))
    if err > TOLERANCE:
        raise RuntimeError(f"ONNX export disagrees with PyTorch by {err:.2e}")
    return err
