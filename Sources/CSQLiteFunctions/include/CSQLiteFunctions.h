#ifndef CSQLITEFUNCTIONS_H
#define CSQLITEFUNCTIONS_H

#include <sqlite3.h>

/// Adds our SQL functions to a connection: `phrase_score`, an FTS5 auxiliary function
/// (phrase_score.c). Returns an SQLite result code.
int photoscroll_sqlite_add_functions(sqlite3 *db);

#endif
