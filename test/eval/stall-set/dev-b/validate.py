#!/usr/bin/env python3
"""Structural validation of test/*.jsonl + test/labels.jsonl, and counts.

Checks: header; entry fields; 8-hex ids unique per file; parentId null or an EARLIER id; ISO timestamps;
message roles/content shapes; assistant fields (api/provider/model/usage/stopReason); stopReason "toolUse" iff a
toolCall is present; errorMessage iff stopReason "error"; tool names in the allowed set; every toolCall answered
by a toolResult (same toolCallId/toolName) on the same root-to-leaf path, and every toolResult answering a call
on its path; compaction/branch_summary fields reference ids on the path; labels reference existing files/entries,
leaf null only meaning the last line; counts by language / category / stall.
Exit status 1 on any error.
"""
import collections, glob, json, os, re, sys

ROOT = os.path.dirname(os.path.abspath(__file__))
TEST = os.path.join(ROOT, "test")
TOOLS = {"read", "bash", "edit", "write", "grep", "find", "ls"}
STOPS = {"stop", "toolUse", "error", "aborted", "length"}
LANGS = {"en", "zh-Hans", "zh-Hant", "mixed", "other"}
ISO = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$")
HEX8 = re.compile(r"^[0-9a-f]{8}$")
errors = []


def err(f, msg):
    errors.append(f"{os.path.basename(f)}: {msg}")


def check_file(path):
    lines = open(path, encoding="utf-8").read().split("\n")
    if lines[-1] != "":
        err(path, "missing trailing newline")
    lines = [l for l in lines if l != ""]
    try:
        objs = [json.loads(l) for l in lines]
    except Exception as ex:
        err(path, f"bad JSON: {ex}")
        return None
    hdr = objs[0]
    if not (hdr.get("type") == "session" and hdr.get("version") == 3 and isinstance(hdr.get("id"), str)
            and ISO.match(hdr.get("timestamp", "")) and isinstance(hdr.get("cwd"), str)):
        err(path, "bad header")
    entries = objs[1:]
    byid, order = {}, {}
    for i, e in enumerate(entries):
        eid = e.get("id")
        if not isinstance(eid, str) or not HEX8.match(eid):
            err(path, f"line {i+2}: bad id {eid!r}")
        if eid in byid:
            err(path, f"duplicate id {eid}")
        p = e.get("parentId", "MISSING")
        if p == "MISSING":
            err(path, f"{eid}: no parentId")
        elif p is not None and p not in byid:
            err(path, f"{eid}: parent {p} not an earlier entry")
        if not ISO.match(e.get("timestamp", "")):
            err(path, f"{eid}: bad timestamp")
        byid[eid] = e
        order[eid] = i
        t = e.get("type")
        if t == "message":
            check_message(path, e)
        elif t == "compaction":
            if not (isinstance(e.get("summary"), str) and isinstance(e.get("firstKeptEntryId"), str)
                    and isinstance(e.get("tokensBefore"), int)):
                err(path, f"{eid}: bad compaction")
        elif t == "branch_summary":
            if not (isinstance(e.get("summary"), str) and isinstance(e.get("fromId"), str)):
                err(path, f"{eid}: bad branch_summary")
        else:
            err(path, f"{eid}: unexpected entry type {t}")
    roots = [e for e in entries if e.get("parentId") is None]
    if len(roots) != 1:
        err(path, f"{len(roots)} roots")
    # per-leaf path checks (every entry without children is a leaf)
    children = collections.Counter(e["parentId"] for e in entries if e.get("parentId"))
    leaves = [e["id"] for e in entries if children[e["id"]] == 0]
    for leaf in leaves:
        check_path(path, byid, path_of(byid, leaf))
    first = entries[0] if entries else None
    if first is None or first.get("type") != "message" or first["message"].get("role") != "user":
        err(path, "first entry is not a user message")
    return {"byid": byid, "last": entries[-1]["id"] if entries else None}


def check_message(path, e):
    m = e.get("message", {})
    eid = e["id"]
    role = m.get("role")
    if not isinstance(m.get("timestamp"), int):
        err(path, f"{eid}: message timestamp not unix ms int")
    content = m.get("content")
    if not isinstance(content, list):
        err(path, f"{eid}: content not a list")
        return
    if role == "user":
        if not content or any(c.get("type") != "text" or not isinstance(c.get("text"), str) for c in content):
            err(path, f"{eid}: bad user content")
    elif role == "assistant":
        for k in ("api", "provider", "model", "usage", "stopReason"):
            if k not in m:
                err(path, f"{eid}: assistant missing {k}")
        u = m.get("usage", {})
        for k in ("input", "output", "cacheRead", "cacheWrite", "totalTokens"):
            if not isinstance(u.get(k), (int, float)):
                err(path, f"{eid}: usage.{k}")
        for k in ("input", "output", "cacheRead", "cacheWrite", "total"):
            if not isinstance(u.get("cost", {}).get(k), (int, float)):
                err(path, f"{eid}: usage.cost.{k}")
        sr = m.get("stopReason")
        if sr not in STOPS:
            err(path, f"{eid}: bad stopReason {sr}")
        calls = [c for c in content if c.get("type") == "toolCall"]
        for c in content:
            if c.get("type") == "text" and not isinstance(c.get("text"), str):
                err(path, f"{eid}: bad text block")
            elif c.get("type") == "toolCall":
                if not (isinstance(c.get("id"), str) and c.get("name") in TOOLS and isinstance(c.get("arguments"), dict)):
                    err(path, f"{eid}: bad toolCall {c}")
            elif c.get("type") not in ("text", "toolCall"):
                err(path, f"{eid}: unexpected block {c.get('type')}")
        if (sr == "toolUse") != bool(calls):
            err(path, f"{eid}: stopReason {sr} with {len(calls)} tool calls")
        if (sr == "error") != ("errorMessage" in m):
            err(path, f"{eid}: errorMessage presence does not match stopReason")
        if sr == "error" and not isinstance(m.get("errorMessage"), str):
            err(path, f"{eid}: errorMessage not a string")
        if sr == "stop" and not any(c.get("type") == "text" and c.get("text") for c in content):
            err(path, f"{eid}: stop reply without text")
    elif role == "toolResult":
        if not (isinstance(m.get("toolCallId"), str) and m.get("toolName") in TOOLS
                and isinstance(m.get("isError"), bool)):
            err(path, f"{eid}: bad toolResult fields")
        if any(c.get("type") != "text" for c in content):
            err(path, f"{eid}: bad toolResult content")
    else:
        err(path, f"{eid}: unexpected role {role}")


