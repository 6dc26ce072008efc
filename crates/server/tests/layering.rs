//! The server's layers (crates/server/README.md, "Layers"), enforced. Each
//! file's `crate::…` paths (in `use` lines and in code) and the `super::…`
//! paths that climb out of its top-level module are read; an import from a
//! lower layer to a higher one, a domain importing a later domain (or `app`),
//! or any import circle between top-level modules fails the test, naming the
//! file, the line and the rule. A circle between the modules inside one
//! top-level module (`auth::handlers::oauth` and `auth::handlers::token`)
//! fails too (`tests/module_graph`, which the analysis crate's
//! `tests/modules.rs` uses on its own tree).

mod module_graph;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::Path;

use module_graph::code_only;

/// Bottom up; a layer imports only from layers below it (and, for plumbing,
/// from other plumbing, without circles).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Layer {
    Plumbing = 1,
    Http = 2,
    Media = 3,
    Domain = 4,
    App = 5,
}

impl fmt::Display for Layer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self {
            Layer::Plumbing => "plumbing",
            Layer::Http => "http",
            Layer::Media => "media",
            Layer::Domain => "domain",
            Layer::App => "app",
        };
        write!(f, "layer {} ({name})", *self as u8)
    }
}

/// Where every top-level module of `src/lib.rs` sits.
struct Layout<'a> {
    plumbing: &'a [&'a str],
    http: &'a [&'a str],
    media: &'a [&'a str],
    /// Lowest first: a domain may use the public rules of a domain before it,
    /// never of one after it.
    domains: &'a [&'a str],
    app: &'a [&'a str],
}

const SERVER: Layout<'static> = Layout {
    plumbing: &[
        "config",
        "db",
        "storage",
        "mail",
        "providers",
        "tokens",
        "blocking",
        "rate_limit",
        "values",
    ],
    http: &["http"],
    media: &["media"],
    // Who uses whom: features uses
    // billing (premium); analyses uses features (the feet and hands gates);
    // photos uses analyses' upload rules and the features' save rights;
    // edits uses photos, analyses' errors, billing (premium) and features;
    // leaderboard uses photos (its entries are photos) and billing's contact
    // fee; personality uses billing and the features gate; contact uses the
    // leaderboard's ranks, photos and billing's holds and prices; messages
    // use contact's parties and billing's payment states; partners earn on
    // billing's payments and payouts; dashboard reads photos, edits,
    // personality, verification and billing for its stats. reports sits
    // low, as billing does: the domains whose content can be reported use
    // its `file` and register hooks; it names none of them. site, auth,
    // admin, billing, opportunities and verification use no other domain.
    domains: &[
        "site",
        "auth",
        "admin",
        "reports",
        "billing",
        "features",
        "analyses",
        "photos",
        "edits",
        "leaderboard",
        "opportunities",
        "personality",
        "verification",
        "contact",
        "messages",
        "partners",
        "dashboard",
    ],
    app: &["app"],
};

impl Layout<'_> {
    fn layer(&self, module: &str) -> Option<Layer> {
        [
            (self.plumbing, Layer::Plumbing),
            (self.http, Layer::Http),
            (self.media, Layer::Media),
            (self.domains, Layer::Domain),
            (self.app, Layer::App),
        ]
        .into_iter()
        .find(|(names, _)| names.contains(&module))
        .map(|(_, layer)| layer)
    }

    fn domain_rank(&self, module: &str) -> Option<usize> {
        self.domains.iter().position(|name| *name == module)
    }
}

/// A path in `file` (at `line`) that reaches the top-level module `target`.
#[derive(Debug, Clone)]
struct Import {
    file: String,
    line: usize,
    module: String,
    target: String,
}

