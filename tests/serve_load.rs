//! The class server's load benchmark: 60 clients on 30 tables, each playing a full game of caro
//! through the API (moves by `POST`, the other side's moves heard by server-sent events); prints
//! the move latency (p50, p99, max) and the server's peak memory (with the teacher's page
//! following every table live by its own event stream), then kills the server with
//! SIGKILL, restarts it and checks that every move of every table is still there.
//!
//! Run with `BOARDRULES_LOAD=1 cargo test --release --test serve_load -- --nocapture`
//! (without the variable it does nothing: it takes both cores for a while). By default the
//! clients move as soon as they can (the server saturated); `BOARDRULES_LOAD_THINK_MS=N` makes
//! each wait N ms before its move, as a person would.

mod common;

use std::{
    io::{BufRead, BufReader, Write},
    net::TcpStream,
    time::{Duration, Instant},
};

use common::server::{data_file, tokens, Server};
use serde_json::{json, Value};

const TABLES: usize = 30;

/// The table's states as its event stream sends them.
struct States(std::io::Lines<BufReader<TcpStream>>);

impl States {
    fn open(url: &str, id: &str) -> States {
        let address = url.trim_start_matches("http://");
        let mut stream = TcpStream::connect(address).unwrap();
        write!(
            stream,
            "GET /api/tables/{id}/events HTTP/1.1\r\nHost: {address}\r\nAccept: text/event-stream\r\n\r\n"
        )
        .unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(60)))
            .unwrap();
        States(BufReader::new(stream).lines())
    }

    fn next(&mut self) -> Value {
        loop {
            let line = self.0.next().expect("the stream goes on").expect("a line");
            if let Some(data) = line.strip_prefix("data: ") {
                return serde_json::from_str(data).unwrap();
            }
        }
    }
}

/// One seat's client: waits for its turn, plays a legal move (chosen by `seed`), until the end.
/// Returns the latency of each of its moves.
fn client(server: &Server, id: &str, token: &str, seat: u64, seed: usize) -> Vec<Duration> {
    let think = Duration::from_millis(
        std::env::var("BOARDRULES_LOAD_THINK_MS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(0),
    );
    let mut states = States::open(&server.url, id);
    let mut latencies = Vec::new();
    let mut acted = None;
    loop {
        let state = states.next();
        if !state["result"].is_null() {
            return latencies;
        }
        let ply = state["ply"].as_u64().unwrap();
        if state["to_move"].as_u64() != Some(seat) || acted >= Some(ply) {
            continue;
        }
        std::thread::sleep(think);
        let legal = state["legal"].as_array().unwrap();
        let mv = legal[(seed + ply as usize * 7919) % legal.len()]
            .as_str()
            .unwrap();
        let start = Instant::now();
        let (status, answer) = server.play(id, token, mv);
        latencies.push(start.elapsed());
        assert_eq!(status, 200, "{answer}");
        acted = Some(ply);
    }
}

/// The teacher's page, live: the teacher's stream, once its first event (every table) came.
fn teacher(url: &str, password: &str) -> std::io::Lines<BufReader<TcpStream>> {
    let address = url.trim_start_matches("http://");
    let mut stream = TcpStream::connect(address).unwrap();
    write!(
        stream,
        "GET /api/teacher/events HTTP/1.1\r\nHost: {address}\r\nAuthorization: Bearer {password}\r\n\r\n"
    )
    .unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(3)))
        .unwrap();
    let mut lines = BufReader::new(stream).lines();
    while lines.next().unwrap().unwrap() != "event: tables" {}
    lines
}

/// Counts the `table` events of the teacher's stream until none has come for 3 s.
fn table_events(lines: std::io::Lines<BufReader<TcpStream>>) -> usize {
    lines
        .map_while(Result::ok)
        .filter(|line| line == "event: table")
        .count()
}

/// The server's peak resident memory, in MB (Linux).
fn peak_rss_mb(pid: u32) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0)
}

#[test]
fn sixty_clients_on_thirty_tables() {
    if std::env::var_os("BOARDRULES_LOAD").is_none() {
        eprintln!("skipped: set BOARDRULES_LOAD=1 to run the load benchmark");
        return;
    }
    let (_dir, data) = data_file();
    let server = Server::start(&data, &[]);
    let tables: Vec<Value> = (0..TABLES)
        .map(|_| server.open("caro", json!({}), Value::Null))
        .collect();
    let watcher = {
        let lines = teacher(&server.url, &server.password);
        std::thread::spawn(move || table_events(lines))
    };
    let started = Instant::now();
    let mut latencies: Vec<Duration> = std::thread::scope(|scope| {
        let clients: Vec<_> = tables
            .iter()
            .enumerate()
            .flat_map(|(t, table)| {
                let id = table["id"].as_str().unwrap();
                let tokens = tokens(table);
                let server = &server;
                (0..2).map(move |seat| {
                    let token = tokens[seat].clone();
                    scope.spawn(move || client(server, id, &token, seat as u64, t * 2 + seat))
                })
            })
            .collect();
        clients
            .into_iter()
            .flat_map(|c| c.join().unwrap())
            .collect()
    });
    let wall = started.elapsed();
    let rss = peak_rss_mb(server.pid());
    latencies.sort();
    let at =
        |q: f64| latencies[((latencies.len() as f64 * q).ceil() as usize).min(latencies.len()) - 1];
    println!(
        "load: {TABLES} tables, {} clients, {} moves in {:.1} s; move latency p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms; server peak RSS {rss:.0} MB",
        TABLES * 2,
        latencies.len(),
        wall.as_secs_f64(),
        at(0.50).as_secs_f64() * 1000.0,
        at(0.99).as_secs_f64() * 1000.0,
        latencies.last().unwrap().as_secs_f64() * 1000.0,
    );
    let before: Vec<Value> = tables
        .iter()
        .map(|t| {
            server
                .get(&format!("/api/tables/{}", t["id"].as_str().unwrap()))
                .1
        })
        .collect();
    let played: usize = before
        .iter()
        .map(|s| s["moves"].as_array().unwrap().len())
        .sum();
    assert_eq!(
        played,
        latencies.len(),
        "every move answered 200 is in its table"
    );
    let heard = watcher.join().unwrap();
    println!("load: the teacher's page heard {heard} table changes live");
    assert_eq!(heard, played, "the teacher hears of every move");
    server.kill();
    let server = Server::start(&data, &[]);
    let mut lost = 0;
    for state in &before {
        let after = server
            .get(&format!("/api/tables/{}", state["id"].as_str().unwrap()))
            .1;
        let (was, is) = (
            state["moves"].as_array().unwrap(),
            after["moves"].as_array().unwrap(),
        );
        lost += was.len().saturating_sub(is.len());
        assert_eq!(is, was, "table {}", state["id"]);
    }
    println!("load: after kill -9 and a restart, {lost} moves lost of {played}");
    assert!(rss <= 200.0, "peak RSS {rss:.0} MB");
}
