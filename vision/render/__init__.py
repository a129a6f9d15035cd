"""The renderer: cards, fonts, suit shapes, whole table scenes and Tock mark stickers, drawn.

Everything here draws; nothing reads a frame. The reader's models were trained on these
drawings, the mark reader measures its references on :func:`vision.render.faces.draw_tock_mark`,
the tests and benchmarks film rendered tables, and hardware's synthetic camera draws its table
with :func:`vision.render.scene.render_scene`. The modules import ``table`` and ``vision.errors``
alone, never the reader, so a picture can be drawn without loading any model.

- :mod:`vision.render.fonts`: the index fonts (package or system), in training and hold-out pools;
- :mod:`vision.render.suits`: suit symbols drawn from a few parameters;
- :mod:`vision.render.faces`: a deck's style, its faces and backs, the Tock mark on a back;
- :mod:`vision.render.joker_faces`: the deck's two jokers;
- :mod:`vision.render.scene` (with ``scene_camera``, ``scene_surfaces``, ``scene_clutter`` and
  ``scene_layouts``): whole tables with exact labels;
- :mod:`vision.render.mark_samples`: marked backs at any angle, one card in a small frame;
- :mod:`vision.render.marks`: the printable sticker sheet (``python -m vision.render.marks``).
"""