/// The top-level module a file belongs to, and how deep it is: `auth/mod.rs`
/// is `["auth"]`, `auth/handlers.rs` is `["auth", "handlers"]`.
fn module_path(file: &str) -> Vec<String> {
    let without_ext = file.strip_suffix(".rs").unwrap_or(file);
    let mut parts: Vec<String> = without_ext.split('/').map(str::to_owned).collect();
    if parts.last().is_some_and(|last| last == "mod") {
        parts.pop();
    }
    parts
}

/// Every top-level module that `source` (the file `file`, relative to `src/`)
/// reaches through `crate::…` or an escaping `super::…`.
fn imports(file: &str, source: &str) -> Vec<Import> {
    let path = module_path(file);
    let module = path[0].clone();
    let code = code_only(source);
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut found = Vec::new();
    let mut line = 1;
    // Inline `mod name { … }` blocks deepen the module path (e.g. `mod tests`).
    let mut depth = 0usize;
    let mut inline_mods: Vec<usize> = Vec::new();
    let mut i = 0;
    let skip_space = |mut j: usize| {
        while j < code.len() && code[j].is_whitespace() {
            j += 1;
        }
        j
    };
    let ident_at = |j: usize| -> Option<(String, usize)> {
        let start = j;
        let mut end = j;
        while end < code.len() && is_ident(code[end]) {
            end += 1;
        }
        (end > start && !code[start].is_ascii_digit())
            .then(|| (code[start..end].iter().collect(), end))
    };
    let double_colon = |j: usize| code.get(j) == Some(&':') && code.get(j + 1) == Some(&':');
    while i < code.len() {
        let c = code[i];
        if c == '\n' {
            line += 1;
            i += 1;
            continue;
        }
        if c == '{' {
            depth += 1;
            i += 1;
            continue;
        }
        if c == '}' {
            if inline_mods.last() == Some(&depth) {
                inline_mods.pop();
            }
            depth = depth.saturating_sub(1);
            i += 1;
            continue;
        }
        let starts_word = is_ident(c) && (i == 0 || !(is_ident(code[i - 1]) || code[i - 1] == '$'));
        if !starts_word {
            i += 1;
            continue;
        }
        let Some((word, end)) = ident_at(i) else {
            i += 1;
            continue;
        };
        let at_line = line;
        match word.as_str() {
            "mod" => {
                // `mod name {` opens an inline module; `mod name;` does not.
                if let Some((_, after_name)) = ident_at(skip_space(end)) {
                    let j = skip_space(after_name);
                    if code.get(j) == Some(&'{') {
                        inline_mods.push(depth + 1);
                    }
                }
            }
            "crate" | "super" => {
                // How many modules up the path climbs, and where it continues.
                let mut ups = 0;
                let mut j = end;
                let from_root = word == "crate";
                if !from_root {
                    ups = 1;
                }
                loop {
                    let k = skip_space(j);
                    if !double_colon(k) {
                        j = usize::MAX;
                        break;
                    }
                    let k = skip_space(k + 2);
                    match ident_at(k) {
                        Some((next, after)) if next == "super" && !from_root => {
                            ups += 1;
                            j = after;
                        }
                        _ => {
                            j = k;
                            break;
                        }
                    }
                }
                let depth_here = path.len() + inline_mods.len();
                let reaches_root = from_root || ups >= depth_here;
                if j != usize::MAX && reaches_root {
                    for target in targets_at(&code, j) {
                        if target != "self" && target != "*" {
                            found.push(Import {
                                file: file.to_owned(),
                                line: at_line,
                                module: module.clone(),
                                target,
                            });
                        }
                    }
                }
            }
            _ => {}
        }
        i = end;
    }
    found
}

