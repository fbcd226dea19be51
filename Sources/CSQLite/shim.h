#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift cannot import.
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }

// sqlite3_db_config is variadic, which Swift cannot call. Each wrapper sets one on/off option
// and returns SQLite's result code; `applied` receives the value SQLite reports back, so a
// caller can tell an option this SQLite ignores from one it took.
static inline int csqlite_db_config_flag(sqlite3 *db, int option, int value, int *applied) {
    return sqlite3_db_config(db, option, value, applied);
}
