//! A game decision's writes, in one transaction ([`crate::round::Persist`]).

use super::games::{save_query, SAVE, SAVE_FENCED};
use super::{lease, Store, StoreError};
use crate::round::Persist;

impl Store {
    /// For tests: makes every game decision's write fail (`true`) or work again, as a
    /// full disk or a lost database would.
    #[doc(hidden)]
    pub fn fail_commits(&self, failing: bool) {
        self.failing.store(failing, std::sync::atomic::Ordering::Relaxed);
    }

    /// Writes what a decision keeps: a move alone goes through the moves' group commit;
    /// anything more (a move that ends the game, a takeback, a seat, an offer) is one
    /// transaction, fenced in cluster mode by the game's lease.
    pub async fn commit(&self, id: &str, p: &Persist) -> Result<(), StoreError> {
        if self.failing.load(std::sync::atomic::Ordering::Relaxed) {
            return Err(StoreError(sqlx::Error::Protocol("the store fails on demand (a test)".into())));
        }
        if p.state.is_none() && p.keep.is_none() {
            for m in &p.moves {
                self.add_move(id, m).await?;
            }
            return Ok(());
        }
        let _turn = self.gate.turn().await;
        let mut tx = self.pool.begin().await?;
        let fence = self.fence(id)?;
        if let Some(s) = &p.state {
            // Fenced: the state first (it locks the lease row), and nothing is kept if it
            // fails.
            let saved = match fence {
                Some((node, token)) => save_query(SAVE_FENCED, id, s).bind(node).bind(token).execute(&mut *tx).await?,
                None => save_query(SAVE, id, s).execute(&mut *tx).await?,
            };
            if saved.rows_affected() != 1 && fence.is_some() {
                return Err(lease::fenced());
            }
        }
        if let Some(keep) = p.keep {
            sqlx::query("DELETE FROM moves WHERE game_id = $1 AND ply > $2")
                .bind(id)
                .bind(keep)
                .execute(&mut *tx)
                .await?;
        }
        for m in &p.moves {
            sqlx::query(
                "INSERT INTO moves (game_id, ply, notation, clock_ms, at_ms, v) VALUES ($1, $2, $3, $4, $5, $6)",
            )
            .bind(id)
            .bind(m.ply)
            .bind(&m.notation)
            .bind(m.clock_ms)
            .bind(m.at_ms)
            .bind(m.v)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }
}