/// The top-level names at `j`: one identifier, or each item of a `{…}` group.
fn targets_at(code: &[char], j: usize) -> Vec<String> {
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    if code.get(j) == Some(&'{') {
        let mut targets = Vec::new();
        let mut depth = 0;
        let mut expect_item = true;
        let mut k = j;
        while k < code.len() {
            match code[k] {
                '{' => {
                    depth += 1;
                    k += 1;
                }
                '}' => {
                    depth -= 1;
                    k += 1;
                    if depth == 0 {
                        break;
                    }
                }
                ',' if depth == 1 => {
                    expect_item = true;
                    k += 1;
                }
                '*' if depth == 1 && expect_item => {
                    targets.push("*".to_owned());
                    expect_item = false;
                    k += 1;
                }
                c if depth == 1 && expect_item && is_ident(c) => {
                    let start = k;
                    while k < code.len() && is_ident(code[k]) {
                        k += 1;
                    }
                    targets.push(code[start..k].iter().collect());
                    expect_item = false;
                }
                _ => k += 1,
            }
        }
        return targets;
    }
    let start = j;
    let mut end = j;
    while end < code.len() && is_ident(code[end]) {
        end += 1;
    }
    if end > start {
        vec![code[start..end].iter().collect()]
    } else if code.get(j) == Some(&'*') {
        vec!["*".to_owned()]
    } else {
        Vec::new()
    }
}

/// The rule an import breaks, if any.
fn broken_rule(layout: &Layout, import: &Import) -> Option<String> {
    let (from, to) = (&import.module, &import.target);
    if from == to {
        return None;
    }
    // A module in no layer is reported once, by `check`.
    let (from_layer, to_layer) = (layout.layer(from)?, layout.layer(to)?);
    if to_layer > from_layer {
        return Some(format!(
            "`{from}` ({from_layer}) imports `{to}` ({to_layer}): a layer imports only from layers below it"
        ));
    }
    if from_layer == Layer::Domain && to_layer == Layer::Domain {
        let (from_rank, to_rank) = (layout.domain_rank(from)?, layout.domain_rank(to)?);
        if to_rank > from_rank {
            return Some(format!(
                "domain `{from}` imports domain `{to}`, which comes after it: a domain uses only the domains before it ({})",
                layout.domains.join(" < ")
            ));
        }
    }
    None
}

/// Import circles between top-level modules (each found once).
fn circles(imports: &[Import]) -> Vec<Vec<String>> {
    let mut edges: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for import in imports.iter().filter(|i| i.module != i.target) {
        edges
            .entry(import.module.as_str())
            .or_default()
            .insert(import.target.as_str());
    }
    let mut found: Vec<Vec<String>> = Vec::new();
    let mut seen = BTreeSet::new();
    fn walk<'a>(
        node: &'a str,
        edges: &BTreeMap<&'a str, BTreeSet<&'a str>>,
        stack: &mut Vec<&'a str>,
        found: &mut Vec<Vec<String>>,
        seen: &mut BTreeSet<Vec<String>>,
    ) {
        if let Some(at) = stack.iter().position(|n| *n == node) {
            let mut circle: Vec<String> = stack[at..].iter().map(|s| s.to_string()).collect();
            // One canonical rotation per circle.
            let start = (0..circle.len())
                .min_by_key(|&k| circle[k].clone())
                .unwrap_or(0);
            circle.rotate_left(start);
            if seen.insert(circle.clone()) {
                found.push(circle);
            }
            return;
        }
        stack.push(node);
        for next in edges.get(node).into_iter().flatten() {
            walk(next, edges, stack, found, seen);
        }
        stack.pop();
    }
    for node in edges.keys() {
        walk(node, &edges, &mut Vec::new(), &mut found, &mut seen);
    }
    found
}

