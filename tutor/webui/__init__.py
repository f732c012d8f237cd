"""Streamlit helpers shared by the app's pages (the only Streamlit code outside app.py and pages/).

- :mod:`tutor.webui.state`: the sidebar and :func:`tutor.webui.state.current_variant`, the variant in use.
- :mod:`tutor.webui.cards`: cards drawn in HTML with text alternatives.
- :mod:`tutor.webui.table_view`: a whole table, all cards or one seat's view.
- :mod:`tutor.webui.verdict_view`: a verdict with its reason, rules, sources and events.
- :mod:`tutor.webui.table_form`: the table editor of the "Is this move legal?" page.

The rules themselves live in :mod:`tutor`; nothing here decides one.
"""
