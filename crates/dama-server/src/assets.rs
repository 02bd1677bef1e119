//! Serving the web UI's files: each compressed once (gzip, the first time it is asked
//! for) and named by a hash of its content (an `ETag`), so that a browser downloads a
//! file once, compressed, and on later visits only asks whether it changed (304).

use std::sync::OnceLock;

use axum::body::Bytes;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use sha2::{Digest, Sha256};

/// A file ready to serve: its content type, its bytes plain and gzipped, and its tag.
pub struct Prepared {
    ty: String,
    plain: &'static [u8],
    /// Shared: an answer hands out a reference, not a copy.
    gzip: Bytes,
    tag: String,
}

impl Prepared {
    /// Prepares `body` of content type `ty` (a text type gets `charset=utf-8`).
    pub fn new(ty: &str, body: &'static str) -> Prepared {
        use std::io::Write;
        let mut z = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        // Writing to memory cannot fail.
        let gzip = Bytes::from(z.write_all(body.as_bytes()).and_then(|_| z.finish()).unwrap_or_default());
        let hash = Sha256::digest(body.as_bytes());
        let tag = hash[..8].iter().map(|b| format!("{b:02x}")).collect();
        let ty = if ty.starts_with("text/") || ty.ends_with("+xml") || ty.ends_with("/json") {
            format!("{ty}; charset=utf-8")
        } else {
            ty.to_string()
        };
        Prepared { ty, plain: body.as_bytes(), gzip, tag }
    }

    /// The answer to a request with `headers`: 304 when the browser has this version,
    /// else the file, gzipped when the browser takes it (and it is smaller).
    pub fn answer(&self, headers: &HeaderMap) -> Response {
        let gz = accepts_gzip(headers) && self.gzip.len() < self.plain.len();
        let tag = if gz { format!("\"{}-gz\"", self.tag) } else { format!("\"{}\"", self.tag) };
        let mut h = HeaderMap::new();
        h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
        h.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
        if let Ok(v) = HeaderValue::from_str(&tag) {
            h.insert(header::ETAG, v);
        }
        if matches_tag(headers, &self.tag) {
            return (StatusCode::NOT_MODIFIED, h).into_response();
        }
        if let Ok(v) = HeaderValue::from_str(&self.ty) {
            h.insert(header::CONTENT_TYPE, v);
        }
        if gz {
            h.insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
            (h, self.gzip.clone()).into_response()
        } else {
            (h, self.plain).into_response()
        }
    }
}

/// Whether the request's `Accept-Encoding` takes gzip (not refused with `q=0`).
fn accepts_gzip(headers: &HeaderMap) -> bool {
    headers.get_all(header::ACCEPT_ENCODING).iter().filter_map(|v| v.to_str().ok()).flat_map(|v| v.split(',')).any(
        |part| {
            let mut it = part.split(';');
            let name = it.next().unwrap_or("").trim();
            let refused =
                it.any(|p| matches!(p.trim().strip_prefix("q="), Some(q) if q.parse::<f32>().unwrap_or(1.0) == 0.0));
            (name.eq_ignore_ascii_case("gzip") || name == "*") && !refused
        },
    )
}

/// Whether `If-None-Match` names this version (plain or gzipped).
fn matches_tag(headers: &HeaderMap, tag: &str) -> bool {
    headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|t| t.trim().trim_start_matches("W/").trim_matches('"'))
        .any(|t| t == "*" || t == tag || t.strip_suffix("-gz") == Some(tag))
}

/// Files prepared once, on first use, from a list of (name, content type, content).
pub struct Shelf {
    files: &'static [(&'static str, &'static str, &'static str)],
    ready: OnceLock<Vec<Prepared>>,
}

impl Shelf {
    /// A shelf of `files`.
    pub const fn new(files: &'static [(&'static str, &'static str, &'static str)]) -> Shelf {
        Shelf { files, ready: OnceLock::new() }
    }

    /// The file `name`, prepared.
    pub fn get(&self, name: &str) -> Option<&Prepared> {
        let ready = self.ready.get_or_init(|| self.files.iter().map(|(_, ty, body)| Prepared::new(ty, body)).collect());
        self.files.iter().position(|(n, _, _)| *n == name).map(|i| &ready[i])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(*k, HeaderValue::from_static(v));
        }
        h
    }

    #[test]
    fn gzip_is_chosen_by_the_accept_encoding() {
        assert!(accepts_gzip(&headers(&[("accept-encoding", "gzip, deflate, br")])));
        assert!(accepts_gzip(&headers(&[("accept-encoding", "br;q=1.0, gzip;q=0.8")])));
        assert!(!accepts_gzip(&headers(&[("accept-encoding", "gzip;q=0")])));
        assert!(!accepts_gzip(&headers(&[("accept-encoding", "identity")])));
        assert!(!accepts_gzip(&HeaderMap::new()));
    }

    #[test]
    fn a_known_version_is_not_sent_again() {
        let text: &'static str = Box::leak("let x = 1;\n".repeat(200).into_boxed_str());
        let p = Prepared::new("text/javascript", text);
        let first = p.answer(&headers(&[("accept-encoding", "gzip")]));
        assert_eq!(first.status(), StatusCode::OK);
        assert_eq!(first.headers()[header::CONTENT_ENCODING], "gzip");
        let tag = first.headers()[header::ETAG].to_str().unwrap().to_string();
        let mut again = headers(&[("accept-encoding", "gzip")]);
        again.insert(header::IF_NONE_MATCH, HeaderValue::from_str(&tag).unwrap());
        assert_eq!(p.answer(&again).status(), StatusCode::NOT_MODIFIED);
        // Another version's tag gets the file.
        let mut other = HeaderMap::new();
        other.insert(header::IF_NONE_MATCH, HeaderValue::from_static("\"0123456789abcdef\""));
        let r = p.answer(&other);
        assert_eq!(r.status(), StatusCode::OK);
        assert!(r.headers().get(header::CONTENT_ENCODING).is_none());
    }
}
