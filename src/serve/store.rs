//! The class server's storage: tables, seats and moves in one SQLite file, written as they
//! happen (WAL journal: a move is on disk before its answer is sent, so `kill -9` loses nothing).
//! The schema is upgraded by numbered migrations recorded in SQLite's `user_version`.

use std::{path::Path, sync::Mutex};

use rusqlite::{params, Connection, OptionalExtension};

use super::seats::{Seat, SeatKind};

/// The migrations, in order: migration `i` brings a file from version `i` to version `i + 1`.
const MIGRATIONS: &[&str] = &[
    // 1: tables, their seats and moves, and the server's settings (the teacher's assignment).
    "CREATE TABLE tables (
         id TEXT PRIMARY KEY,
         game TEXT NOT NULL,
         options TEXT NOT NULL,
         seed INTEGER NOT NULL,
         created INTEGER NOT NULL,
         rematch TEXT,
         result TEXT,
         reason TEXT
     );
     CREATE TABLE seats (
         table_id TEXT NOT NULL REFERENCES tables(id),
         seat INTEGER NOT NULL,
         kind TEXT NOT NULL,
         name TEXT NOT NULL,
         token TEXT NOT NULL,
         code TEXT NOT NULL UNIQUE,
         PRIMARY KEY (table_id, seat)
     );
     CREATE TABLE moves (
         table_id TEXT NOT NULL REFERENCES tables(id),
         ply INTEGER NOT NULL,
         text TEXT NOT NULL,
         PRIMARY KEY (table_id, ply)
     );
     CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);",
    // 2: who opened each table (to cap open tables per client), and the uploaded variants.
    "ALTER TABLE tables ADD COLUMN client TEXT NOT NULL DEFAULT '';
     CREATE INDEX tables_open ON tables (client) WHERE result IS NULL;
     CREATE TABLE variants (
         name TEXT PRIMARY KEY,
         script TEXT NOT NULL,
         uploaded INTEGER NOT NULL
     );",
];

/// A table as stored: what it plays and who sits at it, and its moves.
#[derive(Debug, Clone)]
pub struct TableRecord {
    /// The table's id (in its address).
    pub id: String,
    /// Its number, in the order tables were opened.
    pub number: i64,
    /// The game's name.
    pub game: String,
    /// The options, as `KEY=VALUE` settings.
    pub options: Vec<String>,
    /// The seed of games with chance.
    pub seed: u64,
    /// One seat per player, in turn order.
    pub seats: Vec<Seat>,
    /// The moves played, in canonical notation.
    pub moves: Vec<String>,
    /// The table opened for a rematch, if any.
    pub rematch: Option<String>,
    /// The address of the client that opened it (empty when not known).
    pub client: String,
}

/// A table in a few words, for the teacher's page and exports.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Summary {
    /// The table's id.
    pub id: String,
    /// Its number, in the order tables were opened.
    pub number: i64,
    /// The game's name.
    pub game: String,
    /// The options, as `KEY=VALUE` settings.
    pub options: Vec<String>,
    /// The seed of games with chance.
    pub seed: u64,
    /// `1-0`, `0-1`, `1/2-1/2` or `over` once the game is over.
    pub result: Option<String>,
    /// The result in words.
    pub reason: Option<String>,
    /// How many moves were played.
    pub ply: usize,
    /// Each seat's kind and name.
    pub seats: Vec<(String, String)>,
}

/// The data file.
pub struct Store {
    connection: Mutex<Connection>,
}

/// A storage error, in words.
pub type StoreError = String;

fn fail(e: rusqlite::Error) -> StoreError {
    format!("the data file failed: {e}")
}

