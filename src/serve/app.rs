//! The server's shared state: the rules library, the data file, the tables in play (each a
//! thread, started on demand), the games offered; and the router that serves pages and the API.

use std::{
    collections::HashMap,
    sync::{mpsc, Arc, Mutex, RwLock},
};

use serde_json::Value;
use tokio::sync::{broadcast, oneshot};

use super::{
    store::{Store, TableRecord},
    table::{self, Answer, Request},
    Config, Failure,
};
use crate::script::Library;

/// How many updates a slow watcher may fall behind before it skips to the newest.
const BACKLOG: usize = 16;

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
    /// The rules folder uploads go to, when one was given.
    pub rules_dir: Option<std::path::PathBuf>,
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
        let store = tokio::task::spawn_blocking(move || Store::open(&data))
            .await
            .map_err(|e| e.to_string())??;
        let lib = library.clone();
        let catalog = tokio::task::spawn_blocking(move || super::catalog::list(&lib))
            .await
            .map_err(|e| e.to_string())?;
        Ok(Arc::new(App {
            library,
            store: Arc::new(store),
            password: config.password.clone(),
            catalog: RwLock::new(Arc::new(catalog)),
            rules_dir: config.rules.clone(),
            tables: Mutex::new(HashMap::new()),
        }))
    }

    fn slot(&self, id: &str) -> Slot {
        let mut tables = self.tables.lock().unwrap_or_else(|p| p.into_inner());
        tables.entry(id.to_string()).or_default().clone()
    }

    /// Starts table `record`'s thread (storing the table first when `new`).
    pub async fn start(&self, record: TableRecord, new: bool) -> Result<(), Failure> {
        let slot = self.slot(&record.id);
        let mut running = slot.lock().await;
        *running = Some(self.spawn(record, new).await?);
        Ok(())
    }

    async fn spawn(&self, record: TableRecord, new: bool) -> Result<Running, Failure> {
        let (updates, _) = broadcast::channel(BACKLOG);
        let (library, store, watchers) =
            (self.library.clone(), self.store.clone(), updates.clone());
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

/// At most 40 characters of `text` (an id from a request, quoted in a message).
pub fn short(text: &str) -> String {
    crate::terminal::clean(&text.chars().take(40).collect::<String>()).into_owned()
}
