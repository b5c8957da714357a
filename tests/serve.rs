//! The class server end to end over HTTP: every shipped game played to its end, refused moves
//! that change nothing, tokens, turns, the computer's seats, join codes, rematches, the
//! teacher's API and exports, and every table back move for move after `kill -9`.

mod common;

use common::server::{data_file, tokens, Server};
use serde_json::{json, Value};

/// Small options for the games that have them, so each game ends in a few dozen moves.
fn quick_options(game: &str) -> Value {
    match game {
        "caro" | "gomoku" => json!({ "size": 9 }),
        "five_step" => json!({ "size": 5 }),
        _ => json!({}),
    }
}

/// Plays table `id` to its end, choosing among the legal moves with a fixed rule; returns the
/// moves played.
fn play_to_the_end(server: &Server, table: &Value) -> Vec<String> {
    let id = table["id"].as_str().unwrap();
    let tokens = tokens(table);
    let mut state = table["table"].clone();
    let mut played = Vec::new();
    for ply in 0..3000 {
        if !state["result"].is_null() {
            return played;
        }
        let legal = state["legal"].as_array().expect("legal moves");
        assert!(!legal.is_empty(), "no legal move and no result: {state}");
        let mv = legal[(ply * 7919 + 13) % legal.len()].as_str().unwrap();
        let seat = state["to_move"].as_u64().expect("someone to move") as usize;
        let (status, next) = server.play(id, &tokens[seat], mv);
        assert_eq!(status, 200, "{mv}: {next}");
        played.push(mv.to_string());
        state = next;
    }
    panic!("{} did not end in 3000 moves", table["table"]["game"]);
}

#[test]
fn every_shipped_game_is_played_to_its_end_through_the_api() {
    let (_dir, data) = data_file();
    let server = Server::start(&data, &[]);
    let (status, games) = server.get("/api/games");
    assert_eq!(status, 200);
    let names: Vec<&str> = games
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["name"].as_str().unwrap())
        .collect();
    for expected in ["caro", "o_an_quan", "lines98", "five_step"] {
        assert!(names.contains(&expected), "{names:?}");
    }
    for game in games.as_array().unwrap() {
        assert!(game["error"].is_null(), "{game}");
        let name = game["name"].as_str().unwrap();
        let table = server.open(name, quick_options(name), Value::Null);
        let played = play_to_the_end(&server, &table);
        let id = table["id"].as_str().unwrap();
        let (_, state) = server.get(&format!("/api/tables/{id}"));
        assert_eq!(state["moves"], json!(played), "{name}");
        assert!(state["result"].is_string(), "{name}: {state}");
        assert!(state["board"].as_str().unwrap().len() > 10, "{name}");
    }
}

#[test]
fn refused_moves_change_nothing_and_say_why() {
    let (_dir, data) = data_file();
    let server = Server::start(&data, &[]);
    let table = server.open("caro", json!({ "size": 9 }), Value::Null);
    let id = table["id"].as_str().unwrap();
    let [x, o] = [tokens(&table)[0].clone(), tokens(&table)[1].clone()];
    assert_eq!(server.play(id, &x, "5e").0, 200);
    let before = server.get(&format!("/api/tables/{id}")).1;
    let refused = [
        (
            "a wrong token",
            "0123456789abcdef0123456789abcdef",
            "4d",
            403,
            "token",
        ),
        ("no token", "", "4d", 403, "token"),
        ("X again", &x, "4d", 409, "not your turn"),
        ("an occupied cell", &o, "5e", 422, "5e"),
        ("a cell off the board", &o, "12z", 422, "12z"),
        ("not a move", &o, "hello", 422, "hello"),
    ];
    for (what, token, mv, status, says) in refused {
        let (got, answer) = server.play(id, token, mv);
        assert_eq!(got, status, "{what}: {answer}");
        let error = answer["error"].as_str().unwrap_or_default();
        assert!(error.contains(says), "{what}: {error}");
        assert_eq!(server.get(&format!("/api/tables/{id}")).1, before, "{what}");
    }
    let (status, _) = server.play("nosuchtable", &o, "4d");
    assert_eq!(status, 404);
    // A body that is not the expected JSON, and one that is too large.
    let (status, _) = server.post_raw(&format!("/api/tables/{id}/moves"), b"{", None);
    assert_eq!(status, 400);
    let big = format!("{{\"token\":\"{o}\",\"move\":\"{}\"}}", "a".repeat(100_000));
    let (status, _) = server.post_raw(&format!("/api/tables/{id}/moves"), big.as_bytes(), None);
    assert_eq!(status, 413);
    assert_eq!(server.get(&format!("/api/tables/{id}")).1, before);
    // The game over: every move is refused with 409.
    for (token, mv) in [
        (&o, "1a"),
        (&x, "5d"),
        (&o, "1b"),
        (&x, "5c"),
        (&o, "1c"),
        (&x, "5b"),
        (&o, "1d"),
        (&x, "5a"),
    ] {
        assert_eq!(server.play(id, token, mv).0, 200, "{mv}");
    }
    let over = server.get(&format!("/api/tables/{id}")).1;
    assert_eq!(over["result"], "X wins");
    assert_eq!(over["winner"], 0);
    assert_eq!(server.play(id, &o, "9i").0, 409);
}

