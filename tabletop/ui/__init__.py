"""The touchscreen app (pygame-ce): a scene stack, one input stream, sound cues.

``tabletop`` starts it (``launch.run_app``); ``tabletop demo --game G`` plays a whole game
of G in it offscreen (``harness.DemoRun``). See ``app.py`` for the scene lifecycle and
``input.py`` for the events scenes receive.
"""

import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # pygame's banner: never on stdout