/// Every broken rule in `files` (path relative to `src/`, source), as lines a
/// person reads.
fn check(layout: &Layout, modules: &[String], files: &[(String, String)]) -> Vec<String> {
    let mut problems = Vec::new();
    let mut all_modules: BTreeSet<String> = modules.iter().cloned().collect();
    all_modules.extend(files.iter().map(|(file, _)| module_path(file)[0].clone()));
    for module in &all_modules {
        if layout.layer(module).is_none() {
            problems.push(format!(
                "`{module}` is in no layer: place it in tests/layering.rs (a new domain goes into `domains`, in order)"
            ));
        }
    }
    let mut all = Vec::new();
    for (file, source) in files {
        let lines: Vec<&str> = source.lines().collect();
        for import in imports(file, source) {
            if let Some(rule) = broken_rule(layout, &import) {
                let text = lines.get(import.line - 1).map_or("", |l| l.trim());
                problems.push(format!(
                    "src/{}:{}: {rule}\n      {text}",
                    import.file, import.line
                ));
            }
            all.push(import);
        }
    }
    for circle in circles(&all) {
        let mut shown = circle.clone();
        shown.push(circle[0].clone());
        problems.push(format!("import circle: {}", shown.join(" -> ")));
    }
    problems
}

fn read_tree(dir: &Path, root: &Path, files: &mut Vec<(String, String)>) {
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
            if relative != "lib.rs" && relative != "main.rs" {
                files.push((relative, std::fs::read_to_string(&path).unwrap()));
            }
        }
    }
}

/// The `mod` declarations of `lib.rs`.
fn top_modules(lib: &str) -> Vec<String> {
    code_only(lib)
        .iter()
        .collect::<String>()
        .split(';')
        .filter_map(|statement| {
            let words: Vec<&str> = statement.split_whitespace().collect();
            let at = words.iter().position(|w| *w == "mod")?;
            words.get(at + 1).map(|name| name.to_string())
        })
        .collect()
}

#[test]
fn the_server_keeps_its_layers() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    read_tree(&src, &src, &mut files);
    files.sort();
    assert!(
        files.len() > 50,
        "read the source tree: {} files",
        files.len()
    );
    let modules = top_modules(&std::fs::read_to_string(src.join("lib.rs")).unwrap());
    assert!(modules.contains(&"http".to_owned()), "{modules:?}");
    let problems = check(&SERVER, &modules, &files);
    assert!(
        problems.is_empty(),
        "\nThe server's layers are broken (crates/server/README.md, \"Layers\"):\n  {}\n",
        problems.join("\n  ")
    );
    // Every name in the layout is a real module, so the lists stay true.
    for name in SERVER
        .plumbing
        .iter()
        .chain(SERVER.http)
        .chain(SERVER.media)
        .chain(SERVER.domains)
        .chain(SERVER.app)
    {
        assert!(
            modules.iter().any(|m| m == name),
            "`{name}` is not in src/lib.rs"
        );
    }
}

#[test]
fn no_circle_inside_a_top_level_module() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    module_graph::read_tree(&src, &src, &mut files);
    let inside: Vec<module_graph::Arrow> = module_graph::arrows(&files)
        .into_iter()
        .filter(|a| !a.from.is_empty() && !a.to.is_empty() && a.from[0] == a.to[0])
        .collect();
    assert!(
        inside.len() > 300,
        "read the imports inside the modules: {}",
        inside.len()
    );
    let circles: Vec<String> = module_graph::circles(&inside)
        .iter()
        .map(|c| module_graph::describe(c.as_slice()))
        .collect();
    assert!(
        circles.is_empty(),
        "\nModules inside one top-level module import each other in a circle; move what \
         they share into a module both use (as auth::reply and auth::handlers::steps):\n  {}\n",
        circles.join("\n  ")
    );
}

#[test]
fn the_module_graph_reader_finds_circles_and_only_circles() {
    module_graph::self_test();
}

// The checker itself, on made-up trees: it must be able to fail.

const TOY: Layout<'static> = Layout {
    plumbing: &["db", "config"],
    http: &["http"],
    media: &["media"],
    domains: &["photos", "edits"],
    app: &["app"],
};

fn toy(files: &[(&str, &str)]) -> Vec<String> {
    let modules: Vec<String> = ["db", "config", "http", "media", "photos", "edits", "app"]
        .map(str::to_owned)
        .to_vec();
    let files: Vec<(String, String)> = files
        .iter()
        .map(|(f, s)| (f.to_string(), s.to_string()))
        .collect();
    check(&TOY, &modules, &files)
}

