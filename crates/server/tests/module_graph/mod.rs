//! The import graph between the modules of a Rust source tree, for the tests
//! that keep it free of circles: the server's layering test
//! (`crates/server/tests/layering.rs`, circles inside one top-level module)
//! and the analysis crate's (`crates/analysis/tests/modules.rs`, circles
//! anywhere in the crate). `scripts/import-picture.py` measures the same
//! graph.
//!
//! A module is a file (`auth/handlers/mod.rs` is `auth::handlers`, `lib.rs`
//! the crate root). Every `crate::…`, `super::…`, `self::…` and child-module
//! path, in `use` trees and in code, is resolved to the deepest module it
//! names. An import of one's own ancestor (`super::ok` from
//! `auth/handlers/token.rs`) is the module tree itself, not a circle to undo:
//! circles are found among the other imports. Inline `mod tests { … }` blocks
//! are left out (test code, not shipped).

// Each of the two test crates that include this file uses part of it.
#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The source without comments, strings and character literals (each
/// replaced by spaces, newlines kept), so only code is searched.
pub fn code_only(source: &str) -> Vec<char> {
    let chars: Vec<char> = source.chars().collect();
    let mut out = Vec::with_capacity(chars.len());
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push(' ');
                    out.push(' ');
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push(' ');
                    out.push(' ');
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(chars[i]));
                    i += 1;
                }
            }
        } else if c == 'r'
            && (i == 0 || !is_ident(chars[i - 1]))
            && matches!(next, Some('"') | Some('#'))
        {
            // A raw string: r"…" or r#"…"#.
            let mut hashes = 0;
            let mut j = i + 1;
            while chars.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if chars.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            j += 1;
            loop {
                match chars.get(j) {
                    None => break,
                    Some('"') if (1..=hashes).all(|k| chars.get(j + k) == Some(&'#')) => {
                        j += 1 + hashes;
                        break;
                    }
                    _ => j += 1,
                }
            }
            out.extend(chars[i..j.min(chars.len())].iter().map(|&c| blank(c)));
            i = j;
        } else if c == '"' {
            out.push(' ');
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    out.push(' ');
                    i += 1;
                }
                if i < chars.len() {
                    out.push(blank(chars[i]));
                    i += 1;
                }
            }
            out.push(' ');
            i += 1;
        } else if c == '\'' {
            // A character literal ('x', '\n', '\''), or a lifetime ('a).
            let end = if next == Some('\\') {
                (i + 2..chars.len()).find(|&j| chars[j] == '\'' && j > i + 2)
            } else if chars.get(i + 2) == Some(&'\'') {
                Some(i + 2)
            } else {
                None
            };
            match end {
                Some(end) => {
                    out.extend((i..=end).map(|_| ' '));
                    i = end + 1;
                }
                None => {
                    out.push(c);
                    i += 1;
                }
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// The module a file is, from its path relative to `src/`: `auth/mod.rs` is
/// `["auth"]`, `auth/handlers/token.rs` is `["auth", "handlers", "token"]`,
/// `lib.rs` is `[]`.
pub fn module_of(file: &str) -> Vec<String> {
    let without_ext = file.strip_suffix(".rs").unwrap_or(file);
    let mut parts: Vec<String> = without_ext.split('/').map(str::to_owned).collect();
    if parts
        .last()
        .is_some_and(|last| last == "mod" || last == "lib")
    {
        parts.pop();
    }
    parts
}

/// One module importing another, where it does so first.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Arrow {
    pub from: Vec<String>,
    pub to: Vec<String>,
    pub file: String,
    pub line: usize,
}

impl Arrow {
    /// The importing module's own parent, grandparent, … (or the crate root).
    pub fn is_upward(&self) -> bool {
        self.to.len() < self.from.len() && self.from.starts_with(&self.to)
    }
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The paths of a `use` tree (`a::{b, c::{self, d as e}}`, `*` dropped).
fn use_tree_paths(tree: &[char]) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let text: String = tree.iter().collect();
    expand(&text, &[], &mut out);
    out
}

fn expand(tree: &str, prefix: &[String], out: &mut Vec<Vec<String>>) {
    let tree = tree.trim();
    if let Some(open) = tree.find('{') {
        let head: Vec<String> = tree[..open]
            .split("::")
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect();
        let close = tree.rfind('}').unwrap_or(tree.len());
        let inner = &tree[open + 1..close.max(open + 1)];
        let mut whole = prefix.to_vec();
        whole.extend(head);
        let (mut depth, mut start) = (0, 0);
        for (k, c) in inner.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    expand(&inner[start..k], &whole, out);
                    start = k + 1;
                }
                _ => {}
            }
        }
        expand(&inner[start..], &whole, out);
        return;
    }
    let tree = tree.split(" as ").next().unwrap_or(tree);
    let mut path = prefix.to_vec();
    path.extend(
        tree.split("::")
            .map(str::trim)
            .filter(|s| !s.is_empty() && *s != "*" && *s != "self")
            .map(str::to_owned),
    );
    if !tree.trim().is_empty() || !prefix.is_empty() {
        out.push(path);
    }
}

