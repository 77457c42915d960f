// swift-tools-version:6.1
import PackageDescription

// Layering (the Architecture article): the executables sit on IAPDeskApp, which adds the
// demo's commands to IAPDeskCLI's; IAPDeskCLI sits on Console, Server, Presentation,
// OrderStore, AppStore (over Receipts), GooglePlay and Terminal, and links no simulator.
// AppStoreSimulator, GooglePlaySimulator and ReferenceGame stand in for Apple, Google and a
// game, for IAPDeskApp's demo and the tests.
let package = Package(
    name: "iapdesk",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "iapdesk", targets: ["iapdesk"]),
        .executable(name: "iapdesk-bench", targets: ["iapdesk-bench"]),
        .library(name: "OrderStore", targets: ["OrderStore"]),
        .library(name: "Receipts", targets: ["Receipts"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/vapor/sql-kit", from: "3.36.0"),
        .package(url: "https://github.com/vapor/sqlite-kit", from: "4.5.2"),
        .package(url: "https://github.com/vapor/postgres-kit", from: "2.17.0"),
        // Already under sqlite-kit and postgres-kit; named because OrderStore uses their types
        // (connection sources, error codes, TLS for PostgreSQL).
        .package(url: "https://github.com/vapor/sqlite-nio.git", from: "1.13.2"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // Already under hummingbird and async-http-client; named for their types (HTTPField, Channel).
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // Already under hummingbird; named for `serve`'s graceful stop on SIGTERM.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    ],
    targets: [
        // OrderDomain: orders, purchases and the rules (R1–R11) as values and pure functions;
        // no database, no network. Everything above imports it; OrderStore keeps it.
        .target(name: "OrderDomain", dependencies: [.product(name: "Crypto", package: "swift-crypto")]),
        .target(
            name: "OrderStore",
            dependencies: [
                "OrderDomain",
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "SQLiteKit", package: "sqlite-kit"),
                .product(name: "PostgresKit", package: "postgres-kit"),
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // SyntheticData: the demo's game and deterministic synthetic history, written through
        // the store's bulk load (an SPI), so it is not part of OrderStore's public library.
        .target(name: "SyntheticData", dependencies: ["OrderDomain", "OrderStore"]),
        // Receipts: Apple's data formats and signatures; knows nothing of storage or HTTP.
        .target(
            name: "Receipts",
            dependencies: [
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // StoreHTTP: calls to a store's endpoints with one deadline each, answers never thrown.
        .target(
            name: "StoreHTTP",
            dependencies: [
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        // AppStore: the clients for Apple (verifyReceipt, App Store Server API) behind the
        // domain's `ReceiptVerifier` and `AppleActions`; no store, no database driver.
        .target(
            name: "AppStore",
            dependencies: [
                "OrderDomain", "Receipts", "StoreHTTP",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // GooglePlay: the client for the Google Play Developer API (a service account's
        // OAuth, androidpublisher v3) behind the domain's `ReceiptVerifier` and `PlayActions`, and the checks of
        // real-time developer notifications pushed by Cloud Pub/Sub.
        .target(
            name: "GooglePlay",
            dependencies: [
                "OrderDomain", "StoreHTTP", "WebTokens",
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),
        // SimulatorFaults: what the store simulators share: what can go wrong between iapdesk and
        // a store, as they play it, and serving their routes on loopback.
        .target(
            name: "SimulatorFaults",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"), .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]),
        // WebTokens: RS256 JSON Web Tokens (Google's service accounts and push tokens).
        .target(
            name: "WebTokens",
            dependencies: [.product(name: "Crypto", package: "swift-crypto"), .product(name: "_CryptoExtras", package: "swift-crypto")]),
        // GooglePlaySimulator: a stand-in for Google Play on loopback: OAuth, androidpublisher
        // v3, real-time developer notifications pushed with signed tokens.
        .target(
            name: "GooglePlaySimulator",
            dependencies: [
                "SimulatorFaults", "WebTokens",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),
        // AppStoreSimulator: a stand-in for Apple on loopback with its own certificate authority.
        .target(
            name: "AppStoreSimulator",
            dependencies: [
                "Receipts", "SimulatorFaults",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // ReferenceGame: what a game server does with iapdesk's events (signature check,
        // idempotent apply, a fault switch), for the demo and the tests.
        .target(
            name: "ReferenceGame",
            dependencies: [
                "SimulatorFaults",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // CNcurses: ncursesw with the wide-character API and accessors Swift 6 can call.
        .systemLibrary(name: "CNcurses", providers: [.apt(["libncurses-dev"])]),
        // SafeText: text from data made safe for a terminal, and its width in cells; no
        // dependencies, so `serve` sanitizes what it answers without linking ncurses.
        .target(name: "SafeText"),
        // Terminal: cells, styles, keys and the ncurses driver; knows nothing of orders.
        .target(name: "Terminal", dependencies: ["CNcurses", "SafeText"]),
        // ConfigFiles: TOML files read with errors that name the file, line and key.
        .target(name: "ConfigFiles", dependencies: [.product(name: "TOMLKit", package: "TOMLKit")]),
        // Presentation: what the console and the command line print, said once, over OrderDomain (no database driver)
        // (and Receipts, whose decoded documents the receipt page shows).
        .target(name: "Presentation", dependencies: ["OrderDomain", "Receipts"]),
        // Console: the operator's screens, key map, dialogs and themes, over OrderStore.
        .target(name: "Console", dependencies: ["OrderDomain", "OrderStore", "Presentation", "Receipts", "Terminal", "SafeText", "ConfigFiles"]),
        // Server: `iapdesk serve`, the intake API for game servers and the worker, over OrderStore.
        .target(
            name: "Server",
            dependencies: [
                "OrderDomain", "OrderStore", "Receipts", "AppStore", "GooglePlay", "StoreHTTP", "SafeText", "Presentation",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            resources: [.embedInCode("Intake/openapi.yaml")]
        ),
        .target(
            name: "IAPDeskCLI",
            dependencies: [
                "OrderDomain", "OrderStore", "Presentation", "Receipts", "AppStore", "Terminal", "SafeText", "Console", "ConfigFiles", "Server", "GooglePlay",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // IAPDeskApp: the `iapdesk` command as shipped, IAPDeskCLI's commands and the demo's
        // (the simulators, the reference game, synthetic history, the SSH demo host).
        .target(
            name: "IAPDeskApp",
            dependencies: [
                "IAPDeskCLI", "OrderDomain", "OrderStore", "SyntheticData", "Presentation", "Receipts", "AppStore", "AppStoreSimulator", "Terminal", "SafeText",
                "Console", "ConfigFiles", "Server", "ReferenceGame", "GooglePlay", "GooglePlaySimulator",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(name: "iapdesk", dependencies: ["IAPDeskApp"]),
        .executableTarget(
            name: "iapdesk-bench",
            dependencies: [
                "OrderDomain", "OrderStore", "SyntheticData", "Receipts", "AppStore", "AppStoreSimulator", "IAPDeskApp", "Terminal", "Server", "ReferenceGame",
                "GooglePlay", "GooglePlaySimulator",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "SQLiteKit", package: "sqlite-kit"),
                .product(name: "PostgresKit", package: "postgres-kit"),
            ]
        ),
        // TestSupport: what every suite sets up, said once: temporary stores on both backends
        // (with a throwaway PostgreSQL server) and the test catalogue, the App Store simulator
        // harness and trust roots, the drivers (console keys, tmux, a `serve` process), the
        // fixtures and snapshots, and what a test needs from the machine (skipped with its
        // reason, never in CI).
        .target(
            name: "TestSupport",
            dependencies: [
                "OrderDomain", "OrderStore", "SyntheticData", "Receipts", "AppStore", "AppStoreSimulator", "GooglePlaySimulator", "Console", "Terminal",
                "Presentation", .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "X509", package: "swift-certificates"),
            ],
            path: "Tests/TestSupport"),
        .testTarget(name: "OrderStoreTests", dependencies: ["OrderDomain", "OrderStore", "SyntheticData", "TestSupport"]),
        .testTarget(name: "ReceiptsTests", dependencies: ["Receipts", "TestSupport"]),
        .testTarget(name: "AppStoreSimulatorTests", dependencies: ["AppStoreSimulator", "Receipts"]),
        .testTarget(
            name: "AppStoreTests",
            dependencies: [
                "AppStore", "AppStoreSimulator", "OrderDomain", "OrderStore", "SyntheticData", "Receipts", "TestSupport", "StoreHTTP",
                .product(name: "X509", package: "swift-certificates"), .product(name: "Crypto", package: "swift-crypto"),
            ],
            exclude: ["AppleLibrary"]),  // Python run by the tests, read from the source tree
        .testTarget(name: "TerminalTests", dependencies: ["Terminal", "SafeText"]),
        .testTarget(
            name: "GooglePlayTests",
            dependencies: ["GooglePlaySimulator", "WebTokens", "TestSupport"],
            exclude: ["GoogleLibrary"]),  // Python run by the tests, read from the source tree
        .testTarget(
            name: "PresentationTests",
            dependencies: ["Presentation", "OrderDomain", "OrderStore", "Receipts", .product(name: "NIOCore", package: "swift-nio")]),
        .testTarget(
            name: "ConsoleTests",
            dependencies: [
                "Console", "Terminal", "SafeText", "ConfigFiles", "OrderDomain", "OrderStore", "Presentation", "SyntheticData", "Receipts", "AppStore",
                "AppStoreSimulator", "TestSupport",
            ],
            // The screen snapshots the snapshot test reads from the source tree.
            exclude: ["Snapshots"]),
        .testTarget(
            name: "IAPDeskCLITests",
            dependencies: [
                "IAPDeskCLI", "IAPDeskApp", "OrderDomain", "OrderStore", "Presentation", "SyntheticData", "Receipts", "AppStoreSimulator",
                "GooglePlaySimulator",
                "GooglePlay",
                "ConfigFiles",
                "TestSupport", "ReferenceGame",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            // Text files the --help snapshot test reads from the source tree.
            exclude: ["Snapshots"]),
        .testTarget(
            name: "ServerTests",
            dependencies: [
                "Server", "OrderDomain", "OrderStore", "SyntheticData", "AppStore", "AppStoreSimulator", "TestSupport", "ReferenceGame", "Presentation",
                "Console",
                "GooglePlay", "GooglePlaySimulator", "StoreHTTP",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
