#include <sqlite3.h>

/// `sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, 0)`, which Swift cannot call (it is
/// variadic): closing the last connection to the database then leaves its WAL as it is, instead of
/// checkpointing it (which syncs the WAL and the database file) and removing it.
static inline int imgcache_sqlite3_keep_wal_on_close(sqlite3 *db) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)0);
}
