//! A fair gate: `size` permits handed out round robin by client. Each client has a
//! queue of its own; when a permit comes back it goes to the next client in turn (the
//! first of its waiters), so one client asking for many never makes another wait
//! behind all of its requests: with `k` clients waiting, each gets one in `k` turns.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use tokio::sync::oneshot;

/// The gate.
pub struct FairGate {
    size: usize,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    free: usize,
    /// Clients with waiters, in their turn's order; each with its waiters in order.
    turns: VecDeque<(String, VecDeque<oneshot::Sender<FairPermit>>)>,
    waiting: usize,
}

/// A permit; dropping it gives it to the next waiter in turn (or back to the gate).
pub struct FairPermit {
    gate: Option<Arc<FairGate>>,
}

impl Drop for FairPermit {
    fn drop(&mut self) {
        if let Some(g) = self.gate.take() {
            g.release();
        }
    }
}

impl FairGate {
    /// A gate of `size` permits (at least one).
    pub fn new(size: usize) -> Arc<FairGate> {
        let size = size.max(1);
        Arc::new(FairGate { size, state: Mutex::new(State { free: size, ..State::default() }) })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Permits in all.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Permits free now.
    pub fn free(&self) -> usize {
        self.lock().free
    }

    /// Requests waiting now.
    pub fn waiting(&self) -> usize {
        self.lock().waiting
    }

    /// Requests of other clients than `client` waiting now.
    pub fn others_waiting(&self, client: &str) -> usize {
        self.lock().turns.iter().filter(|(c, _)| c != client).map(|(_, q)| q.len()).sum()
    }

    /// A permit for `client`, at once if one is free and nobody waits, else in turn.
    pub async fn acquire(self: &Arc<Self>, client: &str) -> FairPermit {
        let rx = {
            let mut s = self.lock();
            if s.free > 0 && s.turns.is_empty() {
                s.free -= 1;
                return FairPermit { gate: Some(self.clone()) };
            }
            let (tx, rx) = oneshot::channel();
            match s.turns.iter_mut().find(|(c, _)| c == client) {
                Some((_, q)) => q.push_back(tx),
                None => s.turns.push_back((client.to_string(), VecDeque::from([tx]))),
            }
            s.waiting += 1;
            rx
        };
        // The gate keeps its senders until it hands them a permit, so this cannot
        // fail; were it to, a new permit is asked for.
        match rx.await {
            Ok(p) => p,
            Err(_) => Box::pin(self.acquire(client)).await,
        }
    }

    /// A permit came back: to the next client in turn, or to the gate.
    fn release(self: Arc<Self>) {
        let mut s = self.lock();
        loop {
            let Some((client, mut queue)) = s.turns.pop_front() else {
                s.free += 1;
                return;
            };
            let next = queue.pop_front();
            if !queue.is_empty() {
                s.turns.push_back((client, queue));
            }
            let Some(tx) = next else { continue };
            s.waiting -= 1;
            match tx.send(FairPermit { gate: Some(self.clone()) }) {
                Ok(()) => return,
                // That waiter gave up: disarm the permit (the lock is held) and go on.
                Err(mut p) => {
                    p.gate = None;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_client_with_many_waiters_takes_turns_with_the_others() {
        let gate = FairGate::new(1);
        let first = gate.acquire("greedy").await;
        let order = Arc::new(Mutex::new(Vec::new()));
        let mut tasks = Vec::new();
        // The greedy client queues 10 requests, then an honest one arrives.
        for i in 0..10 {
            let (g, o) = (gate.clone(), order.clone());
            tasks.push(tokio::spawn(async move {
                let _p = g.acquire("greedy").await;
                o.lock().unwrap().push(format!("greedy{i}"));
            }));
            tokio::task::yield_now().await;
            while gate.waiting() < i + 1 {
                tokio::task::yield_now().await;
            }
        }
        let (g, o) = (gate.clone(), order.clone());
        tasks.push(tokio::spawn(async move {
            let _p = g.acquire("honest").await;
            o.lock().unwrap().push("honest".to_string());
        }));
        while gate.waiting() < 11 {
            tokio::task::yield_now().await;
        }
        assert_eq!(gate.others_waiting("greedy"), 1);
        drop(first);
        for t in tasks {
            t.await.unwrap();
        }
        let order = order.lock().unwrap();
        let honest = order.iter().position(|s| s == "honest").unwrap();
        assert!(honest <= 1, "served after at most one greedy request: {order:?}");
        assert_eq!(gate.free(), 1);
        assert_eq!(gate.waiting(), 0);
    }

    #[tokio::test]
    async fn a_waiter_that_gives_up_does_not_lose_the_permit() {
        let gate = FairGate::new(1);
        let held = gate.acquire("a").await;
        let g = gate.clone();
        let waiter = tokio::spawn(async move { g.acquire("b").await });
        while gate.waiting() < 1 {
            tokio::task::yield_now().await;
        }
        waiter.abort();
        let _ = waiter.await;
        drop(held);
        assert_eq!(gate.free(), 1, "the permit came back to the gate");
        let _again = tokio::time::timeout(std::time::Duration::from_secs(1), gate.acquire("c")).await.unwrap();
    }
}
