//! The collection's tables, one migration per schema version. A database
//! at version `k` has had the first `k` migrations applied, in order, in one
//! transaction each; `PRAGMA user_version` says which. Never edit a shipped
//! migration: add the next one.

/// Migration `i` takes a database from version `i` to `i + 1`.
pub const MIGRATIONS: &[&str] = &[
    // 1: scans, counts, grades, enrolments, history.
    r"
    -- Every command that changes the collection (a scan batch, an add, an
    -- import) is one batch; undo marks the last one undone.
    CREATE TABLE batches(
        id INTEGER PRIMARY KEY,
        at INTEGER NOT NULL,               -- seconds since 1970, UTC
        command TEXT NOT NULL,             -- what the user ran
        undone INTEGER NOT NULL DEFAULT 0
    );
    -- Cards seen: the whole card for those not in the card set (custom QR
    -- cards, wild Digimon), so a barcode is the same card forever.
    CREATE TABLE cards(
        number TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        data TEXT                          -- the card in RON, or NULL
    );
    -- Every change of an owned count: a scan, a typed add or remove, an
    -- import row, a fix. `delta` is what it did to the count (0: a re-scan
    -- of the same file, or a removal of a card not owned).
    CREATE TABLE scans(
        id INTEGER PRIMARY KEY,
        batch INTEGER NOT NULL REFERENCES batches(id),
        card TEXT NOT NULL,
        delta INTEGER NOT NULL,
        origin TEXT NOT NULL,              -- file, camera, typed, import, fix
        place TEXT,                        -- the file's path, the camera
        format TEXT,                       -- the barcode's symbology
        code TEXT,                         -- the barcode's text
        digest TEXT,                       -- the file's content (re-scans)
        fixes INTEGER REFERENCES scans(id) -- the scan a fix corrects
    );
    -- Covers the owned counts: a card's rows and their deltas, in one index.
    CREATE INDEX scans_card ON scans(card, batch, delta);
    CREATE INDEX scans_batch ON scans(batch);
    CREATE INDEX scans_digest ON scans(digest) WHERE digest IS NOT NULL;
    -- The condition and note of one copy (1 = the first), latest wins.
    CREATE TABLE grades(
        id INTEGER PRIMARY KEY,
        batch INTEGER NOT NULL REFERENCES batches(id),
        card TEXT NOT NULL,
        copy INTEGER NOT NULL,
        condition TEXT NOT NULL,
        note TEXT NOT NULL
    );
    -- Barcodes bound to cards (`bterm enroll`), latest wins.
    CREATE TABLE enrolments(
        id INTEGER PRIMARY KEY,
        batch INTEGER NOT NULL REFERENCES batches(id),
        format TEXT NOT NULL,
        code TEXT NOT NULL,
        card TEXT NOT NULL
    );
    CREATE INDEX enrolments_code ON enrolments(format, code);
    CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
    ",
    // 2: battles for the rankings.
    r"
    CREATE TABLE battles(
        id INTEGER PRIMARY KEY,
        at INTEGER NOT NULL,
        ruleset TEXT NOT NULL,             -- terminal, alpha
        place TEXT NOT NULL,               -- cli, arena
        seed INTEGER NOT NULL,
        winner INTEGER,                    -- the winning seat (0 = P1), NULL: a draw
        rounds INTEGER NOT NULL
    );
    CREATE TABLE battle_seats(
        battle INTEGER NOT NULL REFERENCES battles(id),
        seat INTEGER NOT NULL,
        cpu INTEGER NOT NULL,              -- 0: a person
        team TEXT NOT NULL,                -- card numbers, space-separated
        points INTEGER NOT NULL,
        PRIMARY KEY(battle, seat)
    );
    CREATE TABLE battle_cards(
        battle INTEGER NOT NULL REFERENCES battles(id),
        seat INTEGER NOT NULL,
        card TEXT NOT NULL,
        won INTEGER NOT NULL
    );
    CREATE INDEX battle_cards_card ON battle_cards(card);
    ",
];