/// Every path in `code` that may name a module, with its line: `use` trees,
/// and `a::b` paths in code. Inline `mod tests { … }` blocks are skipped.
fn paths(code: &[char]) -> Vec<(Vec<String>, usize)> {
    let mut found = Vec::new();
    let mut line = 1;
    let mut i = 0;
    let skip_space = |mut j: usize| {
        while j < code.len() && code[j].is_whitespace() {
            j += 1;
        }
        j
    };
    let ident_end = |j: usize| {
        let mut end = j;
        while end < code.len() && is_ident(code[end]) {
            end += 1;
        }
        end
    };
    while i < code.len() {
        let c = code[i];
        if c == '\n' {
            line += 1;
            i += 1;
            continue;
        }
        let starts_word = is_ident(c)
            && (i == 0 || !(is_ident(code[i - 1]) || code[i - 1] == '$' || code[i - 1] == ':'));
        if !starts_word {
            i += 1;
            continue;
        }
        let end = ident_end(i);
        let word: String = code[i..end].iter().collect();
        if word == "mod" {
            let name_at = skip_space(end);
            let name_end = ident_end(name_at);
            let name: String = code[name_at..name_end].iter().collect();
            let open = skip_space(name_end);
            if name == "tests" && code.get(open) == Some(&'{') {
                let mut depth = 0;
                let mut j = open;
                while j < code.len() {
                    match code[j] {
                        '{' => depth += 1,
                        '}' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        '\n' => line += 1,
                        _ => {}
                    }
                    j += 1;
                }
                i = j + 1;
                continue;
            }
        }
        if word == "use" && code.get(end).is_some_and(|c| c.is_whitespace()) {
            let stop = (end..code.len())
                .find(|&j| code[j] == ';')
                .unwrap_or(code.len());
            for path in use_tree_paths(&code[end..stop]) {
                found.push((path, line));
            }
            line += code[end..stop].iter().filter(|&&c| c == '\n').count();
            i = stop;
            continue;
        }
        // A path in code: word::word::…
        let mut segments = vec![word];
        let mut j = end;
        loop {
            let k = skip_space(j);
            if !(code.get(k) == Some(&':') && code.get(k + 1) == Some(&':')) {
                break;
            }
            let k = skip_space(k + 2);
            let e = ident_end(k);
            if e == k {
                break;
            }
            segments.push(code[k..e].iter().collect());
            j = e;
        }
        if segments.len() > 1 {
            line += code[i..j].iter().filter(|&&c| c == '\n').count();
            found.push((segments, line));
            i = j;
        } else {
            i = end;
        }
    }
    found
}

/// Every arrow between the modules of `files` (path relative to `src/`,
/// source): one per pair of modules, at its first line.
pub fn arrows(files: &[(String, String)]) -> Vec<Arrow> {
    let modules: BTreeSet<Vec<String>> = files.iter().map(|(f, _)| module_of(f)).collect();
    let mut seen = BTreeMap::new();
    for (file, source) in files {
        let here = module_of(file);
        let code = code_only(source);
        for (path, line) in paths(&code) {
            let absolute: Vec<String> = match path[0].as_str() {
                "crate" => path[1..].to_vec(),
                "super" | "self" => {
                    let mut base = here.clone();
                    let mut k = 0;
                    while k < path.len() && (path[k] == "super" || path[k] == "self") {
                        if path[k] == "super" {
                            base.pop();
                        }
                        k += 1;
                    }
                    base.extend(path[k..].iter().cloned());
                    base
                }
                first => {
                    let mut child = here.clone();
                    child.push(first.to_owned());
                    if !modules.contains(&child) {
                        continue;
                    }
                    let mut whole = here.clone();
                    whole.extend(path.iter().cloned());
                    whole
                }
            };
            let target = (0..=absolute.len())
                .rev()
                .map(|k| absolute[..k].to_vec())
                .find(|prefix| modules.contains(prefix));
            if let Some(to) = target.filter(|to| *to != here) {
                seen.entry((here.clone(), to.clone())).or_insert(Arrow {
                    from: here.clone(),
                    to,
                    file: file.clone(),
                    line,
                });
            }
        }
    }
    seen.into_values().collect()
}

