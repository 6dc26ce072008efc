//! The admin's CSV of applications (RFC 4180: every cell quoted, quotes
//! doubled, CRLF line ends). A cell that a spreadsheet would run as a formula
//! (starting with =, +, -, @, tab or CR) gets a leading apostrophe, so an
//! applicant's text cannot run in the admin's spreadsheet.

use super::ApplicationView;

const HEADER: [&str; 11] = [
    "id",
    "created_at",
    "full_name",
    "email",
    "phone",
    "instagram",
    "location",
    "bio",
    "interests",
    "contacted_at",
    "status",
];

fn cell(value: &str) -> String {
    let defused = if value.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{value}")
    } else {
        value.to_owned()
    };
    format!("\"{}\"", defused.replace('"', "\"\""))
}

pub fn to_csv(applications: &[ApplicationView]) -> String {
    let mut out = HEADER.map(cell).join(",");
    out.push_str("\r\n");
    for app in applications {
        let status = if app.contacted_at.is_some() {
            "contacted"
        } else {
            "waiting"
        };
        let row = [
            app.id.to_string(),
            app.created_at.to_rfc3339(),
            app.full_name.clone(),
            app.email.clone(),
            app.phone.clone().unwrap_or_default(),
            app.instagram.clone().unwrap_or_default(),
            app.location.clone(),
            app.bio.clone().unwrap_or_default(),
            app.interests.join("; "),
            app.contacted_at
                .map(|at| at.to_rfc3339())
                .unwrap_or_default(),
            status.to_owned(),
        ];
        out.push_str(
            &row.iter()
                .map(|value| cell(value))
                .collect::<Vec<_>>()
                .join(","),
        );
        out.push_str("\r\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use chrono::Utc;
    use uuid::Uuid;

    use super::*;

    #[test]
    fn cells_are_quoted_and_formulas_defused() {
        assert_eq!(cell("Ada"), "\"Ada\"");
        assert_eq!(cell("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(cell("=HYPERLINK(\"x\")"), "\"'=HYPERLINK(\"\"x\"\")\"");
        assert_eq!(cell("+14155552671"), "\"'+14155552671\"");
        assert_eq!(cell("line\nbreak"), "\"line\nbreak\"");
    }

    #[test]
    fn one_line_per_application_after_the_header() {
        let app = ApplicationView {
            id: Uuid::nil(),
            full_name: "Ada, Countess".into(),
            email: "ada@example.com".into(),
            phone: None,
            instagram: Some("ada".into()),
            location: "London".into(),
            bio: None,
            interests: vec!["Fashion Modeling".into(), "Brand Partnerships".into()],
            created_at: Utc::now(),
            contacted_at: None,
        };
        let csv = to_csv(&[app]);
        let lines: Vec<&str> = csv.split("\r\n").collect();
        assert_eq!(lines.len(), 3, "header, one row, the empty end");
        assert!(lines[0].starts_with("\"id\",\"created_at\""));
        assert!(lines[1].contains("\"Ada, Countess\""));
        assert!(lines[1].contains("\"Fashion Modeling; Brand Partnerships\""));
        assert!(lines[1].ends_with("\"waiting\""));
    }
}
