"""Make an int8 detector take the image's bytes (``tools/train_dice.py --stage byte-input``,
also the last step of ``--stage quantize``). Only ONNX is needed, not PyTorch, so the
step can be run and tested without the training extra."""

from __future__ import annotations

from pathlib import Path

import numpy as np


def byte_input(path: Path) -> None:
    """Make an int8 detector take the image's bytes: its first step (quantizing the
    normalised float input) moves to the device, where :func:`vision.dice.detector_blob`
    does it with a 256-level table, and its input becomes uint8 in the image's own layout
    with a fourth channel (1xHxWx4; a Transpose to NCHW replaces the QuantizeLinear, and
    the first convolution weighs the fourth channel by zero: ONNX Runtime's int8
    convolution is faster on 4 channels than on 3). Same weights, same quantization, the
    same outputs bit for bit. The input's scale and zero point go into the model's
    metadata (``input_scale``, ``input_zero_point``). A model already so is left alone."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    model = onnx.load(str(path))
    graph = model.graph
    (x,) = [i for i in graph.input if i.name == "x"]
    if x.type.tensor_type.elem_type == TensorProto.UINT8:
        return
    quant = next(n for n in graph.node if n.op_type == "QuantizeLinear" and n.input[0] == "x")
    values = {i.name: i for i in graph.initializer}
    scale = float(numpy_helper.to_array(values[quant.input[1]]))
    zero = int(numpy_helper.to_array(values[quant.input[2]]))

    # The convolutions that read the input, through its DequantizeLinear: their weights
    # get a fourth input channel of zeros.
    def reading(name: str) -> list[onnx.NodeProto]:
        return [n for n in graph.node if n.input and n.input[0] == name]

    dequant = reading(quant.output[0])
    convs = [n for d in dequant for n in reading(d.output[0])]
    if not dequant or not convs or any(n.op_type != "Conv" for n in convs):
        raise SystemExit(f"{path}: the input does not go straight into convolutions")
    for conv in convs:
        if any(a.name == "group" and a.i != 1 for a in conv.attribute):
            raise SystemExit(f"{path}: a grouped first convolution cannot take a 4th channel")
        (weights_dq,) = [n for n in graph.node if n.output[0] == conv.input[1]]
        w = numpy_helper.to_array(values[weights_dq.input[0]])
        padded = np.concatenate([w, np.zeros((w.shape[0], 1, *w.shape[2:]), w.dtype)], axis=1)
        values[weights_dq.input[0]].CopyFrom(numpy_helper.from_array(padded, weights_dq.input[0]))
    n, _, h, width = (d.dim_param or d.dim_value for d in x.type.tensor_type.shape.dim)
    at = list(graph.node).index(quant)
    graph.node.remove(quant)
    graph.node.insert(
        at, helper.make_node("Transpose", ["x"], [quant.output[0]], perm=[0, 3, 1, 2])
    )
    graph.input.remove(x)
    graph.input.insert(0, helper.make_tensor_value_info("x", TensorProto.UINT8, [n, h, width, 4]))
    for key, value in (("input_scale", repr(scale)), ("input_zero_point", str(zero))):
        entry = model.metadata_props.add()
        entry.key, entry.value = key, value
    onnx.checker.check_model(model)
    onnx.save(model, str(path))


__all__ = ["byte_input"]
