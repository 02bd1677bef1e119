//! The forms a new player fills in first (see `web.rs`): the new-game form follows the
//! rulebook chosen and does not carry one game's options into the next; the sign-up
//! form states its rule and shows the server's refusal in the player's language.

use fantoccini::{Client, Locator};

use crate::web::{browser, click, find, shot, start, text, until};

/// The form's value of `name` (a select's value, or a checkbox's `checked`).
async fn value(c: &Client, name: &str) -> serde_json::Value {
    let js = format!(
        "const e = document.querySelector('form [name={name}]'); \
         return e ? (e.type === 'checkbox' ? e.checked : e.value) : null"
    );
    c.execute(&js, vec![]).await.unwrap()
}

async fn choose(c: &Client, css: &str, v: &str) {
    find(c, css).await.select_by_value(v).await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rulebook_sets_what_it_names_and_options_do_not_leak() {
    use serde_json::json;
    let Some((addr, d)) = start("rulebook-form").await else { return };
    let c = browser(&d, 1366, 900, "en-US").await;
    c.goto(&format!("http://{addr}/")).await.unwrap();
    click(&c, "input[name=variant][value=english]").await;
    // Seed 001 plays on a whole-game clock.
    choose(&c, "#rules", "seed001").await;
    until("a whole-game clock", || async { value(&c, "time").await == json!("g10") }).await;
    // Seed 003: 5 minutes a move (1 for a single forced capture), touch-move, a series
    // of two; seed 001's clock goes.
    choose(&c, "#rules", "seed003").await;
    until("seed 003's clock", || async { value(&c, "time").await == json!("per_move") }).await;
    assert_eq!(value(&c, "touch_move").await, json!(true));
    assert_eq!(value(&c, "series").await, json!("2"));
    // The player may still change them.
    choose(&c, "select[name=time]", "f5_3").await;
    until("the player's clock", || async { value(&c, "time").await == json!("f5_3") }).await;
    assert_eq!(value(&c, "touch_move").await, json!(true));
    shot(&c, "forms-1-seed003").await;
    // Another variant has no seed 003: what it set goes back.
    click(&c, "input[name=variant][value=russian]").await;
    until("the Russian form", || async { value(&c, "touch_move").await == json!(false) }).await;
    assert_eq!(value(&c, "series").await, json!("1"));

    // A game under seed 003 with touch-move; the next form starts clean.
    click(&c, "input[name=variant][value=english]").await;
    choose(&c, "#rules", "seed003").await;
    until("touch-move ticked", || async { value(&c, "touch_move").await == json!(true) }).await;
    click(&c, "#start").await;
    find(&c, ".board").await;
    c.goto(&format!("http://{addr}/")).await.unwrap();
    find(&c, "#start").await;
    assert_eq!(value(&c, "touch_move").await, json!(false), "touch-move carried into the next game");
    assert_eq!(value(&c, "rules").await, json!("official"));
    assert_eq!(value(&c, "time").await, json!("none"));
    assert_eq!(value(&c, "series").await, json!("1"));
    // Which game to set up is remembered.
    assert_eq!(
        c.execute("return document.querySelector('input[name=variant]:checked').value", vec![]).await.unwrap(),
        json!("english")
    );

    // Options kept as a preference come back.
    click(&c, "input[name=touch_move]").await;
    click(&c, "#remember").await;
    click(&c, "#start").await;
    find(&c, ".board").await;
    c.goto(&format!("http://{addr}/")).await.unwrap();
    find(&c, "#start").await;
    assert_eq!(value(&c, "touch_move").await, json!(true));
    assert_eq!(value(&c, "remember").await, json!(true));
    c.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sign_up_states_the_name_rule_and_shows_the_refusal() {
    let Some((addr, d)) = start("signup-rule").await else { return };
    let c = browser(&d, 390, 844, "es-ES").await;
    c.goto(&format!("http://{addr}/login")).await.unwrap();
    // The rule, in Spanish, before anything is typed.
    assert_eq!(
        text(&c, "#name-rule").await,
        "De 2 a 20 caracteres: letras a–z, cifras, _ o -, empezando por una letra o una cifra."
    );
    let name = find(&c, "form.login").await.find(Locator::Css("input[name=name]")).await.unwrap();
    name.send_keys("José Silva").await.unwrap();
    find(&c, "input[name=password]").await.send_keys("a good password").await.unwrap();
    click(&c, "#signup").await;
    until("the refusal", || async { !text(&c, "form.login .error").await.is_empty() }).await;
    assert_eq!(
        text(&c, "form.login .error").await,
        "Un nombre solo lleva letras a–z, cifras, _ y -; «é» no está permitido."
    );
    shot(&c, "forms-2-signup-refused-phone").await;
    // A pasted 60-letter name is not cut to 20: the server says why it is refused.
    let long = "a".repeat(60);
    name.clear().await.unwrap();
    name.send_keys(&long).await.unwrap();
    assert_eq!(name.prop("value").await.unwrap().as_deref(), Some(long.as_str()));
    click(&c, "#signup").await;
    until("the length refusal", || async { text(&c, "form.login .error").await.contains("60") }).await;
    assert_eq!(text(&c, "form.login .error").await, "Un nombre tiene de 2 a 20 caracteres; este tiene 60.");
    // No account under the cut name.
    let r =
        dama_server::client::request(addr, "GET", &format!("/api/players/{}", &long[..20]), &[], None).await.unwrap();
    assert_eq!(r.status, 404);
    c.close().await.unwrap();
}
