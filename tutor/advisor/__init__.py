"""The advisor: "what should I play here, and why?".

- :mod:`~tutor.advisor.view`: what one player knows (the observer), and the cards
  seen going into hands during a game.
- :mod:`~tutor.advisor.determinize`: deals the unseen cards at random, consistently.
- :mod:`~tutor.advisor.ismcts`: information-set MCTS over those deals.
- :mod:`~tutor.advisor.rollout` and :mod:`~tutor.advisor.evaluate`: cheap rollouts
  with the greedy bot, cut off at a turn cap and scored by a fitted evaluation.
- :mod:`~tutor.advisor.explain`: the sentences; :mod:`~tutor.advisor.api`: ``hint``.
"""

from tutor.advisor.api import AdvisorBot, Grade, Hint, MoveAdvice, best_move, grade, hint, prepare
from tutor.advisor.view import KnownCards, PlayerView, observe

__all__ = ["AdvisorBot", "Grade", "Hint", "KnownCards", "MoveAdvice", "PlayerView", "best_move", "grade",
           "hint", "observe", "prepare"]
