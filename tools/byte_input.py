"""Make an int8 detector take the image's bytes and upsample by a broadcast
(``tools/train_dice.py --stage byte-input``, also the last steps of ``--stage quantize``).
Only ONNX is needed, not PyTorch, so the steps can be run and tested without the
training extra."""

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


def expand_upsample(path: Path) -> None:
    """Make an int8 detector's 2x nearest upsampling (a Resize between a DequantizeLinear
    and a QuantizeLinear of the same scale, which ONNX Runtime runs on the bytes) a
    broadcast of the bytes instead: Transpose to NHWC, Unsqueeze, Expand, Reshape,
    Transpose back. ONNX Runtime runs the int8 convolutions in NHWC, where its Resize
    has no fast 2x path (0.65 ms on the 1280x720 frame's detector input, of 5); the
    Expand copies rows (0.1 ms), and the transposes cancel against the convolutions'.
    Nearest upsampling copies bytes, so the outputs are the same bit for bit. A model
    with no such Resize is left alone."""
    import onnx
    from onnx import helper, numpy_helper

    model = onnx.load(str(path))
    graph = model.graph
    values = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    constants = {
        n.output[0]: numpy_helper.to_array(n.attribute[0].t)
        for n in graph.node
        if n.op_type == "Constant" and n.attribute and n.attribute[0].name == "value"
    }
    values.update(constants)
    made = {n.output[0]: n for n in graph.node}
    changed = False
    for resize in [n for n in graph.node if n.op_type == "Resize"]:
        attrs = {a.name: helper.get_attribute_value(a) for a in resize.attribute}
        scales = values.get(resize.input[2]) if len(resize.input) > 2 else None
        dequant = made.get(resize.input[0])
        quants = [n for n in graph.node if n.input and n.input[0] == resize.output[0]]
        if (
            attrs.get("mode") != b"nearest"
            or attrs.get("coordinate_transformation_mode") != b"asymmetric"
            or attrs.get("nearest_mode", b"round_prefer_floor") != b"floor"
            or scales is None
            or scales.tolist() != [1.0, 1.0, 2.0, 2.0]
            or dequant is None
            or dequant.op_type != "DequantizeLinear"
            or len(quants) != 1
            or quants[0].op_type != "QuantizeLinear"
            or quants[0].input[1:] != dequant.input[1:]
        ):
            continue
        (quant,) = quants
        name = resize.name or resize.output[0]

        def const(suffix: str, numbers: list[int], name: str = name) -> onnx.NodeProto:
            out = f"{name}/{suffix}"
            array = numpy_helper.from_array(np.array(numbers, np.int64), out)
            return helper.make_node("Constant", [], [out], name=out, value=array)

        nodes = [
            helper.make_node("Transpose", [dequant.input[0]], [f"{name}/nhwc"], perm=[0, 2, 3, 1]),
            const("axes", [2, 4]),
            helper.make_node("Unsqueeze", [f"{name}/nhwc", f"{name}/axes"], [f"{name}/unit"]),
            const("twice", [1, 1, 2, 1, 2, 1]),
            helper.make_node("Expand", [f"{name}/unit", f"{name}/twice"], [f"{name}/wide"]),
            helper.make_node("Shape", [f"{name}/nhwc"], [f"{name}/shape"]),
            const("factor", [1, 2, 2, 1]),
            helper.make_node("Mul", [f"{name}/shape", f"{name}/factor"], [f"{name}/size"]),
            helper.make_node("Reshape", [f"{name}/wide", f"{name}/size"], [f"{name}/big"]),
            helper.make_node("Transpose", [f"{name}/big"], [quant.output[0]], perm=[0, 3, 1, 2]),
        ]
        at = list(graph.node).index(resize)
        graph.node.remove(resize)
        graph.node.remove(quant)
        for offset, node in enumerate(nodes):
            graph.node.insert(at + offset, node)
        if not any(dequant.output[0] in n.input for n in graph.node):
            graph.node.remove(dequant)
        changed = True
    if changed:
        used = {i for n in graph.node for i in n.input}
        for node in [n for n in graph.node if n.op_type == "Constant"]:
            if node.output[0] not in used:
                graph.node.remove(node)
        onnx.checker.check_model(model)
        onnx.save(model, str(path))


__all__ = ["byte_input", "expand_upsample"]
