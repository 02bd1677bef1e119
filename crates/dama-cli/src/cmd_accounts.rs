//! `dama accounts`: the operator's commands on accounts, run against the server's
//! database (a running server sees the change at the account's next request).

use anyhow::{bail, Context, Result};
use dama_server::moderation::Role;
use dama_server::store::Store;

/// What `dama accounts` does.
#[derive(clap::Subcommand)]
pub enum Command {
    /// Give an account a role: `dama accounts grant ann moderator`.
    Grant(RoleArgs),
    /// Take a role from an account.
    Revoke(RoleArgs),
    /// Show an account's roles.
    Show(NameArgs),
}

/// An account and a role.
#[derive(clap::Args)]
pub struct RoleArgs {
    /// The account's name (any case).
    pub name: String,
    /// The role: moderator.
    pub role: String,
    /// The database.
    #[command(flatten)]
    pub db: Db,
}

/// An account.
#[derive(clap::Args)]
pub struct NameArgs {
    /// The account's name (any case).
    pub name: String,
    /// The database.
    #[command(flatten)]
    pub db: Db,
}

/// The server's database.
#[derive(clap::Args)]
pub struct Db {
    /// sqlite:FILE or postgres://... [default: sqlite:dama.sqlite, as `dama serve`]
    #[arg(long, env = "DAMA_DATABASE_URL")]
    pub database_url: Option<String>,
}

impl Db {
    fn url(&self) -> String {
        self.database_url.clone().unwrap_or_else(|| "sqlite:dama.sqlite".into())
    }
}

/// Runs a `dama accounts` command; says what it did on standard output.
pub fn run(c: Command) -> Result<()> {
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    rt.block_on(async {
        let (name, db) = match &c {
            Command::Grant(a) | Command::Revoke(a) => (&a.name, &a.db),
            Command::Show(a) => (&a.name, &a.db),
        };
        let url = db.url();
        let store = Store::connect(&url).await.with_context(|| format!("opening {url}"))?;
        let Some(account) = store.account_named(name).await? else { bail!("no account named '{name}'") };
        match &c {
            Command::Grant(a) => {
                let role: Role = a.role.parse().map_err(anyhow::Error::msg)?;
                let new = store.grant_role(&account.id, role.key()).await?;
                let what = if new { "is now" } else { "was already" };
                println!("{} {what} {}", account.name, role.key());
            }
            Command::Revoke(a) => {
                let role: Role = a.role.parse().map_err(anyhow::Error::msg)?;
                let had = store.revoke_role(&account.id, role.key()).await?;
                let what = if had { "is no longer" } else { "was not" };
                println!("{} {what} {}", account.name, role.key());
            }
            Command::Show(_) => {
                let roles = store.roles(&account.id).await?;
                println!("{}: {}", account.name, if roles.is_empty() { "no roles".into() } else { roles.join(", ") });
            }
        }
        store.close().await;
        Ok(())
    })
}
