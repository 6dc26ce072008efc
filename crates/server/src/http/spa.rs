//! Serves the built web app: hashed assets with long cache lifetimes,
//! `index.html` for every client route, and JSON 404s for unknown API paths.

use std::borrow::Cow;
use std::path::{Component, Path, PathBuf};

use axum::body::Body;
use axum::http::{HeaderValue, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use rust_embed::RustEmbed;

use super::error::{ApiError, ErrorCode};

/// The web app as built by `npm run build` in `web/`. Release builds carry it
/// inside the binary; debug builds read the folder at run time, so a rebuilt
/// web app needs no server rebuild.
#[derive(RustEmbed)]
#[folder = "../../web/dist/"]
#[allow_missing = true]
struct EmbeddedWebApp;

/// Where the web app's files come from.
#[derive(Debug, Clone)]
pub enum WebApp {
    Embedded,
    Dir(PathBuf),
}

/// Every route of the web app's router (see `web/src/app/router.tsx`); other
/// paths still get the app, which shows its not-found page, with status 404.
const CLIENT_ROUTES: &[&str] = &[
    "/",
    "/upload",
    "/results",
    "/leaderboard",
    "/how-it-works",
    "/privacy",
    "/terms",
    "/guidelines",
    "/auth",
    "/auth/reset",
    "/account",
    "/account/secure",
    "/account/community",
    "/dashboard",
    "/user-dashboard",
    "/premium",
    "/checkout/sandbox/:id",
    "/editor",
    "/global-ranking",
    "/personality-test",
    "/claim-opportunities",
    "/contestant-requests",
    "/messages/:requestId",
    "/feet-upload",
    "/feet-results",
    "/hands-upload",
    "/hands-results",
    "/pet-upload",
    "/pet-results",
    "/partners",
    "/partners/apply",
    "/partners/portal",
    "/partners/leaderboard",
    "/r/:code",
    "/admin/partners",
    "/admin/payouts",
    "/earnings",
    "/payouts/sandbox/onboard/:account",
    "/request-verification",
    "/admin/verification",
    "/admin/leaderboard",
    "/admin/opportunities",
    "/admin/audit",
    "/admin/payments",
    "/admin/reports",
    "/report",
    "/appeal/:decisionId",
];

/// Path prefixes that belong to the server, never to the web app. (`/auth`
/// itself is the web app's sign-in page; the auth API lives under `/auth/v1`.)
const SERVER_PREFIXES: &[&str] = &["/api/", "/auth/v1/", "/functions/", "/media/"];

const IMMUTABLE: &str = "public, max-age=31536000, immutable";
const REVALIDATE: &str = "no-cache";

/// Whether this binary carries the web app inside it (release builds; debug
/// builds read `web/dist` from disk at run time).
const EMBEDDED_AT_COMPILE_TIME: bool = !cfg!(debug_assertions);

/// What start-up must say when there is no web app to serve, or `None` when
/// there is one. `has_index`: whether the app's `index.html` is there.
pub fn missing_app_warning(
    source: &WebApp,
    has_index: bool,
    embedded_at_compile_time: bool,
) -> Option<String> {
    if has_index {
        return None;
    }
    Some(match source {
        WebApp::Embedded if embedded_at_compile_time => "This binary was built without the web \
            app (web/dist did not exist when it was compiled), so every page answers 503. Run \
            `npm run build` in web/ and build the server again (scripts/run.sh does both), or \
            point `web_dir` at a built app."
            .to_owned(),
        WebApp::Embedded => "The web app has not been built (web/dist is missing), so every \
            page answers 503. Run `npm run build` in web/, then build and start the server \
            again (cargo rebuilds it by itself once the folder exists)."
            .to_owned(),
        WebApp::Dir(dir) => format!(
            "The web app folder {} has no index.html, so every page answers 503.",
            dir.display()
        ),
    })
}

impl WebApp {
    /// The start-up warning for a missing web app (see [`missing_app_warning`]).
    pub async fn startup_warning(&self) -> Option<String> {
        let has_index = self.file("index.html").await.is_some();
        missing_app_warning(self, has_index, EMBEDDED_AT_COMPILE_TIME)
    }

    async fn file(&self, relative: &str) -> Option<Cow<'static, [u8]>> {
        match self {
            WebApp::Embedded => EmbeddedWebApp::get(relative).map(|file| file.data),
            WebApp::Dir(dir) => {
                let path = safe_join(dir, relative)?;
                tokio::fs::read(path).await.ok().map(Cow::Owned)
            }
        }
    }

    /// The fallback handler: anything no API route matched.
    pub async fn serve(&self, method: &Method, uri: &Uri) -> Response {
        let path = uri.path();
        if SERVER_PREFIXES
            .iter()
            .any(|prefix| path.starts_with(prefix))
            || matches!(path, "/api" | "/auth/v1" | "/functions" | "/media")
        {
            return ApiError::not_found(format!("There is no endpoint at {path}.")).into_response();
        }
        if method != Method::GET && method != Method::HEAD {
            return ApiError::new(
                StatusCode::METHOD_NOT_ALLOWED,
                ErrorCode::MethodNotAllowed,
                "This page can only be read.",
            )
            .into_response();
        }

        let relative = path.trim_start_matches('/');
        if !relative.is_empty() && relative != "index.html" {
            if let Some(bytes) = self.file(relative).await {
                let cache = if relative.starts_with("assets/") {
                    IMMUTABLE
                } else {
                    "public, max-age=3600"
                };
                return file_response(StatusCode::OK, relative, bytes, cache);
            }
            // A missing script or style must fail loudly, not load the page.
            if relative.starts_with("assets/") || has_file_extension(relative) {
                return (StatusCode::NOT_FOUND, "Not found").into_response();
            }
        }

        let status = if is_client_route(path) {
            StatusCode::OK
        } else {
            tracing::info!(path, "unknown page requested");
            StatusCode::NOT_FOUND
        };
        match self.file("index.html").await {
            Some(index) => file_response(status, "index.html", index, REVALIDATE),
            None => (
                StatusCode::SERVICE_UNAVAILABLE,
                "The web app has not been built yet: run scripts/run.sh, or `npm run build` in web/.",
            )
                .into_response(),
        }
    }
}

