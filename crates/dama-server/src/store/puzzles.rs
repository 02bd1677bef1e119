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

/// An attempt at a puzzle.
#[derive(Clone, Copy, Debug)]
pub struct AttemptOf<'a> {
    /// Who: `account:ID` or `visitor:HASH`.
    pub solver: &'a str,
    /// The puzzle.
    pub puzzle: &'a PuzzleRow,
    /// Whether it was solved.
    pub solved: bool,
    /// When, ms since the epoch.
    pub at_ms: i64,
}

/// A new solver's rating, and the lowest and highest rating of solvers and puzzles.
#[derive(Clone, Copy, Debug)]
pub struct RatingRules {
    /// A new solver's rating.
    pub start: i64,
    /// The bounds every rating stays within.
    pub bounds: (i64, i64),
}

/// What an attempt did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Attempted {
    /// Whether it counted (the solver's first attempt at the puzzle).
    pub counted: bool,
    /// The solver's rating after it.
    pub rating: i64,
    /// How much the solver's rating moved.
    pub change: i64,
    /// The puzzle's rating after it.
    pub puzzle_rating: i64,
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

    /// A solver's puzzle rating in a variant, if they have one.
    pub async fn solver_rating(&self, solver: &str, variant: &str) -> Result<Option<i64>, StoreError> {
        let r = sqlx::query("SELECT rating FROM puzzle_solvers WHERE solver = $1 AND variant = $2")
            .bind(solver)
            .bind(variant)
            .fetch_optional(&self.pool)
            .await?;
        Ok(r.as_ref().map(|r| int(r, "rating")).transpose()?)
    }

    /// Counts `solver`'s attempt at puzzle `p`, in one transaction: only their first
    /// attempt at a puzzle counts, and it moves the puzzle's rating only when
    /// `moves_puzzle()` (asked for counted attempts only) says so; the solver's moves
    /// either way. `changes(solver, puzzle)` gives
    /// the two ratings' changes; both ratings stay within `bounds`.
    pub async fn puzzle_attempt(
        &self,
        AttemptOf { solver, puzzle: p, solved, at_ms }: AttemptOf<'_>,
        RatingRules { start, bounds }: RatingRules,
        changes: impl Fn(i64, i64) -> (i64, i64),
        moves_puzzle: impl FnOnce() -> bool,
    ) -> Result<Attempted, StoreError> {
        let mut tx = self.pool.begin().await?;
        let first = sqlx::query(
            "INSERT INTO puzzle_attempts (solver, puzzle_id, solved, at_ms) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (solver, puzzle_id) DO NOTHING",
        )
        .bind(solver)
        .bind(&p.id)
        .bind(i64::from(solved))
        .bind(at_ms)
        .execute(&mut *tx)
        .await?
        .rows_affected()
            == 1;
        let row = sqlx::query("SELECT rating, attempts FROM puzzle_solvers WHERE solver = $1 AND variant = $2")
            .bind(solver)
            .bind(&p.variant)
            .fetch_optional(&mut *tx)
            .await?;
        let (before, attempts) = match &row {
            Some(r) => (int(r, "rating")?, int(r, "attempts")?),
            None => (start, 0),
        };
        let puzzle = sqlx::query("SELECT rating FROM puzzles WHERE id = $1").bind(&p.id).fetch_one(&mut *tx).await?;
        let puzzle_before = int(&puzzle, "rating")?;
        if !first {
            return Ok(Attempted { counted: false, rating: before, change: 0, puzzle_rating: puzzle_before });
        }
        let (mine, its) = changes(before, puzzle_before);
        let after = (before + mine).clamp(bounds.0, bounds.1);
        sqlx::query(
            "INSERT INTO puzzle_solvers (solver, variant, rating, attempts) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (solver, variant) DO UPDATE SET rating = $3, attempts = $4",
        )
        .bind(solver)
        .bind(&p.variant)
        .bind(after)
        .bind(attempts + 1)
        .execute(&mut *tx)
        .await?;
        let its = if moves_puzzle() { its } else { 0 };
        let puzzle_after = (puzzle_before + its).clamp(bounds.0, bounds.1);
        sqlx::query("UPDATE puzzles SET attempts = attempts + 1, solved = solved + $2, rating = $3 WHERE id = $1")
            .bind(&p.id)
            .bind(i64::from(solved))
            .bind(puzzle_after)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(Attempted { counted: true, rating: after, change: after - before, puzzle_rating: puzzle_after })
    }

    /// Sets a puzzle's rating (an operator's correction).
    pub async fn set_puzzle_rating(&self, id: &str, rating: i64) -> Result<(), StoreError> {
        sqlx::query("UPDATE puzzles SET rating = $2 WHERE id = $1").bind(id).bind(rating).execute(&self.pool).await?;
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
