// phrase_score(table, spec): an FTS5 auxiliary function that scores a row by where its phrases
// matched, so that a search reads ids and scores from the index alone and never a row's text.
//
// `spec` says, for each phrase of the MATCH expression in order, the group it belongs to and its
// weight in each column: "group w0 w1 … wN-1" per phrase, phrases separated by ';'. A group's
// score is the best weight among its phrases' matches in the row (0 when none); the row's score
// is the sum over groups, or 0 when some group has no match. (A search's term is a group; its
// whole word and its prefix are two phrases of it, weighted per column.)
//
// The spec is read once per query and kept with it (xSetAuxdata).

#include "CSQLiteFunctions.h"

#include <stdlib.h>
#include <string.h>

enum { MAX_GROUPS = 64 };

typedef struct {
    int phrases;
    int columns;
    int groups;
    int *group;    // [phrases]
    int *weight;   // [phrases * columns]
} Spec;

static void spec_free(void *pointer) {
    Spec *spec = pointer;
    if (!spec) return;
    free(spec->group);
    free(spec->weight);
    free(spec);
}

// Reads a non-negative decimal number at *text, moving past it and any spaces after; -1 when none.
static long read_number(const char **text) {
    const char *p = *text;
    while (*p == ' ') p++;
    if (*p < '0' || *p > '9') return -1;
    long value = 0;
    while (*p >= '0' && *p <= '9') {
        value = value * 10 + (*p - '0');
        if (value > 1000000) return -1;
        p++;
    }
    while (*p == ' ') p++;
    *text = p;
    return value;
}

// The spec of `text` for `phrases` phrases over `columns` columns, or NULL when it does not say
// exactly that.
static Spec *spec_parse(const char *text, int phrases, int columns) {
    Spec *spec = calloc(1, sizeof(Spec));
    if (!spec) return NULL;
    spec->phrases = phrases;
    spec->columns = columns;
    spec->group = calloc((size_t)(phrases > 0 ? phrases : 1), sizeof(int));
    spec->weight = calloc((size_t)(phrases * columns > 0 ? phrases * columns : 1), sizeof(int));
    if (!spec->group || !spec->weight) { spec_free(spec); return NULL; }
    const char *p = text;
    for (int phrase = 0; phrase < phrases; phrase++) {
        if (phrase > 0) {
            if (*p != ';') { spec_free(spec); return NULL; }
            p++;
        }
        long group = read_number(&p);
        if (group < 0 || group >= MAX_GROUPS) { spec_free(spec); return NULL; }
        spec->group[phrase] = (int)group;
        if ((int)group + 1 > spec->groups) spec->groups = (int)group + 1;
        for (int column = 0; column < columns; column++) {
            long weight = read_number(&p);
            if (weight < 0) { spec_free(spec); return NULL; }
            spec->weight[phrase * columns + column] = (int)weight;
        }
    }
    if (*p != '\0') { spec_free(spec); return NULL; }
    return spec;
}

static void phrase_score(const Fts5ExtensionApi *api, Fts5Context *fts, sqlite3_context *context,
                         int count, sqlite3_value **values) {
    Spec *spec = api->xGetAuxdata(fts, 0);
    if (!spec) {
        if (count != 1 || sqlite3_value_type(values[0]) != SQLITE_TEXT) {
            sqlite3_result_error(context, "phrase_score takes the table and one text: the phrases' groups and weights", -1);
            return;
        }
        spec = spec_parse((const char *)sqlite3_value_text(values[0]), api->xPhraseCount(fts), api->xColumnCount(fts));
        if (!spec) {
            sqlite3_result_error(context, "phrase_score: the spec does not give a group and a weight per column for each phrase", -1);
            return;
        }
        int code = api->xSetAuxdata(fts, spec, spec_free);
        if (code != SQLITE_OK) {
            sqlite3_result_error_code(context, code);
            return;
        }
    }
    int best[MAX_GROUPS] = {0};
    int instances = 0;
    int code = api->xInstCount(fts, &instances);
    if (code != SQLITE_OK) {
        sqlite3_result_error_code(context, code);
        return;
    }
    for (int i = 0; i < instances; i++) {
        int phrase = 0, column = 0, offset = 0;
        code = api->xInst(fts, i, &phrase, &column, &offset);
        if (code != SQLITE_OK) {
            sqlite3_result_error_code(context, code);
            return;
        }
        if (phrase < 0 || phrase >= spec->phrases || column < 0 || column >= spec->columns) continue;
        int weight = spec->weight[phrase * spec->columns + column];
        int group = spec->group[phrase];
        if (weight > best[group]) best[group] = weight;
    }
    sqlite3_int64 total = 0;
    for (int group = 0; group < spec->groups; group++) {
        if (best[group] == 0) {
            sqlite3_result_int64(context, 0);
            return;
        }
        total += best[group];
    }
    sqlite3_result_int64(context, total);
}

// FTS5's API of this connection, through the pointer-passing call FTS5 documents, or NULL.
static fts5_api *fts5_api_of(sqlite3 *db) {
    fts5_api *api = NULL;
    sqlite3_stmt *statement = NULL;
    if (sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &statement, NULL) == SQLITE_OK) {
        sqlite3_bind_pointer(statement, 1, (void *)&api, "fts5_api_ptr", NULL);
        sqlite3_step(statement);
    }
    sqlite3_finalize(statement);
    return api;
}

int photoscroll_sqlite_add_functions(sqlite3 *db) {
    fts5_api *api = fts5_api_of(db);
    if (!api || api->iVersion < 2) return SQLITE_ERROR;
    return api->xCreateFunction(api, "phrase_score", NULL, phrase_score, NULL);
}
