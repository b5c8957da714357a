//! A class server (`boardrules serve`) on a free port of 127.0.0.1 for a test, and a small JSON
//! client for its API.

use std::{
    io::{BufRead, BufReader},
    path::{Path, PathBuf},
    process::{Child, Command, Stdio},
};

use serde_json::{json, Value};

/// A running server, killed (SIGKILL) when dropped.
pub struct Server {
    child: Child,
    /// `http://127.0.0.1:PORT`.
    pub url: String,
    /// The teacher's password it printed.
    pub password: String,
    agent: ureq::Agent,
    _home: tempfile::TempDir,
}

impl Server {
    /// Starts `boardrules serve` with the data file `data` (and extra arguments), and waits
    /// until it prints its address.
    pub fn start(data: &Path, extra: &[&str]) -> Server {
        let home = tempfile::tempdir().expect("a temporary folder");
        let mut cmd = Command::new(super::BIN);
        super::isolate(&mut cmd, home.path())
            .current_dir(home.path())
            .args(["serve", "--addr", "127.0.0.1:0", "--data"])
            .arg(data)
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        let mut child = cmd.spawn().expect("the server starts");
        let mut lines = BufReader::new(child.stdout.take().expect("piped"));
        let mut line = String::new();
        let mut read = |line: &mut String| {
            line.clear();
            lines.read_line(line).expect("the server prints");
            line.trim().to_string()
        };
        let first = read(&mut line);
        let url = first
            .split_whitespace()
            .last()
            .expect("an address")
            .trim_end_matches('/')
            .to_string();
        assert!(url.starts_with("http://127.0.0.1:"), "{first}");
        let second = read(&mut line);
        let password = second.rsplit("password: ").next().unwrap().to_string();
        // Keep reading (and dropping) the rest so the server never blocks on a full pipe.
        std::thread::spawn(move || {
            let mut sink = String::new();
            while lines.read_line(&mut sink).map(|n| n > 0).unwrap_or(false) {
                sink.clear();
            }
        });
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .build()
            .into();
        Server {
            child,
            url,
            password,
            agent,
            _home: home,
        }
    }

    /// Kills the server at once (SIGKILL), as a power cut of the process would.
    pub fn kill(mut self) {
        self.child.kill().expect("kill");
        self.child.wait().expect("wait");
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// `GET path`: the status and the body as JSON (or a string when it is not JSON).
    pub fn get(&self, path: &str) -> (u16, Value) {
        self.get_with(path, None)
    }

    /// `GET path` with the teacher's password.
    pub fn teacher_get(&self, path: &str) -> (u16, Value) {
        self.get_with(path, Some(&self.password.clone()))
    }

    fn get_with(&self, path: &str, password: Option<&str>) -> (u16, Value) {
        let call = || {
            let mut request = self.agent.get(format!("{}{path}", self.url));
            if let Some(p) = password {
                request = request.header("Authorization", format!("Bearer {p}"));
            }
            request.call()
        };
        // A pooled connection the server closed (after a 413, which it answers without reading
        // the body) fails once: a GET is asked again on a new connection.
        answer(call().or_else(|_| call()).expect("the server answers"))
    }

    /// `POST path` with a JSON body.
    pub fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        self.post_raw(path, body.to_string().as_bytes(), None)
    }

    /// `POST path` with a JSON body and the teacher's password.
    pub fn teacher_post(&self, path: &str, body: &Value) -> (u16, Value) {
        self.post_raw(
            path,
            body.to_string().as_bytes(),
            Some(&self.password.clone()),
        )
    }

    /// `POST path` with these bytes as the body.
    pub fn post_raw(&self, path: &str, body: &[u8], password: Option<&str>) -> (u16, Value) {
        let mut request = self
            .agent
            .post(format!("{}{path}", self.url))
            .header("Content-Type", "application/json");
        if let Some(p) = password {
            request = request.header("Authorization", format!("Bearer {p}"));
        }
        answer(request.send(body).expect("the server answers"))
    }

    /// Opens a table of `game` with `options` (a JSON object) and `seats` (`null`: people on
    /// every seat); returns the answer, which must be 201.
    pub fn open(&self, game: &str, options: Value, seats: Value) -> Value {
        let mut body = json!({ "game": game, "options": options });
        if !seats.is_null() {
            body["seats"] = seats;
        }
        let (status, table) = self.post("/api/tables", &body);
        assert_eq!(status, 201, "{table}");
        table
    }

    /// Plays `text` at table `id` with `token`: the status and answer.
    pub fn play(&self, id: &str, token: &str, text: &str) -> (u16, Value) {
        self.post(
            &format!("/api/tables/{id}/moves"),
            &json!({ "token": token, "move": text }),
        )
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn answer(mut response: ureq::http::Response<ureq::Body>) -> (u16, Value) {
    let status = response.status().as_u16();
    let text = response
        .body_mut()
        .with_config()
        .limit(64 << 20)
        .read_to_string()
        .expect("a text body");
    let value = serde_json::from_str(&text).unwrap_or(Value::String(text));
    (status, value)
}

/// A data file in a new temporary folder (kept while the folder is).
pub fn data_file() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("class.sqlite");
    (dir, path)
}

/// The token of each seat of an opened table (`""` for the computer's).
pub fn tokens(table: &Value) -> Vec<String> {
    table["seats"]
        .as_array()
        .expect("seats")
        .iter()
        .map(|s| s["token"].as_str().unwrap_or("").to_string())
        .collect()
}