impl Store {
    /// Opens (or creates) the data file at `path` and brings its schema up to date.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        let mut connection = Connection::open(path)
            .map_err(|e| format!("cannot open the data file {}: {e}", path.display()))?;
        connection
            .execute_batch(
                "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;",
            )
            .map_err(fail)?;
        migrate(&mut connection)?;
        Ok(Store {
            connection: Mutex::new(connection),
        })
    }

    fn with<T>(
        &self,
        f: impl FnOnce(&mut Connection) -> rusqlite::Result<T>,
    ) -> Result<T, StoreError> {
        let mut connection = self
            .connection
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        f(&mut connection).map_err(fail)
    }

    /// Stores a new table with its seats (no moves yet).
    pub fn add_table(&self, table: &TableRecord) -> Result<i64, StoreError> {
        let options = serde_json::to_string(&table.options).expect("strings serialise");
        self.with(|c| {
            let tx = c.transaction()?;
            tx.execute(
                "INSERT INTO tables (id, game, options, seed, created, client) VALUES (?1, ?2, ?3, ?4, unixepoch(), ?5)",
                params![table.id, table.game, options, table.seed as i64, table.client],
            )?;
            let number = tx.last_insert_rowid();
            for (i, seat) in table.seats.iter().enumerate() {
                tx.execute(
                    "INSERT INTO seats (table_id, seat, kind, name, token, code) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                    params![table.id, i as i64, seat.kind.to_string(), seat.name, seat.token, seat.code],
                )?;
            }
            tx.commit()?;
            Ok(number)
        })
    }

    /// Stores move number `ply` (0-based) of table `id`.
    pub fn add_move(&self, id: &str, ply: usize, text: &str) -> Result<(), StoreError> {
        self.with(|c| {
            c.execute(
                "INSERT INTO moves (table_id, ply, text) VALUES (?1, ?2, ?3)",
                params![id, ply as i64, text],
            )
            .map(drop)
        })
    }

    /// Records that `rematch` is the rematch of table `id`.
    pub fn set_rematch(&self, id: &str, rematch: &str) -> Result<(), StoreError> {
        self.with(|c| {
            c.execute(
                "UPDATE tables SET rematch = ?2 WHERE id = ?1",
                params![id, rematch],
            )
            .map(drop)
        })
    }

    /// Records how table `id` ended: `result` is `1-0`, `0-1` or `1/2-1/2` (for two players;
    /// `over` otherwise), `reason` the result in words.
    pub fn set_result(&self, id: &str, result: &str, reason: &str) -> Result<(), StoreError> {
        self.with(|c| {
            c.execute(
                "UPDATE tables SET result = ?2, reason = ?3 WHERE id = ?1",
                params![id, result, reason],
            )
            .map(drop)
        })
    }

    /// Every table in a few words, oldest first.
    pub fn summaries(&self) -> Result<Vec<Summary>, StoreError> {
        self.with(|c| {
            let mut s = c.prepare_cached(
                "SELECT t.id, t.rowid, t.game, t.options, t.seed, t.result, t.reason,
                        (SELECT COUNT(*) FROM moves m WHERE m.table_id = t.id),
                        (SELECT json_group_array(json_array(kind, name)) FROM
                            (SELECT kind, name FROM seats s WHERE s.table_id = t.id ORDER BY seat))
                 FROM tables t ORDER BY t.rowid",
            )?;
            let rows = s.query_map([], |r| {
                let options: String = r.get(3)?;
                let seats: String = r.get(8)?;
                Ok(Summary {
                    id: r.get(0)?,
                    number: r.get(1)?,
                    game: r.get(2)?,
                    options: serde_json::from_str(&options).unwrap_or_default(),
                    seed: r.get::<_, i64>(4)? as u64,
                    result: r.get(5)?,
                    reason: r.get(6)?,
                    ply: r.get::<_, i64>(7)? as usize,
                    seats: serde_json::from_str(&seats).unwrap_or_default(),
                })
            })?;
            rows.collect()
        })
    }

    /// The moves of table `id`, in order.
    pub fn moves(&self, id: &str) -> Result<Vec<String>, StoreError> {
        self.with(|c| {
            let mut s =
                c.prepare_cached("SELECT text FROM moves WHERE table_id = ?1 ORDER BY ply")?;
            let moves = s.query_map(params![id], |r| r.get(0))?.collect();
            moves
        })
    }

    /// Renames seat `seat` of table `id`.
    pub fn set_seat_name(&self, id: &str, seat: usize, name: &str) -> Result<(), StoreError> {
        self.with(|c| {
            c.execute(
                "UPDATE seats SET name = ?3 WHERE table_id = ?1 AND seat = ?2",
                params![id, seat as i64, name],
            )
            .map(drop)
        })
    }

    /// The table `id`, if there is one.
    pub fn table(&self, id: &str) -> Result<Option<TableRecord>, StoreError> {
        self.with(|c| {
            let head = c
                .query_row(
                    "SELECT rowid, game, options, seed, rematch, client FROM tables WHERE id = ?1",
                    params![id],
                    |r| {
                        Ok((
                            r.get::<_, i64>(0)?,
                            r.get::<_, String>(1)?,
                            r.get::<_, String>(2)?,
                            r.get::<_, i64>(3)?,
                            r.get::<_, Option<String>>(4)?,
                            r.get::<_, String>(5)?,
                        ))
                    },
                )
                .optional()?;
            let Some((number, game, options, seed, rematch, client)) = head else {
                return Ok(None);
            };
            let mut seats = c.prepare_cached(
                "SELECT kind, name, token, code FROM seats WHERE table_id = ?1 ORDER BY seat",
            )?;
            let seats = seats
                .query_map(params![id], |r| {
                    let kind: String = r.get(0)?;
                    Ok(Seat {
                        kind: kind.parse().unwrap_or(SeatKind::Human),
                        name: r.get(1)?,
                        token: r.get(2)?,
                        code: r.get(3)?,
                    })
                })?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            let mut moves =
                c.prepare_cached("SELECT text FROM moves WHERE table_id = ?1 ORDER BY ply")?;
            let moves = moves
                .query_map(params![id], |r| r.get::<_, String>(0))?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            Ok(Some(TableRecord {
                id: id.to_string(),
                number,
                game,
                options: serde_json::from_str(&options).unwrap_or_default(),
                seed: seed as u64,
                seats,
                moves,
                rematch,
                client,
            }))
        })
    }

    /// How many tables are still being played: all of them, and those `client` opened.
    pub fn open_tables(&self, client: &str) -> Result<(usize, usize), StoreError> {
        self.with(|c| {
            c.query_row(
                "SELECT COUNT(*), COUNT(*) FILTER (WHERE client = ?1) FROM tables WHERE result IS NULL",
                params![client],
                |r| Ok((r.get::<_, i64>(0)? as usize, r.get::<_, i64>(1)? as usize)),
            )
        })
    }

    /// Stores the uploaded variant `name` (replacing an earlier one of that name).
    pub fn add_variant(&self, name: &str, script: &str) -> Result<(), StoreError> {
        self.with(|c| {
            c.execute(
                "INSERT INTO variants (name, script, uploaded) VALUES (?1, ?2, unixepoch())
                 ON CONFLICT(name) DO UPDATE SET script = excluded.script, uploaded = excluded.uploaded",
                params![name, script],
            )
            .map(drop)
        })
    }

    /// Every uploaded variant: its name and script.
    pub fn variants(&self) -> Result<Vec<(String, String)>, StoreError> {
        self.with(|c| {
            let mut s = c.prepare_cached("SELECT name, script FROM variants ORDER BY name")?;
            let rows = s.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?.collect();
            rows
        })
    }

    /// The ids of every table, oldest first.
    pub fn table_ids(&self) -> Result<Vec<String>, StoreError> {
        self.with(|c| {
            let mut s = c.prepare_cached("SELECT id FROM tables ORDER BY rowid")?;
            let ids = s.query_map([], |r| r.get(0))?.collect();
            ids
        })
    }

    /// The table and seat whose join code is `code`.
    pub fn seat_by_code(&self, code: &str) -> Result<Option<(String, usize)>, StoreError> {
        self.with(|c| {
            c.query_row(
                "SELECT table_id, seat FROM seats WHERE code = ?1",
                params![code],
                |r| Ok((r.get(0)?, r.get::<_, i64>(1)? as usize)),
            )
            .optional()
        })
    }

    /// A setting, if set.
    pub fn setting(&self, key: &str) -> Result<Option<String>, StoreError> {
        self.with(|c| {
            c.query_row(
                "SELECT value FROM settings WHERE key = ?1",
                params![key],
                |r| r.get(0),
            )
            .optional()
        })
    }

    /// Sets a setting.
    pub fn set_setting(&self, key: &str, value: &str) -> Result<(), StoreError> {
        self.with(|c| {
            c.execute(
                "INSERT INTO settings (key, value) VALUES (?1, ?2)
                 ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                params![key, value],
            )
            .map(drop)
        })
    }
}

