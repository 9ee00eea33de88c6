"""Synthetic Sprawlopolis cities and photos with ground truth (no publisher art is used).

- :mod:`scoring.placement` plays random legal games (the cities).
- :mod:`vision.synth.blocks`, :mod:`~vision.synth.art`: look-alike card art drawn procedurally, and
  :func:`~vision.synth.art.render_city_topdown`, a top-down render with exact cell centres and labels (the
  cell classifier's training source).
- :mod:`vision.synth.tables`, :mod:`~vision.synth.clutter`: table surfaces and objects on the table.
- :mod:`vision.synth.camera`, :mod:`~vision.synth.scene`: the phone photo simulator,
  :func:`~vision.synth.scene.render_photo`, with :class:`~vision.synth.scene.Conditions`.
- :mod:`vision.synth.truth`: the truth of a photo and its JSON file.
- :mod:`vision.synth.measure`: colour statistics of the art against ``real-cards.md``.
- :mod:`vision.synth.sheet`: the contact sheet (``python -m vision.synth.sheet --out PATH``).
"""
