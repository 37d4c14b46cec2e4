#!/usr/bin/env python3
"""Structural validation of test/*.jsonl + test/labels.jsonl, and counts. Does not judge stall semantics,
except a necessary-condition check for stall labels (leaf is a text-only assistant 'stop' reply and at least
three counted text-only assistant replies follow the last tool call/result on the path)."""
import collections, glob, json, os, re, sys

D = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'test')
TOOLS = {'read', 'bash', 'edit', 'write', 'grep', 'find', 'ls'}
ISO = re.compile(r'^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$')
errors = []
def err(f, msg): errors.append(f'{f}: {msg}')

def load(path):
    f = os.path.basename(path)
    lines = open(path, encoding='utf-8').read().split('\n')
    if lines[-1] != '': err(f, 'no trailing newline')
    rows = [json.loads(l) for l in lines if l]
    h = rows[0]
    if not (h.get('type') == 'session' and h.get('version') == 3 and isinstance(h.get('id'), str) and ISO.match(h.get('timestamp', '')) and h.get('cwd')):
        err(f, 'bad header')
    byid, order = {}, {}
    for i, e in enumerate(rows[1:]):
        eid = e.get('id')
        if not (isinstance(eid, str) and re.fullmatch(r'[0-9a-f]{8}', eid)): err(f, f'bad id {eid}')
        if eid in byid: err(f, f'duplicate id {eid}')
        p = e.get('parentId')
        if p is not None and p not in byid: err(f, f'{eid}: parent {p} not earlier')
        if not ISO.match(e.get('timestamp', '')): err(f, f'{eid}: bad timestamp')
        byid[eid] = e; order[eid] = i
        t = e.get('type')
        if t == 'message':
            m = e['message']; r = m.get('role')
            if not isinstance(m.get('timestamp'), int): err(f, f'{eid}: message timestamp not ms int')
            if r == 'user':
                if not (isinstance(m['content'], list) and all(c['type'] == 'text' and c['text'] for c in m['content'])): err(f, f'{eid}: bad user content')
            elif r == 'assistant':
                for k in ('api', 'provider', 'model', 'usage', 'stopReason'):
                    if k not in m: err(f, f'{eid}: assistant missing {k}')
                u = m.get('usage', {})
                if set(u) != {'input', 'output', 'cacheRead', 'cacheWrite', 'totalTokens', 'cost'} or set(u['cost']) != {'input', 'output', 'cacheRead', 'cacheWrite', 'total'}:
                    err(f, f'{eid}: bad usage')
                calls = [c for c in m['content'] if c['type'] == 'toolCall']
                if any(c['type'] not in ('text', 'toolCall') for c in m['content']): err(f, f'{eid}: bad content block')
                sr = m.get('stopReason')
                if sr not in ('stop', 'toolUse', 'error', 'aborted', 'length'): err(f, f'{eid}: bad stopReason')
                if (sr == 'toolUse') != bool(calls): err(f, f'{eid}: toolUse iff toolCall violated')
                if (sr == 'error') != ('errorMessage' in m): err(f, f'{eid}: errorMessage iff error violated')
                for c in calls:
                    if c['name'] not in TOOLS: err(f, f'{eid}: tool {c["name"]}')
                    if not isinstance(c.get('arguments'), dict): err(f, f'{eid}: arguments')
            elif r == 'toolResult':
                if m.get('toolName') not in TOOLS or not isinstance(m.get('isError'), bool) or not m.get('toolCallId'): err(f, f'{eid}: bad toolResult')
            else: err(f, f'{eid}: role {r}')
        elif t == 'compaction':
            if not (e.get('summary') and e.get('firstKeptEntryId') in byid and isinstance(e.get('tokensBefore'), int)): err(f, f'{eid}: bad compaction')
        elif t == 'branch_summary':
            if not (e.get('summary') and e.get('fromId') == p): err(f, f'{eid}: bad branch_summary')
        else: err(f, f'{eid}: unexpected type {t}')
    return rows, byid

def path(byid, leaf):
    out = []
    while leaf is not None:
        out.append(byid[leaf]); leaf = byid[leaf]['parentId']
    return out[::-1]

