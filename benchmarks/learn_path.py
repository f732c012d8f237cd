"""The path of a newcomer through Learn, for every preset: how many course steps, how many words
to read before the quiz, and whether every answer shown agrees with the engine.

For each preset it builds the course (:func:`tutor.teach.course.course`) and counts the words a
learner reads when answering every step right: each step's title, idea, question, choices and
the answer with the engine's verdict, then the closing line and the note on the sample game
(:func:`tutor.teach.course.reading_words`; card faces are pictures, and the tables drawn on the
page are not counted). ``lessons`` counts every answered position Learn shows under that preset:
the course's questions, the Lessons tab's worked examples (:func:`tutor.teach.examples.lessons`)
and the ten questions of quiz 1; ``agree`` how many of them the engine, asked again under the
preset, answers the same way (it must be all). Targets: under 600 words for pagat and Lancaster,
a course for every preset, ``agree == lessons`` everywhere.

    python benchmarks/learn_path.py
    python benchmarks/learn_path.py --json
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tutor.rules.variant import load_variant, preset_catalogue  # noqa: E402
from tutor.teach.course import agrees, course, reading_words, worked_game  # noqa: E402
from tutor.teach.examples import judge_example, lessons  # noqa: E402
from tutor.teach.quiz import quiz  # noqa: E402


def measure(spec: str, seed: int) -> dict[str, object]:
    v = load_variant(spec)
    t0, c0 = time.perf_counter(), time.process_time()
    steps = course(v)
    t1, c1 = time.perf_counter(), time.process_time()
    questions = quiz(v, seed)
    t2, c2 = time.perf_counter(), time.process_time()
    examples = lessons(v)
    shown = [s.question for s in steps] + list(questions)
    agree = sum(agrees(q, v) for q in shown) + sum(not judge_example(ex)[1] for ex in examples)
    return {"preset": spec, "steps": len(steps), "words": reading_words(v, steps, worked_game(v)),
            "lessons": len(shown) + len(examples), "agree": agree,
            "_course": (len(steps), round(c1 - c0, 3), round(t1 - t0, 3)),
            "_quiz": (len(questions), round(c2 - c1, 3), round(t2 - t1, 3)), "_examples": len(examples)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--json", action="store_true", help="one JSON list, one object per preset")
    ap.add_argument("--seed", type=int, default=1, help="the quiz checked (default 1, the one Learn opens)")
    ap.add_argument("presets", nargs="*", help="default: every preset")
    args = ap.parse_args(argv)
    specs = args.presets or list(preset_catalogue())
    rows = [measure(spec, args.seed) for spec in specs]
    if args.json:
        print(json.dumps([{k: r[k] for k in ("preset", "steps", "words", "lessons", "agree")} for r in rows]))
        return 0 if all(r["agree"] == r["lessons"] for r in rows) else 1
    print(f"{'preset':<14} {'steps':>5} {'words':>5} {'lessons':>7} {'agree':>5}   shown: course + examples + quiz"
          f"   course CPU / wall s   quiz CPU / wall s")
    for r in rows:
        steps, ccpu, cwall = r["_course"]  # type: ignore[misc]
        nq, qcpu, qwall = r["_quiz"]  # type: ignore[misc]
        print(f"{r['preset']:<14} {r['steps']:>5} {r['words']:>5} {r['lessons']:>7} {r['agree']:>5}   "
              f"{steps:>6} + {r['_examples']:>3} + {nq:>2}{'':>17}{ccpu:>6.2f} / {cwall:<6.2f}{'':>7}"
              f"{qcpu:>5.2f} / {qwall:.2f}")
    bad = [r["preset"] for r in rows if r["agree"] != r["lessons"]]
    over = [f"{r['preset']} ({r['words']})" for r in rows if r["preset"] in ("pagat", "lancaster") and int(r["words"]) >= 600]  # type: ignore[call-overload]
    print(f"every answer agrees with the engine: {'yes' if not bad else 'NO: ' + ', '.join(map(str, bad))}; "
          f"pagat and Lancaster under 600 words: {'yes' if not over else 'NO: ' + ', '.join(over)}; "
          f"load average {', '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores")
    return 0 if not bad else 1


if __name__ == "__main__":
    raise SystemExit(main())
