#!/usr/bin/env python3
"""The import picture of a source tree: rooms, arrows, upward arrows, circles.

    scripts/import-picture.py [--list] [DIR ...]

With no DIR: crates/server/src, crates/analysis/src and web/src (relative to
the repository). A DIR ending in `src` under `crates/` is read as Rust, one
under `web/` as TypeScript.

- A *room* is a module: one source file (Rust `mod.rs` is its folder's
  module; Rust `tests` modules and TypeScript test files are left out, since
  nothing ships them).
- An *arrow* is one room importing another (counted once per pair, however
  many paths or lines): Rust `crate::`, `super::`, `self::` and child-module
  paths, in `use` lines and in code; TypeScript `import`/`export … from` and
  `import()` of `@/…` and relative paths.
- An *upward arrow* (Rust) is an arrow from a module to one of its own
  ancestors (`super::ok` from `auth/handlers/token.rs`, `crate::auth::site_url`
  from `auth/otp.rs`): the child leans on its parent, which also declares
  and usually re-exports it. (Web) an import from a lower layer to a higher
  one: lib, config, testing < resources < components, hooks < features < app.
- A *circle* is a set of rooms that reach each other through arrows (a
  strongly connected component of more than one room), upward arrows left
  out for Rust (a parent naming its child is the module tree, not an import
  to be undone).

This is the measurement the layering test (crates/server/tests/layering.rs,
crates/analysis/tests/layering.rs) turns into a rule for circles.
"""

import os
import re
import sys
from collections import defaultdict

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


# ---------------------------------------------------------------- Rust

def strip_rust(src):
    """Comments, strings and char literals blanked (newlines kept)."""
    out = []
    i, n = 0, len(src)
    while i < n:
        c = src[i]
        nx = src[i + 1] if i + 1 < n else ''
        if c == '/' and nx == '/':
            while i < n and src[i] != '\n':
                out.append(' ')
                i += 1
        elif c == '/' and nx == '*':
            depth = 0
            while i < n:
                if src.startswith('/*', i):
                    depth += 1
                    out.append('  ')
                    i += 2
                elif src.startswith('*/', i):
                    depth -= 1
                    out.append('  ')
                    i += 2
                    if depth == 0:
                        break
                else:
                    out.append('\n' if src[i] == '\n' else ' ')
                    i += 1
        elif c == 'r' and (i == 0 or not (src[i - 1].isalnum() or src[i - 1] == '_')) and nx in '"#':
            j = i + 1
            hashes = 0
            while j < n and src[j] == '#':
                hashes += 1
                j += 1
            if j >= n or src[j] != '"':
                out.append(c)
                i += 1
                continue
            end = src.find('"' + '#' * hashes, j + 1)
            end = n if end < 0 else end + 1 + hashes
            out.append(''.join('\n' if ch == '\n' else ' ' for ch in src[i:end]))
            i = end
        elif c == '"':
            out.append(' ')
            i += 1
            while i < n and src[i] != '"':
                if src[i] == '\\':
                    out.append(' ')
                    i += 1
                if i < n:
                    out.append('\n' if src[i] == '\n' else ' ')
                    i += 1
            out.append(' ')
            i += 1
        elif c == "'":
            m = re.match(r"'(\\.[^']*|[^'\\])'", src[i:])
            if m:
                out.append(' ' * len(m.group(0)))
                i += len(m.group(0))
            else:
                out.append(c)
                i += 1
        else:
            out.append(c)
            i += 1
    return ''.join(out)


def drop_test_mods(code):
    """Remove inline `mod tests { … }` blocks."""
    while True:
        m = re.search(r'\bmod\s+tests\s*\{', code)
        if not m:
            return code
        depth = 0
        j = m.end() - 1
        while j < len(code):
            if code[j] == '{':
                depth += 1
            elif code[j] == '}':
                depth -= 1
                if depth == 0:
                    break
            j += 1
        code = code[:m.start()] + code[j + 1:]


