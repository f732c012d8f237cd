"""Information-set Monte Carlo tree search (Cowling, Powley and Whitehouse, 2012).

Single-observer ISMCTS: one tree over the moves of *every* player, grown from the
observer's information set. Each iteration

1. deals a determinisation of the view (:class:`~tutor.advisor.determinize.Determinizer`),
2. walks down the tree with moves legal *in that deal*: a child is "available"
   when its move is legal there, and selection is UCB1 over the available children
   with the availability count in place of the parent's visits (the subset-armed
   bandit of the paper),
3. adds one new child, plays a rollout from it (:mod:`tutor.advisor.rollout`),
4. backs the rewards up; each node keeps the reward of the seat that moved into it,
   so every player in the tree plays for themselves.

A line that picks up into a position the observer has been in before in this game
(the view's ``loops``, from :class:`~tutor.advisor.view.KnownCards`) ends there, in the
tree or in the rollout, scored as nothing for the observer
(:func:`~tutor.advisor.rollout.loop_rewards`): a game that goes round in a circle is
not won, so the search looks for the move that leaves the circle.

Moves are keyed by what matters to play, not by suit: ``play 7H`` and ``play 7S``
are one choice when no rule of the variant looks at suits, and all flips of unseen
face-down cards are one choice. The root keeps every concrete move of each key.

The search is anytime (:meth:`ISMCTS.run` can be called again to continue), reads
only the :class:`~tutor.advisor.view.PlayerView`, and is deterministic for a seed
and an iteration budget. OpenSpiel's ``open_spiel/python/algorithms/ismcts.py`` and
``mcts.py`` are the models: injected rng and rollout, ``__slots__`` nodes.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from tutor.advisor.determinize import Determinizer
from tutor.advisor.rollout import Avoid, Restart, Rollout, SimRollout, loop_rewards
from tutor.advisor.view import PlayerView
from tutor.core.moves import FLIP, Move
from tutor.engine import game_over, legal_moves
from tutor.engine.position import PICKED_UP, Position
from tutor.play.game import avoided
from tutor.rules.variant import Variant

MoveKey = tuple[object, ...]

# Powers that look at suits or colours: with any of them, cards of one rank are not alike.
SUIT_POWERS = frozenset({"deflect", "runs"})
_SUIT_WORDS = ("suit", "red", "black", "colour", "color")


def suit_blind(v: Variant) -> bool:
    """True when no power of the variant looks at suits (so equal ranks are one choice)."""
    used = v.powers_used
    return not (used & SUIT_POWERS or any(word in p for p in used for word in _SUIT_WORDS))


def move_key(move: Move, blind: bool = True) -> MoveKey:
    """The choice a move stands for: ranks, not suits, when suits do not matter.

    Blind flips of unseen cards are one choice; a claim (Bluff) and a swap that follows a
    play are part of the choice.
    """
    extra: tuple[object, ...] = ()
    if move.claim >= 0 or move.give >= 0:
        give = move.give >> 2 if blind and move.give >= 0 else move.give
        take = move.take >> 2 if blind and move.take >= 0 else move.take
        extra = (move.claim, give, take, move.target, move.index if move.take < 0 and move.give >= 0 else 0)
    if move.kind == FLIP:
        return (FLIP, *extra)
    if blind:
        return (move.kind, tuple(c >> 2 for c in move.cards), *extra)
    return (move.kind, move.cards, *extra)


class Node:
    """One move in the tree, with the statistics of the seat that made it. Its children are
    keyed by their keys' numbers in the search (:meth:`ISMCTS.child` finds one by its key)."""

    __slots__ = ("key", "seat", "children", "visits", "avail", "total", "total_sq")

    def __init__(self, key: MoveKey, seat: int) -> None:
        self.key = key
        self.seat = seat
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.avail = 0
        self.total = 0.0
        self.total_sq = 0.0

    @property
    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0

    def __repr__(self) -> str:
        return f"Node({self.key}, seat={self.seat}, visits={self.visits}, mean={self.mean:.3f})"

    def children_str(self) -> str:
        """The children, most visited first (OpenSpiel's ``children_str``)."""
        kids = sorted(self.children.values(), key=lambda n: -n.visits)
        return "\n".join(f"{n.key}: {n.visits} visits, mean {n.mean:.3f}, avail {n.avail}" for n in kids)


