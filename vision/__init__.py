"""The device's eyes: camera sources, table calibration, the dice and card readers, the
stabiliser and the pipeline that ties them together (DESIGN.md, "Vision").

Modules: ``sources`` (frames), ``table`` (mats and seat zones), ``dice`` and ``cards``
(pure functions of a frame), ``stabilise`` (votes over frames), ``pipeline`` (one
thread, a queue of observations), ``simulate`` (a camera simulation), ``datasets`` (the
shared labelled photos and scoring), ``bench`` (figures) and ``cli``
(``tabletop vision``). Nothing here imports pygame or a deep-learning framework.
"""