#[test]
fn a_bad_table_request_is_refused_with_a_message() {
    let (_dir, data) = data_file();
    let server = Server::start(&data, &[]);
    for (body, says) in [
        (json!({ "game": "chess" }), "no game named"),
        (json!({ "game": "../rules/caro" }), "not a game's name"),
        (
            json!({ "game": "caro", "options": { "size": "huge" } }),
            "size",
        ),
        (
            json!({ "game": "caro", "options": { "colour": 3 } }),
            "colour",
        ),
        (
            json!({ "game": "caro", "seats": [{ "kind": "human" }] }),
            "2 players",
        ),
        (
            json!({ "game": "caro", "seats": [{}, { "kind": "robot" }] }),
            "seat kind",
        ),
    ] {
        let (status, answer) = server.post("/api/tables", &body);
        assert_eq!(status, 400, "{body}: {answer}");
        assert!(
            answer["error"].as_str().unwrap().contains(says),
            "{body}: {answer}"
        );
    }
    assert_eq!(server.get("/api/tables").1, json!([]));
}

#[test]
fn the_computer_answers_a_move_and_a_friend_joins_by_code() {
    let (_dir, data) = data_file();
    let server = Server::start(&data, &[]);
    let table = server.open(
        "caro",
        json!({ "size": 9 }),
        json!([{ "kind": "human", "name": "Ann" }, { "kind": "computer:easy" }]),
    );
    let id = table["id"].as_str().unwrap();
    assert!(
        table["seats"][1]["token"].is_null(),
        "the computer's seat has no token"
    );
    let (status, state) = server.play(id, &tokens(&table)[0], "5e");
    assert_eq!(status, 200, "{state}");
    let mut state = state;
    for _ in 0..100 {
        if state["ply"] == 2 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
        state = server.get(&format!("/api/tables/{id}")).1;
    }
    assert_eq!(state["ply"], 2, "the computer played: {state}");
    assert_eq!(state["seats"][0]["name"], "Ann");

    let table = server.open("caro", json!({ "size": 9 }), Value::Null);
    let id = table["id"].as_str().unwrap();
    let code = table["seats"][1]["code"].as_str().unwrap();
    let (status, joined) = server.post(
        "/api/join",
        &json!({ "code": code.to_uppercase(), "name": "Bob <b>" }),
    );
    assert_eq!(status, 200, "{joined}");
    assert_eq!(
        (joined["id"].as_str(), joined["seat"].as_u64()),
        (Some(id), Some(1))
    );
    assert_eq!(joined["token"], table["seats"][1]["token"]);
    assert_eq!(
        server.get(&format!("/api/tables/{id}")).1["seats"][1]["name"],
        "Bob <b>"
    );
    assert_eq!(
        server.post("/api/join", &json!({ "code": "zzzzzz" })).0,
        404
    );
}

