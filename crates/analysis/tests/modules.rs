//! No import circles between the crate's modules: a module that two others
//! need lives below both (as `body` holds the body-photo score that `photo`
//! and `hands` share, and `tflite::ops` the operators that `model` makes and
//! `fuse` rewrites). The reader is the server's (`crates/server/tests/module_graph`),
//! so both crates are held to the same rule.

#[path = "../../server/tests/module_graph/mod.rs"]
mod module_graph;

use std::path::Path;

#[test]
fn no_import_circle_between_the_modules_of_the_crate() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    module_graph::read_tree(&src, &src, &mut files);
    let arrows = module_graph::arrows(&files);
    assert!(arrows.len() > 50, "read the imports: {}", arrows.len());
    let circles: Vec<String> = module_graph::circles(&arrows)
        .iter()
        .map(|c| module_graph::describe(c.as_slice()))
        .collect();
    assert!(
        circles.is_empty(),
        "\nModules of the analysis crate import each other in a circle; move what they \
         share into a module both use:\n  {}\n",
        circles.join("\n  ")
    );
}

#[test]
fn the_module_graph_reader_finds_circles_and_only_circles() {
    module_graph::self_test();
}
