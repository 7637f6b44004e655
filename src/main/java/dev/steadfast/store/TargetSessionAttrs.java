package dev.steadfast.store;

/** Which of several listed database hosts a new connection goes to (steadfast.database.target-session-attrs). */
enum TargetSessionAttrs {
    /** In turn, whatever each host is (Quarkus' own behaviour with several URLs). */
    ANY,
    /** The first host, from the last one found, whose sessions accept writes: the primary. */
    READ_WRITE
}
