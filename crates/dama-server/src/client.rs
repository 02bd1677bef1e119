//! A minimal HTTP/1.1 client for tests and the load test (one request a connection).

use std::net::SocketAddr;

use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Sends one request; returns the status and the body (JSON when it parses, else a
/// JSON string).
pub async fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&str>,
) -> std::io::Result<(u16, Value)> {
    let headers: Vec<(&str, &str)> = token.map(|t| ("x-dama-token", t)).into_iter().collect();
    let r = request(addr, method, path, &headers, body).await?;
    Ok((r.status, r.body))
}

/// An answer with its headers.
pub struct Reply {
    /// The status code.
    pub status: u16,
    /// The headers, names in lower case.
    pub headers: Vec<(String, String)>,
    /// The body: JSON when it parses, else a JSON string.
    pub body: Value,
}

impl Reply {
    /// The first value of a header.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }
}

/// Sends one request with these extra headers.
pub async fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&str>,
) -> std::io::Result<Reply> {
    request_from(addr, None, method, path, headers, body).await
}

/// [`request`] from the local address `from` (on loopback, any 127.x.y.z: a client
/// of its own address), with a JSON content type unless `headers` name another.
pub async fn request_from(
    addr: SocketAddr,
    from: Option<std::net::IpAddr>,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&str>,
) -> std::io::Result<Reply> {
    let mut s = match from {
        Some(ip) => {
            let socket = if ip.is_ipv4() { tokio::net::TcpSocket::new_v4()? } else { tokio::net::TcpSocket::new_v6()? };
            socket.bind(SocketAddr::new(ip, 0))?;
            socket.connect(addr).await?
        }
        None => TcpStream::connect(addr).await?,
    };
    let body = body.unwrap_or("");
    let extra: String = headers.iter().map(|(k, v)| format!("{k}: {v}\r\n")).collect();
    let typed = headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("content-type"));
    let json = if typed { "" } else { "Content-Type: application/json\r\n" };
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: dama\r\nConnection: close\r\n{extra}{json}Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await?;
    let mut out = Vec::new();
    s.read_to_end(&mut out).await?;
    let text = String::from_utf8_lossy(&out).to_string();
    let status: u16 = text.get(9..12).and_then(|c| c.parse().ok()).unwrap_or(0);
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let headers: Vec<(String, String)> = head
        .lines()
        .skip(1)
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let chunked = headers.iter().any(|(k, v)| k == "transfer-encoding" && v.eq_ignore_ascii_case("chunked"));
    let body = if chunked { dechunk(body) } else { body.to_string() };
    Ok(Reply { status, headers, body: serde_json::from_str(&body).unwrap_or(Value::String(body)) })
}

fn dechunk(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some((size, tail)) = rest.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 || tail.len() < n {
            break;
        }
        out.push_str(&tail[..n]);
        rest = tail.get(n + 2..).unwrap_or("");
    }
    out
}
