//! Tournaments: the events, their players, and their games and byes. The director
//! ([`crate::tournaments`]) decides; what it decides is written here before it is
//! done (a pairing's rows before its games), so a restart finds every pairing and
//! result where it was.

use sqlx::any::AnyRow;
use sqlx::Row;

use super::{Store, StoreError};

/// A stored event.
#[derive(Clone, Debug, PartialEq)]
pub struct TournamentRow {
    /// Its id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// `arena`, `swiss` or `robin`.
    pub format: String,
    /// Its settings as JSON ([`crate::tournaments::Settings`]).
    pub settings: String,
    /// The hash of a private event's password.
    pub password_hash: Option<String>,
    /// The account that made it (none for the server's schedule).
    pub created_by: Option<String>,
    /// The schedule slot that made it (one event a slot).
    pub schedule: Option<String>,
    /// When it starts, ms since the epoch.
    pub starts_ms: i64,
    /// When an arena ends.
    pub ends_ms: Option<i64>,
    /// The rounds of a Swiss or a round robin (0 for an arena).
    pub rounds: i64,
    /// `created`, `started` or `finished`.
    pub status: String,
    /// The round being played (an arena: the pairings made so far).
    pub round: i64,
    /// When it was made.
    pub created_ms: i64,
}

/// A player of an event.
#[derive(Clone, Debug, PartialEq)]
pub struct EntryRow {
    /// The account.
    pub account: String,
    /// Its name (read with the row).
    pub name: String,
    /// The rating in the event's pool when the player joined.
    pub rating: i64,
    /// When the player joined.
    pub joined_ms: i64,
    /// False once withdrawn (or paused, in an arena).
    pub active: bool,
}

/// A game or a bye of an event.
#[derive(Clone, Debug, PartialEq)]
pub struct PairingRow {
    /// The round (an arena's pairings in order).
    pub round: i64,
    /// The board in the round.
    pub board: i64,
    /// 1, or 2 for the second game of a micro-match (colours swapped).
    pub leg: i64,
    /// `game`, `bye`, `late` or `absent`.
    pub kind: String,
    /// The game, once made.
    pub game_id: Option<String>,
    /// White's account (the player of a bye).
    pub white: String,
    /// Black's account (none for a bye).
    pub black: Option<String>,
    /// The ballot opening's number.
    pub ballot: Option<i64>,
    /// White's points doubled (2 a win), none while the game is played.
    pub white_points: Option<i64>,
    /// Black's points doubled.
    pub black_points: Option<i64>,
    /// Who went berserk: 1 White, 2 Black, 3 both.
    pub berserk: i64,
    /// The plies the game lasted.
    pub plies: i64,
    /// When it was paired.
    pub created_ms: i64,
    /// When it ended.
    pub ended_ms: Option<i64>,
}

impl PairingRow {
    /// A game between `white` and `black`, not yet made.
    pub fn game(round: i64, board: i64, leg: i64, white: &str, black: &str, ballot: Option<i64>, now: i64) -> Self {
        PairingRow {
            round,
            board,
            leg,
            kind: "game".into(),
            game_id: None,
            white: white.into(),
            black: Some(black.into()),
            ballot,
            white_points: None,
            black_points: None,
            berserk: 0,
            plies: 0,
            created_ms: now,
            ended_ms: None,
        }
    }

    /// A round `player` does not play (`kind`: `bye`, `late`, `absent`), scoring
    /// `points` (doubled).
    pub fn without_game(round: i64, board: i64, kind: &str, player: &str, points: i64, now: i64) -> Self {
        PairingRow {
            kind: kind.into(),
            black: None,
            white_points: Some(points),
            ended_ms: Some(now),
            ..PairingRow::game(round, board, 1, player, "", None, now)
        }
    }

    /// True while its game is being played (or waits to be made).
    pub fn open(&self) -> bool {
        self.white_points.is_none()
    }
}

fn tournament(r: &AnyRow) -> Result<TournamentRow, sqlx::Error> {
    Ok(TournamentRow {
        id: r.try_get("id")?,
        name: r.try_get("name")?,
        format: r.try_get("format")?,
        settings: r.try_get("settings")?,
        password_hash: r.try_get("password_hash")?,
        created_by: r.try_get("created_by")?,
        schedule: r.try_get("schedule")?,
        starts_ms: r.try_get("starts_ms")?,
        ends_ms: r.try_get("ends_ms")?,
        rounds: r.try_get("rounds")?,
        status: r.try_get("status")?,
        round: r.try_get("round")?,
        created_ms: r.try_get("created_ms")?,
    })
}

