//! Completes the generated OpenAPI document with what the HTTP edge does for
//! every route, so each handler's annotation need not repeat it: the bearer
//! scheme, and the error answers the extractors and the edge give (a body
//! that is not JSON, not valid or too large; a bad query; an unknown id; a
//! missing sign-in; a busy instance).

use utoipa::openapi::path::{Operation, ParameterIn};
use utoipa::openapi::request_body::RequestBody;
use utoipa::openapi::security::{Http, HttpAuthScheme, SecurityRequirement, SecurityScheme};
use utoipa::openapi::{ContentBuilder, OpenApi, Ref, RefOr, ResponseBuilder};

/// The name of the bearer scheme in `components.securitySchemes`, as the
/// handlers' `security(("bearer" = []))` name it.
pub const BEARER: &str = "bearer";

pub fn complete(mut doc: OpenApi) -> OpenApi {
    let components = doc.components.get_or_insert_with(Default::default);
    let mut bearer = Http::new(HttpAuthScheme::Bearer);
    bearer.bearer_format = Some("JWT".to_owned());
    bearer.description = Some(
        "An access token from the auth API (`POST /auth/v1/token`), sent as `Authorization: Bearer <token>`."
            .to_owned(),
    );
    components.add_security_scheme(BEARER, SecurityScheme::Http(bearer));

    for item in doc.paths.paths.values_mut() {
        for operation in [
            &mut item.get,
            &mut item.put,
            &mut item.post,
            &mut item.delete,
            &mut item.patch,
            &mut item.head,
            &mut item.options,
            &mut item.trace,
        ]
        .into_iter()
        .flatten()
        {
            complete_operation(operation);
        }
    }
    doc
}

fn complete_operation(operation: &mut Operation) {
    let body_types = operation
        .request_body
        .as_ref()
        .map(|body| match body {
            RefOr::T(RequestBody { content, .. }) => content.keys().cloned().collect(),
            RefOr::Ref(_) => Vec::new(),
        })
        .unwrap_or_default();
    let json = body_types.iter().any(|t| t.contains("json"));
    let multipart = body_types.iter().any(|t| t.starts_with("multipart/"));
    let parameters = |place: ParameterIn| {
        operation.parameters.iter().flatten().any(
            |parameter| matches!(parameter, RefOr::T(parameter) if parameter.parameter_in == place),
        )
    };
    let (query, path) = (
        parameters(ParameterIn::Query),
        parameters(ParameterIn::Path),
    );

    let mut add = |status: &str, description: &str| {
        operation
            .responses
            .responses
            .entry(status.to_owned())
            .or_insert_with(|| error_response(description));
    };
    if json {
        add("400", "`invalid_json`: the body is not valid JSON");
        add("413", "`body_too_large`: the body is too large");
        add(
            "415",
            "`unsupported_media_type`: the body is not sent as `application/json`",
        );
        add(
            "422",
            "`validation_failed`: a field is missing or has the wrong type",
        );
    }
    if multipart {
        add("400", "`invalid_upload`: the upload could not be read");
        add("413", "`too_large`: the file is over 10 MB");
        add(
            "415",
            "`invalid_upload`: the body is not `multipart/form-data`",
        );
        add(
            "503",
            "`server_busy`: too many uploads in flight; retry after `Retry-After` seconds",
        );
    }
    if query {
        add("400", "`invalid_query`: a query parameter is invalid");
    }
    if path {
        add("404", "`not_found`: no such resource");
    }
    if query || path {
        // `values::text` refuses control and bidi-override characters in every
        // path and query string before the handler runs.
        add(
            "422",
            "`validation_failed`: the path or query holds a control character",
        );
    }
    let signed_in = operation.responses.responses.contains_key("401");
    if signed_in && operation.security.is_none() {
        operation.security = Some(vec![SecurityRequirement::new(BEARER, Vec::<String>::new())]);
    }
}

fn error_response(description: &str) -> RefOr<utoipa::openapi::Response> {
    RefOr::T(
        ResponseBuilder::new()
            .description(description)
            .content(
                "application/json",
                ContentBuilder::new()
                    .schema(Some(Ref::from_schema_name("ErrorBody")))
                    .build(),
            )
            .build(),
    )
}
