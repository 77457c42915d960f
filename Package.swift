// swift-tools-version:6.1
import PackageDescription

// Layering (DESIGN.md §1): the executables sit on IAPDeskCLI, which sits on OrderStore and
// Terminal, and Receipts; AppStoreSimulator stands in for Apple. AppStore and Console join as
// their issues land.
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
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
    ],
    targets: [
        .target(
            name: "OrderStore",
            dependencies: [
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "SQLiteKit", package: "sqlite-kit"),
                .product(name: "PostgresKit", package: "postgres-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // Receipts: Apple's data formats and signatures; knows nothing of storage or HTTP.
        .target(
            name: "Receipts",
            dependencies: [
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // AppStoreSimulator: a stand-in for Apple with its own certificate authority.
        .target(
            name: "AppStoreSimulator",
            dependencies: [
                "Receipts",
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // Terminal: text safety and layout for screens; the ncurses driver joins with the console.
        .target(name: "Terminal"),
        .target(
            name: "IAPDeskCLI",
            dependencies: [
                "OrderStore", "Receipts", "Terminal",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "TOMLKit", package: "TOMLKit"),
            ]
        ),
        .executableTarget(name: "iapdesk", dependencies: ["IAPDeskCLI"]),
        .executableTarget(
            name: "iapdesk-bench",
            dependencies: [
                "OrderStore", "Receipts", "IAPDeskCLI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "OrderStoreTests", dependencies: ["OrderStore"]),
        .testTarget(name: "ReceiptsTests", dependencies: ["Receipts"]),
        .testTarget(name: "AppStoreSimulatorTests", dependencies: ["AppStoreSimulator", "Receipts"]),
        .testTarget(name: "TerminalTests", dependencies: ["Terminal"]),
        .testTarget(name: "IAPDeskCLITests", dependencies: ["IAPDeskCLI", "OrderStore", "Receipts"]),
    ],
    swiftLanguageModes: [.v6]
)
