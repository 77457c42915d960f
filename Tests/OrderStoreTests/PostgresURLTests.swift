import OrderDomain
import Testing

@testable import OrderStore

/// PostgreSQL URLs as libpq reads them, host lists included.
@Suite("PostgreSQL URLs")
struct PostgresURLTests {
    @Test("Several hosts with their ports, an IPv6 host, escapes in the password and database, the query; the password never shown")
    func hostLists() throws {
        let url = try #require(PostgresURL("postgresql://ops:p%40ss%3Aword@db1:5433,[::1]:6432,db3/iap%20prod?target_session_attrs=read-write&sslmode=require"))
        #expect(url.hosts == [.init(name: "db1", port: 5433), .init(name: "::1", port: 6432), .init(name: "db3", port: 5432)])
        #expect(url.user == "ops" && url.password == "p@ss:word" && url.database == "iap prod")
        #expect(url.value("target_session_attrs") == "read-write" && url.value("sslmode") == "require")
        #expect(!url.redacted.contains("p@ss") && url.redacted.hasPrefix("postgres://ops:***@db1:5433,[::1]:6432,db3:5432/iap%20prod?"))
        #expect(StoreLocation("postgres://ops@db1,db2/iap?target_session_attrs=read-write").wantsPrimary)
        #expect(!StoreLocation("postgres://ops@db1,db2/iap").wantsPrimary)
        #expect(PostgresURL("postgres://db1/iap")?.hosts == [.init(name: "db1", port: 5432)] && PostgresURL("postgres://db1/iap")?.user == nil)
        for bad in ["postgres://", "postgres://@/db", "postgres://db1:port/db", "postgres://db1,,db2/db", "mysql://db1/db"] {
            #expect(PostgresURL(bad) == nil, "\(bad)")
        }
    }
}
