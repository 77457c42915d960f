import Foundation
import IAPDeskCLI
import OrderDomain
import OrderStore

/// The demo store SSH visitors start from (`iapdesk demo --build-template DIR`): seeded once,
/// with the live refund queue and the dead events already in place, then sealed read-only so
/// that each visitor's session copies it (`DemoSeat`) in milliseconds instead of seeding
/// 20,000 orders before the first frame.
enum DemoTemplate {
    static let storeFile = "store.sqlite"

    static func storePath(_ folder: String) -> String { folder + "/" + storeFile }

    /// The template's folder: new, or empty.
    static func prepare(_ folder: String) throws {
        let files = FileManager.default
        if files.fileExists(atPath: folder) {
            guard (try files.contentsOfDirectory(atPath: folder)).isEmpty else {
                throw CLIError("\(folder) is not empty: a template is built in a new folder (remove the old one first)")
            }
        } else {
            try files.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
    }

    /// Waits (30 s at most) until the refund requests the demo asks for are in the store,
    /// so that every copy opens with a live queue rather than receiving it later.
    static func settle(_ store: OrderStore) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline, try await store.reports.counts().openRefundRequests < 3 {
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// Read-only for everyone: the visitors' account reads it and cannot change it for the
    /// next visitor. It holds demo data and the simulator's throwaway keys, nothing secret.
    static func seal(_ folder: String) throws {
        try setModes(folder, files: 0o444, folders: 0o555)
    }

    /// Gives every file and folder under `folder` (itself included) the mode its kind gets.
    static func setModes(_ folder: String, files: Int, folders: Int) throws {
        let manager = FileManager.default
        for name in try manager.subpathsOfDirectory(atPath: folder) {
            let path = folder + "/" + name
            var isFolder: ObjCBool = false
            _ = manager.fileExists(atPath: path, isDirectory: &isFolder)
            try manager.setAttributes([.posixPermissions: isFolder.boolValue ? folders : files], ofItemAtPath: path)
        }
        try manager.setAttributes([.posixPermissions: folders], ofItemAtPath: folder)
    }

    /// The visitor is an admin of their own copy: added by the template's builder, its first
    /// admin (the visitors' account is another one). Only `demo-session` starts a visit, on
    /// a copy it has just made.
    static func admitVisitor(_ store: OrderStore) async throws {
        let visitor = OperatorIdentity.current
        guard try await store.operators.role(of: visitor) != .admin else { return }
        guard let builder = try await store.operators.list().first(where: { $0.role == .admin }) else {
            return try await store.operators.add(name: visitor, role: .admin, by: Operator(name: visitor, role: .admin))
        }
        try await store.operators.add(name: visitor, role: .admin, by: Operator(name: builder.name, role: .admin))
    }

    /// What the help screen says to a visitor instead of the loopback URLs they cannot reach.
    static let visitorNotes: [(String, String)] = [
        ("demo", "a store of your own, with a simulated App Store and game; deleted when you leave"),
        ("try", "g grants a stuck order, :refunds answers Apple, :undelivered resends to the game"),
        ("tickets", "the players demo_ticket_mk, demo_commit and demo_refund_period wrote in: :account ID shows their ticket"),
    ]

    /// A visitor's console ends with its `demo-session`: if that supervisor is killed, the
    /// console is orphaned with nobody to give its seat back, so it ends itself.
    static func endWithParent() {
        let parent = getppid()
        Thread.detachNewThread {
            while getppid() == parent { sleep(1) }
            exit(1)
        }
    }
}