def check_paths(f, rows, byid):
    parents = {e['parentId'] for e in rows[1:]}
    leaves = [e['id'] for e in rows[1:] if e['id'] not in parents]
    for lf in leaves:
        p = path(byid, lf); ids = {e['id'] for e in p}
        pending = {}
        for e in p:
            if e['type'] == 'compaction' and e['firstKeptEntryId'] not in ids: err(f, f'{e["id"]}: firstKeptEntryId not on path')
            if e['type'] != 'message': continue
            m = e['message']
            if m['role'] == 'assistant':
                if pending: err(f, f'{e["id"]}: assistant before earlier toolCalls were answered')
                for c in m['content']:
                    if c['type'] == 'toolCall': pending[c['id']] = c['name']
            elif m['role'] == 'toolResult':
                if pending.get(m['toolCallId']) != m['toolName']: err(f, f'{e["id"]}: toolResult without matching toolCall')
                pending.pop(m['toolCallId'], None)
            elif pending: err(f, f'{e["id"]}: user message before toolCalls answered')
        if pending: err(f, f'leaf {lf}: unanswered toolCalls {list(pending)}')
        first_user = next((e for e in p if e['type'] == 'message'), None)
        if not first_user or first_user['message']['role'] != 'user': err(f, f'leaf {lf}: path does not start with a user task')
        n_tools = sum(1 for e in p if e['type'] == 'message' and e['message']['role'] == 'toolResult')
        if n_tools < 1: err(f, f'leaf {lf}: no tool call on path')

def counted_since_last_tool(p):
    n = 0
    for e in reversed(p):
        if e['type'] != 'message': continue
        m = e['message']
        if m['role'] == 'toolResult' or (m['role'] == 'assistant' and m['stopReason'] == 'toolUse'): break
        if m['role'] == 'assistant' and m['stopReason'] == 'stop': n += 1
    return n

def main():
    files = {}
    for p in sorted(glob.glob(os.path.join(D, '*.jsonl'))):
        if p.endswith('labels.jsonl'): continue
        rows, byid = load(p); check_paths(os.path.basename(p), rows, byid); files[os.path.basename(p)] = (rows, byid)
    labels = [json.loads(l) for l in open(os.path.join(D, 'labels.jsonl'), encoding='utf-8') if l.strip()]
    seen = set()
    for l in labels:
        f = l['file']
        if set(l) != {'file', 'leaf', 'stall', 'lang', 'category', 'note'}: err(f, f'label keys {sorted(l)}')
        if f not in files: err(f, 'label for missing file'); continue
        rows, byid = files[f]
        leaf = l['leaf'] if l['leaf'] is not None else rows[-1]['id']
        if l['leaf'] is not None and l['leaf'] == rows[-1]['id']: err(f, 'explicit leaf equals active leaf; use null')
        if leaf not in byid: err(f, f'label leaf {leaf} not in file'); continue
        if (f, leaf) in seen: err(f, f'duplicate label for {leaf}')
        seen.add((f, leaf))
        if l['lang'] not in ('en', 'zh-Hans', 'zh-Hant', 'mixed', 'other'): err(f, f'bad lang {l["lang"]}')
        if not isinstance(l['stall'], bool): err(f, 'stall not bool')
        e = byid[leaf]
        if l['stall']:
            ok = e['type'] == 'message' and e['message']['role'] == 'assistant' and e['message']['stopReason'] == 'stop'
            if not ok: err(f, f'stall leaf {leaf} is not a text-only assistant stop reply')
            if counted_since_last_tool(path(byid, leaf)) < 3: err(f, f'stall leaf {leaf}: fewer than 3 counted replies since last tool')
    unlabelled = [f for f in files if not any(l['file'] == f for l in labels)]
    for f in unlabelled: err(f, 'file has no label')
    # counts
    n = len(labels); st = sum(l['stall'] for l in labels)
    print(f'files: {len(files)}  labelled leaves: {n}  stall: {st} ({100*st/n:.1f}%)  not stall: {n-st} ({100*(n-st)/n:.1f}%)')
    print(f'leaf null (active): {sum(l["leaf"] is None for l in labels)}  explicit side-branch leaves: {sum(l["leaf"] is not None for l in labels)}')
    print('\nby language:            total   share  stall  not')
    by = collections.defaultdict(lambda: [0, 0])
    for l in labels: by[l['lang']][0 if l['stall'] else 1] += 1
    for lang in ('en', 'zh-Hans', 'zh-Hant', 'mixed', 'other'):
        s, o = by[lang]; print(f'  {lang:20s} {s+o:6d}  {100*(s+o)/n:5.1f}%  {s:5d}  {o:4d}' + ('   <-- fewer than 12 stall' if s < 12 else ''))
    print('\nby category (stall / not stall):')
    cat = collections.defaultdict(lambda: [0, 0])
    for l in labels: cat[l['category']][0 if l['stall'] else 1] += 1
    for c in sorted(cat, key=lambda c: (-(cat[c][0] > 0), c)):
        print(f'  {c:28s} {cat[c][0]:4d} {cat[c][1]:4d}')
    print(f'\nerrors: {len(errors)}')
    for e in errors: print('  ' + e)
    sys.exit(1 if errors else 0)

if __name__ == '__main__':
    main()
