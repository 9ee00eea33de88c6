"""Synthetic Sprawlopolis cities and photos with ground truth (no publisher art is used).

- :mod:`scoring.placement` plays random legal games (the cities).
- :mod:`models.synth.blocks`, :mod:`~models.synth.art`: look-alike card art drawn procedurally, and
  :func:`~models.synth.art.render_city_topdown`, a top-down render with exact cell centres and labels (the
  cell classifier's training source).
- :mod:`models.synth.city_edition`: another printing of the cards (zone colours, flat or textured blocks,
  road style), drawn by the card, deck and photo renderers with ``edition=``; the default is the shipped look.
- :mod:`models.synth.tables`, :mod:`~models.synth.clutter`: table surfaces and objects on the table.
- :mod:`models.synth.scene`: the phone photo simulator, :func:`~models.synth.scene.render_photo` (a city
  and its scoring cards on a table), with what varies in :mod:`~models.synth.conditions`
  (:class:`~models.synth.conditions.Conditions`), the camera's geometry in :mod:`~models.synth.camera` and
  what the phone does to the picture in :mod:`~models.synth.phone` (both games' photos use them).
- :mod:`models.synth.truth`: the truth of a photo and its JSON file.
- :mod:`models.synth.measure`: colour statistics of the art against ``real-cards.md``.
- :mod:`models.synth.sheet`: the contact sheet (``python -m models.synth.sheet --out PATH``).
"""
