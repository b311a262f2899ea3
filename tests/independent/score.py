#!/usr/bin/env python
"""Score analyzer output against render_foreign.py ground truth.

python score.py DIR RESULTS.jsonl [--json] [--worst N]
"""

import argparse
import json
import os

CORNERS = {(0, 0), (0, 9), (9, 0), (9, 9)}
CHIP = set(".BGR")


def pct(a, b):
    return round(100.0 * a / b, 2) if b else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("results")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--worst", type=int, default=8)
    a = ap.parse_args()
    res = {}
    with open(a.results) as f:
        for line in f:
            line = line.strip()
            if not line.startswith("{"):
                continue
            try:
                o = json.loads(line)
            except ValueError:
                continue
            if "image" in o:
                res[os.path.basename(o["image"])] = o
    truths = sorted(x for x in os.listdir(a.dir) if x.endswith(".json"))
    S = dict(
        frames=0,
        missing_result=0,
        errors=0,
        board_frames=0,
        boards_found=0,
        boardless_frames=0,
        false_boards=0,
        orientation_right=0,
        visible_cells=0,
        visible_wrong=0,
        visible_unsure=0,
        exact_eligible=0,
        exact=0,
        hidden_cells=0,
        hidden_wrong=0,
        hidden_unsure=0,
    )
    orient_errs = {}
    confusion = {}
    per = []
    for t in truths:
        stem = t[:-5]
        img = next(
            (stem + e for e in (".jpg", ".png") if os.path.exists(os.path.join(a.dir, stem + e))),
            stem + ".jpg",
        )
        T = json.load(open(os.path.join(a.dir, t)))
        S["frames"] += 1
        R = res.get(img)
        if R is None:
            S["missing_result"] += 1
        elif "error" in R:
            S["errors"] += 1
        found = bool(R and R.get("board_found") and "error" not in R)
        if not T.get("board_found"):
            S["boardless_frames"] += 1
            if found:
                S["false_boards"] += 1
                per.append((100, img, "FALSE BOARD"))
            continue
        S["board_frames"] += 1
        if not found:
            per.append(
                (
                    101,
                    img,
                    "board not found"
                    + (" (error: {})".format(R["error"]) if R and "error" in R else ""),
                )
            )
            continue
        S["boards_found"] += 1
        if R.get("orientation") == T["orientation"]:
            S["orientation_right"] += 1
        else:
            k = "{}->{}".format(T["orientation"], R.get("orientation"))
            orient_errs[k] = orient_errs.get(k, 0) + 1
        hidden = {tuple(h) for h in T.get("hidden", [])}
        pc = R.get("cells") or ["?" * 10] * 10
        wrong = []
        unsure = 0
        for r in range(10):
            for c in range(10):
                if (r, c) in CORNERS:
                    continue
                tv = T["cells"][r][c]
                pv = pc[r][c] if r < len(pc) and c < len(pc[r]) else "?"
                if (r, c) in hidden:
                    S["hidden_cells"] += 1
                    if pv in CHIP and pv != tv:
                        S["hidden_wrong"] += 1
                    elif pv not in CHIP:
                        S["hidden_unsure"] += 1
                    continue
                S["visible_cells"] += 1
                if pv in CHIP:
                    if pv != tv:
                        S["visible_wrong"] += 1
                        wrong.append("(%d,%d)%s->%s" % (r, c, tv, pv))
                        confusion[tv + "->" + pv] = confusion.get(tv + "->" + pv, 0) + 1
                else:
                    unsure += 1
                    S["visible_unsure"] += 1
        ok = not wrong and unsure == 0
        if not hidden:
            S["exact_eligible"] += 1
            S["exact"] += int(ok)
        orient_note = (
            ""
            if R.get("orientation") == T["orientation"]
            else " orient {}->{}".format(T["orientation"], R.get("orientation"))
        )
        if wrong or unsure or orient_note:
            per.append(
                (
                    len(wrong),
                    img,
                    "%d wrong, %d '?'%s: %s"
                    % (
                        len(wrong),
                        unsure,
                        orient_note,
                        " ".join(wrong[:12]) + (" ..." if len(wrong) > 12 else ""),
                    ),
                )
            )
    S["boards_found_pct"] = pct(S["boards_found"], S["board_frames"])
    S["false_boards_pct"] = pct(S["false_boards"], S["boardless_frames"])
    S["orientation_right_pct"] = pct(S["orientation_right"], S["boards_found"])
    S["visible_wrong_pct"] = pct(S["visible_wrong"], S["visible_cells"])
    S["visible_unsure_pct"] = pct(S["visible_unsure"], S["visible_cells"])
    S["exact_pct"] = pct(S["exact"], S["exact_eligible"])
    S["hidden_wrong_pct"] = pct(S["hidden_wrong"], S["hidden_cells"])
    S["orientation_errors"] = orient_errs
    S["confusion"] = dict(sorted(confusion.items(), key=lambda kv: -kv[1]))
    per.sort(key=lambda x: -x[0])
    S["worst"] = [{"image": i, "note": n} for _, i, n in per[: a.worst]]
    if a.json:
        print(json.dumps(S, indent=1))
        return
    print(
        "%s: %d frames (%d with board, %d without); results missing %d, errors %d"
        % (
            a.dir,
            S["frames"],
            S["board_frames"],
            S["boardless_frames"],
            S["missing_result"],
            S["errors"],
        )
    )
    if S["board_frames"]:
        print(
            "boards found        %d/%d (%s%%)"
            % (S["boards_found"], S["board_frames"], S["boards_found_pct"])
        )
    if S["boardless_frames"]:
        print(
            "false boards        %d/%d (%s%%)"
            % (S["false_boards"], S["boardless_frames"], S["false_boards_pct"])
        )
    if S["boards_found"]:
        print(
            "orientation right   %d/%d (%s%%) %s"
            % (
                S["orientation_right"],
                S["boards_found"],
                S["orientation_right_pct"],
                orient_errs or "",
            )
        )
        print(
            "visible wrong       %d/%d (%s%%) %s"
            % (S["visible_wrong"], S["visible_cells"], S["visible_wrong_pct"], S["confusion"] or "")
        )
        print(
            "visible '?' rate    %d/%d (%s%%)"
            % (S["visible_unsure"], S["visible_cells"], S["visible_unsure_pct"])
        )
        print(
            "full-board exact    %d/%d (%s%%)" % (S["exact"], S["exact_eligible"], S["exact_pct"])
        )
        if S["hidden_cells"]:
            print(
                "hidden wrong        %d/%d (%s%%), hidden '?' %d"
                % (S["hidden_wrong"], S["hidden_cells"], S["hidden_wrong_pct"], S["hidden_unsure"])
            )
    if per:
        print("worst frames:")
        for w in S["worst"]:
            print("  {}  {}".format(w["image"], w["note"]))


if __name__ == "__main__":
    main()
