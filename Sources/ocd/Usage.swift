/// What `ocd help` prints.
enum Usage {
    static let text = """
        ocd: read and watch an OpenCoreData store (SQLite or PostgreSQL), without the app that made it;
        write the classes of a Core Data model file.

        usage:
          ocd info    STORE [--json]
          ocd fetch   STORE --entity E [--predicate P] [--sort "k1,k2 desc"] [--limit N] [--json]
          ocd history STORE [--after TOKEN] [--json]
          ocd watch   STORE --entity E --sort "k1,k2 desc" [--predicate P] [--section KEY] [--json]
          ocd generate MODEL --output DIR
          ocd help

        info     the store's entities and their object counts, its history, its model's hash
        fetch    the objects of an entity (and its subentities) matching a predicate, in order
        history  the store's committed transactions and their changes, after a token if given
        watch    a fetched results controller on the store: prints its contents' sections, then
                 each change batch as it arrives (saves of this store by any program), until
                 interrupted; with --json, one JSON object per line: "ready" first, then
                 "changes" per batch
        generate the ManagedObject subclasses of a model file's entities, as Xcode's code
                 generation writes them: for an entity whose Codegen is Class Definition, NAME+
                 CoreDataClass.swift and NAME+CoreDataProperties.swift; for Category/Extension,
                 the properties file only; for Manual/None, nothing

        STORE        the path of the store's SQLite file, or its postgres:// URL (an ocd built with
                     the Postgres trait); it is opened read-only
        --entity     an entity of the store ('ocd info' lists them)
        --predicate  a predicate in Core Data's format: "wins > 3 AND teamName BEGINSWITH 'B'"
        --sort       comma-separated keys, each optionally followed by asc or desc
        --limit      at most this many objects
        --after      a token printed by 'ocd history' (STORE-ID:NUMBER), or a transaction number
        --section    the key path of the section names; sort by it first
        MODEL        an .xcdatamodeld (its current version) or one .xcdatamodel
        --output     the directory generated files are written to (made if missing)
        --json       JSON output: one document; for watch, one line per event

        exit status: 0 on success, 64 for a wrong command line, 1 when the store cannot be
        opened or read, or the model file read or its classes written.
        """
}