fn file_response(
    status: StatusCode,
    name: &str,
    bytes: Cow<'static, [u8]>,
    cache_control: &'static str,
) -> Response {
    let mime = mime_guess::from_path(name).first_or_octet_stream();
    let mut response = Response::new(Body::from(bytes.into_owned()));
    *response.status_mut() = status;
    let headers = response.headers_mut();
    if let Ok(value) = HeaderValue::from_str(mime.as_ref()) {
        headers.insert(header::CONTENT_TYPE, value);
    }
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static(cache_control),
    );
    response
}

pub fn is_client_route(path: &str) -> bool {
    let path = match path.strip_suffix('/') {
        Some(trimmed) if !trimmed.is_empty() => trimmed,
        _ => path,
    };
    CLIENT_ROUTES.iter().any(|route| route_matches(route, path))
}

fn route_matches(route: &str, path: &str) -> bool {
    let mut route_parts = route.split('/');
    let mut path_parts = path.split('/');
    loop {
        match (route_parts.next(), path_parts.next()) {
            (None, None) => return true,
            (Some(r), Some(p)) if r.starts_with(':') && !p.is_empty() => {}
            (Some(r), Some(p)) if r == p => {}
            _ => return false,
        }
    }
}

fn has_file_extension(path: &str) -> bool {
    path.rsplit('/')
        .next()
        .is_some_and(|name| name.contains('.'))
}

/// Joins a URL path onto the web directory without leaving it.
fn safe_join(dir: &Path, relative: &str) -> Option<PathBuf> {
    let relative = Path::new(relative);
    relative
        .components()
        .all(|c| matches!(c, Component::Normal(_)))
        .then(|| dir.join(relative))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_spec_route_is_a_client_route_and_others_are_not() {
        for path in [
            "/",
            "/auth",
            "/results",
            "/messages/5f0c7a8e-3b7e-4f3e-9d52-1c2b3a4d5e6f",
            "/r/ABC12",
            "/partners/portal/",
            "/admin/verification",
        ] {
            assert!(is_client_route(path), "{path}");
        }
        for path in [
            "/nope",
            "/messages",
            "/messages/",
            "/r/a/b",
            "/admin",
            "/partners/x",
            "/auth/v1",
        ] {
            assert!(!is_client_route(path), "{path}");
        }
    }

    /// Every `path: '…'` of the web app's `config/paths.ts` (the router's
    /// routes) answers 200 here: a page added there and forgotten here
    /// would answer 404 on a reload.
    #[test]
    fn every_route_of_the_web_app_is_a_client_route() {
        let paths = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web/src/config/paths.ts"),
        )
        .expect("the web app's paths");
        let routes: Vec<&str> = paths
            .split("path: '")
            .skip(1)
            .filter_map(|rest| rest.split('\'').next())
            .collect();
        assert!(routes.len() > 40, "read the web app's routes: {routes:?}");
        for route in routes {
            assert!(
                CLIENT_ROUTES.contains(&route),
                "{route} is not in CLIENT_ROUTES"
            );
        }
    }

    #[test]
    fn a_release_binary_without_the_embedded_app_says_so_and_one_with_it_says_nothing() {
        let release_without = missing_app_warning(&WebApp::Embedded, false, true).unwrap();
        assert!(
            release_without.contains("built without the web app"),
            "{release_without}"
        );
        assert!(
            release_without.contains("npm run build"),
            "{release_without}"
        );
        assert_eq!(missing_app_warning(&WebApp::Embedded, true, true), None);

        let debug_without = missing_app_warning(&WebApp::Embedded, false, false).unwrap();
        assert!(
            debug_without.contains("web/dist is missing"),
            "{debug_without}"
        );
        assert_eq!(missing_app_warning(&WebApp::Embedded, true, false), None);

        let dir = WebApp::Dir(PathBuf::from("/srv/web"));
        let empty_dir = missing_app_warning(&dir, false, true).unwrap();
        assert!(
            empty_dir.contains("/srv/web has no index.html"),
            "{empty_dir}"
        );
        assert_eq!(missing_app_warning(&dir, true, true), None);
    }

    #[tokio::test]
    async fn an_empty_web_folder_gives_a_warning_at_start_up() {
        let dir = tempfile::tempdir().unwrap();
        let app = WebApp::Dir(dir.path().to_owned());
        assert!(app.startup_warning().await.is_some());
        std::fs::write(dir.path().join("index.html"), "<!doctype html>").unwrap();
        assert_eq!(app.startup_warning().await, None);
    }

    #[test]
    fn paths_cannot_leave_the_web_directory() {
        let dir = Path::new("/srv/web");
        assert_eq!(
            safe_join(dir, "assets/a.js"),
            Some(PathBuf::from("/srv/web/assets/a.js"))
        );
        assert_eq!(safe_join(dir, "../etc/passwd"), None);
        assert_eq!(safe_join(dir, "assets/../../x"), None);
    }
}
