"""The Shithead tutor: rules as data, an engine that explains itself, and games.

The engine imports nothing heavier than PyYAML; Streamlit and pandas live in the
app (``app.py``, ``pages/``) and the few modules that need them.
"""

from tutor.core.errors import NotationError, TableError, TutorError, VariantError
from tutor.core.moves import Move
from tutor.core.table import Table, table_from_dict
from tutor.engine import Verdict, apply, check, legal_moves
from tutor.rules.variant import Variant, load_variant

__all__ = [
    "Move", "NotationError", "Table", "TableError", "TutorError", "Variant", "VariantError",
    "Verdict", "apply", "check", "legal_moves", "load_variant", "table_from_dict",
]