/// Applies the migrations the file has not had yet, each in its own transaction.
fn migrate(connection: &mut Connection) -> Result<(), StoreError> {
    let version: usize = connection
        .query_row("PRAGMA user_version", [], |r| r.get::<_, i64>(0))
        .map_err(fail)? as usize;
    if version > MIGRATIONS.len() {
        return Err(format!(
            "the data file was written by a newer boardrules (schema {version}, this one knows {}): \
             use that version, or another --data file",
            MIGRATIONS.len()
        ));
    }
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(version) {
        let tx = connection.transaction().map_err(fail)?;
        tx.execute_batch(sql).map_err(fail)?;
        tx.pragma_update(None, "user_version", (i + 1) as i64)
            .map_err(fail)?;
        tx.commit().map_err(fail)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(id: &str) -> TableRecord {
        TableRecord {
            id: id.into(),
            number: 0,
            game: "tic_tac_toe".into(),
            options: vec!["size=9".into()],
            seed: 7,
            seats: (0..2)
                .map(|i| Seat {
                    kind: SeatKind::Human,
                    name: format!("s{i}"),
                    token: format!("t{id}{i}"),
                    code: format!("c{id}{i}"),
                })
                .collect(),
            moves: Vec::new(),
            rematch: None,
            client: "127.0.0.1".into(),
        }
    }

    #[test]
    fn tables_and_moves_come_back_after_reopening() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("class.sqlite");
        {
            let store = Store::open(&path).unwrap();
            store.add_table(&record("a")).unwrap();
            store.add_move("a", 0, "5e").unwrap();
            store.add_move("a", 1, "4d").unwrap();
            assert!(
                store.add_move("a", 1, "4e").is_err(),
                "a ply is stored once"
            );
        }
        let store = Store::open(&path).unwrap();
        let table = store.table("a").unwrap().unwrap();
        assert_eq!(table.moves, ["5e", "4d"]);
        assert_eq!(table.options, ["size=9"]);
        assert_eq!(table.seats[1].code, "ca1");
        assert_eq!(store.seat_by_code("ca1").unwrap(), Some(("a".into(), 1)));
        assert_eq!(store.table_ids().unwrap(), ["a"]);
        store.set_result("a", "1-0", "X wins").unwrap();
        let summary = &store.summaries().unwrap()[0];
        assert_eq!((summary.ply, summary.result.as_deref()), (2, Some("1-0")));
        assert_eq!(summary.seats[1], ("human".to_string(), "s1".to_string()));
    }

    #[test]
    fn open_tables_are_counted_per_client_and_finished_ones_not_at_all() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("class.sqlite")).unwrap();
        for id in ["a", "b", "c"] {
            store.add_table(&record(id)).unwrap();
        }
        let mut other = record("d");
        other.client = "10.0.0.2".into();
        store.add_table(&other).unwrap();
        assert_eq!(store.open_tables("127.0.0.1").unwrap(), (4, 3));
        store.set_result("b", "1-0", "X wins").unwrap();
        assert_eq!(store.open_tables("127.0.0.1").unwrap(), (3, 2));
        assert_eq!(store.open_tables("10.0.0.2").unwrap(), (3, 1));
        assert_eq!(store.table("d").unwrap().unwrap().client, "10.0.0.2");
    }

    #[test]
    fn variants_are_kept_and_replaced_by_name() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("class.sqlite");
        {
            let store = Store::open(&path).unwrap();
            store.add_variant("v", "old").unwrap();
            store.add_variant("v", "new").unwrap();
        }
        let store = Store::open(&path).unwrap();
        assert_eq!(
            store.variants().unwrap(),
            [("v".to_string(), "new".to_string())]
        );
    }

    #[test]
    fn a_newer_schema_is_refused_with_a_message() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("class.sqlite");
        Connection::open(&path)
            .unwrap()
            .pragma_update(None, "user_version", 99)
            .unwrap();
        let e = Store::open(&path).err().unwrap();
        assert!(e.contains("newer boardrules"), "{e}");
    }
}
