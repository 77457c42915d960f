/// A database driver's error that says what went wrong in the database's own words (its
/// message and SQLSTATE, never the values involved). OrderStore, which links the drivers,
/// gives their errors this; Presentation reads it without linking a driver.
public protocol DatabaseFailureText: Error {
    var databaseText: String { get }
}
