import Testing

/// The suites that act on Apple's side (refund requests, extensions, the refund policy,
/// Apple's send record), each test with a `serve` and a simulator of its own on both
/// backends. They run one at a time: twenty such servers at once on 2 cores starved the
/// suite's timing tests (a `?wait=` verdict, an answer within a restart's deadline).
@Suite("Acting on Apple's side", .serialized)
enum AppleSide {}