@dataclass(frozen=True)
class Progress:
    """What a progress callback is told after each batch."""

    iterations: int
    elapsed: float
    fraction: float  # of the budget used, 0..1


@dataclass(frozen=True)
class RootStat:
    key: MoveKey
    moves: tuple[Move, ...]  # every concrete move of this choice, the first shown
    visits: int
    mean: float
    std: float
    replies: tuple[tuple[MoveKey, int, int], ...]  # (key, seat, visits) of what followed


class ISMCTS:
    """The search for one view. ``run`` it with a budget; ask ``stats`` for the answer."""

    def __init__(
        self,
        view: PlayerView,
        v: Variant,
        *,
        seed: int = 0,
        rng: random.Random | None = None,
        rollout: Rollout | None = None,
        exploration: float = 0.7,
        root_floor: int = 8,
        max_depth: int = 40,
        root_moves: Iterable[Move] | None = None,
    ) -> None:
        self.view = view
        self.v = v
        self.rng = rng if rng is not None else random.Random(seed)
        self.rollout: Rollout = rollout if rollout is not None else SimRollout(cut=12)
        # a rollout that plays on the search's own position (and may rebuild where it started)
        self.on_position: Callable[[Position, random.Random, Avoid | None, Restart], list[float]] | None = getattr(
            self.rollout, "on_position", None)
        self.c = exploration
        self.root_floor = root_floor
        self.floor_met = not root_floor  # has every choice at the root had its ``root_floor`` visits?
        self.max_depth = max_depth
        self.blind = suit_blind(v)
        self.det = Determinizer(view, v)
        # positions after pickups the observer has been in: a line that picks up into one
        # again goes round a circle and is scored by loop_rewards, not played on
        self.avoid: Avoid | None = (view.seat, view.loops) if view.loops else None
        self.root = Node((), -1)
        # each key met gets a number, which the tree's dicts are keyed by (an int hashes at
        # once; a key is a tuple, hashed again at every look-up): key -> number, and back
        self.kids: dict[MoveKey, int] = {}
        self.key_of: list[MoveKey] = []
        self.keys: dict[int, int] = {}  # id(move) -> its key's number, for moves met again
        self.met: list[Move] = []  # those moves, kept alive (so no other object takes their ids)
        self.iterations = 0
        self.seconds = 0.0
        # log(a) for each availability count a bound can meet (at most one more than the
        # iterations run; :meth:`run` makes them): read from here, not computed for every
        # child at every step
        self.logs: list[float] = [0.0]
        # once every choice at the root has its child (and none varies with the deal): those
        # children, (key's number, node), in the order of :attr:`root_first`
        self.root_all: list[tuple[int, Node]] | None = None
        # the observer's own moves do not depend on the hidden cards: read them once
        first = self.det.deal(random.Random(0))
        moves = legal_moves(first, v) if not game_over(first, v) else []
        if root_moves is not None:
            allowed = set(root_moves)
            moves = [m for m in moves if m in allowed] or moves
        self.root_moves: dict[MoveKey, list[Move]] = {}
        for m in moves:
            self.root_moves.setdefault(move_key(m, self.blind), []).append(m)
        self.root_first = {self._kid(k): ms[0] for k, ms in self.root_moves.items()}
        # The observer's moves should not depend on the hidden cards; if a few deals say
        # otherwise (a rule that looks at unseen cards), check them in every deal.
        probe = random.Random(1)
        base = set(legal_moves(first, v)) if moves else set()
        self.root_varies = any(set(legal_moves(d, v)) != base
                               for d in (self.det.deal(probe) for _ in range(4))) if moves else False

    def _kid(self, key: MoveKey) -> int:
        """The number of ``key`` (given one the first time it is met)."""
        kid = self.kids.get(key)
        if kid is None:
            kid = self.kids[key] = len(self.key_of)
            self.key_of.append(key)
        return kid

    def _meet(self, m: Move) -> int:
        """The number of ``m``'s key, kept for ``m`` (most moves are the engine's shared values,
        met again and again)."""
        keys = self.keys
        if len(keys) > 50_000:
            keys.clear()
            self.met.clear()
        kid = keys[id(m)] = self._kid(move_key(m, self.blind))
        self.met.append(m)
        return kid

    def child(self, key: MoveKey) -> Node | None:
        """The root's child of a choice (``key``: one of :attr:`root_moves`), if it has one."""
        kid = self.kids.get(key)
        return self.root.children.get(kid) if kid is not None else None

    # -- the loop -------------------------------------------------------

    def run(
        self,
        *,
        iterations: int | None = None,
        seconds: float | None = None,
        batch: int = 32,
        progress: Callable[[Progress], None] | None = None,
        until_decided: bool = False,
    ) -> ISMCTS:
        """Search until the iteration or time budget is spent (at least one batch).

        With ``until_decided`` it stops sooner once :meth:`decided` says more search would
        not change the choice (a player at the table wants the move, not the numbers).
        """
        if iterations is None and seconds is None:
            iterations = 1000
        if not self.root_moves:
            return self
        start = time.perf_counter()
        done = 0
        while True:
            n = batch if iterations is None else min(batch, iterations - done)
            logs = self.logs
            while len(logs) <= self.iterations + n + 1:  # (the batch's availability counts)
                logs.append(math.log(len(logs)))
            for _ in range(n):
                self._iterate()
            done += n
            elapsed = time.perf_counter() - start
            fractions = []
            if iterations is not None:
                fractions.append(done / iterations)
            if seconds is not None:
                fractions.append(elapsed / seconds if seconds > 0 else 1.0)
            fraction = min(1.0, max(fractions))
            if progress is not None:
                progress(Progress(self.iterations, elapsed, fraction))
            if fraction >= 1.0 or n == 0 or (until_decided and self.decided()):
                break
        self.seconds += time.perf_counter() - start
        return self

    def _iterate(self) -> None:
        rng = self.rng
        det = self.det
        state = det.deal_position(rng)  # private to this iteration: moves are pushed on it
        root = node = self.root
        path = [node]
        pushed: list[Move] = []  # the moves pushed on the deal (with it, they rebuild the state)
        blind = self.blind
        avoid = self.avoid
        keys_get = self.keys.get
        c = self.c
        logs = self.logs
        sqrt, id_ = math.sqrt, id
        over, moves, push = state.over, state.moves, state.push
        max_depth = self.max_depth
        rewards: list[float] | None = None
        depth = 0
        # (the game ends only with a move that sets something off, someone going out: over() is
        # asked at the start and after such moves, not after every quiet one)
        ended = over()
        while depth < max_depth and not ended:
            best: Node | None = None
            best_u = -1.0
            best_k = -1
            fresh: list[int] | None = None
            if node is root and self.root_all is not None:
                # every choice at the root has its child (and is legal in every deal): their
                # bounds, in the same order, without looking them up
                for k, rch in self.root_all:
                    a = rch.avail = rch.avail + 1
                    vis = rch.visits
                    u = rch.total / vis + c * sqrt(logs[a] / vis)
                    if u > best_u:
                        best, best_u, best_k = rch, u, k
                if not self.floor_met:
                    least_k, least = min(self.root_all, key=lambda kc: kc[1].visits)
                    if least.visits < self.root_floor:
                        best, best_k = least, least_k
                    else:  # every choice has its floor: for good
                        self.floor_met = True
                assert best is not None
                child = best
                k = best_k
                move = self.root_first[k]
            else:
                if node is root:
                    if not self.root_varies:
                        by_key = self.root_first
                    else:
                        legal = set(state.moves())
                        by_key = {}
                        for key, ms in self.root_moves.items():
                            m = next((m for m in ms if m in legal), None)
                            if m is not None:
                                by_key[self.kids[key]] = m
                        if not by_key:
                            break
                else:
                    by_key = {}
                    first = by_key.setdefault  # (the first move of each key)
                    for m in moves(blind):  # (when suits do not matter, one play of each kind)
                        kid = keys_get(id_(m))
                        first(kid if kid is not None else self._meet(m), m)
                children = node.children
                for k in by_key:  # each available child: counted, and its bound (UCB1 over availability)
                    ch = children.get(k)
                    if ch is None:
                        if fresh is None:
                            fresh = [k]
                        else:
                            fresh.append(k)
                    elif fresh is None:
                        a = ch.avail = ch.avail + 1
                        vis = ch.visits
                        u = ch.total / vis + c * sqrt(logs[a] / vis)
                        if u > best_u:
                            best, best_u, best_k = ch, u, k
                    else:
                        ch.avail += 1
                if fresh is not None:  # add one child, then roll out from it
                    k = fresh[rng.randrange(len(fresh))] if len(fresh) > 1 else fresh[0]
                    child = Node(self.key_of[k], state.turn)
                    child.avail = 1
                    children[k] = child
                    if node is root and by_key is self.root_first and len(children) == len(by_key):
                        self.root_all = [(k, children[k]) for k in by_key]
                else:
                    if node is root and not self.floor_met:
                        least_k = min(by_key, key=lambda k: children[k].visits)
                        if children[least_k].visits < self.root_floor:
                            best, best_k = children[least_k], least_k
                        elif len(by_key) == len(self.root_moves):  # every choice has its floor: for good
                            self.floor_met = True
                    assert best is not None
                    child = best
                    k = best_k
                move = by_key[k]
            events = push(move)
            pushed.append(move)
            path.append(child)
            if avoid is not None and PICKED_UP in events and avoided(state, avoid):
                rewards = loop_rewards(state.n, avoid[0])
                break
            if fresh is not None:
                break
            node = child
            depth += 1
            if events:
                ended = over()
        if rewards is None:
            on_position = self.on_position
            if on_position is not None:
                dealt = det.dealt

                def start() -> Position:  # the state as the rollout starts (wanted only if it stalls)
                    pos = det.again(dealt)
                    for m in pushed:
                        pos.push(m)
                    return pos
                rewards = on_position(state, rng, avoid, start)
            else:
                rewards = self.rollout(state.snapshot(), self.v, rng, avoid)
        root.visits += 1
        for n in path[1:]:
            r = rewards[n.seat]
            n.visits += 1
            n.total += r
            n.total_sq += r * r
        self.iterations += 1

    def decided(self, z: float = 2.58, least: int = 96) -> bool:
        """Would more search change the best choice? False while it might.

        True when there is one choice at the root, or when, after at least ``least``
        simulations of the best choice, its mean beats every other choice's by more than
        ``z`` standard errors of the difference. The spread of a choice with few
        simulations is taken from its Laplace-smoothed mean, so four losses in four tries
        do not count as certain.
        """
        if len(self.root_moves) <= 1:
            return True
        kids = [self.child(k) for k in self.root_moves]
        if any(n is None for n in kids):
            return False
        nodes = [n for n in kids if n is not None]
        best = max(nodes, key=lambda n: (n.visits >= least, n.mean))
        if best.visits < least:
            return False
        var_best = _variance(best)
        for n in nodes:
            if n is not best:
                gap = best.mean - n.mean
                if gap <= 0 or gap * gap <= z * z * (var_best / best.visits + _variance(n) / n.visits):
                    return False
        return True

    # -- the answer -----------------------------------------------------

    def stats(self) -> list[RootStat]:
        """One entry per choice at the root, best (highest mean) first."""
        out = []
        for k, moves in self.root_moves.items():
            n = self.child(k)
            if n is None or n.visits == 0:
                out.append(RootStat(k, tuple(moves), 0, 0.0, 0.0, ()))
                continue
            var = max(0.0, n.total_sq / n.visits - n.mean ** 2)
            replies = tuple(sorted(((ch.key, ch.seat, ch.visits) for ch in n.children.values()),
                                   key=lambda r: -r[2]))
            out.append(RootStat(k, tuple(moves), n.visits, n.mean, math.sqrt(var), replies))
        out.sort(key=lambda s: (-s.mean if s.visits else 1.0, -s.visits))
        return out


def _variance(n: Node) -> float:
    """A node's reward variance, no less than a Bernoulli's at its Laplace-smoothed mean."""
    p = (n.total + 1) / (n.visits + 2)
    return max(n.total_sq / n.visits - n.mean ** 2, p * (1 - p))


def search(view: PlayerView, v: Variant, *, iterations: int | None = None, seconds: float | None = None,
           seed: int = 0, **kwargs: object) -> Sequence[RootStat]:
    """Run a fresh search and return its root statistics (best first)."""
    return ISMCTS(view, v, seed=seed, **kwargs).run(iterations=iterations, seconds=seconds).stats()  # type: ignore[arg-type]
