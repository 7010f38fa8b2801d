#!/usr/bin/env python3
"""A sweep with cardsim.match, plotted with matplotlib when it is installed, else
printed as a table (docs/python.md, "Examples"): Spit's `smart` at every reaction
preset against `greedy@skilled`, its score (1 a win, 0 a loss, 1/2 a match without winner) with 95%
intervals.

    pip install ./python            # and matplotlib for the plot
    python examples/python/sweep_plot.py [--games 2000] [--out sweep.png]
"""

import argparse

import cardsim


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default="sweep.png")
    args = ap.parse_args()

    rows = []
    for preset in cardsim.presets():
        bot = f"smart@{preset}"
        r = cardsim.match("spit", [bot, "greedy@skilled"], games=args.games, seed=args.seed)
        row = next(x for x in r.rows if x["bot"] == bot and x["seat"] == "all")
        rows.append((preset, row["score"], row["score_ci_low"], row["score_ci_high"]))

    print(f"{'smart@':<10} {'score':>6}  95% interval   (against greedy@skilled, {args.games} matches each)")
    for preset, score, lo, hi in rows:
        print(f"{preset:<10} {score:>6.3f}  [{lo:.3f}, {hi:.3f}]")
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("(matplotlib is not installed: the table only)")
        return
    x = range(len(rows))
    scores = [s for _, s, _, _ in rows]
    errors = [[s - lo for _, s, lo, _ in rows], [hi - s for _, s, _, hi in rows]]
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.errorbar(x, scores, yerr=errors, fmt="o", capsize=4)
    ax.axhline(0.5, color="grey", lw=0.8)
    ax.set_xticks(list(x), [p for p, _, _, _ in rows])
    ax.set_xlabel("reaction preset of smart")
    ax.set_ylabel("score against greedy@skilled (95% CI)")
    ax.set_title("Spit: smart at each pace")
    fig.tight_layout()
    fig.savefig(args.out, dpi=120)
    print(f"plot written to {args.out}")


if __name__ == "__main__":
    main()
