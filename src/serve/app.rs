//! The server's shared state: the rules library, the data file, the tables in play (each a
//! thread, started on demand), the games offered; and the router that serves pages and the API.

use std::{
    collections::HashMap,
    sync::{mpsc, Arc, Mutex, RwLock},
};

use serde_json::Value;
use tokio::sync::{broadcast, oneshot};

use super::{
    short,
    store::{Store, TableRecord},
    table::{self, Answer, Request},
    Config, Failure,
};
use crate::script::Library;

/// How many updates a slow watcher may fall behind before it skips to the newest.
const BACKLOG: usize = 16;
/// How many tables' changes the teacher's page may fall behind before it reloads the list.
const TEACHER_BACKLOG: usize = 256;

/// A table whose thread runs: its request queue and its watchers' channel.
#[derive(Clone)]
struct Running {
    requests: mpsc::Sender<Request>,
    updates: broadcast::Sender<Arc<Value>>,
}

/// A table's place in the registry: empty until its thread is started.
type Slot = Arc<tokio::sync::Mutex<Option<Running>>>;

/// Everything the request handlers share.
pub struct App {
    /// Where scripts are found.
    pub library: Library,
    /// The data file.
    pub store: Arc<Store>,
    /// The teacher's password.
    pub password: String,
    /// The games offered, as `GET /api/games` gives them.
    pub catalog: RwLock<Arc<Value>>,
    /// Every table's changes, as summaries (the teacher's live page).
    pub changes: broadcast::Sender<Arc<Value>>,
    /// The most tables being played at once, in all and per client.
    max_tables: (usize, usize),
    /// Held while a table is counted and opened, so that the cap is never exceeded.
    opening: tokio::sync::Mutex<()>,
    tables: Mutex<HashMap<String, Slot>>,
}

impl App {
    /// Opens the data file and lists the games.
    pub async fn open(config: &Config) -> Result<Arc<App>, String> {
        let library = match &config.rules {
            Some(dir) => Library::with_rules_dir(dir),
            None => Library::discover(),
        };
        let data = config.data.clone();
        let lib = library.clone();
        let (store, catalog) = tokio::task::spawn_blocking(move || {
            let store = Store::open(&data)?;
            super::variants::restore(&lib, &store)?;
            Ok::<_, String>((store, super::catalog::list(&lib)))
        })
        .await
        .map_err(|e| e.to_string())??;
        Ok(Arc::new(App {
            library,
            store: Arc::new(store),
            password: config.password.clone(),
            catalog: RwLock::new(Arc::new(catalog)),
            changes: broadcast::channel(TEACHER_BACKLOG).0,
            max_tables: (config.max_tables, config.max_tables_per_client),
            opening: tokio::sync::Mutex::new(()),
            tables: Mutex::new(HashMap::new()),
        }))
    }

    /// Lists the games again (after an upload).
    pub fn refresh_catalog(&self) {
        let catalog = super::catalog::list(&self.library);
        *self.catalog.write().unwrap_or_else(|p| p.into_inner()) = Arc::new(catalog);
    }

    fn slot(&self, id: &str) -> Slot {
        let mut tables = self.tables.lock().unwrap_or_else(|p| p.into_inner());
        tables.entry(id.to_string()).or_default().clone()
    }

    /// Opens the new table `record`: stores it and starts its thread, unless the server or
    /// the client that asked already has its most tables in play (503, 429).
    pub async fn open_table(&self, record: TableRecord) -> Result<(), Failure> {
        let _counting = self.opening.lock().await;
        let store = self.store.clone();
        let client = record.client.clone();
        let (all, mine) = tokio::task::spawn_blocking(move || {
            store.open_tables(&client).map_err(Failure::Broken)
        })
        .await
        .map_err(|e| Failure::Broken(e.to_string()))??;
        let (most, most_each) = self.max_tables;
        if all >= most {
            return Err(Failure::Full(format!(
                "the server already has {all} tables in play (at most {most}): \
                 try again when a game has ended"
            )));
        }
        if mine >= most_each {
            return Err(Failure::TooMany(format!(
                "you already have {mine} tables in play (at most {most_each}): \
                 finish one before opening another"
            )));
        }
        let slot = self.slot(&record.id);
        let mut running = slot.lock().await;
        *running = Some(self.spawn(record, true).await?);
        Ok(())
    }

    async fn spawn(&self, record: TableRecord, new: bool) -> Result<Running, Failure> {
        let (updates, _) = broadcast::channel(BACKLOG);
        let (library, store) = (self.library.clone(), self.store.clone());
        let watchers = table::Watchers {
            table: updates.clone(),
            teacher: self.changes.clone(),
        };
        let requests = tokio::task::spawn_blocking(move || {
            table::start(record, new, library, store, watchers)
        })
        .await
        .map_err(|e| Failure::Broken(e.to_string()))??;
        Ok(Running { requests, updates })
    }

    /// The running thread of table `id`, started if need be (`restart`: the old one ended).
    async fn running(&self, id: &str, restart: bool) -> Result<Running, Failure> {
        let slot = self.slot(id);
        let mut running = slot.lock().await;
        if let Some(r) = running.as_ref().filter(|_| !restart) {
            return Ok(r.clone());
        }
        let store = self.store.clone();
        let key = id.to_string();
        let record = tokio::task::spawn_blocking(move || store.table(&key))
            .await
            .map_err(|e| Failure::Broken(e.to_string()))?
            .map_err(Failure::Broken)?
            .ok_or_else(|| Failure::NotFound(format!("there is no table '{}'", short(id))))?;
        let r = self.spawn(record, false).await?;
        *running = Some(r.clone());
        Ok(r)
    }

    /// Asks table `id` a question (`make` builds it around the reply channel) and waits for the
    /// answer.
    pub async fn ask(&self, id: &str, make: impl Fn(oneshot::Sender<Answer>) -> Request) -> Answer {
        for restart in [false, true] {
            let running = self.running(id, restart).await?;
            let (reply, answer) = oneshot::channel();
            if running.requests.send(make(reply)).is_ok() {
                return answer
                    .await
                    .map_err(|_| Failure::Broken("the table's thread stopped".into()))?;
            }
        }
        Err(Failure::Broken("the table's thread does not start".into()))
    }

    /// Tells table `id` something that needs no answer.
    pub async fn tell(&self, id: &str, request: Request) -> Result<(), Failure> {
        let running = self.running(id, false).await?;
        running
            .requests
            .send(request)
            .map_err(|_| Failure::Broken("the table's thread stopped".into()))
    }

    /// The current state of table `id` and a channel of its next states.
    pub async fn watch(
        &self,
        id: &str,
    ) -> Result<(Arc<Value>, broadcast::Receiver<Arc<Value>>), Failure> {
        let running = self.running(id, false).await?;
        let receiver = running.updates.subscribe();
        let now = self.ask(id, Request::View).await?;
        Ok((now, receiver))
    }
}
