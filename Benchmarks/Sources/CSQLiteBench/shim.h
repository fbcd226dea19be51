#include <sqlite3.h>

// SQLITE_TRANSIENT casts -1 to a function pointer, which Swift cannot import as a constant.
static inline sqlite3_destructor_type csqlitebench_transient(void) { return SQLITE_TRANSIENT; }
