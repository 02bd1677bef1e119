//! Events the server makes on a schedule, from the settings file's `[[tournaments]]`
//! tables (e.g. an English arena every hour, an International Swiss every day):
//!
//! ```toml
//! [[tournaments]]
//! name = "Hourly English arena"
//! format = "arena"
//! variant = "english"
//! time = { kind = "fischer", initial_ms = 180000, increment_ms = 2000 }
//! every_minutes = 60      # one event each hour...
//! offset_minutes = 0      # ...starting on the hour
//! minutes = 45            # an arena's length (rounds = N for a Swiss)
//! ```
//!
//! The next event of each entry is made as soon as the one before has started (so it
//! is listed in advance); its slot (the entry's name and start) is unique in the
//! database, so nodes that make it at once make it once.

use serde::{Deserialize, Serialize};

use super::{api, Conditions, Format, Settings};
use crate::clock::TimeControl;
use crate::protocol::RulesChoice;
use crate::state::Services;

/// One entry of the schedule.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Schedule {
    /// The events' name.
    pub name: String,
    /// Their format.
    pub format: Format,
    /// The variant's key.
    pub variant: String,
    /// The rulebook.
    #[serde(default)]
    pub rules: RulesChoice,
    /// The clock.
    pub time: TimeControl,
    /// Rated (the default).
    #[serde(default = "yes")]
    pub rated: bool,
    /// Minutes between two events' starts (60: hourly, 1440: daily).
    pub every_minutes: u32,
    /// Minutes after each period's beginning (UTC) that the event starts.
    #[serde(default)]
    pub offset_minutes: u32,
    /// An arena's length.
    #[serde(default)]
    pub minutes: Option<u32>,
    /// A Swiss's rounds.
    #[serde(default)]
    pub rounds: Option<u32>,
    /// A ballot's key.
    #[serde(default)]
    pub ballot: Option<String>,
    /// Two games a pairing.
    #[serde(default)]
    pub micro: bool,
    /// Berserk allowed (arenas).
    #[serde(default)]
    pub berserk: bool,
}

fn yes() -> bool {
    true
}

impl Schedule {
    /// The events' settings.
    fn settings(&self) -> Settings {
        Settings {
            variant: self.variant.clone(),
            rules: self.rules,
            time: self.time,
            rated: self.rated,
            ballot: self.ballot.clone(),
            micro: self.micro,
            berserk: self.berserk && self.format == Format::Arena,
            conditions: Conditions::default(),
        }
    }

    /// The start of the next event after `now_ms`.
    pub fn next_start(&self, now_ms: i64) -> i64 {
        let every = i64::from(self.every_minutes.max(1)) * 60_000;
        let offset = i64::from(self.offset_minutes) * 60_000 % every;
        let k = (now_ms - offset).div_euclid(every) + 1;
        k * every + offset
    }

    /// Checks the entry (as an event made through the API is checked).
    pub fn check(&self) -> Result<(), String> {
        let s = self.settings();
        api::new_row(&self.name, self.format, &s, 0, (self.minutes, self.rounds), None, 0)
            .map(|_| ())
            .map_err(|e| format!("tournament '{}': {e}", self.name))
    }
}

/// Makes each entry's next event if it is not there yet.
pub async fn make_next(ctx: &Services, schedule: &[Schedule], now_ms: i64) {
    for s in schedule {
        let start = s.next_start(now_ms);
        let row = api::new_row(&s.name, s.format, &s.settings(), start, (s.minutes, s.rounds), None, now_ms);
        match row {
            Ok(mut row) => {
                row.schedule = Some(format!("{}@{start}", s.name));
                match ctx.store.add_tournament(&row).await {
                    Ok(true) => {
                        tracing::info!(tournament = %row.id, name = %s.name, start, "scheduled tournament made")
                    }
                    Ok(false) => {}
                    Err(e) => tracing::warn!(error = %crate::error::Chain(&e), "making a scheduled tournament"),
                }
            }
            Err(e) => tracing::warn!(name = %s.name, error = %e, "a scheduled tournament's settings are wrong"),
        }
    }
}

/// Makes the scheduled events every half minute until the server stops.
pub fn start(ctx: &Services, schedule: Vec<Schedule>) {
    if schedule.is_empty() {
        return;
    }
    let ctx = ctx.clone();
    tokio::spawn(async move {
        let stopping = ctx.until_shutdown();
        tokio::pin!(stopping);
        loop {
            make_next(&ctx, &schedule, crate::clock::now_ms()).await;
            tokio::select! {
                _ = tokio::time::sleep(std::time::Duration::from_secs(30)) => {}
                _ = &mut stopping => return,
            }
        }
    });
}
