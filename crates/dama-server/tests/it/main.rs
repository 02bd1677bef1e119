//! The server's integration tests, in one test binary: linking the server into one
//! binary instead of one per file saves CI minutes. Each module is one concern.
//! (The lobby's test is a binary of its own because it sets a process-wide setting.)

#[macro_use]
mod common;

mod accounts;
mod analysis;
mod architecture;
mod attacks;
mod bot;
mod challenges;
mod chat;
mod dxp;
mod engine_clock;
mod explorer;
mod fencing;
mod follows;
mod fuzz_smoke;
mod hardening;
mod held;
mod illegal;
mod lag;
mod leaderboard;
mod learn;
mod learn_practice;
mod levels;
mod limits;
mod metrics;
mod my_games;
mod push;
mod puzzles;
mod rating_pools;
mod refusals;
mod seeks;
mod server;
mod shutdown;
mod tournaments;
mod web;
mod web_a11y;
mod web_analysis;
mod web_endings;
mod web_forms;
mod web_languages;
mod web_moderation;
mod web_pages;
mod web_people;
mod web_pieces;
mod web_tournaments;
