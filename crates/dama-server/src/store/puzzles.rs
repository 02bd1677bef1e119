//! Puzzles.

use sqlx::Row;

use super::{int, Store, StoreError};

/// A stored puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PuzzleRow {
    /// Its id.
    pub id: String,
    /// Variant key.
    pub variant: String,
    /// The position, the solver to move.
    pub fen: String,
    /// The winning line, long notation, space-separated.
    pub line: String,
    /// Where it was found.
    pub source: String,
    /// Its rating.
    pub rating: i64,
    /// Attempts so far.
    pub attempts: i64,
    /// Solved attempts.
    pub solved: i64,
}

fn puzzle(r: &sqlx::any::AnyRow) -> Result<PuzzleRow, sqlx::Error> {
    Ok(PuzzleRow {
        id: r.try_get("id")?,
        variant: r.try_get("variant")?,
        fen: r.try_get("fen")?,
        line: r.try_get("line")?,
        source: r.try_get("source")?,
        rating: int(r, "rating")?,
        attempts: int(r, "attempts")?,
        solved: int(r, "solved")?,
    })
}

impl Store {
    /// Keeps a puzzle (a position already kept is left as it is).
    pub async fn add_puzzle(&self, p: &PuzzleRow) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO puzzles (id, variant, fen, line, source, rating, attempts, solved) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (id) DO NOTHING",
        )
        .bind(&p.id)
        .bind(&p.variant)
        .bind(&p.fen)
        .bind(&p.line)
        .bind(&p.source)
        .bind(p.rating)
        .bind(p.attempts)
        .bind(p.solved)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Up to `n` puzzles of `variant` whose rating is nearest `rating`.
    pub async fn puzzles_near(&self, variant: &str, rating: i64, n: i64) -> Result<Vec<PuzzleRow>, StoreError> {
        let rows = sqlx::query("SELECT * FROM puzzles WHERE variant = $1 ORDER BY ABS(rating - $2), id LIMIT $3")
            .bind(variant)
            .bind(rating)
            .bind(n)
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(puzzle).collect::<Result<_, _>>().map_err(StoreError)
    }

    /// One puzzle.
    pub async fn puzzle(&self, id: &str) -> Result<Option<PuzzleRow>, StoreError> {
        let r = sqlx::query("SELECT * FROM puzzles WHERE id = $1").bind(id).fetch_optional(&self.pool).await?;
        Ok(r.as_ref().map(puzzle).transpose()?)
    }

    /// Counts an attempt and moves the puzzle's rating by `change`.
    pub async fn puzzle_attempt(&self, id: &str, solved: bool, change: i64) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE puzzles SET attempts = attempts + 1, solved = solved + $2, rating = rating + $3 WHERE id = $1",
        )
        .bind(id)
        .bind(i64::from(solved))
        .bind(change)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Marks `name` done (a collection scanned for puzzles): false when it was already.
    pub async fn mark_done(&self, name: &str) -> Result<bool, StoreError> {
        let n = sqlx::query("INSERT INTO explorer_counted (name) VALUES ($1) ON CONFLICT (name) DO NOTHING")
            .bind(name)
            .execute(&self.pool)
            .await?
            .rows_affected();
        Ok(n == 1)
    }
}
