"""The card table as data: what a page draws and what a tap means (pure Python, no Streamlit).

- :mod:`~tutor.tabletop.layout`: a table as the card-table view draws it (seats around the
  pile, one seat's view or all cards, cards seen at pickups, marks on impossible copies).
- :mod:`~tutor.tabletop.taps`: the moves a set of tapped cards forms, read off the engine's
  ``legal_moves`` (nothing here decides a rule), and the engine's reason when they form none.
- :mod:`~tutor.tabletop.quick`: "the pile shows X, I hold Y": a table built from a few words.
- :mod:`~tutor.tabletop.copies`: where the extra copies of a card are, on a table that holds
  more of it than its packs do.

:mod:`tutor.webui.card_table` draws the data; the pages wire taps to moves.
"""
