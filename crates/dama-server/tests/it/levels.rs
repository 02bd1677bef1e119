//! The levels of play against the computer come with their approximate ratings.

use serde_json::Value;

use crate::common::*;

/// The ratings of `levels` ([{level, rating}]), checked to be levels 1-10 in order.
fn ratings(levels: &Value) -> Vec<u64> {
    let all = levels.as_array().expect("a list of levels");
    let numbers: Vec<u64> = all.iter().map(|l| l["level"].as_u64().unwrap()).collect();
    assert_eq!(numbers, (1..=10).collect::<Vec<u64>>());
    all.iter().map(|l| l["rating"].as_u64().unwrap()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_level_is_offered_with_its_approximate_rating() {
    let srv = start(&temp_db("levels")).await;
    let (st, v) = http(srv.addr, "GET", "/api/levels", None, None).await;
    assert_eq!(st, 200, "{v}");
    let r = ratings(&v["levels"]);
    // Stronger levels are rated higher, level 10 at the engine's measured strength.
    assert!(r.windows(2).all(|w| w[0] < w[1]), "{r:?}");
    assert_eq!(r[9], u64::from(dama_engine::level::Level::full().rating()));
    assert!(r[0] > 0 && r[9] <= 3000, "{r:?}");
    // The page's data carries the same table.
    let (st, v) = http(srv.addr, "GET", "/api/variants", None, None).await;
    assert_eq!(st, 200, "{v}");
    assert_eq!(ratings(&v["levels"]), r);
}
