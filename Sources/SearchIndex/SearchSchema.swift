import SQL

/// The search index's schema history, applied in order on SQLite and PostgreSQL alike. Append
/// steps; never edit one that has shipped.
///
/// Both engines hold a photo's words per field as the `Search` module folded them (so neither
/// folds on its own). SQLite keeps them in an FTS5 table, one column per field, its row id the
/// photo's id. PostgreSQL keeps one `tsvector` of every word tagged with its field's letter
/// (`SQLSearchIndex.tag`), made with `array_to_tsvector` so no parser splits or changes a word,
/// under a GIN index (the per-field text columns of its first step are no longer written), and
/// postings of each word (`SearchPostings`) that its queries read. Both
/// keep one number, `search_generation`, that every write of the index moves (`SQLSearchIndex`'s
/// kept answers hold while it has not).
public enum SearchSchema {
    public static let schema = SQLSchema(name: "search", migrations: [
        SQLMigration(version: 1, name: "search words per photo",
                     sqlite: """
                        CREATE VIRTUAL TABLE search_photos USING fts5(
                            place, date, camera, comment, name, album,
                            tokenize = "unicode61 remove_diacritics 2", prefix = '2 3'
                        );
                        """,
                     postgres: """
                        CREATE TABLE search_photos (
                            photo_id BIGINT PRIMARY KEY,
                            place TEXT NOT NULL,
                            date TEXT NOT NULL,
                            camera TEXT NOT NULL,
                            comment TEXT NOT NULL,
                            name TEXT NOT NULL,
                            album TEXT NOT NULL,
                            words tsvector NOT NULL
                        );
                        CREATE INDEX search_photos_words ON search_photos USING GIN (words);
                        """),
        // One number moved by every write of the index, in the write's transaction: a process
        // keeps its answers while it has not moved (`SearchScoreCache`), whoever wrote.
        SQLMigration(version: 2, name: "search generation",
                     sqlite: """
                        CREATE TABLE search_generation (n INTEGER NOT NULL);
                        INSERT INTO search_generation (n) VALUES (0);
                        """,
                     postgres: """
                        CREATE TABLE search_generation (n BIGINT NOT NULL);
                        INSERT INTO search_generation (n) VALUES (0);
                        """),
        // PostgreSQL reads every matching row to score it: with the six text columns, which no
        // query reads, after its words rather than before, and no longer written, 100,000 photos'
        // rows take 22 MB where they took 33, and a one-word query matching a fifth of them cost
        // its backend 10 to 20% less CPU in two runs. The columns stay, empty, for a replica of
        // an earlier build still writing them during a rolling update. The rows are copied, not
        // written again from the catalog, so searches answer through the upgrade.
        SQLMigration(version: 3, name: "search words first",
                     sqlite: "",
                     postgres: """
                        CREATE TABLE search_words (
                            photo_id BIGINT PRIMARY KEY,
                            words tsvector NOT NULL,
                            place TEXT, date TEXT, camera TEXT, comment TEXT, name TEXT, album TEXT
                        );
                        INSERT INTO search_words (photo_id, words) SELECT photo_id, words FROM search_photos ORDER BY photo_id;
                        DROP TABLE search_photos;
                        ALTER TABLE search_words RENAME TO search_photos;
                        ALTER INDEX search_words_pkey RENAME TO search_photos_pkey;
                        CREATE INDEX search_photos_words ON search_photos USING GIN (words);
                        """),
        // PostgreSQL's postings (`SearchPostings`): per field-tagged word and chunk of 4,096 ids,
        // the photos holding it, kept by the index's writers beside the words, so that a query
        // reads a few rows per word where the GIN index had it visit every match's row. Built
        // here from the words already written, so an upgraded library searches through them at
        // once; under the generation's lock, which every writer takes first, so none writes
        // words meanwhile. `search_postings_built` is the generation the postings were last made
        // whole at: a writer that finds it one behind its own generation keeps them and moves it
        // along; a replica of an earlier build writes words alone, leaving it behind, and then
        // searches read the words (`SQLSearchIndex.scores`) until the postings are built again
        // (`SQLSearchIndex.rebuildPostingsIfBehind`).
        SQLMigration(version: 4, name: "search postings",
                     sqlite: "",
                     postgres: """
                        CREATE TABLE search_postings (
                            term TEXT COLLATE "C" NOT NULL,
                            chunk INTEGER NOT NULL,
                            ids BYTEA NOT NULL,
                            PRIMARY KEY (term, chunk)
                        );
                        CREATE TABLE search_postings_built (n BIGINT NOT NULL);
                        SELECT n FROM search_generation FOR UPDATE;
                        \(SearchPostings.buildFromWords);
                        INSERT INTO search_postings_built (n) SELECT n FROM search_generation;
                        """),
    ])

    /// The version this build brings a database to.
    public static var latestVersion: Int { schema.latestVersion }
}