/// The modules that reach each other through arrows other than upward ones
/// (strongly connected sets of two or more), each with the arrows inside it.
pub fn circles(arrows: &[Arrow]) -> Vec<Vec<&Arrow>> {
    let arrows: Vec<&Arrow> = arrows.iter().filter(|a| !a.is_upward()).collect();
    let mut nodes: BTreeSet<&Vec<String>> = BTreeSet::new();
    let mut next: BTreeMap<&Vec<String>, Vec<&Vec<String>>> = BTreeMap::new();
    for a in &arrows {
        nodes.insert(&a.from);
        nodes.insert(&a.to);
        next.entry(&a.from).or_default().push(&a.to);
    }
    let reach = |start: &Vec<String>| -> BTreeSet<Vec<String>> {
        let mut seen = BTreeSet::new();
        let mut todo = vec![start.clone()];
        while let Some(n) = todo.pop() {
            for m in next.get(&n).into_iter().flatten() {
                if seen.insert((*m).clone()) {
                    todo.push((*m).clone());
                }
            }
        }
        seen
    };
    let reaches: BTreeMap<&Vec<String>, BTreeSet<Vec<String>>> =
        nodes.iter().map(|n| (*n, reach(n))).collect();
    let mut done: BTreeSet<&Vec<String>> = BTreeSet::new();
    let mut found = Vec::new();
    for n in &nodes {
        if done.contains(n) {
            continue;
        }
        let group: BTreeSet<&Vec<String>> = nodes
            .iter()
            .copied()
            .filter(|m| m == n || (reaches[n].contains(*m) && reaches[*m].contains(*n)))
            .collect();
        done.extend(group.iter().copied());
        if group.len() > 1 {
            found.push(
                arrows
                    .iter()
                    .copied()
                    .filter(|a| group.contains(&a.from) && group.contains(&a.to))
                    .collect(),
            );
        }
    }
    found
}

/// A circle as a person reads it: its modules, then each arrow with the file
/// and line that makes it.
pub fn describe(circle: &[&Arrow]) -> String {
    fn name(module: &[String]) -> String {
        if module.is_empty() {
            "crate".to_owned()
        } else {
            module.join("::")
        }
    }
    let modules: BTreeSet<String> = circle.iter().map(|a| name(&a.from)).collect();
    let mut text = format!(
        "import circle: {}",
        modules.into_iter().collect::<Vec<_>>().join(", ")
    );
    for a in circle {
        text.push_str(&format!(
            "\n      {} -> {} (src/{}:{})",
            name(&a.from),
            name(&a.to),
            a.file,
            a.line
        ));
    }
    text
}

/// Every `.rs` file under `dir`, relative to `root`.
pub fn read_tree(dir: &Path, root: &Path, files: &mut Vec<(String, String)>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            read_tree(&path, root, files);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            let relative = path
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            files.push((relative, std::fs::read_to_string(&path).unwrap()));
        }
    }
    files.sort();
}

fn toy(files: &[(&str, &str)]) -> Vec<String> {
    let files: Vec<(String, String)> = files
        .iter()
        .map(|(f, s)| (f.to_string(), s.to_string()))
        .collect();
    circles(&arrows(&files))
        .iter()
        .map(|c| describe(c.as_slice()))
        .collect()
}

/// The checks of this reader on made-up trees; each test crate that includes
/// this file runs them from a `#[test]`, so they can be seen to fail.
pub fn self_test() {
    // Two siblings through `super::` and a grouped `use`, found with lines.
    let found = toy(&[
        ("auth/mod.rs", "pub mod handlers;\npub mod reply;\n"),
        (
            "auth/handlers/mod.rs",
            "mod oauth;\nmod token;\npub use token::token;\n",
        ),
        (
            "auth/handlers/oauth.rs",
            "use super::{steps, token::{TokenBody}};\n",
        ),
        (
            "auth/handlers/token.rs",
            "use crate::auth::reply::ok;\n\nfn f() { super::oauth::grant(); }\n",
        ),
        ("auth/reply.rs", "pub fn ok() {}\n"),
    ]);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(
        found[0].starts_with("import circle: auth::handlers::oauth, auth::handlers::token"),
        "{}",
        found[0]
    );
    assert!(
        found[0].contains(
            "auth::handlers::oauth -> auth::handlers::token (src/auth/handlers/oauth.rs:1)"
        ),
        "{}",
        found[0]
    );
    assert!(
        found[0].contains(
            "auth::handlers::token -> auth::handlers::oauth (src/auth/handlers/token.rs:3)"
        ),
        "{}",
        found[0]
    );

    // A child using its parent's items, and the parent naming the child, is
    // the module tree, not a circle; neither are comments, strings or tests.
    let found = toy(&[
        ("lib.rs", "mod feet;\nmod hands;\npub use feet::score;\n"),
        (
            "feet.rs",
            "use crate::NormBox;\n// crate::hands::x\nconst A: &str = \"crate::hands\";\n\
             #[cfg(test)]\nmod tests {\n    use crate::hands::probe;\n}\n",
        ),
        ("hands.rs", "use crate::feet;\nfn f() { feet::score(); }\n"),
    ]);
    assert!(found.is_empty(), "{found:#?}");

    // Three modules in a ring, through a path in code and a child-module path
    // from the crate root.
    let found = toy(&[
        ("lib.rs", "mod feet;\nmod hands;\nmod photo;\n"),
        ("feet.rs", "fn f() { crate::hands::probe(); }\n"),
        (
            "hands.rs",
            "use crate::photo::{body_score, breakdown_item as item};\n",
        ),
        ("photo.rs", "use crate::feet::{self, FeetEvidence};\n"),
    ]);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(
        found[0].starts_with("import circle: feet, hands, photo"),
        "{}",
        found[0]
    );
}
