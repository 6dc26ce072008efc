//! Tells cargo when to rebuild the server for the web app it embeds.
//!
//! Release builds carry `web/dist` inside the binary (rust-embed reads it at
//! compile time), but cargo only watches Rust sources: a release build made
//! before `npm run build` kept serving 503 at `/`, and one made after a web
//! change kept the old app. Watching the folder fixes both.
//!
//! Debug builds read the folder at run time, but rust-embed fixes its
//! canonical path at compile time, and a folder missing then never matches
//! later: a debug build made before `npm run build` also served 503 until it
//! was rebuilt. So debug builds are rebuilt when the folder appears.
//!
//! A missing path is never watched (cargo would rerun this script on every
//! build): while `web/dist` does not exist, `web/` is watched instead, so
//! that its appearance triggers the rebuild.

use std::path::Path;

fn main() {
    let manifest_dir = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let web = Path::new(&manifest_dir).join("../../web");
    let dist = web.join("dist");
    let release = std::env::var("PROFILE").as_deref() == Ok("release");
    println!("cargo:rerun-if-changed=build.rs");
    match (dist.is_dir(), release) {
        // Embedded: every change of the built app is a change of the binary.
        (true, true) => println!("cargo:rerun-if-changed={}", dist.display()),
        // Read at run time: nothing to watch while the folder exists.
        (true, false) => {}
        (false, _) => {
            if web.is_dir() {
                println!("cargo:rerun-if-changed={}", web.display());
            }
            if release {
                println!(
                    "cargo:warning=web/dist does not exist: this release binary will serve no web app (run `npm run build` in web/ first)"
                );
            }
        }
    }
}