#[test]
fn the_picture_maps_each_move_to_the_spots_it_changes() {
    let (_dir, data) = data_file();
    let server = Server::start(&data, &[]);
    let table = server.open("caro", json!({ "size": 9 }), Value::Null);
    let id = table["id"].as_str().unwrap();
    let (status, picture) = server.get(&format!("/api/tables/{id}/picture"));
    assert_eq!(status, 200);
    assert!(picture["svg"].as_str().unwrap().starts_with("<svg"));
    assert_eq!(picture["spots"].as_array().unwrap().len(), 81);
    let moves = picture["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 81);
    // 9a is the bottom-left cell: the first spot of the last row.
    let a9 = moves.iter().find(|m| m["move"] == "1a").unwrap();
    assert_eq!(a9["spots"], json!([72]));
}

#[test]
fn a_rematch_reverses_the_seats_and_keeps_the_tokens() {
    let (_dir, data) = data_file();
    let server = Server::start(&data, &[]);
    let table = server.open("caro", json!({ "size": 9, "win": 3 }), Value::Null);
    let id = table["id"].as_str().unwrap();
    let [x, o] = [tokens(&table)[0].clone(), tokens(&table)[1].clone()];
    assert_eq!(
        server
            .post(&format!("/api/tables/{id}/rematch"), &json!({ "token": x }))
            .0,
        409
    );
    for (token, mv) in [(&x, "5e"), (&o, "1a"), (&x, "5d"), (&o, "1b"), (&x, "5c")] {
        assert_eq!(server.play(id, token, mv).0, 200);
    }
    assert_eq!(
        server
            .post(
                &format!("/api/tables/{id}/rematch"),
                &json!({ "token": "x" })
            )
            .0,
        403
    );
    let (status, rematch) =
        server.post(&format!("/api/tables/{id}/rematch"), &json!({ "token": o }));
    assert_eq!(status, 200, "{rematch}");
    let again = server
        .post(&format!("/api/tables/{id}/rematch"), &json!({ "token": x }))
        .1;
    assert_eq!(again, rematch, "one rematch per table");
    let new = rematch["id"].as_str().unwrap();
    assert_eq!(server.get(&format!("/api/tables/{id}")).1["rematch"], new);
    assert_eq!(server.play(new, &x, "5e").0, 409, "X's token now plays O");
    assert_eq!(server.play(new, &o, "5e").0, 200);
}

#[test]
fn the_teacher_sees_every_table_assigns_a_variant_and_exports_finished_games() {
    let (dir, data) = data_file();
    let server = Server::start(&data, &[]);
    assert_eq!(server.get("/api/teacher/tables").0, 403);
    assert_eq!(
        server
            .post("/api/teacher/assignment", &json!({ "game": "caro" }))
            .0,
        403
    );
    let (status, assigned) = server.teacher_post(
        "/api/teacher/assignment",
        &json!({ "game": "caro", "options": { "win": 4 } }),
    );
    assert_eq!(status, 200, "{assigned}");
    assert_eq!(server.get("/api/assignment").1["options"], json!(["win=4"]));
    let (status, _) = server.teacher_post(
        "/api/teacher/assignment",
        &json!({ "game": "caro", "options": ["win=x"] }),
    );
    assert_eq!(status, 400);
    assert_eq!(
        server.get("/api/assignment").1["options"],
        json!(["win=4"]),
        "a bad one changes nothing"
    );

    let mut ids = Vec::new();
    for (names, moves) in [
        (
            ["Ann", "Bob"],
            vec!["5e", "1a", "5d", "1b", "5c", "1c", "5b"],
        ),
        (
            ["Bob", "Cy"],
            vec!["5e", "1a", "5d", "1b", "5c", "1c", "2e", "1d"],
        ),
        (["Ann", "Cy"], vec!["5e"]),
    ] {
        let seats = json!([{ "name": names[0] }, { "name": names[1] }]);
        let table = server.open("caro", json!({ "size": 9, "win": 4 }), seats);
        let id = table["id"].as_str().unwrap().to_string();
        for (i, mv) in moves.iter().enumerate() {
            assert_eq!(server.play(&id, &tokens(&table)[i % 2], mv).0, 200, "{mv}");
        }
        ids.push(id);
    }
    let (_, tables) = server.teacher_get("/api/teacher/tables");
    let results: Vec<&Value> = tables
        .as_array()
        .unwrap()
        .iter()
        .map(|t| &t["result"])
        .collect();
    assert_eq!(results, [&json!("1-0"), &json!("0-1"), &Value::Null]);
    assert_eq!(server.get("/api/teacher/journal/caro").0, 403);
    let (status, journal) = server.teacher_get("/api/teacher/journal/caro");
    assert_eq!(status, 200);
    let journal = journal.as_str().unwrap().to_string();
    assert_eq!(journal.lines().count(), 2, "{journal}");
    let path = dir.path().join("class.jsonl");
    std::fs::write(&path, &journal).unwrap();
    let standings = common::stdout([
        std::ffi::OsStr::new("tournament"),
        "merge".as_ref(),
        path.as_os_str(),
    ]);
    assert!(
        standings.contains("Ann (human)") && standings.contains("Cy (human)"),
        "{standings}"
    );

    let (status, trace) = server.teacher_get(&format!("/api/teacher/tables/{}/trace", ids[1]));
    assert_eq!(status, 200);
    let trace = trace.as_str().unwrap();
    assert!(trace.contains("result: O wins"), "{trace}");
    let file = dir.path().join("table.trace");
    std::fs::write(&file, trace).unwrap();
    let out = common::stdout([std::ffi::OsStr::new("test"), file.as_os_str()]);
    assert!(out.contains("1 passed") || out.contains("passed"), "{out}");
    let (status, _) = server.teacher_get(&format!("/api/teacher/tables/{}/trace", ids[2]));
    assert_eq!(status, 409, "a game still playing has no trace yet");
}

#[test]
fn after_kill_9_and_a_restart_every_table_is_back_move_for_move() {
    let (_dir, data) = data_file();
    let server = Server::start(&data, &[]);
    let mut tables = Vec::new();
    for (game, options) in [
        ("caro", json!({ "size": 9 })),
        ("o_an_quan", json!({})),
        ("lines98", json!({})),
    ] {
        let table = server.open(game, options, Value::Null);
        let id = table["id"].as_str().unwrap().to_string();
        let mut state = table["table"].clone();
        for ply in 0..6 {
            let legal = state["legal"].as_array().unwrap();
            let mv = legal[(ply * 31) % legal.len()]
                .as_str()
                .unwrap()
                .to_string();
            let seat = state["to_move"].as_u64().unwrap() as usize;
            let (status, next) = server.play(&id, &tokens(&table)[seat], &mv);
            assert_eq!(status, 200, "{next}");
            state = next;
        }
        tables.push((id, tokens(&table), state));
    }
    server.kill();
    let server = Server::start(&data, &[]);
    for (id, tokens, before) in &tables {
        let (status, after) = server.get(&format!("/api/tables/{id}"));
        assert_eq!(status, 200);
        assert_eq!(&after, before, "table {id}");
        let seat = after["to_move"].as_u64().unwrap() as usize;
        let mv = after["legal"][0].as_str().unwrap();
        assert_eq!(
            server.play(id, &tokens[seat], mv).0,
            200,
            "the same tokens still play"
        );
    }
}

#[test]
fn live_updates_come_as_server_sent_events() {
    use std::io::{BufRead, BufReader, Read, Write};
    let (_dir, data) = data_file();
    let server = Server::start(&data, &[]);
    let table = server.open("caro", json!({ "size": 9 }), Value::Null);
    let id = table["id"].as_str().unwrap();
    let address = server.url.trim_start_matches("http://");
    let mut stream = std::net::TcpStream::connect(address).unwrap();
    write!(stream, "GET /api/tables/{id}/events HTTP/1.1\r\nHost: {address}\r\nAccept: text/event-stream\r\n\r\n").unwrap();
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(20)))
        .unwrap();
    let mut lines = BufReader::new(stream.try_clone().unwrap()).lines();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let mut next_state = || loop {
        // Keep-alive comments come every 15 s: a missing update must fail, not wait forever.
        assert!(std::time::Instant::now() < deadline, "no update came");
        let line = lines.next().unwrap().unwrap();
        if let Some(data) = line.strip_prefix("data: ") {
            return serde_json::from_str::<Value>(data).unwrap();
        }
    };
    assert_eq!(next_state()["ply"], 0);
    assert_eq!(server.play(id, &tokens(&table)[0], "5e").0, 200);
    let update = next_state();
    assert_eq!(
        (update["ply"].as_u64(), update["moves"][0].as_str()),
        (Some(1), Some("5e"))
    );
    let _ = stream.read(&mut [0; 1]);
}