def path_of(byid, leaf):
    out, x = [], leaf
    while x is not None:
        out.append(byid[x])
        x = byid[x].get("parentId")
        if x is not None and x not in byid:
            break
    return out[::-1]


def check_path(path, byid, entries):
    open_calls = {}
    ids = [e["id"] for e in entries]
    for e in entries:
        if e["type"] == "compaction" and e["firstKeptEntryId"] not in ids[:ids.index(e["id"])]:
            err(path, f"{e['id']}: firstKeptEntryId not earlier on path")
        if e["type"] == "branch_summary" and e["fromId"] not in ids[:ids.index(e["id"])]:
            err(path, f"{e['id']}: fromId not earlier on path")
        if e["type"] != "message":
            if open_calls:
                err(path, f"{e['id']}: non-message entry while tool calls pending")
            continue
        m = e["message"]
        if m["role"] == "assistant":
            if open_calls:
                err(path, f"{e['id']}: assistant reply while tool calls {list(open_calls)} pending")
            for c in m["content"]:
                if c.get("type") == "toolCall":
                    open_calls[c["id"]] = c["name"]
        elif m["role"] == "toolResult":
            name = open_calls.pop(m["toolCallId"], None)
            if name is None:
                err(path, f"{e['id']}: toolResult for unknown call {m['toolCallId']}")
            elif name != m["toolName"]:
                err(path, f"{e['id']}: toolName mismatch")
        elif m["role"] == "user" and open_calls:
            err(path, f"{e['id']}: user message while tool calls pending")
    if open_calls:
        err(path, f"path ending {entries[-1]['id']}: unanswered tool calls {list(open_calls)}")


def main():
    files = sorted(glob.glob(os.path.join(TEST, "*.jsonl")))
    files = [f for f in files if os.path.basename(f) != "labels.jsonl"]
    info = {}
    for f in files:
        r = check_file(f)
        if r:
            info[os.path.basename(f)] = r
    labels = [json.loads(l) for l in open(os.path.join(TEST, "labels.jsonl"), encoding="utf-8") if l.strip()]
    seen = set()
    labelled_files = set()
    for lb in labels:
        f = lb.get("file")
        if set(lb) != {"file", "leaf", "stall", "lang", "category", "note"}:
            errors.append(f"label {lb}: wrong keys")
        if f not in info:
            errors.append(f"label for missing file {f}")
            continue
        labelled_files.add(f)
        leaf = lb["leaf"] if lb["leaf"] is not None else info[f]["last"]
        if leaf not in info[f]["byid"]:
            errors.append(f"{f}: label leaf {lb['leaf']} not found")
        if lb["leaf"] is not None and lb["leaf"] == info[f]["last"]:
            errors.append(f"{f}: explicit leaf equals the last line (use null)")
        if (f, leaf) in seen:
            errors.append(f"{f}: leaf {leaf} labelled twice")
        seen.add((f, leaf))
        if not isinstance(lb["stall"], bool) or lb["lang"] not in LANGS or not lb["category"] or not lb["note"]:
            errors.append(f"{f}: bad label values {lb}")
    for f in info:
        if f not in labelled_files:
            errors.append(f"{f}: no label")

    print(f"files: {len(files)}   labelled leaves: {len(labels)}")
    n_st = sum(lb["stall"] for lb in labels)
    print(f"stall: {n_st} ({100*n_st/len(labels):.1f}%)   not stall: {len(labels)-n_st} ({100*(len(labels)-n_st)/len(labels):.1f}%)")
    print("\nby language (stall / not / total / share):")
    by = collections.defaultdict(lambda: [0, 0])
    for lb in labels:
        by[lb["lang"]][0 if lb["stall"] else 1] += 1
    for lang in ["en", "zh-Hans", "zh-Hant", "mixed", "other"]:
        s, n = by[lang]
        print(f"  {lang:8s} {s:4d} {n:4d} {s+n:4d}  {100*(s+n)/len(labels):5.1f}%")
        if s < 12:
            errors.append(f"language {lang} has only {s} stall leaves")
    print("\nby category (stall / not):")
    bc = collections.defaultdict(lambda: [0, 0])
    for lb in labels:
        bc[lb["category"]][0 if lb["stall"] else 1] += 1
    for cat in sorted(bc):
        print(f"  {cat:26s} {bc[cat][0]:4d} {bc[cat][1]:4d}")
    print(f"\nmulti-label files: {sum(1 for f in labelled_files if sum(1 for lb in labels if lb['file']==f) > 1)}")
    if errors:
        print(f"\n{len(errors)} ERRORS:")
        for e in errors[:200]:
            print("  " + e)
        return 1
    print("\nOK: no structural errors")
    return 0


if __name__ == "__main__":
    sys.exit(main())
