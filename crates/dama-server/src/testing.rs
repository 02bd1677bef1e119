//! What the tests of this crate and of the `dama` binary share (not part of the API).

/// Creates a database beside `base`'s (a `postgres://` URL), named after `prefix`, this
/// process and the time, and returns its URL; databases of the same prefix made over an
/// hour ago (by earlier runs) are dropped first.
pub async fn fresh_postgres(base: &str, prefix: &str) -> Result<String, String> {
    use sqlx::{Connection, Executor};
    static N: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let stamp = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_millis()).unwrap_or(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let name = format!("{prefix}_{}_{n}_{stamp}", std::process::id());
    let mut c = sqlx::PgConnection::connect(base).await.map_err(|e| e.to_string())?;
    let old: Vec<(String,)> = sqlx::query_as("SELECT datname FROM pg_database WHERE datname LIKE $1")
        .bind(format!("{prefix}_%"))
        .fetch_all(&mut c)
        .await
        .map_err(|e| e.to_string())?;
    for (db,) in old {
        let made: u128 = db.rsplit('_').next().and_then(|t| t.parse().ok()).unwrap_or(u128::MAX);
        if stamp.saturating_sub(made) > 3_600_000 {
            let _ = c.execute(format!("DROP DATABASE IF EXISTS {db} WITH (FORCE)").as_str()).await;
        }
    }
    c.execute(format!("CREATE DATABASE {name}").as_str()).await.map_err(|e| e.to_string())?;
    let (prefix_url, _) = base.rsplit_once('/').ok_or("bad URL")?;
    Ok(format!("{prefix_url}/{name}"))
}
