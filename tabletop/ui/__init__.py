"""The touchscreen app (pygame-ce): a scene stack, one input stream, sound cues.

``tabletop`` starts it (``tabletop.ui.launch.run_app``); ``tabletop demo`` plays a whole
solo Mathe-Meister game in it offscreen (``tabletop.ui.games.mathe_meister.demo``). See
``app.py`` for the scene lifecycle and ``input.py`` for the events scenes receive.
"""
