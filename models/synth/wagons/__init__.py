"""Look-alike Circle the Wagons cards, towns and photos, drawn from ``shared/reference/wagons-cards.md``
(no publisher art is used).

- :mod:`~models.synth.wagons.look`: one print of the art (hue, texture scale and stroke, icon size and
  style, border), :func:`~models.synth.wagons.look.sample_look`.
- :mod:`~models.synth.wagons.edition`: a printing of the cards (the boxed print, the print-and-play sheets,
  random editions nobody designed for), drawn by every renderer below with ``edition=``;
  :mod:`~models.synth.wagons.silhouettes`: the one-colour icon shapes of editions.
- :mod:`~models.synth.wagons.textures`, :mod:`~models.synth.wagons.icons`: the six territory textures and
  the six icons; :mod:`~models.synth.wagons.card`: a card, portrait, 2 × 2 territories.
- :mod:`~models.synth.wagons.town`: random legal towns and the stack of cards behind a given town;
  :mod:`~models.synth.wagons.layout`: the cards laid by hand on the territory lattice.
- :mod:`~models.synth.wagons.photo`: town photos with their truth (``sprawlscan synth --game wagons``);
  :mod:`~models.synth.wagons.deck`: the deck photo of the 18 (``--deck``).
"""
