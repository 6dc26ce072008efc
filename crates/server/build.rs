//! Tells cargo when to rebuild the server for the web app it embeds.
//!
//! Release builds carry `web/dist` inside the binary (rust-embed reads it at
//! compile time), but cargo only watches Rust sources: a release build made
//! before `npm run build` kept serving 503 at `/`, and one made after a web
//! change kept the old app. Watching the folder fixes both. When it does not
//! exist yet, `web/` is watched instead, so that its appearance triggers the
//! rebuild (a missing path would make cargo rerun this script on every build).

use std::path::Path;

fn main() {
    let manifest_dir = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let web = Path::new(&manifest_dir).join("../../web");
    let dist = web.join("dist");
    println!("cargo:rerun-if-changed=build.rs");
    // Debug builds read the folder at run time (see src/http/spa.rs): nothing
    // to watch, and no reason to scan web/ on every debug build.
    if std::env::var("PROFILE").as_deref() != Ok("release") {
        return;
    }
    if dist.is_dir() {
        println!("cargo:rerun-if-changed={}", dist.display());
    } else {
        println!("cargo:rerun-if-changed={}", web.display());
        println!(
            "cargo:warning=web/dist does not exist: this release binary will serve no web app (run `npm run build` in web/ first)"
        );
    }
}