def use_paths(tree, prefix=()):
    """Expand a `use` tree (text) into paths (tuples of segments)."""
    tree = tree.strip()
    out = []
    # Split off a top-level brace group.
    depth = 0
    brace = -1
    for k, ch in enumerate(tree):
        if ch == '{':
            if depth == 0 and brace < 0:
                brace = k
            depth += 1
        elif ch == '}':
            depth -= 1
    if brace >= 0:
        head = tree[:brace].rstrip().rstrip(':').strip()
        segs = tuple(s.strip() for s in head.split('::') if s.strip()) if head else ()
        inner = tree[brace + 1:tree.rfind('}')]
        parts, depth, cur = [], 0, ''
        for ch in inner:
            if ch == ',' and depth == 0:
                parts.append(cur)
                cur = ''
                continue
            if ch == '{':
                depth += 1
            elif ch == '}':
                depth -= 1
            cur += ch
        parts.append(cur)
        for p in parts:
            if p.strip():
                out.extend(use_paths(p, prefix + segs))
        return out
    tree = re.sub(r'\s+as\s+\w+$', '', tree)
    segs = tuple(s.strip() for s in tree.split('::') if s.strip())
    segs = tuple(s for s in segs if s != '*')
    if segs and segs[-1] == 'self':
        segs = segs[:-1]
    return [prefix + segs]


def rust_rooms(src_dir):
    rooms = {}
    for dirpath, _, files in os.walk(src_dir):
        for f in files:
            if not f.endswith('.rs'):
                continue
            rel = os.path.relpath(os.path.join(dirpath, f), src_dir).replace(os.sep, '/')
            parts = rel[:-3].split('/')
            if parts[-1] == 'mod' or rel in ('lib.rs', 'main.rs'):
                parts = parts[:-1]
            if 'tests' in parts:
                continue
            if rel == 'main.rs':
                continue
            rooms[tuple(parts)] = os.path.join(dirpath, f)
    return rooms


def rust_arrows(src_dir):
    rooms = rust_rooms(src_dir)
    children = defaultdict(set)
    for r in rooms:
        if r:
            children[r[:-1]].add(r[-1])
    arrows = set()
    for room, path in rooms.items():
        code = drop_test_mods(strip_rust(open(path, encoding='utf-8').read()))
        kids = children[room]
        paths = []
        for m in re.finditer(r'\buse\s+([^;]+);', code):
            paths.extend(use_paths(m.group(1)))
        # Paths in code (not in use lines).
        no_use = re.sub(r'\buse\s+[^;]+;', ' ', code)
        for m in re.finditer(r'(?<![\w:$])((?:crate|super|self|\w+)(?:\s*::\s*\w+)+)', no_use):
            paths.append(tuple(s.strip() for s in m.group(1).split('::')))
        for p in paths:
            if not p:
                continue
            if p[0] == 'crate':
                absolute = list(p[1:])
            elif p[0] in ('super', 'self'):
                base = list(room)
                k = 0
                while k < len(p) and p[k] in ('super', 'self'):
                    if p[k] == 'super':
                        if not base:
                            break
                        base.pop()
                    k += 1
                absolute = base + list(p[k:])
            elif p[0] in kids:
                absolute = list(room) + list(p)
            else:
                continue
            target = None
            for k in range(len(absolute), -1, -1):
                if tuple(absolute[:k]) in rooms:
                    target = tuple(absolute[:k])
                    break
            if target is not None and target != room:
                arrows.add((room, target))
    return rooms, arrows


def is_upward_rust(a, b):
    return len(b) < len(a) and a[:len(b)] == b


# ---------------------------------------------------------------- web

WEB_LAYERS = [
    (('lib', 'config', 'testing', 'vite-env.d.ts', 'index.css'), 1),
    (('resources',), 2),
    (('components', 'hooks'), 3),
    (('features',), 4),
    (('app', 'main.tsx'), 5),
]


def web_layer(room):
    top = room.split('/')[0]
    for names, layer in WEB_LAYERS:
        if top in names:
            return layer
    return None


