//! Notifications: what an account is told (a challenge and its answer, its move in a
//! correspondence game, a day left on its clock, a game over, a reported line handled),
//! kept in its inbox and sent at once on the account's channel, which reaches its pages
//! and its programs on whatever node they are connected to ([`crate::bot::AccountEvents`],
//! shared over NATS in cluster mode). Whatever notifies listens to the news of games
//! ([`listeners`]), not the other way round.

pub mod inbox;
pub mod listeners;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::error::ApiError;
use crate::state::Services;
use crate::store::NotificationRow;

/// Why a challenge was declined (the challenger's page words it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DeclineReason {
    /// No reason given.
    #[default]
    Generic,
    /// Not now.
    Later,
    /// The clock is too fast.
    TooFast,
    /// The clock is too slow.
    TooSlow,
    /// Not a rated game.
    Casual,
    /// Not a casual game.
    Rated,
    /// Not this variant.
    Variant,
}

impl DeclineReason {
    /// The reason's key.
    pub fn key(self) -> &'static str {
        match self {
            DeclineReason::Generic => "generic",
            DeclineReason::Later => "later",
            DeclineReason::TooFast => "too_fast",
            DeclineReason::TooSlow => "too_slow",
            DeclineReason::Casual => "casual",
            DeclineReason::Rated => "rated",
            DeclineReason::Variant => "variant",
        }
    }
}

/// What an account is told.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Notice {
    /// A player challenges the account.
    Challenge {
        /// The challenge's id.
        challenge: String,
        /// The challenger's name.
        from: String,
        /// The game's settings as the challenge page shows them.
        game: Value,
    },
    /// The player challenged accepted: the game is on.
    ChallengeAccepted {
        /// The challenge.
        challenge: String,
        /// Who accepted.
        by: String,
        /// The game.
        game: String,
    },
    /// The player challenged declined.
    ChallengeDeclined {
        /// The challenge.
        challenge: String,
        /// Who declined.
        by: String,
        /// Why.
        reason: DeclineReason,
    },
    /// A challenge to the account was withdrawn (by the challenger, or by a block) or
    /// expired.
    ChallengeGone {
        /// The challenge.
        challenge: String,
        /// The challenger.
        from: String,
        /// `cancelled`, `expired` or `blocked`.
        why: String,
    },
    /// The account's move in a correspondence game.
    YourMove {
        /// The game.
        game: String,
        /// The opponent's name.
        opponent: Option<String>,
        /// Time left for the move, ms.
        left_ms: Option<u64>,
    },
    /// A day or less left for the account's move in a correspondence game.
    TimeRunningOut {
        /// The game.
        game: String,
        /// The opponent's name.
        opponent: Option<String>,
        /// Time left for the move, ms.
        left_ms: u64,
    },
    /// A correspondence game of the account is over.
    GameOver {
        /// The game.
        game: String,
        /// The opponent's name.
        opponent: Option<String>,
        /// `win`, `loss`, `draw` or `void` for the account.
        result: String,
    },
    /// A tournament the account joined has started.
    TournamentStarted {
        /// The event.
        tournament: String,
        /// Its name.
        name: String,
    },
    /// A chat line the account reported was dealt with by a moderator.
    ReportHandled {
        /// The game.
        game: String,
        /// What was done (`hidden`, `muted`, `dismissed`).
        action: String,
    },
}

impl Notice {
    /// The kind's key (as stored).
    pub fn kind(&self) -> &'static str {
        match self {
            Notice::Challenge { .. } => "challenge",
            Notice::ChallengeAccepted { .. } => "challenge_accepted",
            Notice::ChallengeDeclined { .. } => "challenge_declined",
            Notice::ChallengeGone { .. } => "challenge_gone",
            Notice::YourMove { .. } => "your_move",
            Notice::TimeRunningOut { .. } => "time_running_out",
            Notice::GameOver { .. } => "game_over",
            Notice::ReportHandled { .. } => "report_handled",
            Notice::TournamentStarted { .. } => "tournament_started",
        }
    }
}

/// A notification as clients read it: `{"id", "kind", ..details, "at_ms", "read"}`.
pub fn view(row: &NotificationRow) -> Value {
    let mut v: Value = serde_json::from_str(&row.data).unwrap_or_else(|_| json!({}));
    if let Some(o) = v.as_object_mut() {
        o.insert("id".into(), json!(row.id));
        o.insert("kind".into(), json!(row.kind));
        o.insert("at_ms".into(), json!(row.created_ms));
        o.insert("read".into(), json!(row.read));
    }
    v
}

/// Keeps `notice` in the account's inbox and tells its pages at once (`{"type":
/// "notification", "notification"}` on the account's channel).
pub async fn notify(ctx: &Services, account: &str, notice: Notice) -> Result<(), ApiError> {
    static SEQ: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let created_ms = crate::clock::now_ms();
    // Ids sort as they were made (the time, then this node's count): the inbox lists
    // two notifications of one millisecond in their order.
    let seq = SEQ.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let row = NotificationRow {
        id: format!("{created_ms:012x}{seq:08x}{}", &crate::secret::token()[..4]),
        kind: notice.kind().into(),
        data: serde_json::to_string(&notice).map_err(|_| ApiError::Internal)?,
        created_ms,
        read: false,
    };
    ctx.store().add_notification(account, &row).await?;
    metrics::counter!("dama_notifications_total", "kind" => notice.kind()).increment(1);
    let v = view(&row);
    crate::push::send(ctx, account, &v);
    ctx.bots.send(account, json!({ "type": "notification", "notification": v }));
    Ok(())
}

/// [`notify`], with a failure logged (for listeners, which have nobody to answer).
pub async fn notify_or_log(ctx: &Services, account: &str, notice: Notice) {
    if let Err(e) = notify(ctx, account, notice).await {
        tracing::error!(error = %crate::error::Chain(&e), "storing a notification");
    }
}