#[test]
fn plumbing_importing_a_domain_is_caught_with_file_line_and_rule() {
    let problems = toy(&[(
        "db/mod.rs",
        "//! The database.\n\nuse crate::config::Config;\nuse crate::photos::entity;\n",
    )]);
    assert_eq!(problems.len(), 1, "{problems:#?}");
    assert!(
        problems[0].starts_with(
            "src/db/mod.rs:4: `db` (layer 1 (plumbing)) imports `photos` (layer 4 (domain))"
        ),
        "{}",
        problems[0]
    );
    assert!(
        problems[0].ends_with("use crate::photos::entity;"),
        "{}",
        problems[0]
    );
}

#[test]
fn grouped_and_inline_paths_are_read_but_comments_and_strings_are_not() {
    let source = r#"
        use crate::{config, http::{self, AppState}};
        // use crate::app::router;
        /* crate::app::Application */
        const DOC: &str = "crate::app::cli";
        fn f() { let _ = crate::media::signed_url; }
    "#;
    let problems = toy(&[("http/state.rs", source)]);
    assert_eq!(problems.len(), 1, "{problems:#?}");
    assert!(
        problems[0].contains("`http` (layer 2 (http)) imports `media` (layer 3 (media))"),
        "{}",
        problems[0]
    );
}

#[test]
fn a_domain_importing_a_later_domain_or_app_is_caught() {
    let problems = toy(&[
        ("photos/mod.rs", "use crate::edits::photo_edit_path;\n"),
        (
            "edits/mod.rs",
            "use crate::photos::own_photo;\nuse crate::app::openapi;\n",
        ),
    ]);
    assert_eq!(problems.len(), 3, "{problems:#?}");
    assert!(
        problems
            .iter()
            .any(|p| p.contains("domain `photos` imports domain `edits`, which comes after it"))
    );
    assert!(
        problems
            .iter()
            .any(|p| p.contains("`edits` (layer 4 (domain)) imports `app` (layer 5 (app))"))
    );
    assert!(
        problems
            .iter()
            .any(|p| p == "import circle: edits -> photos -> edits"),
        "{problems:#?}"
    );
}

#[test]
fn super_paths_that_climb_out_of_the_module_count() {
    // `super::super::edits` from photos/share.rs is crate::edits.
    let problems = toy(&[
        (
            "photos/share.rs",
            "use super::super::edits::temp;\nuse super::own_photo;\n",
        ),
        (
            "db/mod.rs",
            "mod tests {\n    use super::*;\n    use super::connect;\n}\n",
        ),
    ]);
    assert_eq!(problems.len(), 1, "{problems:#?}");
    assert!(
        problems[0].starts_with("src/photos/share.rs:1: domain `photos` imports domain `edits`"),
        "{}",
        problems[0]
    );
}

#[test]
fn a_circle_inside_plumbing_and_an_unplaced_module_are_caught() {
    let problems = toy(&[
        ("db/mod.rs", "use crate::config::Config;\n"),
        ("config.rs", "use crate::db::connect;\n"),
        ("leaderboard/mod.rs", "use crate::http::AppState;\n"),
    ]);
    assert!(
        problems
            .iter()
            .any(|p| p == "import circle: config -> db -> config"),
        "{problems:#?}"
    );
    assert!(
        problems
            .iter()
            .any(|p| p.contains("`leaderboard` is in no layer")),
        "{problems:#?}"
    );
}

#[test]
fn lifetimes_and_char_literals_do_not_confuse_the_reader() {
    let source = "fn f<'a>(x: &'a str) -> char { let _q = '\"'; let _b = '\\''; crate::media::key_of(x); 'x' }\n";
    let found = imports("http/spa.rs", source);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].target, "media");
}
