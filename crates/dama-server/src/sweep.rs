//! What runs every few seconds, on every node (each step is safe to run twice): the
//! challenges whose time is up expire, and the players with a day or less left for a
//! correspondence move are reminded. Tests call [`run`] with their own time.

use std::time::Duration;

use crate::state::Services;

/// How often it runs.
const EVERY: Duration = Duration::from_secs(10);

/// Runs it every few seconds until the server stops.
pub fn start(ctx: &Services) {
    let ctx = ctx.clone();
    tokio::spawn(async move {
        let stopping = ctx.until_shutdown();
        tokio::pin!(stopping);
        loop {
            tokio::select! {
                _ = tokio::time::sleep(EVERY) => {}
                _ = &mut stopping => return,
            }
            run(&ctx, crate::clock::now_ms()).await;
        }
    });
}

/// One round at `now_ms`: failures are logged, and the next round tries again.
pub async fn run(ctx: &Services, now_ms: i64) {
    if let Err(e) = crate::challenges::expire(ctx, now_ms).await {
        tracing::error!(error = %crate::error::Chain(&e), "expiring challenges");
    }
    if let Err(e) = crate::notify::listeners::remind(ctx, now_ms).await {
        tracing::error!(error = %crate::error::Chain(&e), "correspondence reminders");
    }
}
