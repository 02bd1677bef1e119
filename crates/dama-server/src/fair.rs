//! A fair gate: `size` permits handed out by client, least recently served first. Each
//! client has a queue of its own; when a permit comes back it goes to the waiting
//! client that was served longest ago (one never served first), then that client goes
//! behind the others. So one client asking for many never makes another wait behind
//! all of its requests (with `k` clients waiting, each gets one in `k` turns), and a
//! newcomer is served next, before clients that have just had a turn.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

use tokio::sync::oneshot;

/// The gate.
pub struct FairGate {
    size: usize,
    state: Mutex<State>,
}

/// A client's waiters in order, each known by its number.
type Waiters = VecDeque<(u64, oneshot::Sender<FairPermit>)>;

#[derive(Default)]
struct State {
    free: usize,
    /// Clients with waiters, in their turn's order; each with its waiters in order
    /// (each known by a number, so that one that gives up leaves its queue).
    turns: VecDeque<(String, Waiters)>,
    waiting: usize,
    next_waiter: u64,
    /// When each client was last served (a count of permits handed out).
    served: HashMap<String, u64>,
    clock: u64,
}

impl State {
    /// Queues `client` among the clients waiting: behind those served before it.
    fn enqueue(&mut self, client: String, queue: Waiters) {
        let at = self.served.get(&client).copied().unwrap_or(0);
        let i = self
            .turns
            .iter()
            .position(|(c, _)| self.served.get(c).copied().unwrap_or(0) > at)
            .unwrap_or(self.turns.len());
        self.turns.insert(i, (client, queue));
    }

    /// Notes that `client` is served now; forgets clients not served for long.
    fn serve(&mut self, client: &str) {
        self.clock += 1;
        self.served.insert(client.to_string(), self.clock);
        if self.served.len() > 4096 {
            let recent = self.clock.saturating_sub(2048);
            self.served.retain(|_, t| *t > recent);
        }
    }
}

/// A waiter's place in its client's queue: taken out if the waiter gives up.
struct Place<'a> {
    gate: &'a FairGate,
    client: &'a str,
    id: u64,
}

impl Drop for Place<'_> {
    fn drop(&mut self) {
        let mut s = self.gate.lock();
        if let Some(i) = s.turns.iter().position(|(c, _)| c == self.client) {
            let queue = &mut s.turns[i].1;
            if let Some(j) = queue.iter().position(|(id, _)| *id == self.id) {
                queue.remove(j);
                let empty = queue.is_empty();
                s.waiting -= 1;
                if empty {
                    s.turns.remove(i);
                }
            }
        }
    }
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

    /// Requests of `client` waiting now.
    pub fn waiting_of(&self, client: &str) -> usize {
        self.lock().turns.iter().find(|(c, _)| c == client).map_or(0, |(_, q)| q.len())
    }

    /// A permit for `client`, at once if one is free and nobody waits, else in turn.
    /// A caller that stops waiting (the future dropped) leaves the queue.
    pub async fn acquire(self: &Arc<Self>, client: &str) -> FairPermit {
        let (rx, id) = {
            let mut s = self.lock();
            if s.free > 0 && s.turns.is_empty() {
                s.free -= 1;
                s.serve(client);
                return FairPermit { gate: Some(self.clone()) };
            }
            let (tx, rx) = oneshot::channel();
            let id = s.next_waiter;
            s.next_waiter += 1;
            match s.turns.iter_mut().find(|(c, _)| c == client) {
                Some((_, q)) => q.push_back((id, tx)),
                None => s.enqueue(client.to_string(), VecDeque::from([(id, tx)])),
            }
            s.waiting += 1;
            (rx, id)
        };
        let place = Place { gate: self, client, id };
        let got = rx.await;
        // Handed a permit: the place is gone from the queue already.
        drop(place);
        // The gate keeps its senders until it hands them a permit, so this cannot
        // fail; were it to, a new permit is asked for.
        match got {
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
            let Some((_, tx)) = next else { continue };
            s.waiting -= 1;
            match tx.send(FairPermit { gate: Some(self.clone()) }) {
                Ok(()) => {
                    s.serve(&client);
                    if !queue.is_empty() {
                        s.enqueue(client, queue);
                    }
                    return;
                }
                // That waiter gave up: disarm the permit (the lock is held) and go on.
                Err(mut p) => {
                    p.gate = None;
                    if !queue.is_empty() {
                        s.enqueue(client, queue);
                    }
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

    #[test]
    fn a_newcomer_goes_before_clients_just_served() {
        let mut s = State::default();
        // Ten clients were served in turn, c0 first, and all wait again.
        for c in 0..10 {
            s.serve(&format!("c{c}"));
        }
        for c in 0..10 {
            s.enqueue(format!("c{c}"), VecDeque::new());
        }
        s.enqueue("new".into(), VecDeque::new());
        let order: Vec<&str> = s.turns.iter().map(|(c, _)| c.as_str()).collect();
        assert_eq!(order[0], "new", "never served: first");
        assert_eq!(&order[1..], ["c0", "c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9"]);
        // Served, c0 goes behind the others.
        let (c, q) = s.turns.remove(1).unwrap();
        s.serve(&c);
        s.enqueue(c, q);
        assert_eq!(s.turns.back().unwrap().0, "c0");
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
        assert_eq!(gate.waiting(), 0, "the waiter left the queue");
        drop(held);
        assert_eq!(gate.free(), 1, "the permit came back to the gate");
        let _again = tokio::time::timeout(std::time::Duration::from_secs(1), gate.acquire("c")).await.unwrap();
    }
}