fn pairing(r: &AnyRow) -> Result<PairingRow, sqlx::Error> {
    Ok(PairingRow {
        round: r.try_get("round")?,
        board: r.try_get("board")?,
        leg: r.try_get("leg")?,
        kind: r.try_get("kind")?,
        game_id: r.try_get("game_id")?,
        white: r.try_get("white")?,
        black: r.try_get("black")?,
        ballot: r.try_get("ballot")?,
        white_points: r.try_get("white_points")?,
        black_points: r.try_get("black_points")?,
        berserk: r.try_get("berserk")?,
        plies: r.try_get("plies")?,
        created_ms: r.try_get("created_ms")?,
        ended_ms: r.try_get("ended_ms")?,
    })
}

impl Store {
    /// Stores a new event; `Ok(false)` when its schedule slot already has one.
    pub async fn add_tournament(&self, t: &TournamentRow) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "INSERT INTO tournaments (id, name, format, settings, password_hash, created_by, schedule, starts_ms, \
             ends_ms, rounds, status, round, created_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) \
             ON CONFLICT (schedule) DO NOTHING",
        )
        .bind(&t.id)
        .bind(&t.name)
        .bind(&t.format)
        .bind(&t.settings)
        .bind(&t.password_hash)
        .bind(&t.created_by)
        .bind(&t.schedule)
        .bind(t.starts_ms)
        .bind(t.ends_ms)
        .bind(t.rounds)
        .bind(&t.status)
        .bind(t.round)
        .bind(t.created_ms)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// One event.
    pub async fn tournament(&self, id: &str) -> Result<Option<TournamentRow>, StoreError> {
        let r = sqlx::query("SELECT * FROM tournaments WHERE id = $1").bind(id).fetch_optional(&self.pool).await?;
        Ok(r.as_ref().map(tournament).transpose()?)
    }

    /// The events under way and to come, and those finished since `since_ms`, soonest
    /// first (at most 200), each with how many players it has.
    pub async fn tournaments_listed(&self, since_ms: i64) -> Result<Vec<(TournamentRow, i64)>, StoreError> {
        let rows = sqlx::query(
            "SELECT t.*, (SELECT COUNT(*) FROM tournament_players p WHERE p.tournament = t.id) AS players \
             FROM tournaments t WHERE t.status <> 'finished' OR t.starts_ms >= $1 ORDER BY t.starts_ms, t.id LIMIT 200",
        )
        .bind(since_ms)
        .fetch_all(&self.pool)
        .await?;
        let listed = |r: &AnyRow| Ok::<_, sqlx::Error>((tournament(r)?, r.try_get("players")?));
        Ok(rows.iter().map(listed).collect::<Result<_, _>>()?)
    }

    /// The events a director has work in at `now_ms`: started ones, and those due to
    /// start.
    pub async fn tournaments_due(&self, now_ms: i64) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query(
            "SELECT id FROM tournaments WHERE status = 'started' OR (status = 'created' AND starts_ms <= $1) \
             ORDER BY starts_ms",
        )
        .bind(now_ms)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.iter().map(|r| r.try_get(0)).collect::<Result<_, _>>()?)
    }

    /// Moves event `id` from status `from` to `to` at round `round`; `Ok(false)` when it
    /// was not in `from` (another node, or an earlier run, moved it).
    pub async fn set_tournament_status(&self, id: &str, from: &str, to: &str, round: i64) -> Result<bool, StoreError> {
        let done = sqlx::query("UPDATE tournaments SET status = $3, round = $4 WHERE id = $1 AND status = $2")
            .bind(id)
            .bind(from)
            .bind(to)
            .bind(round)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// `account` plays in event `id` (again, if it had withdrawn or paused).
    pub async fn enter_tournament(&self, id: &str, account: &str, rating: i64, now_ms: i64) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO tournament_players (tournament, account, rating, joined_ms, active) VALUES ($1, $2, $3, $4, 1) \
             ON CONFLICT (tournament, account) DO UPDATE SET active = 1",
        )
        .bind(id)
        .bind(account)
        .bind(rating)
        .bind(now_ms)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// `account` withdraws from event `id` (or pauses, in an arena).
    pub async fn leave_tournament(&self, id: &str, account: &str) -> Result<bool, StoreError> {
        let done = sqlx::query("UPDATE tournament_players SET active = 0 WHERE tournament = $1 AND account = $2")
            .bind(id)
            .bind(account)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// The players of event `id` with their names, in the order they joined.
    pub async fn entries(&self, id: &str) -> Result<Vec<EntryRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT p.*, a.name FROM tournament_players p JOIN accounts a ON a.id = p.account \
             WHERE p.tournament = $1 ORDER BY p.joined_ms, p.account",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?;
        let entry = |r: &AnyRow| -> Result<EntryRow, sqlx::Error> {
            Ok(EntryRow {
                account: r.try_get("account")?,
                name: r.try_get("name")?,
                rating: r.try_get("rating")?,
                joined_ms: r.try_get("joined_ms")?,
                active: r.try_get::<i64, _>("active")? == 1,
            })
        };
        Ok(rows.iter().map(entry).collect::<Result<_, _>>()?)
    }

    /// Stores a round's pairings and moves the event to round `round`, in one
    /// transaction: both or neither.
    pub async fn add_pairings(&self, id: &str, round: i64, rows: &[PairingRow]) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        for p in rows {
            sqlx::query(
                "INSERT INTO tournament_games (tournament, round, board, leg, kind, game_id, white, black, ballot, \
                 white_points, black_points, berserk, plies, created_ms, ended_ms) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)",
            )
            .bind(id)
            .bind(p.round)
            .bind(p.board)
            .bind(p.leg)
            .bind(&p.kind)
            .bind(&p.game_id)
            .bind(&p.white)
            .bind(&p.black)
            .bind(p.ballot)
            .bind(p.white_points)
            .bind(p.black_points)
            .bind(p.berserk)
            .bind(p.plies)
            .bind(p.created_ms)
            .bind(p.ended_ms)
            .execute(&mut *tx)
            .await?;
        }
        sqlx::query("UPDATE tournaments SET round = $2 WHERE id = $1 AND round < $2")
            .bind(id)
            .bind(round)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Every game and bye of event `id`, by round, board and leg.
    pub async fn pairings(&self, id: &str) -> Result<Vec<PairingRow>, StoreError> {
        let rows = sqlx::query("SELECT * FROM tournament_games WHERE tournament = $1 ORDER BY round, board, leg")
            .bind(id)
            .fetch_all(&self.pool)
            .await?;
        Ok(rows.iter().map(pairing).collect::<Result<_, _>>()?)
    }

    /// The game made for a pairing: `Ok(false)` if it already had one.
    pub async fn pairing_game(&self, id: &str, p: &PairingRow, game_id: &str) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE tournament_games SET game_id = $5 \
             WHERE tournament = $1 AND round = $2 AND board = $3 AND leg = $4 AND game_id IS NULL",
        )
        .bind(id)
        .bind(p.round)
        .bind(p.board)
        .bind(p.leg)
        .bind(game_id)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Records the result of an event's game (once: a second report changes nothing);
    /// the event it belongs to, if it does and this was the first report.
    pub async fn tournament_result(
        &self,
        game_id: &str,
        points: [i64; 2],
        plies: i64,
        now_ms: i64,
    ) -> Result<Option<String>, StoreError> {
        let r = sqlx::query(
            "UPDATE tournament_games SET white_points = $2, black_points = $3, plies = $4, ended_ms = $5, \
             berserk = COALESCE((SELECT g.berserk FROM games g WHERE g.id = $1), 0) \
             WHERE game_id = $1 AND white_points IS NULL RETURNING tournament",
        )
        .bind(game_id)
        .bind(points[0])
        .bind(points[1])
        .bind(plies)
        .bind(now_ms)
        .fetch_optional(&self.pool)
        .await?;
        Ok(r.map(|r| r.try_get(0)).transpose()?)
    }

    /// The finished games of event `id` whose result it has not recorded (their end's
    /// news was missed: a restart, another node), with their stored result token and
    /// reason and their plies.
    pub async fn tournament_games_ended(
        &self,
        id: &str,
    ) -> Result<Vec<(String, Option<String>, Option<String>, i64)>, StoreError> {
        let rows = sqlx::query(
            "SELECT g.id, g.result, g.reason, (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id) AS plies \
             FROM tournament_games t JOIN games g ON g.id = t.game_id \
             WHERE t.tournament = $1 AND t.white_points IS NULL AND g.status = 'finished'",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get(0)?, r.try_get(1)?, r.try_get(2)?, r.try_get(3)?)))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }

    /// The pairing game `game_id` was made for, if any.
    pub async fn pairing_of_game(&self, game_id: &str) -> Result<Option<PairingRow>, StoreError> {
        let r = sqlx::query("SELECT * FROM tournament_games WHERE game_id = $1")
            .bind(game_id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(r.as_ref().map(pairing).transpose()?)
    }
    /// Removes the players of event `id` who withdrew before it started (a round
    /// robin's table holds those present only).
    pub async fn drop_inactive_entries(&self, id: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM tournament_players WHERE tournament = $1 AND active = 0")
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Sets the rounds of event `id` (a round robin's, when it starts).
    pub async fn set_tournament_rounds(&self, id: &str, rounds: i64) -> Result<(), StoreError> {
        sqlx::query("UPDATE tournaments SET rounds = $2 WHERE id = $1")
            .bind(id)
            .bind(rounds)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Events made by `account` since `since_ms`.
    pub async fn tournaments_made(&self, account: &str, since_ms: i64) -> Result<i64, StoreError> {
        let r = sqlx::query("SELECT COUNT(*) FROM tournaments WHERE created_by = $1 AND created_ms >= $2")
            .bind(account)
            .bind(since_ms)
            .fetch_one(&self.pool)
            .await?;
        Ok(r.try_get(0)?)
    }
}