def web_rooms(src_dir):
    rooms = {}
    for dirpath, _, files in os.walk(src_dir):
        for f in files:
            if not re.search(r'\.(ts|tsx)$', f) or re.search(r'\.test\.(ts|tsx)$', f) or f.endswith('.d.ts'):
                continue
            rel = os.path.relpath(os.path.join(dirpath, f), src_dir).replace(os.sep, '/')
            if rel.startswith('testing/'):
                continue
            rooms[rel] = os.path.join(dirpath, f)
    return rooms


def resolve_web(spec, from_rel, rooms):
    if spec.startswith('@/'):
        base = spec[2:]
    elif spec.startswith('.'):
        base = os.path.normpath(os.path.join(os.path.dirname(from_rel), spec)).replace(os.sep, '/')
    else:
        return None
    for cand in (base, base + '.ts', base + '.tsx', base + '/index.ts', base + '/index.tsx'):
        if cand in rooms:
            return cand
    return None


def web_arrows(src_dir):
    rooms = web_rooms(src_dir)
    arrows = set()
    for room, path in rooms.items():
        text = open(path, encoding='utf-8').read()
        text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
        text = re.sub(r'(?m)//.*$', ' ', text)
        specs = re.findall(r'''(?:^|[\s;}])(?:import|export)\s[^'"]*?\sfrom\s*['"]([^'"]+)['"]''', text, flags=re.S)
        specs += re.findall(r'''(?:^|[\s;])import\s*['"]([^'"]+)['"]''', text)
        specs += re.findall(r'''\bimport\(\s*['"]([^'"]+)['"]\s*\)''', text)
        for s in specs:
            t = resolve_web(s, room, rooms)
            if t and t != room:
                arrows.add((room, t))
    return rooms, arrows


# ---------------------------------------------------------------- both

def sccs(nodes, edges):
    graph = defaultdict(list)
    for a, b in edges:
        graph[a].append(b)
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]

    def strong(v):
        work = [(v, iter(graph[v]))]
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        while work:
            node, it = work[-1]
            advanced = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(graph[w])))
                    advanced = True
                    break
                elif w in on:
                    low[node] = min(low[node], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == node:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))

    for v in sorted(nodes):
        if v not in index:
            strong(v)
    return sorted(out)


def name(room):
    return '/'.join(room) if isinstance(room, tuple) else room


def picture(d, show):
    full = os.path.join(ROOT, d) if not os.path.isabs(d) else d
    if '/web/' in '/' + d:
        rooms, arrows = web_arrows(full)
        upward = {(a, b) for a, b in arrows if (web_layer(a) or 0) < (web_layer(b) or 0)}
        circles = sccs(rooms, arrows)
        features = {(a, b) for a, b in arrows
                    if a.startswith('features/') and b.startswith('features/')
                    and a.split('/')[1] != b.split('/')[1]}
        extra = f', imports between features {len(features)}'
    else:
        rooms, arrows = rust_arrows(full)
        upward = {(a, b) for a, b in arrows if is_upward_rust(a, b)}
        circles = sccs(rooms, arrows - upward)
        per = defaultdict(int)
        for a, _ in upward:
            per[a[0] if a else '(crate root)'] += 1
        top = sorted(per.items(), key=lambda kv: -kv[1])[:6]
        extra = ', upward by top module: ' + ', '.join(f'{k} {v}' for k, v in top)
    print(f'{d}: rooms {len(rooms)}, arrows {len(arrows)}, upward arrows {len(upward)}, '
          f'circles {len(circles)}{extra}')
    for c in circles:
        print('  circle: ' + ' <-> '.join(name(r) for r in c))
    if show:
        for a, b in sorted(upward, key=lambda e: (name(e[0]), name(e[1]))):
            print(f'  upward: {name(a)} -> {name(b)}')


def main():
    args = sys.argv[1:]
    show = '--list' in args
    dirs = [a for a in args if a != '--list'] or ['crates/server/src', 'crates/analysis/src', 'web/src']
    for d in dirs:
        picture(d, show)


if __name__ == '__main__':
    main()
